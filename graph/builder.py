"""Grow a MultiDiGraph from admitted papers (admit/): canonical entity nodes, paper nodes, evidence on edges.

The builder only assembles: admission decided paper by paper which mentions are names and which
relations may be edges. Papers are taken in as they come; entity nodes are made once all are in
(`finalize`), so that what a bare short form stands for, which names are one entity, its type and its
name are decided by the whole corpus (graph/resolve.py), the same whatever order the papers came in.
Each decision is a function of decisions.py over per-name tables, the same functions the assembly on
Dask (assembly.py) calls on a partition's or a bucket's tables. The corpus-level refusals (a synonym the
corpus reads as two things, an edge whose ends its type does not take) go into the same refusal table
as admission's.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from functools import lru_cache

import networkx as nx

from paperkg.admit.records import Admitted
from paperkg.admit.refusals import RefusalTable
from paperkg.admit.relation_ends import edge_refusal, end_refusal
from paperkg.core.canonical import group_form
from paperkg.core import graph_model as model
from paperkg.core.graph_model import EdgeAttrs, paper_key
from paperkg.core.schema import PAPER_REL_TYPES, RESULT_REL_TYPES, SCHEMA_KEY, SCHEMA_VERSION, RelType, enum_member

from .decisions import (MAX_EVIDENCE, NameVotes, NodeChoice, Note, PaperUses, Target, add_aliases, decide_node,
                        define_short_forms, entity_node, intake, merge_edges, paper_edges, paper_node,
                        paper_relations, paper_targets, resolve_short)
from .evidence import EvidenceFactory
from .metrics import add_metrics
from .resolve import ShortForms, UnionFind
from .results import result_graph

__all__ = ["MAX_EVIDENCE", "GraphBuilder", "corpus_groups"]


class GraphBuilder:
    """Adds papers once each (by id); `finalize` decides the entity nodes from all of them and computes metrics."""

    def __init__(self, graph: nx.MultiDiGraph | None = None) -> None:
        self.graph = graph if graph is not None else nx.MultiDiGraph()
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
        relations: dict[tuple[str, str, str], EdgeAttrs] = {}
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
        for (source, target, kind), edge in relations.items():
            self.graph.add_edge(source, target, key=kind, **edge)
        self.papers.clear()
        self.merges.clear()
        self._drop_misfit_relations()
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
                         relations: dict[tuple[str, str, str], EdgeAttrs]) -> None:
        """A paper's edges (decisions.paper_edges) into the graph; its relations into `relations`, joined
        with the earlier papers' (papers come in id order)."""
        found = paper_edges(entry, keys, undefined)
        for key, count in found.mentions.items():
            node = model.entity_attrs(self.graph, key)
            node["mentions"] += count
            add_aliases(node, found.aliases.get(key, set()))
        for (key, kind), data in found.roles.items():
            self.graph.add_edge(entry.key, key, key=kind, **data)
        for kind, head, tail, paper in found.one_node:
            self.refusals.add_relation(kind, head, tail, "one-node", (paper,))
        for edge, data in paper_relations(found.relations).items():
            relations[edge] = merge_edges(relations[edge], data) if edge in relations else data

    def _add_results(self, entry: PaperUses, keys: list[Target | None]) -> None:
        """A paper's result nodes and their edges (results.result_graph)."""
        ends = [(key.key, model.node_attrs(self.graph, key.key)["label"]) if key else None for key in keys]
        nodes, edges = result_graph(entry.key, entry.results, ends)
        self.graph.add_nodes_from(nodes)
        for source, target, kind, data in edges:
            self.graph.add_edge(source, target, key=kind, **data)

    def _drop_misfit_relations(self) -> None:
        """Remove entity-entity edges whose end labels their type does not allow, or with an end that is no
        thing to relate (a quality, a language in a Dataset slot: relation_ends.py), noting each as refused;
        entity types are final now (a paper's roles and a result's edges are no entity-entity relations)."""
        nodes = dict(model.nodes(self.graph))
        refused = lru_cache(maxsize=None)(end_refusal)  # each node judged once
        misfits = []
        for u, v, k, data in model.edges(self.graph):
            if (kind := enum_member(RelType, k)) in PAPER_REL_TYPES or kind in RESULT_REL_TYPES:
                continue
            reason = edge_refusal(kind, (nodes[u]["name"], nodes[u]["label"]), (nodes[v]["name"], nodes[v]["label"]),
                                  refused)
            if reason:
                misfits.append((u, v, k))
                self.refusals.add_relation(k, nodes[u]["name"], nodes[v]["name"], reason,
                                           {item["paper"] for item in data["evidence"]}, data["count"])
        self.graph.remove_edges_from(misfits)


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
