"""A graph as exchange formats hold it (GraphML, GEXF, CSV): named nodes, typed edges, scalar columns.

Gephi, Cytoscape, igraph and VOSviewer agree on a few conventions that paperkg's own attribute
names do not follow: a node's `label` is what is drawn on it (the entity's name, a paper's
title), so paperkg's node type goes in its own column, `node_type`; an edge's relation type is
Gephi's edge *kind* (GEXF `kind`, GraphML's `label` attribute on <edge>) and Cytoscape's
`interaction` column; GEXF's edge `type` is reserved for directed/undirected/mutual. Both the
knowledge graph (graph/exports.py) and the entity map (viz/map_export.py) are written through
this one form, so the files they give are named the same way.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

NODE_LABEL = "label"          # what Gephi and VOSviewer draw on a node: the entity's name, a paper's title
NODE_TYPE = "node_type"       # paperkg's node type (Paper, Method, ...)
CYTOSCAPE_NAME = "shared name"  # Cytoscape's network-collection-wide name column
INTERACTION = "interaction"   # Cytoscape's edge type column; paperkg's relation type
WEIGHT = "weight"             # Gephi's and VOSviewer's edge weight


@dataclass(frozen=True)
class NodeRow:
    """One node: its id and its columns (`label` is its display name; lists and dicts allowed)."""

    id: str
    attributes: dict[str, Any]


@dataclass(frozen=True)
class EdgeRow:
    """One edge: a document-unique id, its ends, its relation type (`kind`) and its columns."""

    id: str
    source: str
    target: str
    kind: str
    attributes: dict[str, Any]


@dataclass(frozen=True)
class GraphTable:
    """Nodes and edges as rows, in the order they are written; `nodes` and `edges` can be walked
    more than once (writers declare every column before the first row, so they walk twice)."""

    directed: bool
    nodes: Callable[[], Iterable[NodeRow]]
    edges: Callable[[], Iterable[EdgeRow]]
    attributes: dict[str, Any] = field(default_factory=dict)
