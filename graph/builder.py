"""Grow a MultiDiGraph from admitted papers (admit/): canonical entity nodes, paper nodes, evidence on edges.

The builder only assembles: admission decided paper by paper which mentions are names and which
relations may be edges. Papers are taken in as they come; entity nodes are made once all are in
(`finalize`), so that what a bare short form stands for, which names are one entity, its type and its
name are decided by the whole corpus (graph/resolve.py), the same whatever order the papers came in.
Each decision is a function of decisions.py over per-name tables, the same functions the assembly on
Dask (assembly.py) calls on a partition's or a bucket's tables; a typed edge is decided from all the
mentions stating it across papers (decisions.relation_edge: its direction, support and calibrated
confidence) and kept from the graph's floor. The corpus-level refusals (a synonym the corpus reads as
two things, an edge whose ends its type does not take, an edge below the floor) go into the same
refusal table as admission's.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import networkx as nx

from paperkg.admit.edge_confidence import Calibration, shipped_calibration
from paperkg.admit.records import Admitted
from paperkg.admit.refusals import RefusalTable
from paperkg.admit.relation_ends import end_refusal
from paperkg.core.canonical import group_form
from paperkg.core import graph_model as model
from paperkg.core.graph_model import paper_key
from paperkg.core.schema import (PAPER_REL_TYPES, RELATION_FLOOR, RESULT_REL_TYPES, SCHEMA_KEY, SCHEMA_VERSION, RelType,
                                 enum_member)

from .decisions import (MAX_EVIDENCE, NameVotes, NodeChoice, Note, PaperUses, Target, add_aliases, decide_node,
                        define_short_forms, entity_node, intake, paper_edges, paper_node, paper_targets,
                        relation_edge, resolve_short)
from .evidence import EvidenceFactory
from .metrics import add_metrics
from .resolve import ShortForms, UnionFind
from .results import result_graph

__all__ = ["MAX_EVIDENCE", "GraphBuilder", "corpus_groups"]


class GraphBuilder:
    """Adds papers once each (by id); `finalize` decides the entity nodes and typed edges from all of them and
    computes metrics. `calibration` and `floor`: how mentions add up to an edge's confidence, and the least
    confidence an edge is kept at (the shipped calibration and RELATION_FLOOR unless given)."""

    def __init__(self, graph: nx.MultiDiGraph | None = None, calibration: Calibration | None = None,
                 floor: float = RELATION_FLOOR) -> None:
        self.graph = graph if graph is not None else nx.MultiDiGraph()
        self.calibration = calibration or shipped_calibration()
        self.floor = floor
        self.graph.graph[SCHEMA_KEY] = SCHEMA_VERSION
        self.papers: dict[str, PaperUses] = {}
        self.merges: list[tuple[str, str, str, str]] = []  # (name, into, rule, paper)
        self.evidence = EvidenceFactory()
        self.refusals = RefusalTable()

    def add(self, admitted: Admitted) -> bool:
        """Add one admitted paper; False (and no change) if the paper is already in the graph."""
        paper = admitted.record.paper
        pkey = paper_key(paper.id)
        if pkey in self.graph:
            return False
        self.graph.add_node(pkey, **paper_node(paper))
        self.refusals.add_names(admitted.refused_names)
        self.refusals.add_relations(admitted.refused_relations)
        for name, other in admitted.synonyms:
            self.merge(name, other, "synonym-of", paper.id)
        self.papers[pkey] = intake(admitted, self.evidence)
        return True

    def add_all(self, papers: Iterable[Admitted]) -> int:
        """Add many admitted papers; returns how many were new."""
        return sum(self.add(admitted) for admitted in papers)

    def merge(self, name: str, into: str, rule: str, paper: str = "") -> None:
        """Make the entities named `name` and `into` one node (e.g. a SYNONYM_OF relation), noting
        `rule` and the paper that says so as merge evidence on the node."""
        self.merges.append((name, into, rule, paper))

    def finalize(self) -> nx.MultiDiGraph:
        """Decide the entity nodes from every paper added, add them and their edges, then compute metrics."""
        order = sorted(self.papers)
        shorts = self._short_forms(order)
        groups, notes = corpus_groups(shorts, self.merges, self.refusals)
        targets: dict[str, list[str | None]] = {}
        for pkey in order:
            targets[pkey], found = paper_targets(self.papers[pkey], shorts)
            notes += found
        existing = self._existing_nodes(groups)
        tables: defaultdict[str, NameVotes] = defaultdict(NameVotes)
        for note in notes:
            tables[groups.find(note.form)].note(note.name, note.rule, {note.paper})
        for pkey in order:
            for use, target in zip(self.papers[pkey].uses, targets[pkey]):
                if use is not None and target is not None:
                    tables[groups.find(target)].add(use, target, pkey)
        nodes = self._decide_nodes(tables, existing)
        relations: dict[tuple[RelType, str, str], list[tuple[str, str, Mapping[str, Any]]]] = defaultdict(list)
        for pkey in order:
            entry = self.papers[pkey]
            keys = [nodes.get(groups.find(t)) if t else None for t in targets[pkey]]
            context = entry.context()
            undefined = []
            for item in entry.undefined:
                sense = resolve_short(item.short, entry, shorts, context)
                undefined.append(nodes.get(groups.find(sense[0])) if sense else None)
            self._add_paper_edges(entry, keys, undefined, relations)
            self._add_results(entry, keys)
        self.papers.clear()
        self.merges.clear()
        self._add_relation_edges(relations)
        papers = Counter(target for paper, _ in model.papers(self.graph)
                         for target in self.graph.succ[paper])  # an entity's papers: the papers with an edge to it
        for key, data in model.entities(self.graph):
            data["papers"] = papers[key]
        add_metrics(self.graph)
        return self.graph

    def _short_forms(self, order: list[str]) -> ShortForms:
        """Every short form's definitions: by the papers defining it, and an earlier graph's nodes."""
        shorts = ShortForms()
        for _key, data in model.entities(self.graph):
            if data.get("acronym") and data.get("long_form"):
                shorts.define(data["acronym"], group_form(data["long_form"]), data["long_form"], (),
                              weight=data.get("papers", 1))
        for pkey in order:
            define_short_forms(shorts, self.papers[pkey])
        return shorts

    def _existing_nodes(self, groups: UnionFind) -> dict[str, str]:
        """An earlier graph's entity nodes by group root (the API's `build_graph(records, graph)`): new
        mentions of their names, long forms or repaired names join them as they are."""
        forms: dict[str, list[str]] = {}
        for key, data in model.entities(self.graph):
            forms[key] = sorted({group_form(data["canonical"]), group_form(data.get("long_form") or data["name"])})
            groups.union(forms[key][0], forms[key][-1])
        existing: dict[str, str] = {}
        for key in sorted(forms):
            existing.setdefault(groups.find(forms[key][0]), key)
        return existing

    def _decide_nodes(self, tables: dict[str, NameVotes], existing: dict[str, str]) -> dict[str, Target]:
        """One node per group of forms (decisions.decide_node; groups whose names share a key, one node);
        returns group root -> its node."""
        by_key: dict[str, list[tuple[str, NodeChoice, NameVotes]]] = defaultdict(list)
        nodes: dict[str, str] = {}
        for root in sorted(tables):
            if root in existing:
                nodes[root] = existing[root]
                continue
            choice = decide_node(tables[root])
            if choice is not None:
                by_key[choice.key].append((root, choice, tables[root]))
                nodes[root] = choice.key
        for key, choices in by_key.items():
            if key not in self.graph:
                self.graph.add_node(key, **entity_node(choices))
        return {root: Target(key, "acronym" in self.graph.nodes[key]) for root, key in nodes.items()}

    def _add_paper_edges(self, entry: PaperUses, keys: list[Target | None], undefined: list[Target | None],
                         relations: dict[tuple[RelType, str, str], list[tuple[str, str, Mapping[str, Any]]]]) -> None:
        """A paper's edges (decisions.paper_edges) into the graph; its relations' mentions into `relations`, by
        type and pair of nodes (either way)."""
        found = paper_edges(entry, keys, undefined)
        for key, count in found.mentions.items():
            node = model.entity_attrs(self.graph, key)
            node["mentions"] += count
            add_aliases(node, found.aliases.get(key, set()))
        for (key, kind), data in found.roles.items():
            self.graph.add_edge(entry.key, key, key=kind, **data)
        for kind, head, tail, paper in found.one_node:
            self.refusals.add_relation(kind, head, tail, "one-node", (paper,))
        for source, target, kind, evidence in found.relations:
            relations[relation_key(kind, source, target)].append((source, target, evidence))

    def _add_results(self, entry: PaperUses, keys: list[Target | None]) -> None:
        """A paper's result nodes and their edges (results.result_graph)."""
        ends = [(key.key, model.node_attrs(self.graph, key.key)["label"]) if key else None for key in keys]
        nodes, edges = result_graph(entry.key, entry.results, ends)
        self.graph.add_nodes_from(nodes)
        for source, target, kind, data in edges:
            self.graph.add_edge(source, target, key=kind, **data)

    def _add_relation_edges(self, relations: dict[tuple[RelType, str, str], list[tuple[str, str, Mapping[str, Any]]]],
                            ) -> None:
        """Each typed edge from all its mentions (decisions.relation_edge), entity types being final now; an
        earlier graph's typed edges (the API's `build_graph(records, graph)`) count by the evidence they kept."""
        for source, target, kind, data in list(model.edges(self.graph)):
            if (rel := enum_member(RelType, kind)) not in PAPER_REL_TYPES and rel not in RESULT_REL_TYPES:
                relations[relation_key(rel.value, source, target)] += [(source, target, item)
                                                                       for item in data["evidence"]]
                self.graph.remove_edge(source, target, kind)
        ends = {key: (data["name"], data["label"]) for key, data in model.entities(self.graph)}
        refused = lru_cache(maxsize=None)(end_refusal)  # each node judged once
        for key in sorted(relations, key=lambda key: (key[0].value, key[1], key[2])):
            edge, refusals = relation_edge(key[0], relations[key], ends, self.calibration, self.floor, refused)
            for no in refusals:
                self.refusals.add_relation(no.kind, no.head, no.tail, no.reason, no.papers, no.mentions)
            if edge is not None:
                self.graph.add_edge(edge[0], edge[1], key=key[0].value, **edge[2])


def relation_key(kind: str, source: str, target: str) -> tuple[RelType, str, str]:
    """The key of a typed edge's mentions whichever way they read: the type and the two nodes in key order."""
    low, high = sorted((source, target))
    return enum_member(RelType, kind), low, high


def corpus_groups(shorts: ShortForms, merges: Iterable[tuple[str, str, str, str]],
                  refusals: RefusalTable) -> tuple[UnionFind, list[Note]]:
    """The groups of forms the corpus makes one entity: a short form's variant definitions folded into their
    sense, and the synonym pairs the corpus reads as one thing (the others refused); with the merge notes."""
    groups = UnionFind()
    notes: list[Note] = []
    for fold in shorts.fold_variants():
        if not fold.local:  # a local fold is taken paper by paper (paper_targets)
            groups.union(fold.variant, fold.into)
            name = shorts.name(fold.variant)
            notes += [Note(fold.variant, name, "acronym-variant", paper)
                      for paper in sorted(shorts.defined_in[fold.short, fold.variant])]
    for name, into, rule, paper in merges:
        a, b = group_form(name), group_form(into)
        if rule == "synonym-of" and not shorts.may_be_synonyms(name, a, into, b):
            refusals.add_relation(RelType.SYNONYM_OF.value, name, into, "not-synonyms", (paper,))
            continue
        groups.union(a, b)
        notes += [Note(a, name, rule, paper), Note(b, into, rule, paper)]
    return groups, notes
