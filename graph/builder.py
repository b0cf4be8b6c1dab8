"""Grow a MultiDiGraph from extraction records: canonical entity nodes (from the mentions that read as
terms), paper nodes, evidence on edges."""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

import networkx as nx

from paperkg.core.schema import (PAPER_REL_TYPES, ROLE_STRENGTH, SCHEMA_KEY, SCHEMA_VERSION, Extraction,
                                 Mention, NodeLabel, PaperRecord, RelType, relation_allowed)

from .canonical import acronym_key, canonical_name, display_name, entity_key, match_form, paper_key
from .evidence import CompactEvidence, EvidenceFactory
from .metrics import add_metrics

MAX_EVIDENCE = 10  # evidence items kept per edge; `count` keeps the full number
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
        self.evidence = EvidenceFactory()
        for key, data in self.graph.nodes(data=True):
            if data.get("label") != NodeLabel.PAPER:
                self.by_name.setdefault(match_form(data["canonical"]), key)
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
        for rel in record.relations:
            head, tail = keys[rel.head], keys[rel.tail]
            if head is not None and tail is not None and head != tail:
                ends = (record.entities[rel.head], record.entities[rel.tail])
                self._add_edge(head, tail, rel.type, evidence(
                    paper.id, sentences[rel.sentence], min(e.start for e in ends), max(e.end for e in ends),
                    rel.source, rel.confidence))
        for item in record.undefined_acronyms:
            self.pending.append(_PendingAcronym(pkey, item.text, evidence(
                paper.id, sentences[item.sentence], item.start, item.end, "acronym-resolution", 0.6)))
        return True

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
        self._drop_misfit_relations()
        papers = {node for node, label in self.graph.nodes(data="label") if label == NodeLabel.PAPER}
        for key, data in self.graph.nodes(data=True):
            if data["label"] != NodeLabel.PAPER:
                data["papers"] = sum(1 for p in self.graph.pred[key] if p in papers)
        add_metrics(self.graph)
        return self.graph

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


@lru_cache(maxsize=1 << 16)  # names repeat across papers
def _name_forms(name: str, label: str) -> tuple[str, ...]:
    """The forms an entity name is indexed and looked up under: as its type writes it, and singular."""
    return tuple(dict.fromkeys(match_form(canonical_name(name, lab)) for lab in (label, None)))


def _short(text: str, words: int = 10) -> str:
    parts = text.split()
    return " ".join(parts[:words]) + ("…" if len(parts) > words else "")
