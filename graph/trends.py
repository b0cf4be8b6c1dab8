"""The field over time: per entity and year its papers and their share of the year's papers, the year it
was first seen (with the papers and sentences that brought it in), its bursts, and the steepest
risers and fallers over a window of years.

Shares are against each year's paper count, so a growing field does not read as growing entities.
Bursts are Kleinberg's two-state automaton over the yearly counts against the year totals, with
CiteSpace's defaults (bursts.py). Rising and fading is the least-squares slope of the yearly share
over the window (percentage points a year), for entities in at least `min_papers` papers there.
Everything is computed from `Occurrences` (which papers, of which year, name which entities), read
from a NetworkX graph. A build computes the trends once and saves them beside the graph (trends.json:
`Trends.to_json`, read back with `Trends.from_json`).
"""
from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING, Any

from paperkg.core import graph_model as model
from paperkg.core.schema import PAPER_REL_TYPES, read_versioned

from .bursts import GAMMA, STATE_RATIO, detect_bursts

if TYPE_CHECKING:  # `paperkg trends` reads a build's trends.json without NetworkX
    import networkx as nx

WINDOW = 5            # years over which risers and fallers are measured (the last ones of the range)
MIN_PAPERS = 3        # papers an entity needs in the window to be ranked as rising or fading
FIRST_PAPERS = 3      # papers kept from an entity's first year
BURST_PAPERS = 5      # papers kept from a burst's first year
_RELATIONS = {rel.value for rel in PAPER_REL_TYPES}
TRENDS_KEY = "paperkg_trends"  # the version field of trends.json
TRENDS_VERSION = 1

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
    """One entity over the years: its yearly papers (years with none left out), first year and papers,
    bursts and slope."""

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
    """Trends of a graph: the years, each year's paper count, and one record per entity seen in them (by key)."""

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
        """Entities of the given types (all when None or empty), in the order of `entities` (by key)."""
        wanted = {t.casefold() for t in types or ()}
        return [e for e in self.entities.values() if not wanted or e.type.casefold() in wanted]

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
        return sorted(ranked, key=lambda e: (e.slope, e.key))[:top]

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

    def to_json(self) -> str:
        """trends.json: the version and every entity's record, one entity a line (its keys sorted)."""
        head = {TRENDS_KEY: TRENDS_VERSION, **self.to_dict({})}
        del head["entities"]
        lines = [json.dumps(key, ensure_ascii=False) + ": " + json.dumps(asdict(entity), sort_keys=True,
                                                                          ensure_ascii=False)
                 for key, entity in self.entities.items()]
        return (json.dumps(head, ensure_ascii=False)[:-1] + ',\n"entities": {\n'  # parameters in their order
                + ",\n".join(lines) + "\n}}\n")

    @classmethod
    def from_json(cls, text: str, where: str) -> Trends:
        """The trends of a trends.json; SchemaError naming `where` when it is not one of this version."""
        def make(data: dict[str, Any]) -> Trends:
            return cls(tuple(item["year"] for item in data["years"]), tuple(item["papers"] for item in data["years"]),
                       (data["window"][0], data["window"][1]),
                       {key: _entity_trend(item) for key, item in data["entities"].items()},
                       data["undated_papers"], dict(data["parameters"]))
        return read_versioned(text, TRENDS_KEY, TRENDS_VERSION, where, "trends file", make)

    def to_frame(self) -> Any:
        """One row per entity and year it has papers in (pandas, when installed)."""
        import pandas as pd  # optional: the rest of this module does not need it

        rows = [{"key": e.key, "name": e.name, "type": e.type, "year": p.year, "papers": p.papers,
                 "year_papers": self.total(p.year), "share": p.share, "first_year": e.first_year}
                for e in self.entities.values() for p in e.years]
        return pd.DataFrame(rows)


def _entity_trend(data: dict[str, Any]) -> EntityTrend:
    """An EntityTrend from its asdict form."""
    return EntityTrend(data["key"], data["name"], data["type"], data["papers"], data["first_year"],
                       tuple(YearCount(**point) for point in data["years"]),
                       tuple(PaperRef(**paper) for paper in data["first_papers"]),
                       tuple(Burst(burst["start"], burst["end"], burst["strength"],
                                   tuple(PaperRef(**paper) for paper in burst["papers"])) for burst in data["bursts"]),
                       data["slope"])


def occurrences(graph: nx.MultiDiGraph) -> Occurrences:
    """What trends need, read from a graph in memory."""
    years, titles, undated = {}, {}, 0
    for key, data in model.papers(graph):
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
                attrs = model.node_attrs(graph, target)
                entities[target] = (str(attrs.get("label", "")), str(attrs.get("name", target)))
                papers_of[target] = []
            papers_of[target].append(source)

    def sentences(pairs: Iterable[tuple[str, str]]) -> dict[tuple[str, str], str]:
        found = {}
        for paper, entity in pairs:
            edges = model.between(graph, paper, entity)
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
    the papers (and sentences) of the first year and bursts of every entity in at least min_papers papers."""
    parameters = {"s": s, "gamma": gamma, "window": window, "min_papers": min_papers}
    dated = occ.years.values()
    first = max(min(dated, default=0), since or 0)
    last = min(max(dated, default=0), until) if until is not None else max(dated, default=0)
    if not dated or first > last:
        return Trends((), (), (first, last), {}, occ.undated, parameters)
    years = tuple(range(first, last + 1))
    per_year = Counter(y for y in dated if first <= y <= last)
    totals = tuple(per_year.get(y, 0) for y in years)
    window_years = _Window(max(first, last - window + 1), last, totals, first)
    can_burst = gamma * math.log(len(years)) / math.log(s)  # fewer papers can never pay for a burst
    year_of, records = occ.years, {}
    restricted = first > min(dated) or last < max(dated)
    for key, papers in occ.papers_of.items():
        if len(papers) == 1:  # most of a corpus' entities: no burst, and no slope unless min_papers is 1
            y = year_of[papers[0]]
            if first <= y <= last:
                kind, name = occ.entities[key]
                series: tuple[YearCount, ...] = (YearCount(y, 1, 1 / totals[y - first]),)
                records[key] = EntityTrend(key, name, kind, 1, y, series,
                                           slope=window_years.slope(series, min_papers) if min_papers <= 1 else None)
            continue
        all_years = [year_of[p] for p in papers]
        counts: dict[int, int] = Counter(all_years)
        if restricted:
            counts = {y: n for y, n in counts.items() if first <= y <= last}
            if not counts:
                continue
        total = sum(counts.values())
        series = tuple(YearCount(y, n, n / totals[y - first]) for y, n in sorted(counts.items()))
        bursts = () if total <= can_burst else tuple(
            Burst(years[b.first], years[b.last], round(b.strength, 4))
            for b in detect_bursts([counts.get(y, 0) for y in years], totals, s, gamma))
        kind, name = occ.entities[key]
        records[key] = EntityTrend(key, name, kind, total, min(all_years), series, bursts=bursts,
                                   slope=window_years.slope(series, min_papers) if total >= min_papers else None)
    found = Trends(years, totals, (window_years.first, last), dict(sorted(records.items())), occ.undated, parameters)
    if not with_papers:
        return found
    return add_papers(found, occ, [key for key, e in found.entities.items() if e.papers >= min_papers or e.bursts])


def is_default(options: dict[str, Any]) -> bool:
    """Whether compute_trends with these options gives the trends a build saves (the defaults, with papers)."""
    defaults = {"since": None, "until": None, "window": WINDOW, "min_papers": MIN_PAPERS, "s": STATE_RATIO,
                "gamma": GAMMA, "with_papers": True}
    return all(defaults.get(name, object()) == value for name, value in options.items())


class _Window:
    """The window's years that have papers, for least-squares slopes of shares over them."""

    def __init__(self, first: int, last: int, totals: tuple[int, ...], start: int) -> None:
        self.first, self.last = first, last
        self.xs = [y for y in range(first, last + 1) if totals[y - start]]
        self.mean = sum(self.xs) / len(self.xs) if self.xs else 0.0
        self.spread = sum((x - self.mean) ** 2 for x in self.xs)

    def slope(self, series: tuple[YearCount, ...], min_papers: int) -> float | None:
        """Slope of the share in percentage points a year (None: fewer than min_papers papers in the window)."""
        inside = [p for p in series if self.first <= p.year <= self.last]
        if sum(p.papers for p in inside) < min_papers or len(self.xs) < 2:
            return None
        return round(100 * sum((p.year - self.mean) * p.share for p in inside) / self.spread, 6)


def add_papers(found: Trends, occ: Occurrences, keys: Iterable[str]) -> Trends:
    """The trends with the first-year and burst-year papers and their sentences filled in for `keys`
    (fetched in one go: from graph.json that is one more read of the wanted lines)."""
    wanted = {}
    for key in keys:
        record = found.entities[key]
        papers = occ.papers_of[key]
        wanted[key] = (_papers_in(occ, papers, record.first_year, FIRST_PAPERS),
                       [_papers_in(occ, papers, burst.start, BURST_PAPERS) for burst in record.bursts])
    pairs = {(paper, key) for key, (first, bursts) in wanted.items() for paper in [*first, *sum(bursts, [])]}
    sentences = occ.sentences(sorted(pairs))

    def refs(key: str, papers: list[str]) -> tuple[PaperRef, ...]:
        return tuple(PaperRef(paper.split(":", 1)[1], occ.titles[paper], occ.years[paper],
                              sentences.get((paper, key), "")) for paper in papers)
    entities = dict(found.entities)
    for key, (first, bursts) in wanted.items():
        record = entities[key]
        entities[key] = replace(record, first_papers=refs(key, first), bursts=tuple(
            replace(burst, papers=refs(key, papers)) for burst, papers in zip(record.bursts, bursts)))
    return replace(found, entities=entities)


def _papers_in(occ: Occurrences, papers: list[str], year: int, limit: int) -> list[str]:
    """The first `limit` papers (by key) of `year`."""
    return sorted(p for p in papers if occ.years[p] == year)[:limit]


def paper_year(value: object) -> int | None:
    """A publication year as an int (graph.json keeps ints, GraphML may give strings)."""
    try:
        return int(str(value)) if value not in (None, "") else None
    except ValueError:
        return None
