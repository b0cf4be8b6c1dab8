"""Merging two names of one thing into one node: SYNONYM_OF relations (and any other resolution that finds
two nodes to be the same) join them, edges and aliases included, with the evidence of the merge kept."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import networkx as nx

from paperkg.core.schema import PAPER_REL_TYPES, ROLE_STRENGTH, NodeLabel, RelType

MAX_EVIDENCE = 10  # evidence items kept per edge; `count` keeps the full number


def union_groups(pairs: Iterable[tuple[str, str]]) -> list[list[str]]:
    """Connected groups of the pairs (union-find), each sorted, in sorted order: independent of pair order."""
    parent: dict[str, str] = {}

    def find(node: str) -> str:
        root = node
        while parent.setdefault(root, root) != root:
            root = parent[root]
        while parent[node] != root:
            parent[node], node = root, parent[node]
        return root

    for a, b in pairs:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    groups: dict[str, list[str]] = {}
    for node in sorted(parent):
        groups.setdefault(find(node), []).append(node)
    return sorted(group for group in groups.values() if len(group) > 1)


def representative(graph: nx.MultiDiGraph, group: list[str]) -> str:
    """The node a group merges into: in the most papers, then mentions, then the shortest key (deterministic)."""
    def rank(node: str) -> tuple[Any, ...]:
        papers = sum(1 for p in graph.pred[node] if graph.nodes[p].get("label") == NodeLabel.PAPER.value)
        return (papers, graph.nodes[node].get("mentions", 0), -len(node), _reverse(node))
    return max(group, key=rank)


def _reverse(key: str) -> tuple[int, ...]:
    """Sort key that prefers the alphabetically first key under max()."""
    return tuple(-ord(c) for c in key)


def merge_into(graph: nx.MultiDiGraph, keep: str, drop: str, rule: str, evidence: Mapping[str, Any] | None) -> None:
    """Move `drop`'s edges, aliases and mentions onto `keep` and delete `drop`; the merge is recorded on `keep`
    as `merged_from` ("name (rule)") and `merge_papers` (the paper whose sentence supports it, if any)."""
    kept, dropped = graph.nodes[keep], graph.nodes[drop]
    for source, _, key, data in list(graph.in_edges(drop, keys=True, data=True)):
        if source != keep:
            _add_or_combine(graph, source, keep, key, data)
    for _, target, key, data in list(graph.out_edges(drop, keys=True, data=True)):
        if target != keep:
            _add_or_combine(graph, keep, target, key, data)
    kept["mentions"] = kept.get("mentions", 0) + dropped.get("mentions", 0)
    kept["aliases"] = sorted(set(kept.get("aliases", [])) | set(dropped.get("aliases", [])) | {dropped["name"]})
    for attr in ("acronym", "long_form"):
        if attr in dropped:
            kept.setdefault(attr, dropped[attr])
    kept["merged_from"] = sorted({*kept.get("merged_from", []), f"{dropped['name']} ({rule})",
                                  *dropped.get("merged_from", [])})
    if evidence is not None:
        kept["merge_papers"] = sorted({*kept.get("merge_papers", []), str(evidence["paper"])})
    graph.remove_node(drop)
    _one_role_per_paper(graph, keep)


def _one_role_per_paper(graph: nx.MultiDiGraph, node: str) -> None:
    """A paper keeps one edge to an entity, of its strongest role (two merged names may have had two)."""
    for paper in list(graph.pred[node]):
        roles = [RelType(key) for key in graph.pred[node][paper] if RelType(key) in PAPER_REL_TYPES]
        if len(roles) > 1:
            strongest = max(roles, key=ROLE_STRENGTH.index)
            graph.remove_edges_from([(paper, node, role.value) for role in roles if role is not strongest])


def _add_or_combine(graph: nx.MultiDiGraph, source: str, target: str, key: str, data: dict[str, Any]) -> None:
    """Add an edge, or fold it into the edge of the same type that is already there."""
    if not graph.has_edge(source, target, key=key):
        graph.add_edge(source, target, key=key, **data)
        return
    into = graph.edges[source, target, key]
    into["count"] += data["count"]
    into["confidence"] = max(into["confidence"], data["confidence"])
    if "papers" in into or "papers" in data:
        into["papers"] = max(into.get("papers", 0), data.get("papers", 0))
    for item in data["evidence"]:
        if len(into["evidence"]) < MAX_EVIDENCE and item not in into["evidence"]:
            into["evidence"].append(item)
