"""Hover cards for the HTML view, as plain data (the page turns them into DOM text, never HTML).

A card is {"name", "type", "rows": [[field, value], ...], "evidence": {...}?}; every value is a
string so the page only ever assigns `textContent`.
"""
from __future__ import annotations

from typing import Any, Iterable

import networkx as nx

MAX_LIST_ITEMS = 8
MAX_SENTENCE_CHARS = 400


def _listing(items: Iterable[str]) -> str:
    """Items joined with commas, cut after MAX_LIST_ITEMS with a count of the rest."""
    items = list(items)
    shown = ", ".join(items[:MAX_LIST_ITEMS])
    rest = len(items) - MAX_LIST_ITEMS
    return f"{shown}, … (+{rest} more)" if rest > 0 else shown


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _surfaces(attrs: dict[str, Any]) -> set[str]:
    """Lower-cased forms a sentence may use for the node."""
    forms = [attrs.get("name", ""), attrs.get("acronym", ""), attrs.get("long_form", "")]
    forms.extend(attrs.get("aliases", []))
    return {form.lower() for form in forms if form}


def best_evidence(records: Iterable[tuple[str, dict[str, Any]]],
                  surfaces: set[str]) -> dict[str, str] | None:
    """The evidence to show: one naming the node if any, then the most confident, then stable order.

    `records` are (relationship type, evidence dict) pairs from the incident edges.
    """
    def rank(item: tuple[str, dict[str, Any]]) -> tuple:
        rel_type, ev = item
        sentence = str(ev.get("sentence", ""))
        names_node = any(form in sentence.lower() for form in surfaces)
        return (not names_node, -float(ev.get("confidence", 0.0)), str(ev.get("paper", "")),
                int(ev.get("start", 0)), sentence, rel_type)

    best = min((item for item in records if item[1].get("sentence")), key=rank, default=None)
    if best is None:
        return None
    rel_type, ev = best
    return {"sentence": _clip(str(ev["sentence"]), MAX_SENTENCE_CHARS),
            "source": f"{rel_type} · paper {ev.get('paper', '?')} · {ev.get('extractor', '?')}"}


def _distinct_ignoring_case(forms: Iterable[str], exclude: str) -> list[str]:
    """Forms that differ other than by case (the most lower-case spelling wins), minus `exclude`."""
    chosen: dict[str, str] = {exclude.lower(): exclude}
    for form in sorted(forms, key=lambda form: (form.lower(), form.swapcase())):
        chosen.setdefault(form.lower(), form)
    del chosen[exclude.lower()]
    return sorted(chosen.values(), key=str.lower)


def _entity_rows(attrs: dict[str, Any]) -> list[list[str]]:
    rows = []
    if attrs.get("acronym") and attrs.get("long_form"):
        rows.append(["Acronym", f"{attrs['acronym']} = {attrs['long_form']}"])
    aliases = _distinct_ignoring_case(attrs.get("aliases", []), exclude=str(attrs.get("name", "")))
    if aliases:
        rows.append(["Aliases", _listing(aliases)])
    rows.append(["Mentions", str(attrs.get("mentions", 0))])
    rows.append(["Papers", str(attrs.get("papers", 0))])
    return rows


def _paper_rows(attrs: dict[str, Any]) -> list[list[str]]:
    rows = [["Paper id", str(attrs.get("paper_id", ""))]]
    rows.extend([field.capitalize(), str(attrs[field])]
                for field in ("title", "year", "venue") if field in attrs)
    if attrs.get("authors"):
        rows.append(["Authors", _listing(attrs["authors"])])
    rows.extend([label, str(attrs[field])] for field, label in
                (("url", "URL"), ("code_url", "Code"), ("source", "Source")) if attrs.get(field))
    return rows


def _metric_rows(attrs: dict[str, Any]) -> list[list[str]]:
    rows = [["Degree", str(attrs.get("degree", 0))],
            ["PageRank", f"{float(attrs.get('pagerank', 0.0)):.4f}"]]
    if "community" in attrs:
        rows.append(["Community", str(attrs["community"])])
    return rows


def node_card(graph: nx.MultiDiGraph, node: str) -> dict[str, Any]:
    """The hover card of a node: name, type, aliases, acronym expansion, counts, one evidence."""
    attrs = graph.nodes[node]
    label = str(attrs.get("label", "Node"))
    rows = _paper_rows(attrs) if label == "Paper" else _entity_rows(attrs)
    card: dict[str, Any] = {"name": str(attrs.get("name", node)), "type": label,
                            "rows": rows + _metric_rows(attrs)}
    incident = [*graph.in_edges(node, keys=True, data=True),
                *graph.out_edges(node, keys=True, data=True)]
    evidence = best_evidence(((key, ev) for _, _, key, data in incident
                              for ev in data.get("evidence", [])), _surfaces(attrs))
    if evidence:
        card["evidence"] = evidence
    return card


def _name(graph: nx.MultiDiGraph, node: str) -> str:
    return str(graph.nodes[node].get("name", node))


def edge_card(graph: nx.MultiDiGraph, source: str, target: str, key: str) -> dict[str, Any]:
    """The hover card of an edge: its type, ends, count, confidence and one evidence sentence."""
    data = graph.edges[source, target, key]
    records = data.get("evidence", [])
    rows = [["From", _name(graph, source)], ["To", _name(graph, target)],
            ["Count", str(data.get("count", len(records)))],
            ["Confidence", f"{float(data.get('confidence', 0.0)):.2f}"],
            ["Papers", str(len({ev.get("paper") for ev in records}))]]
    card: dict[str, Any] = {"name": f"{_name(graph, source)} → {_name(graph, target)}",
                            "type": str(data.get("type", key)), "rows": rows}
    surfaces = _surfaces(graph.nodes[target]) | _surfaces(graph.nodes[source])
    evidence = best_evidence(((key, ev) for ev in records), surfaces)
    if evidence:
        card["evidence"] = evidence
    return card
