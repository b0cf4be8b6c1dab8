"""What a view can be asked for, checked once before any graph is read (no heavy imports: the CLI uses it)."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from paperkg.core.errors import ExitCode, PaperkgError
from paperkg.core.schema import DEFAULT_MIN_CONFIDENCE, ENTITY_LABELS, RELATION_FLOOR, NodeLabel

MAP_FILE, PAPERS_FILE, LEADERBOARD_FILE = "graph.html", "papers.html", "leaderboard.html"
# Without --max-nodes, the map keeps the entities in the most papers up to this: on a screen, more make a
# hairball whose clusters run into each other and whose names cover one another.
FOLD_ABOVE = 500


class SizeBy(str, Enum):
    """Entity size in the map: papers, degree or PageRank."""

    PAPERS = "papers"
    DEGREE = "degree"
    PAGERANK = "pagerank"


class ColourBy(str, Enum):
    """Node colour in the views: by type, Louvain community, or mean publication year."""

    TYPE = "type"
    COMMUNITY = "community"
    YEAR = "year"


SIZE_METRICS = tuple(metric.value for metric in SizeBy)
COLOUR_SCHEMES = tuple(scheme.value for scheme in ColourBy)
# the map draws a typed relation at least this sure unless the user sets another (--min-confidence)
MIN_RELATION_CONFIDENCE = DEFAULT_MIN_CONFIDENCE
ENTITY_TYPES = tuple(label.value for label in ENTITY_LABELS)
# Without --min-papers, the map keeps only entities in at least this many papers (one or two papers place an
# entity in no cluster but their own), unless fewer than half of FOLD_ABOVE are: a small input draws them all.
DEFAULT_MIN_PAPERS = 3
# Without --type, the views' types: Metrics ("accuracy", "F1 score") share papers with nearly every entity, so
# they pull every cluster into one and characterise no part of a field; `--type` with all four draws them.
DEFAULT_TYPES = tuple(label.value for label in ENTITY_LABELS if label is not NodeLabel.METRIC)


def canonical_choice(value: str, choices: Iterable[str]) -> str:
    """`value` spelled as the choice it names in any case ('method' -> 'Method'); unchanged when none."""
    return next((choice for choice in choices if choice.casefold() == value.strip().casefold()), value)
YEAR_MIN_PAPERS = 3         # the year overlay colours only entities in at least this many papers (the legend says so)
HUB_DEGREE = 50             # --hub-degree: a focus view reaches entities with more neighbours, not through them
FOCUS_MAX_NODES = 150       # without --max-nodes, a focus view keeps this many, ranked by personalised PageRank


@dataclass(frozen=True)
class ViewOptions:
    """Every option of a view, spelled canonically and checked once, when made (build and `paperkg view`
    make one; the views only read it). `max_nodes` None: the default fold (FOLD_ABOVE, or with a focus
    FOCUS_MAX_NODES); `depth` and `hub_degree` are read by focus views only."""

    size_by: str = SizeBy.PAPERS.value
    colour_by: str = ColourBy.COMMUNITY.value  # the clusters show a field's structure; their legend names them
    types: tuple[str, ...] = ()
    min_papers: int | None = None  # None: DEFAULT_MIN_PAPERS or 1 (viz/views.py, map_min_papers)
    max_nodes: int | None = None
    title: str | None = None  # None: the command names the page after its input
    depth: int = 2
    hub_degree: int = HUB_DEGREE
    min_confidence: float = MIN_RELATION_CONFIDENCE  # typed relations drawn at first (the page's slider moves it)

    def __post_init__(self) -> None:
        canonical = {"size_by": canonical_choice(self.size_by, SIZE_METRICS),
                     "colour_by": canonical_choice(self.colour_by, COLOUR_SCHEMES),
                     "types": tuple(canonical_choice(name, ENTITY_TYPES) for name in self.types)}
        for name, value in canonical.items():
            object.__setattr__(self, name, value)
        check_options(self.size_by, self.colour_by, self.types)
        check_limits(depth=self.depth, min_papers=1 if self.min_papers is None else self.min_papers,
                     max_nodes=self.max_nodes, hub_degree=self.hub_degree)
        check_min_confidence(self.min_confidence)


    @property
    def drawn_types(self) -> tuple[str, ...]:
        """The entity types the views draw: those asked for, else DEFAULT_TYPES."""
        return self.types or DEFAULT_TYPES

    @property
    def heading(self) -> str:
        """The page title: the one given, else paperkg's name."""
        return self.title or "paperkg"


def check_options(size_by: str, colour_by: str, types: Iterable[str] | None = None) -> None:
    """Usage errors for a size metric, colour scheme or entity type the views do not know."""
    unknown = sorted(set(types or ()) - set(ENTITY_TYPES))
    if unknown:
        raise PaperkgError(f"--type must be among {', '.join(ENTITY_TYPES)}, not {', '.join(unknown)}.",
                           ExitCode.USAGE)
    for option, value, allowed in (("--size-by", size_by, SIZE_METRICS), ("--colour-by", colour_by, COLOUR_SCHEMES)):
        if value not in allowed:
            raise PaperkgError(f"{option} must be one of {', '.join(allowed)}, not {value!r}.", ExitCode.USAGE)


def check_limits(*, depth: int = 0, min_papers: int = 1, max_nodes: int | None = None,
                 hub_degree: int = HUB_DEGREE) -> None:
    """Usage errors for numbers a view cannot use: a negative depth or hub degree, fewer than one paper or node."""
    if depth < 0:
        raise PaperkgError(f"--depth must be 0 or more, not {depth}.", ExitCode.USAGE)
    if hub_degree < 0:
        raise PaperkgError(f"--hub-degree must be 0 (no limit) or more, not {hub_degree}.", ExitCode.USAGE)
    if min_papers < 1:
        raise PaperkgError(f"--min-papers must be 1 or more, not {min_papers}.", ExitCode.USAGE)
    if max_nodes is not None and max_nodes < 1:
        raise PaperkgError(f"--max-nodes must be 1 or more, not {max_nodes}.", ExitCode.USAGE)


def check_min_confidence(value: float) -> None:
    """A usage error for a confidence threshold outside 0 to 1 (below the graph's floor: every typed edge)."""
    if not 0 <= value <= 1:
        raise PaperkgError(f"--min-confidence must be between 0 and 1 (the graph keeps typed edges from "
                           f"{RELATION_FLOOR}), not {value}.", ExitCode.USAGE)


DEFAULT_VIEW = ViewOptions()
