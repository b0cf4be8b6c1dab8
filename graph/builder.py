"""Grow a MultiDiGraph from extraction records: canonical entity nodes, paper nodes, evidence on edges."""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

import networkx as nx

from .canonical import acronym_key, canonical_name, display_name, entity_key, match_form, paper_key
from .metrics import add_metrics

ROLE_TO_EDGE = {"proposes": "PROPOSES", "addresses": "ADDRESSES", "evaluates_on": "EVALUATES_ON",
                "mentions": "MENTIONS"}
EDGE_STRENGTH = ["MENTIONS", "ADDRESSES", "EVALUATES_ON", "PROPOSES"]
MAX_EVIDENCE = 10  # evidence items kept per edge; `count` keeps the full number
PAPER_FIELDS = ("title", "year", "venue", "url", "code_url", "source")


class GraphBuilder:
    """Adds papers once each (by id), merges entities by canonical key and acronym, then finalises metrics."""

    def __init__(self, graph: nx.MultiDiGraph | None = None) -> None:
        self.graph = graph if graph is not None else nx.MultiDiGraph()
        self.by_name: dict[str, str] = {}
        self.by_acronym: dict[str, set[str]] = defaultdict(set)
        self.pending: list[tuple[str, dict[str, Any]]] = []
        for key, data in self.graph.nodes(data=True):
            if data.get("label") != "Paper":
                self.by_name.setdefault(match_form(key.split(":", 1)[1]), key)
                if data.get("acronym"):
                    self.by_acronym[acronym_key(data["acronym"])].add(key)

    def add(self, record: dict[str, Any]) -> bool:
        """Add one paper's extraction record; False (and no change) if the paper is already in the graph."""
        paper = record["paper"]
        pkey = paper_key(paper["id"])
        if pkey in self.graph:
            return False
        self._add_paper(pkey, paper)
        sentences = record["sentences"]
        keys = [self._add_entity(mention) for mention in record["entities"]]
        strongest: dict[str, str] = {}
        for mention, key in zip(record["entities"], keys):
            edge = ROLE_TO_EDGE[mention["role"]]
            strongest[key] = max(edge, strongest.get(key, "MENTIONS"), key=EDGE_STRENGTH.index)
        for mention, key in zip(record["entities"], keys):
            self._add_edge(pkey, key, strongest[key], _evidence(paper["id"], sentences, mention))
        for rel in record["relations"]:
            head, tail = keys[rel["head"]], keys[rel["tail"]]
            if head != tail:
                ends = (record["entities"][rel["head"]], record["entities"][rel["tail"]])
                self._add_edge(head, tail, rel["type"], _evidence(paper["id"], sentences, {
                    **rel, "start": min(e["start"] for e in ends), "end": max(e["end"] for e in ends)}))
        for item in record.get("undefined_acronyms", []):
            self.pending.append((pkey, {**item, "paper": paper["id"], "sentence_text": sentences[item["sentence"]]}))
        return True

    def add_all(self, records: Iterable[dict[str, Any]]) -> int:
        """Add many records; returns how many papers were new."""
        return sum(self.add(record) for record in records)

    def finalize(self) -> nx.MultiDiGraph:
        """Link undefined acronyms that one known definition resolves, then recompute counts and metrics."""
        for pkey, item in self.pending:
            targets = self.by_acronym.get(acronym_key(item["text"]), set())
            if len(targets) == 1:
                target = next(iter(targets))
                if not self.graph.has_edge(pkey, target):
                    self.graph.nodes[target]["mentions"] += 1
                    self._add_alias(target, item["text"])
                    self._add_edge(pkey, target, "MENTIONS", {
                        "paper": item["paper"], "sentence": item["sentence_text"], "start": item["start"],
                        "end": item["end"], "extractor": "acronym-resolution", "confidence": 0.6})
        self.pending.clear()
        for key, data in self.graph.nodes(data=True):
            if data["label"] != "Paper":
                data["papers"] = sum(1 for p in self.graph.predecessors(key) if p.startswith("paper:"))
        add_metrics(self.graph)
        return self.graph

    def _add_paper(self, pkey: str, paper: dict[str, Any]) -> None:
        attrs = {"label": "Paper", "key": pkey, "paper_id": paper["id"], "abstract": paper["abstract"],
                 "authors": list(paper.get("authors") or []), "name": paper.get("title") or _short(paper["abstract"])}
        attrs.update({f: paper[f] for f in PAPER_FIELDS if paper.get(f) not in (None, "")})
        self.graph.add_node(pkey, **attrs)

    def _add_entity(self, mention: dict[str, Any]) -> str:
        label, name = mention["label"], mention["name"]
        forms = _name_forms(name, label)
        key = (next((self.by_name[f] for f in forms if f in self.by_name), None)
               or self._acronym_match(mention) or entity_key(label, name))
        if key not in self.graph:
            self.graph.add_node(key, label=label, key=key, name=display_name(name, label), aliases=[], mentions=0)
            self.by_name.update(dict.fromkeys(forms, key))
        node = self.graph.nodes[key]
        node["mentions"] += 1
        self._add_alias(key, mention["text"])
        if mention.get("acronym") and canonical_name(mention["acronym"]) != canonical_name(name):
            node.setdefault("acronym", acronym_key(mention["acronym"]))
            node.setdefault("long_form", display_name(name, label))
            self._add_alias(key, mention["acronym"])
            self.by_acronym[acronym_key(mention["acronym"])].add(key)
        return key

    def _acronym_match(self, mention: dict[str, Any]) -> str | None:
        """A bare short form ('NAIAD' proposed, no long form) joins the one node that has it as acronym."""
        if mention.get("acronym") and canonical_name(mention["acronym"]) == canonical_name(mention["name"]):
            targets = self.by_acronym.get(acronym_key(mention["acronym"]), set())
            if len(targets) == 1:
                return next(iter(targets))
        return None

    def _add_alias(self, key: str, alias: str) -> None:
        aliases = self.graph.nodes[key]["aliases"]
        if alias not in aliases:
            aliases.append(alias)
            aliases.sort()

    def _add_edge(self, source: str, target: str, kind: str, evidence: dict[str, Any]) -> None:
        if self.graph.has_edge(source, target, key=kind):
            data = self.graph.edges[source, target, kind]
            data["count"] += 1
            data["confidence"] = max(data["confidence"], evidence["confidence"])
            if len(data["evidence"]) < MAX_EVIDENCE and evidence not in data["evidence"]:
                data["evidence"].append(evidence)
        else:
            self.graph.add_edge(source, target, key=kind, type=kind, count=1,
                                confidence=evidence["confidence"], evidence=[evidence])


def _name_forms(name: str, label: str) -> list[str]:
    """The forms an entity name is indexed and looked up under: as its type writes it, and singular."""
    return list(dict.fromkeys(match_form(canonical_name(name, lab)) for lab in (label, None)))


def _evidence(paper_id: str, sentences: list[str], item: dict[str, Any]) -> dict[str, Any]:
    return {"paper": paper_id, "sentence": sentences[item["sentence"]], "start": item["start"], "end": item["end"],
            "extractor": item["source"], "confidence": round(float(item["confidence"]), 4)}


def _short(text: str, words: int = 10) -> str:
    parts = text.split()
    return " ".join(parts[:words]) + ("…" if len(parts) > words else "")
