"""Grow a MultiDiGraph from admitted papers (admit/): canonical entity nodes, paper nodes, evidence on edges.

The builder only assembles: admission decided paper by paper which mentions are names and which
relations may be edges. Papers are taken in as they come; entity nodes are made once all are in
(`finalize`), so that what a bare short form stands for, which names are one entity, its type and its
name are decided by the whole corpus (graph/resolve.py), the same whatever order the papers came in.
The corpus-level refusals (a synonym the corpus reads as two things, an edge whose ends its type does
not take) go into the same refusal table as admission's.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple, cast

import networkx as nx

from paperkg.admit.records import Admitted, AdmittedName
from paperkg.admit.refusals import RefusalTable
from paperkg.admit.relation_ends import edge_refusal, end_refusal
from paperkg.core.canonical import acronym_key, canonical_name, display_name, entity_key, group_form
from paperkg.core import graph_model as model
from paperkg.core.graph_model import EdgeAttrs, EntityNode, Evidence, PaperNode, paper_key
from paperkg.core.schema import (PAPER_REL_TYPES, RESULT_REL_TYPES, ROLE_STRENGTH, SCHEMA_KEY, SCHEMA_VERSION,
                                 SYMMETRIC_REL_TYPES, NodeLabel, PaperRecord, RelType, enum_member)

from .evidence import CompactEvidence, EvidenceFactory
from .metrics import add_metrics
from .results import PendingResult, add_results, pending_results
from .resolve import ShortForms, UnionFind, type_weight, vote_label, vote_name

MAX_EVIDENCE = 10  # evidence items kept per edge; `count` keeps the full number
MAX_MERGE_PAPERS = 5  # papers listed per merge on a node's `merged_from`; the count says how many
PAPER_FIELDS = ("title", "year", "venue", "url", "code_url", "source")


class _Use(NamedTuple):
    """One entity mention as the builder keeps it until the corpus has decided its node."""

    form: str            # the group form of its (repaired) name
    name: str            # the repaired name
    raw: str             # the name as extracted
    text: str
    label: str
    vote: float          # its weight in the type vote
    short: str | None    # the short form it defines (with `form` its long form) or, bare, stands for
    short_text: str      # that short form as written ('LLMs')
    bare: bool           # the mention is the short form alone
    rule: str            # the repair its name needed ('' for none)
    role: RelType
    evidence: CompactEvidence


class _Undefined(NamedTuple):
    """A short form seen without a definition in a paper."""

    short: str
    text: str
    evidence: CompactEvidence


@dataclass
class _Paper:
    """What one paper contributes, kept until `finalize`."""

    key: str
    id: str
    uses: list[_Use | None]      # aligned with the record's entities; None: not a node
    relations: list[tuple[int, int, RelType, CompactEvidence]]
    undefined: list[_Undefined]
    results: list[PendingResult] = field(default_factory=list)
    defines: dict[str, tuple[str, str]] = field(default_factory=dict)  # short form -> its long form's (form, name)


class GraphBuilder:
    """Adds papers once each (by id); `finalize` decides the entity nodes from all of them and computes metrics."""

    def __init__(self, graph: nx.MultiDiGraph | None = None) -> None:
        self.graph = graph if graph is not None else nx.MultiDiGraph()
        self.graph.graph[SCHEMA_KEY] = SCHEMA_VERSION
        self.papers: dict[str, _Paper] = {}
        self.merges: list[tuple[str, str, str, str]] = []  # (name, into, rule, paper)
        self.evidence = EvidenceFactory()
        self.refusals = RefusalTable()

    def add(self, admitted: Admitted) -> bool:
        """Add one admitted paper; False (and no change) if the paper is already in the graph."""
        record, paper = admitted.record, admitted.record.paper
        pkey = paper_key(paper.id)
        if pkey in self.graph:
            return False
        self._add_paper(pkey, paper)
        self.refusals.add_names(admitted.refused_names)
        self.refusals.add_relations(admitted.refused_relations)
        sentences = self.evidence.spans(paper.abstract, record.sentence_spans)
        evidence = self.evidence.make
        uses = [_use(name, evidence(paper.id, sentences[name.mention.sentence], name.mention.start, name.mention.end,
                                    name.mention.source, name.mention.confidence)) if name else None
                for name in admitted.names]
        for name, other in admitted.synonyms:
            self.merge(name, other, "synonym-of", paper.id)
        relations: list[tuple[int, int, RelType, CompactEvidence]] = []
        for rel in admitted.relations:
            head, tail = record.entities[rel.head], record.entities[rel.tail]
            relations.append((rel.head, rel.tail, rel.type, evidence(
                paper.id, sentences[rel.sentence], min(head.start, tail.start), max(head.end, tail.end),
                rel.source, rel.confidence)))
        undefined = [_Undefined(acronym_key(item.text), item.text, evidence(
            paper.id, sentences[item.sentence], item.start, item.end, "acronym-resolution", 0.6))
            for item in record.undefined_acronyms]
        entry = _Paper(pkey, paper.id, uses, relations, undefined,
                       pending_results(paper, record.results, sentences, lambda i: record.entities[i].sentence,
                                       self.evidence))
        for use in uses:
            if use is not None and use.short and not use.bare:
                entry.defines.setdefault(use.short, (use.form, use.name))
        self.papers[pkey] = entry
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
        groups = UnionFind()
        evidence: dict[str, dict[tuple[str, str], set[str]]] = defaultdict(lambda: defaultdict(set))
        for fold in shorts.fold_variants():
            if not fold.local:  # a local fold is taken paper by paper (`_targets`)
                groups.union(fold.variant, fold.into)
                evidence[fold.variant][shorts.name(fold.variant), "acronym-variant"] |= shorts.defined_in[
                    fold.short, fold.variant]
        targets: dict[str, list[str | None]] = {}
        for pkey in order:
            targets[pkey] = self._targets(self.papers[pkey], shorts, evidence)
        for name, into, rule, paper in self.merges:
            a, b = group_form(name), group_form(into)
            if rule == "synonym-of" and not shorts.may_be_synonyms(name, a, into, b):
                self.refusals.add_relation(RelType.SYNONYM_OF.value, name, into, "not-synonyms", (paper,))
                continue
            groups.union(a, b)
            evidence[a][name, rule].add(paper)
            evidence[b][into, rule].add(paper)
        existing = self._existing_nodes(groups)
        nodes = self._decide_nodes(order, targets, groups, evidence, existing)
        for pkey in order:
            self._add_edges(self.papers[pkey], [nodes[groups.find(t)] if t else None for t in targets[pkey]],
                            shorts, groups, nodes)
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
            entry = self.papers[pkey]
            context = {use.form for use in entry.uses if use is not None}
            for short, (form, name) in sorted(entry.defines.items()):
                shorts.define(short, form, name, context, entry.id)
        return shorts

    def _targets(self, entry: _Paper, shorts: ShortForms,
                 evidence: dict[str, dict[tuple[str, str], set[str]]]) -> list[str | None]:
        """The group form each use of a paper goes to: its own, or for a bare short form the paper's own
        definition, else the one the corpus gives it; repairs and resolutions noted as merge evidence."""
        context = {use.form for use in entry.uses if use is not None}
        qualified = _qualified_forms(entry.uses)
        targets: list[str | None] = []
        for use in entry.uses:
            if use is None:
                targets.append(None)
                continue
            target, rule = use.form, use.rule
            if use.bare and use.short:
                found = _resolve(use.short, entry, shorts, context)
                if found:
                    target, rule = found
            elif use.short and (use.short, use.form) in shorts.redirect:
                target, rule = shorts.redirect[use.short, use.form], "acronym-paper-variant"
            elif len(qualified.get(use.form, ())) == 1:
                target, rule = next(iter(qualified[use.form])), "head-ellipsis"
            if rule and rule != "acronym-own-definition":
                evidence[target][use.raw, rule].add(entry.id)
            targets.append(target)
        return targets

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

    def _decide_nodes(self, order: list[str], targets: dict[str, list[str | None]], groups: UnionFind,
                      evidence: dict[str, dict[tuple[str, str], set[str]]], existing: dict[str, str]) -> dict[str, str]:
        """One node per group of forms: its type by vote, its name by use; returns group root -> node key."""
        votes: dict[str, defaultdict[str, float]] = defaultdict(lambda: defaultdict(float))
        names: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        plain: dict[str, set[str]] = defaultdict(set)
        acronyms: dict[str, Counter[tuple[str, str]]] = defaultdict(Counter)
        for pkey in order:
            for use, target in zip(self.papers[pkey].uses, targets[pkey]):
                if use is None or target is None:
                    continue
                root = groups.find(target)
                votes[root][use.label] += use.vote
                if target == use.form or use.bare:  # a head standing for its qualified term names nothing
                    names[root][use.name].add(pkey)
                if not use.rule:
                    plain[root].add(use.name)
                if use.short and not use.bare:
                    acronyms[root][use.short, use.name] += 1
        nodes: dict[str, str] = {}
        for root in sorted(votes):
            if root in existing:
                nodes[root] = existing[root]
                continue
            label = vote_label(votes[root])
            name = display_name(vote_name(names[root], plain[root]), label)
            key = entity_key(label, name)
            nodes[root] = key
            if key not in self.graph:  # else another group goes by the same name ('XLM-R'): one node, both groups
                self.graph.add_node(key, **EntityNode(label=label, key=key, name=name, aliases=[], mentions=0,
                                                      canonical=canonical_name(name, label), papers=0, degree=0,
                                                      pagerank=0.0, community=-1))
            if root in acronyms:
                short, long = min(acronyms[root], key=lambda pair: (-acronyms[root][pair], pair))
                node = model.entity_attrs(self.graph, key)
                node.setdefault("acronym", short)
                node.setdefault("long_form", display_name(long, label))
        for form, items in sorted(evidence.items()):
            root = groups.find(form)
            if root in nodes:
                _note_merges(model.entity_attrs(self.graph, nodes[root]), items)
        return nodes

    def _add_edges(self, entry: _Paper, keys: list[str | None], shorts: ShortForms, groups: UnionFind,
                   nodes: dict[str, str]) -> None:
        """A paper's edges to its entities (one per entity, its strongest role), its relations, its results, and
        MENTIONS edges for the short forms it leaves undefined that the corpus resolves."""
        strongest: dict[str, RelType] = {}
        for use, key in zip(entry.uses, keys):
            if use is not None and key is not None:
                strongest[key] = max(use.role, strongest.get(key, RelType.MENTIONS), key=ROLE_STRENGTH.index)
                node = model.entity_attrs(self.graph, key)
                node["mentions"] += 1
                if not use.rule:  # a repaired name is no name it goes by; merged_from keeps it
                    _add_alias(node, use.text)
                if use.short and not use.bare and node.get("acronym"):
                    _add_alias(node, use.short_text)
        for use, key in zip(entry.uses, keys):
            if use is not None and key is not None:
                self._add_edge(entry.key, key, strongest[key], use.evidence)
        self._add_relations(entry, keys)
        add_results(self.graph, entry.key, entry.results, keys, self._add_edge)
        context = {use.form for use in entry.uses if use is not None}
        for item in entry.undefined:
            found = _resolve(item.short, entry, shorts, context)
            key = nodes.get(groups.find(found[0])) if found else None
            if key and not self.graph.has_edge(entry.key, key):
                node = model.entity_attrs(self.graph, key)
                node["mentions"] += 1
                _add_alias(node, item.text)
                self._add_edge(entry.key, key, RelType.MENTIONS, item.evidence)

    def _add_relations(self, entry: _Paper, keys: list[str | None]) -> None:
        """A paper's entity-entity edges: symmetric types in key order, and `papers` counting each paper
        once per edge."""
        touched: set[tuple[str, str, str]] = set()
        for head, tail, kind, evidence in entry.relations:
            source, target = keys[head], keys[tail]
            if source is None or target is None or source == target:
                self.refusals.add_relation(kind.value, entry.uses[head].raw, entry.uses[tail].raw,  # type: ignore[union-attr]
                                           "one-node", (evidence.paper,))
                continue
            if kind in SYMMETRIC_REL_TYPES:
                source, target = sorted((source, target))
            self._add_edge(source, target, kind, evidence)
            touched.add((source, target, kind.value))
        for edge in sorted(touched):
            data = model.edge_attrs(self.graph, *edge)
            assert data is not None
            data["papers"] = data.get("papers", 0) + 1

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

    def _add_paper(self, pkey: str, paper: PaperRecord) -> None:
        attrs = PaperNode(label=NodeLabel.PAPER.value, key=pkey, paper_id=paper.id, abstract=paper.abstract,
                          authors=list(paper.authors), name=paper.title or _short(paper.abstract), degree=0,
                          pagerank=0.0, community=-1)
        attrs.update({f: getattr(paper, f) for f in PAPER_FIELDS if getattr(paper, f) not in (None, "")})  # type: ignore[typeddict-item]
        self.graph.add_node(pkey, **attrs)

    def _add_edge(self, source: str, target: str, kind: RelType, evidence: CompactEvidence) -> None:
        data = model.edge_attrs(self.graph, source, target, kind.value)  # the edge's own dict, found once
        item = cast(Evidence, evidence)  # a read-only mapping with the Evidence fields (graph/evidence.py)
        if data is not None:
            data["count"] += 1
            data["confidence"] = max(data["confidence"], evidence.confidence)
            if len(data["evidence"]) < MAX_EVIDENCE and item not in data["evidence"]:
                data["evidence"].append(item)
        else:
            self.graph.add_edge(source, target, key=kind.value, **EdgeAttrs(
                type=kind.value, count=1, confidence=evidence.confidence, evidence=[item]))


def _use(name: AdmittedName, evidence: CompactEvidence) -> _Use:
    """An admitted name as the builder keeps it, with its type vote and evidence."""
    mention = name.mention
    label = mention.label.value if mention.label is not None else ""
    return _Use(name.form, name.name, mention.name, mention.text, label,
                type_weight(label, mention.source, mention.confidence), name.short, name.short_text, name.bare,
                name.rule, mention.role.rel_type, evidence)


def _resolve(short: str, entry: _Paper, shorts: ShortForms, context: set[str]) -> tuple[str, str] | None:
    """(group form, rule) a bare short form stands for in this paper: its own definition, else the corpus'."""
    if short in entry.defines:
        form = entry.defines[short][0]
        return shorts.redirect.get((short, form), form), "acronym-own-definition"
    return shorts.resolve(short, context)


def _qualified_forms(uses: list[_Use | None]) -> dict[str, set[str]]:
    """For each one-word name of a paper that ends another of its names ('translation', 'machine
    translation'), the forms of the shortest such names: a paper's bare head stands for its qualified
    term when it has one ('neural machine translation' is a kind of it, not another reading)."""
    names = {canonical_name(use.name): use.form for use in uses if use is not None and not use.bare}
    longer: dict[str, list[str]] = defaultdict(list)
    for name in names:
        head = name.rpartition(" ")[2]
        if head != name and head in names:
            longer[head].append(name)
    return {names[head]: {names[name] for name in found
                          if not any(name.endswith(" " + other) for other in found)}
            for head, found in longer.items()}


def _note_merges(node: EntityNode, items: dict[tuple[str, str], set[str]]) -> None:
    """Add 'name [rule: papers]' lines to the node's `merged_from` for the other names merged into it."""
    lines = set(node.get("merged_from", []))
    for (name, rule), papers in items.items():
        if name == node["name"]:
            continue
        listed = sorted(p for p in papers if p)
        more = f" +{len(listed) - MAX_MERGE_PAPERS}" if len(listed) > MAX_MERGE_PAPERS else ""
        lines.add(f"{name} [{rule}: {', '.join(listed[:MAX_MERGE_PAPERS])}{more}]")
    if lines:
        node["merged_from"] = sorted(lines)


def _add_alias(node: EntityNode, alias: str) -> None:
    aliases = node["aliases"]
    if alias not in aliases:
        aliases.append(alias)
        aliases.sort()


def _short(text: str, words: int = 10) -> str:
    parts = text.split()
    return " ".join(parts[:words]) + ("…" if len(parts) > words else "")
