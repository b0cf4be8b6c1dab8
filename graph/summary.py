"""A saved graph in numbers: nodes and edges per type, and the entities in most papers."""
from __future__ import annotations

from collections import Counter
from typing import Any

import networkx as nx

from paperkg.core import graph_model as model


def graph_summary(graph: nx.MultiDiGraph, top: int) -> dict[str, Any]:
    """Counts per label and relationship type, and the `top` entities by papers (then PageRank, key)."""
    nodes = Counter(label for _, label in model.labels(graph))
    edges = Counter(d["type"] for *_, d in model.edges(graph))
    entities = sorted((d for _, d in model.entities(graph)),
                      key=lambda d: (-d.get("papers", 0), -d.get("pagerank", 0.0), d["key"]))[:top]
    return {"nodes": dict(sorted(nodes.items())), "edges": dict(sorted(edges.items())),
            "top": [{"key": d["key"], "name": d["name"], "label": d["label"], "papers": d.get("papers", 0),
                     "acronym": d.get("acronym")} for d in entities]}
