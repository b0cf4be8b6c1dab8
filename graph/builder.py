"""Grow a MultiDiGraph from extraction records: canonical entity nodes (from the mentions that read as
terms), paper nodes, evidence on edges."""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

import networkx as nx

from paperkg.core.schema import (PAPER_REL_TYPES, ROLE_STRENGTH, SCHEMA_KEY, SCHEMA_VERSION,
                                 SYMMETRIC_REL_TYPES, Extraction, Mention, NodeLabel, PaperRecord, RelType,
                                 relation_allowed)

from .canonical import acronym_key, canonical_name, display_name, entity_key, match_form, paper_key
from .evidence import CompactEvidence, EvidenceFactory
from .merge import MAX_EVIDENCE, merge_into, representative, union_groups
from .metrics import add_metrics

SYNONYM_MIN_CONFIDENCE = 0.8  # a SYNONYM_OF relation merges two nodes only when at least this sure
PAPER_FIELDS = ("title", "year", "venue", "url", "code_url", "source")


@dataclass(frozen=True)
class _PendingAcronym:
    """An undefined short form in a paper, resolved against the whole corpus when the graph is finalised."""

    paper_node: str
    text: str
    evidence: CompactEvidence


class GraphBuilder:
    """Adds papers once each (by id), merges entities by canonical key and acronym, then finalises metrics."""

    def __init__(self, graph: nx.MultiDiGraph | None = None) -> None:
        self.graph = graph if graph is not None else nx.MultiDiGraph()
        self.graph.graph[SCHEMA_KEY] = SCHEMA_VERSION
        self.by_name: dict[str, str] = {}
        self.by_acronym: dict[str, set[str]] = defaultdict(set)
        self.pending: list[_PendingAcronym] = []
        self.synonyms: list[tuple[str, str, CompactEvidence]] = []
        self.evidence = EvidenceFactory()
        for key, data in self.graph.nodes(data=True):
            if data.get("label") != NodeLabel.PAPER:
                self.by_name.setdefault(match_form(data["canonical"]), key)
                for merged in data.get("merged_from", []):
                    self.by_name.setdefault(match_form(canonical_name(merged.rsplit(" (", 1)[0], data["label"])), key)
                if data.get("acronym"):
                    self.by_acronym[acronym_key(data["acronym"])].add(key)

    def add(self, record: Extraction) -> bool:
        """Add one paper's extraction record; False (and no change) if the paper is already in the graph."""
        paper = record.paper
        pkey = paper_key(paper.id)
        if pkey in self.graph:
            return False
        self._add_paper(pkey, paper)
        sentences = self.evidence.spans(paper.abstract, record.sentences)
        evidence = self.evidence.make
        keys = [self._add_entity(mention) if mention.node else None for mention in record.entities]
        nodes = [(mention, key) for mention, key in zip(record.entities, keys) if key is not None]
        strongest: dict[str, RelType] = {}
        for mention, key in nodes:
            edge = mention.role.rel_type
            strongest[key] = max(edge, strongest.get(key, RelType.MENTIONS), key=ROLE_STRENGTH.index)
        for mention, key in nodes:
            self._add_edge(pkey, key, strongest[key], evidence(paper.id, sentences[mention.sentence], mention.start,
                                                               mention.end, mention.source, mention.confidence))
        self._add_relations(record, keys, sentences)
        for item in record.undefined_acronyms:
            self.pending.append(_PendingAcronym(pkey, item.text, evidence(
                paper.id, sentences[item.sentence], item.start, item.end, "acronym-resolution", 0.6)))
        return True

    def _add_relations(self, record: Extraction, keys: list[str | None], sentences: list[tuple[str, int, int]]) -> None:
        """Entity-entity edges (symmetric types in key order; `papers` counts each paper once per edge);
        SYNONYM_OF pairs wait for finalize, which merges them."""
        touched: set[tuple[str, str, str]] = set()
        for rel in record.relations:
            head, tail = keys[rel.head], keys[rel.tail]
            if head is None or tail is None or head == tail:
                continue
            ends = (record.entities[rel.head], record.entities[rel.tail])
            evidence = self.evidence.make(record.paper.id, sentences[rel.sentence], min(e.start for e in ends),
                                          max(e.end for e in ends), rel.source, rel.confidence)
            if rel.type is RelType.SYNONYM_OF:
                if rel.confidence >= SYNONYM_MIN_CONFIDENCE:
                    self.synonyms.append((head, tail, evidence))
                continue
            if rel.type in SYMMETRIC_REL_TYPES:
                head, tail = sorted((head, tail))
            self._add_edge(head, tail, rel.type, evidence)
            touched.add((head, tail, rel.type.value))
        for edge in touched:
            data = self.graph.edges[edge]
            data["papers"] = data.get("papers", 0) + 1

    def add_all(self, records: Iterable[Extraction]) -> int:
        """Add many records; returns how many papers were new."""
        return sum(self.add(record) for record in records)

    def finalize(self) -> nx.MultiDiGraph:
        """Link undefined acronyms that one known definition resolves, then recompute counts and metrics."""
        for item in self.pending:
            targets = self.by_acronym.get(acronym_key(item.text), set())
            if len(targets) == 1:
                target = next(iter(targets))
                if not self.graph.has_edge(item.paper_node, target):
                    self.graph.nodes[target]["mentions"] += 1
                    self._add_alias(target, item.text)
                    self._add_edge(item.paper_node, target, RelType.MENTIONS, item.evidence)
        self.pending.clear()
        self._merge_synonyms()
        self._drop_misfit_relations()
        papers = {node for node, label in self.graph.nodes(data="label") if label == NodeLabel.PAPER}
        for key, data in self.graph.nodes(data=True):
            if data["label"] != NodeLabel.PAPER:
                data["papers"] = sum(1 for p in self.graph.pred[key] if p in papers)
        add_metrics(self.graph)
        return self.graph

    def _merge_synonyms(self) -> None:
        """Join the nodes SYNONYM_OF ties (same label only) into one, order independent: groups by union-find,
        each into its node in the most papers."""
        labels = self.graph.nodes(data="label")
        support = {}
        for head, tail, evidence in self.synonyms:
            if head in self.graph and tail in self.graph and labels[head] == labels[tail]:
                pair = (min(head, tail), max(head, tail))
                support[pair] = min(support.get(pair, evidence), evidence, key=_evidence_order)
        for group in union_groups(support):
            keep = representative(self.graph, group)
            for drop in group:
                if drop != keep:
                    pair = (min(keep, drop), max(keep, drop))
                    merge_into(self.graph, keep, drop, "synonym", support.get(pair))
                    self.by_name.update({form: keep for form, key in self.by_name.items() if key == drop})
        self.synonyms.clear()

    def _drop_misfit_relations(self) -> None:
        """Remove entity-entity edges whose end labels their type does not allow (entity types are final now)."""
        labels = self.graph.nodes(data="label")
        misfits = [(u, v, k) for u, v, k in self.graph.edges(keys=True)
                   if RelType(k) not in PAPER_REL_TYPES and not relation_allowed(RelType(k), labels[u], labels[v])]
        self.graph.remove_edges_from(misfits)

    def _add_paper(self, pkey: str, paper: PaperRecord) -> None:
        attrs = {"label": NodeLabel.PAPER.value, "key": pkey, "paper_id": paper.id, "abstract": paper.abstract,
                 "authors": list(paper.authors), "name": paper.title or _short(paper.abstract)}
        attrs.update({f: getattr(paper, f) for f in PAPER_FIELDS if getattr(paper, f) not in (None, "")})
        self.graph.add_node(pkey, **attrs)

    def _add_entity(self, mention: Mention) -> str:
        label, name = mention.label.value, mention.name
        forms = _name_forms(name, label)
        key = (next((self.by_name[f] for f in forms if f in self.by_name), None)
               or self._acronym_match(mention) or entity_key(label, name))
        if key not in self.graph:
            self.graph.add_node(key, label=label, key=key, name=display_name(name, label),
                                canonical=canonical_name(name, label), aliases=[], mentions=0)
            self.by_name.update(dict.fromkeys(forms, key))
        node = self.graph.nodes[key]
        node["mentions"] += 1
        self._add_alias(key, mention.text)
        if mention.acronym and canonical_name(mention.acronym) != canonical_name(name):
            node.setdefault("acronym", acronym_key(mention.acronym))
            node.setdefault("long_form", display_name(name, label))
            self._add_alias(key, mention.acronym)
            self.by_acronym[acronym_key(mention.acronym)].add(key)
        return key

    def _acronym_match(self, mention: Mention) -> str | None:
        """A bare short form ('NAIAD' proposed, no long form) joins the one node that has it as acronym."""
        if mention.acronym and canonical_name(mention.acronym) == canonical_name(mention.name):
            targets = self.by_acronym.get(acronym_key(mention.acronym), set())
            if len(targets) == 1:
                return next(iter(targets))
        return None

    def _add_alias(self, key: str, alias: str) -> None:
        aliases = self.graph.nodes[key]["aliases"]
        if alias not in aliases:
            aliases.append(alias)
            aliases.sort()

    def _add_edge(self, source: str, target: str, kind: RelType, evidence: CompactEvidence) -> None:
        if self.graph.has_edge(source, target, key=kind.value):
            data = self.graph.edges[source, target, kind.value]
            data["count"] += 1
            data["confidence"] = max(data["confidence"], evidence.confidence)
            if len(data["evidence"]) < MAX_EVIDENCE and evidence not in data["evidence"]:
                data["evidence"].append(evidence)
        else:
            self.graph.add_edge(source, target, key=kind.value, type=kind.value, count=1,
                                confidence=evidence.confidence, evidence=[evidence])


def _evidence_order(evidence: CompactEvidence) -> tuple[str, int]:
    """Which of two pieces of evidence for a merge is kept: the first paper, then the first position."""
    return (evidence.paper, evidence.start)


@lru_cache(maxsize=1 << 16)  # names repeat across papers
def _name_forms(name: str, label: str) -> tuple[str, ...]:
    """The forms an entity name is indexed and looked up under: as its type writes it, and singular."""
    return tuple(dict.fromkeys(match_form(canonical_name(name, lab)) for lab in (label, None)))


def _short(text: str, words: int = 10) -> str:
    parts = text.split()
    return " ".join(parts[:words]) + ("…" if len(parts) > words else "")
