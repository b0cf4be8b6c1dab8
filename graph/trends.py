"""The field over time: per entity and year its papers and their share of the year's papers, the year it
was first seen (with the papers and sentences that brought it in), its bursts, and the steepest
risers and fallers over a window of years.

Shares are against each year's paper count, so a growing field does not read as growing entities.
Bursts are Kleinberg's two-state automaton over the yearly counts against the year totals, with
CiteSpace's defaults (bursts.py). Rising and fading is the least-squares slope of the yearly share
over the window (percentage points a year), for entities in at least `min_papers` papers there.
Everything is computed from `Occurrences` (which papers, of which year, name which entities), read
from a NetworkX graph here or streamed from graph.json by trends_file.py.
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from paperkg.core.schema import PAPER_REL_TYPES, NodeLabel

from .bursts import GAMMA, STATE_RATIO, detect_bursts

if TYPE_CHECKING:  # `paperkg trends` reads graph.json without NetworkX (trends_file.py)
    import networkx as nx

WINDOW = 5            # years over which risers and fallers are measured (the last ones of the range)
MIN_PAPERS = 3        # papers an entity needs in the window to be ranked as rising or fading
FIRST_PAPERS = 3      # papers kept from an entity's first year
BURST_PAPERS = 5      # papers kept from a burst's first year
_RELATIONS = {rel.value for rel in PAPER_REL_TYPES}

Sentences = Callable[[Iterable[tuple[str, str]]], dict[tuple[str, str], str]]


@dataclass
class Occurrences:
    """What trends need from a graph: each dated paper's year and title, each entity's type and name,
    the dated papers naming each entity, and a way to fetch the sentence of (paper, entity) pairs."""

    years: dict[str, int]
    titles: dict[str, str]
    entities: dict[str, tuple[str, str]]   # key -> (type, name)
    papers_of: dict[str, list[str]]        # entity key -> dated paper keys
    sentences: Sentences
    undated: int = 0                       # papers without a year, left out


@dataclass(frozen=True)
class YearCount:
    """An entity's papers in one year and their share of that year's papers."""

    year: int
    papers: int
    share: float


@dataclass(frozen=True)
class PaperRef:
    """A paper that shows an entity in a given year, with the sentence naming it."""

    paper_id: str
    title: str
    year: int
    sentence: str


@dataclass(frozen=True)
class Burst:
    """A burst: first and last year (both included), strength (Kleinberg's weight) and the papers of its first year."""

    start: int
    end: int
    strength: float
    papers: tuple[PaperRef, ...] = ()


@dataclass(frozen=True)
class EntityTrend:
    """One entity over the years: its yearly papers (years with none left out), first year and papers, bursts and slope."""

    key: str
    name: str
    type: str
    papers: int
    first_year: int
    years: tuple[YearCount, ...]
    first_papers: tuple[PaperRef, ...] = ()
    bursts: tuple[Burst, ...] = ()
    slope: float | None = None     # share change over the window, percentage points a year (None: too few papers)

    @property
    def strongest_burst(self) -> Burst | None:
        """The burst of highest strength, if any."""
        return max(self.bursts, key=lambda burst: burst.strength, default=None)

    def count(self, year: int) -> int:
        """Papers in `year` (0 when none)."""
        return next((point.papers for point in self.years if point.year == year), 0)

    def share(self, year: int) -> float:
        """Share of `year`'s papers (0.0 when none)."""
        return next((point.share for point in self.years if point.year == year), 0.0)


@dataclass(frozen=True)
class Trends:
    """Trends of a graph: the years, each year's paper count, and one record per entity seen in them."""

    years: tuple[int, ...]
    year_papers: tuple[int, ...]
    window: tuple[int, int]
    entities: dict[str, EntityTrend]
    undated: int = 0
    parameters: dict[str, float] = field(default_factory=dict)

    def total(self, year: int) -> int:
        """Papers in `year`."""
        return self.year_papers[year - self.years[0]] if self.years and self.years[0] <= year <= self.years[-1] else 0

    def of_type(self, types: Iterable[str] | None) -> list[EntityTrend]:
        """Entities of the given types (all when None or empty), sorted by key."""
        wanted = {t.casefold() for t in types or ()}
        return [e for _, e in sorted(self.entities.items()) if not wanted or e.type.casefold() in wanted]

    def bursts(self, top: int, types: Iterable[str] | None = None) -> list[EntityTrend]:
        """Entities with a burst, strongest first."""
        bursting = [e for e in self.of_type(types) if e.bursts]
        return sorted(bursting, key=lambda e: (-e.strongest_burst.strength, e.key))[:top]  # type: ignore[union-attr]

    def rising(self, top: int, types: Iterable[str] | None = None) -> list[EntityTrend]:
        """Entities whose share rose most steeply over the window."""
        ranked = [e for e in self.of_type(types) if e.slope is not None and e.slope > 0]
        return sorted(ranked, key=lambda e: (-e.slope, e.key))[:top]  # type: ignore[operator]

    def fading(self, top: int, types: Iterable[str] | None = None) -> list[EntityTrend]:
        """Entities whose share fell most steeply over the window."""
        ranked = [e for e in self.of_type(types) if e.slope is not None and e.slope < 0]
        return sorted(ranked, key=lambda e: (e.slope, e.key))[:top]  # type: ignore[operator]

    def entered_in(self, year: int, types: Iterable[str] | None = None) -> list[EntityTrend]:
        """Entities first seen in `year`, in the most papers first."""
        return sorted((e for e in self.of_type(types) if e.first_year == year), key=lambda e: (-e.papers, e.key))

    def share_change(self, entity: EntityTrend, since: int, until: int) -> float:
        """How much the entity's share rose from `since` to `until` (a fraction; negative: it fell)."""
        return entity.share(until) - entity.share(since)

    def to_dict(self, entities: Iterable[EntityTrend] | None = None) -> dict[str, Any]:
        """Plain JSON: the years with their paper counts and the given entities (default all)."""
        chosen = self.entities.values() if entities is None else entities
        return {"years": [{"year": y, "papers": n} for y, n in zip(self.years, self.year_papers)],
                "window": list(self.window), "undated_papers": self.undated, "parameters": dict(self.parameters),
                "entities": {e.key: asdict(e) for e in chosen}}

    def to_frame(self) -> Any:
        """One row per entity and year it has papers in (pandas, when installed)."""
        import pandas as pd  # optional: the rest of this module does not need it

        rows = [{"key": e.key, "name": e.name, "type": e.type, "year": p.year, "papers": p.papers,
                 "year_papers": self.total(p.year), "share": p.share, "first_year": e.first_year}
                for e in self.entities.values() for p in e.years]
        return pd.DataFrame(rows)


def occurrences(graph: nx.MultiDiGraph) -> Occurrences:
    """What trends need, read from a graph in memory."""
    years, titles, undated = {}, {}, 0
    for key, data in graph.nodes(data=True):
        if data.get("label") == NodeLabel.PAPER:
            year = paper_year(data.get("year"))
            if year is None:
                undated += 1
            else:
                years[key] = year
                titles[key] = str(data.get("name") or data.get("paper_id") or key)
    entities: dict[str, tuple[str, str]] = {}
    papers_of: dict[str, list[str]] = {}
    for source, target, kind in graph.edges(keys=True):
        if source in years and kind in _RELATIONS:
            if target not in entities:
                data = graph.nodes[target]
                entities[target] = (str(data.get("label", "")), str(data.get("name", target)))
                papers_of[target] = []
            papers_of[target].append(source)

    def sentences(pairs: Iterable[tuple[str, str]]) -> dict[tuple[str, str], str]:
        found = {}
        for paper, entity in pairs:
            edges = graph.get_edge_data(paper, entity) or {}
            evidence = [ev for kind in sorted(edges) for ev in edges[kind].get("evidence", [])]
            found[(paper, entity)] = str(evidence[0]["sentence"]) if evidence else ""
        return found
    return Occurrences(years, titles, entities, papers_of, sentences, undated)


def trends(graph: nx.MultiDiGraph, **options: Any) -> Trends:
    """The trends of a graph in memory (options as for `compute_trends`)."""
    return compute_trends(occurrences(graph), **options)


def compute_trends(occ: Occurrences, *, since: int | None = None, until: int | None = None,
                   window: int = WINDOW, min_papers: int = MIN_PAPERS, s: float = STATE_RATIO,
                   gamma: float = GAMMA, with_papers: bool = True) -> Trends:
    """Series, first years, bursts and slopes of every entity with papers in since..until; with_papers adds
    the papers (and sentences) of each entity's first year and bursts."""
    dated = occ.years.values()
    if not dated:
        return Trends((), (), (0, 0), {}, occ.undated, {"s": s, "gamma": gamma})
    first = max(min(dated), since) if since is not None else min(dated)
    last = min(max(dated), until) if until is not None else max(dated)
    if first > last:
        return Trends((), (), (first, last), {}, occ.undated, {"s": s, "gamma": gamma})
    years = tuple(range(first, last + 1))
    per_year = Counter(y for y in dated if first <= y <= last)
    totals = tuple(per_year.get(y, 0) for y in years)
    span = (max(first, last - window + 1), last)
    records, wanted = {}, {}
    for key, papers in occ.papers_of.items():
        all_years = [occ.years[p] for p in papers]
        counts = Counter(y for y in all_years if first <= y <= last)
        if not counts:
            continue
        series = tuple(YearCount(y, n, n / totals[y - first]) for y, n in sorted(counts.items()))
        first_year = min(all_years)
        bursts = [(years[b.first], years[b.last], b.strength)
                  for b in _bursts(counts, years, totals, s, gamma)]
        kind, name = occ.entities[key]
        records[key] = EntityTrend(key, name, kind, sum(counts.values()), first_year, series,
                                   slope=_slope(series, totals, first, span, min_papers), bursts=tuple(
                                       Burst(start, end, round(strength, 4)) for start, end, strength in bursts))
        if sum(counts.values()) >= min_papers or bursts:
            wanted[key] = (_papers_in(occ, papers, first_year, FIRST_PAPERS),
                           [_papers_in(occ, papers, start, BURST_PAPERS) for start, _, _ in bursts])
    return Trends(years, totals, span, _with_papers(records, wanted, occ) if with_papers else records, occ.undated,
                  {"s": s, "gamma": gamma, "window": window, "min_papers": min_papers})


def _bursts(counts: Counter, years: tuple[int, ...], totals: tuple[int, ...], s: float, gamma: float) -> list:
    """Burst spans of one entity's yearly counts; none without the papers to pay for entering a burst."""
    if sum(counts.values()) * math.log(s) <= gamma * math.log(len(years)):
        return []
    return detect_bursts([counts.get(y, 0) for y in years], totals, s, gamma)


def _slope(series: tuple[YearCount, ...], totals: tuple[int, ...], first: int, span: tuple[int, int],
           min_papers: int) -> float | None:
    """Least-squares slope of the share over the window's years that have papers, in percentage points a year."""
    inside = [p for p in series if span[0] <= p.year <= span[1]]
    if sum(p.papers for p in inside) < min_papers:
        return None
    xs = [y for y in range(span[0], span[1] + 1) if totals[y - first]]
    if len(xs) < 2:
        return None
    mean = sum(xs) / len(xs)
    spread = sum((x - mean) ** 2 for x in xs)
    return round(100 * sum((p.year - mean) * p.share for p in inside) / spread, 6)


def _papers_in(occ: Occurrences, papers: list[str], year: int, limit: int) -> list[str]:
    """The first `limit` papers (by key) of `year`."""
    return sorted(p for p in papers if occ.years[p] == year)[:limit]


def _with_papers(records: dict[str, EntityTrend], wanted: dict[str, tuple[list[str], list[list[str]]]],
                 occ: Occurrences) -> dict[str, EntityTrend]:
    """The records with their first-year and burst-year papers and sentences (fetched in one go)."""
    pairs = {(paper, key) for key, (first, bursts) in wanted.items() for paper in [*first, *sum(bursts, [])]}
    sentences = occ.sentences(sorted(pairs))

    def refs(key: str, papers: list[str]) -> tuple[PaperRef, ...]:
        return tuple(PaperRef(paper.split(":", 1)[1], occ.titles[paper], occ.years[paper],
                              sentences.get((paper, key), "")) for paper in papers)
    for key, (first, bursts) in wanted.items():
        record = records[key]
        records[key] = EntityTrend(
            record.key, record.name, record.type, record.papers, record.first_year, record.years,
            refs(key, first), tuple(Burst(b.start, b.end, b.strength, refs(key, papers))
                                    for b, papers in zip(record.bursts, bursts)), record.slope)
    return dict(sorted(records.items()))


def paper_year(value: object) -> int | None:
    """A publication year as an int (graph.json keeps ints, GraphML may give strings)."""
    try:
        return int(str(value)) if value not in (None, "") else None
    except ValueError:
        return None
