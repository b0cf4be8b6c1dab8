"""The entity map behind graph.html: entities linked by the papers they share and by typed relations.

Two entities are linked when a paper mentions both or a typed relation (core.schema.ENTITY_REL_TYPES)
ties them; a link's `papers` counts the distinct papers behind it, and its `confidence` the confidence of each
typed relation (the map draws those at the view's threshold, the page's slider moves it: `shown_kinds`). The
index is built once from the paperkg graph; maps over any subset of entities come from it.
"""
from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations

import networkx as nx

from paperkg.core import graph_model as model
from paperkg.core import schema
from paperkg.core.graph_model import paper_key
from paperkg.viz.style import SHARED_PAPERS

ENTITY_LABELS = tuple(label.value for label in schema.ENTITY_LABELS)


@dataclass
class EntityIndex:
    """Who is in which paper, the typed relations between entities, and each paper's year."""

    graph: nx.MultiDiGraph
    papers_of: dict[str, tuple[str, ...]]
    entities_of: dict[str, tuple[str, ...]]
    relations: dict[tuple[str, str], dict[str, set[str]]]
    confidence: dict[tuple[str, str], dict[str, float]]  # the surest typed relation of each kind per pair
    related: dict[str, tuple[str, ...]]
    years: dict[str, int]

    @property
    def entities(self) -> list[str]:
        """Every entity of the index, in key order."""
        return sorted(self.papers_of)

    def paper_count(self, entity: str) -> int:
        """How many papers mention `entity`."""
        return len(self.papers_of[entity])

    def name(self, node: str) -> str:
        """A node's name (its key when it has none)."""
        return str(model.node_attrs(self.graph, node).get("name", node))

    def label(self, node: str) -> str:
        """A node's label."""
        return str(model.node_attrs(self.graph, node).get("label"))

    def pagerank(self, node: str) -> float:
        """A node's PageRank (0.0 when it has none)."""
        return float(model.node_attrs(self.graph, node).get("pagerank", 0.0))

    def rank_key(self, entity: str) -> tuple[int, float, str]:
        """Sort key putting the most important entity first: papers, then PageRank, then key."""
        return (-len(self.papers_of[entity]), -self.pagerank(entity), entity)

    def importance_key(self, entity: str) -> tuple[float, int, str]:
        """Sort key for folding and --max-nodes: PageRank, then papers, then key."""
        return (-self.pagerank(entity), -len(self.papers_of[entity]), entity)

    def neighbours(self, entity: str) -> set[str]:
        """Entities sharing a paper or a typed relation with `entity`."""
        found = {other for paper in self.papers_of[entity] for other in self.entities_of[paper]}
        found.update(self.related.get(entity, ()))
        found.discard(entity)
        return found

    def year_counts(self, entity: str) -> dict[int, int]:
        """Papers per publication year for `entity` (papers without a year are left out)."""
        counts = Counter(self.years[paper] for paper in self.papers_of[entity] if paper in self.years)
        return dict(sorted(counts.items()))

    def mean_year(self, entity: str) -> float | None:
        """The mean publication year of the entity's papers, None when none has a year."""
        counts = self.year_counts(entity)
        total = sum(counts.values())
        return round(sum(year * n for year, n in counts.items()) / total, 2) if total else None


def index_entities(graph: nx.MultiDiGraph, labels: Iterable[str] = ENTITY_LABELS,
                   floor: float = schema.RELATION_FLOOR) -> EntityIndex:
    """Index the entities of `graph` with the given labels by paper, relation and year; typed relations less
    sure than `floor` (of a graph an earlier release built) are left out."""
    wanted = set(labels)
    label_of = dict(model.labels(graph))
    papers_of: dict[str, set[str]] = {node: set() for node, label in label_of.items() if label in wanted}
    entities_of: dict[str, set[str]] = defaultdict(set)
    relations: dict[tuple[str, str], dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    confidence: dict[tuple[str, str], dict[str, float]] = defaultdict(dict)
    for source, target, _, data in model.edges(graph):
        if target not in papers_of:
            continue
        if label_of.get(source) == schema.NodeLabel.PAPER:
            papers_of[target].add(source)
            entities_of[source].add(target)
        elif source in papers_of and source != target and data.get("confidence", 1.0) >= floor:
            pair, kind = (min(source, target), max(source, target)), str(data.get("type", ""))
            confidence[pair][kind] = max(confidence[pair].get(kind, 0.0), float(data.get("confidence", 1.0)))
            evidence = {paper_key(ev["paper"]) for ev in data.get("evidence", [])
                        if ev.get("paper") and paper_key(ev["paper"]) in graph}
            relations[pair][kind].update(evidence)
            for paper in evidence:  # a sentence relating two entities mentions both
                papers_of[source].add(paper)
                papers_of[target].add(paper)
                entities_of[paper].update((source, target))
    related: dict[str, set[str]] = defaultdict(set)
    for first, second in relations:
        related[first].add(second)
        related[second].add(first)
    years = {node: int(str(year)) for node, attrs in model.papers(graph) if _is_year(year := attrs.get("year"))}
    return EntityIndex(graph=graph,
                       papers_of={key: tuple(sorted(papers)) for key, papers in papers_of.items()},
                       entities_of={key: tuple(sorted(ents)) for key, ents in entities_of.items()},
                       relations={pair: {kind: set(papers) for kind, papers in kinds.items()}
                                  for pair, kinds in relations.items()},
                       confidence={pair: dict(kinds) for pair, kinds in confidence.items()},
                       related={key: tuple(sorted(others)) for key, others in related.items()},
                       years=years)


def _is_year(value: object) -> bool:
    try:
        return 1000 <= int(str(value)) <= 9999
    except ValueError:
        return False


def link_graph(index: EntityIndex, entities: Iterable[str]) -> nx.Graph:
    """The entity map over `entities`: one node per entity, one link per pair tied by papers or a relation.

    A link carries `papers` (distinct papers behind it), `shared` (papers mentioning both),
    `kinds` (SHARED_PAPERS and the typed relations, in style order), `confidence` (of each typed one) and
    `strength`, the cosine of the two entities' paper sets, which the layout uses as the spring weight.
    """
    chosen = sorted(set(entities))
    inside = set(chosen)
    shared: Counter[tuple[str, str]] = Counter()
    for paper in sorted({paper for entity in chosen for paper in index.papers_of[entity]}):
        members = [entity for entity in index.entities_of[paper] if entity in inside]
        shared.update(combinations(members, 2))
    typed = {pair: kinds for pair, kinds in index.relations.items()
             if pair[0] in inside and pair[1] in inside}
    graph = nx.Graph()
    for entity in chosen:
        graph.add_node(entity)
    for pair in sorted(set(shared) | set(typed)):
        kinds = typed.get(pair, {})
        both = set(index.papers_of[pair[0]]).intersection(index.papers_of[pair[1]]) if kinds else set()
        papers = shared[pair] + len(set().union(*kinds.values()) - both) if kinds else shared[pair]
        names = ([SHARED_PAPERS] if shared[pair] else []) + sorted(kinds)
        size = math.sqrt(max(index.paper_count(pair[0]), 1) * max(index.paper_count(pair[1]), 1))
        graph.add_edge(*pair, papers=max(papers, 1), shared=shared[pair], kinds=tuple(names),
                       confidence=dict(sorted(index.confidence.get(pair, {}).items())) if kinds else {},
                       strength=round(max(papers, 1) / size, 6))
    return graph


def shown_kinds(kinds: Iterable[str], confidence: dict[str, float], min_confidence: float) -> list[str]:
    """The kinds of a link drawn at a threshold: shared papers, and the typed relations at least that sure."""
    return [kind for kind in kinds if kind == SHARED_PAPERS or confidence.get(kind, 1.0) >= min_confidence]
