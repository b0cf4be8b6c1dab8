"""Turn the paperkg graph into the parameter rows the Neo4j writer sends.

Only labels and relationship types of the graph model pass (they are the only strings
ever placed into Cypher text); every value travels as a row parameter. Lists stay lists
(Neo4j list properties), and edge evidence becomes parallel lists, one per field. Each row
carries the hash of its properties, stored with them, so a push can skip what the server holds.
"""
from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Iterable, get_type_hints

import networkx as nx

from paperkg.core.errors import ExitCode, PaperkgError
from paperkg.core.schema import Evidence, NodeLabel, RelType
from paperkg.graph.evidence import CompactEvidence
from paperkg.graph.trends import trends

NODE_LABELS = tuple(label.value for label in NodeLabel)
REL_TYPES = tuple(rel_type.value for rel_type in RelType)
PAPER = NodeLabel.PAPER.value

# evidence dict field -> (relationship property holding the parallel list, its element type,
# the value stored when the field is absent: Neo4j lists hold neither nulls nor mixed types)
_MISSING = {str: "", int: -1, float: 0.0}
EVIDENCE_FIELDS = {name: (f"evidence_{name}s", kind, _MISSING[kind]) for name, kind in get_type_hints(Evidence).items()}

_SCALARS = (str, int, float, bool)
_NODE_BOOKKEEPING = ("label",)
_EDGE_BOOKKEEPING = ("type", "evidence")


@dataclass
class GraphRows:
    """Node rows per label and relationship rows per (type, source label, target label)."""

    nodes: dict[str, list[dict[str, Any]]] = field(default_factory=lambda: defaultdict(list))
    rels: dict[tuple[str, str, str], list[dict[str, Any]]] = field(
        default_factory=lambda: defaultdict(list))

    def node_counts(self) -> dict[str, int]:
        """How many nodes of each label the graph holds."""
        return {label: len(rows) for label, rows in sorted(self.nodes.items())}

    def rel_counts(self) -> dict[str, int]:
        """How many relationships of each type the graph holds."""
        counts: dict[str, int] = defaultdict(int)
        for (rel_type, _, _), rows in self.rels.items():
            counts[rel_type] += len(rows)
        return dict(sorted(counts.items()))


def _property_value(value: Any, where: str, name: str) -> Any:
    """A value Neo4j can store: a scalar, or a list of scalars of one type."""
    if isinstance(value, _SCALARS):
        return value
    if isinstance(value, (list, tuple)) and all(isinstance(item, _SCALARS) for item in value):
        if len({type(item) for item in value}) <= 1:
            return list(value)
    raise PaperkgError(f"{where}: attribute '{name}' holds {type(value).__name__} {value!r:.60}, "
                       "which is not a Neo4j property value (a scalar or a list of one scalar type).",
                       ExitCode.USAGE)


def _properties(attrs: dict[str, Any], skip: Iterable[str], where: str) -> dict[str, Any]:
    """The attributes as Neo4j properties, without bookkeeping fields and absent (None) values."""
    return {name: _property_value(value, where, name) for name, value in sorted(attrs.items())
            if name not in skip and value is not None}


def evidence_lists(evidence: list[Any]) -> dict[str, list[Any]]:
    """The evidence items of one edge as parallel list properties (evidence_papers, ...); a column
    already of its type is kept as it is (most are), the rest converted item by item."""
    columns = zip(*map(_evidence_fields, evidence)) if evidence else ([] for _ in EVIDENCE_FIELDS)
    lists = {}
    for (prop, kind, missing), column in zip(EVIDENCE_FIELDS.values(), columns):
        values = list(column)
        lists[prop] = values if set(map(type, values)) <= {kind} else [
            missing if value is None else kind(value) for value in values]
    return lists


def _evidence_fields(item: Any) -> tuple[Any, ...]:
    """One evidence item's values in EVIDENCE_FIELDS order (compact items without a dict lookup each)."""
    if isinstance(item, CompactEvidence):
        return item.values_tuple()
    return tuple(map(item.get, EVIDENCE_FIELDS))


def _label_of(graph: nx.MultiDiGraph, node: Any) -> str:
    """The node's label, checked against the allow-list."""
    label = graph.nodes[node].get("label")
    if label not in NODE_LABELS:
        raise PaperkgError(f"node {node!r} has label {label!r}; paperkg pushes only "
                           f"{', '.join(NODE_LABELS)}.", ExitCode.USAGE)
    return label


def trend_properties(graph: nx.MultiDiGraph) -> dict[str, dict[str, Any]]:
    """Per entity: first_year, and burst_start, burst_end, burst_strength of its strongest burst (if any)."""
    found = {}
    for key, entity in trends(graph, with_papers=False).entities.items():
        props: dict[str, Any] = {"first_year": entity.first_year}
        burst = entity.strongest_burst
        if burst is not None:
            props.update(burst_start=burst.start, burst_end=burst.end, burst_strength=burst.strength)
        found[key] = props
    return found


def graph_rows(graph: nx.MultiDiGraph) -> GraphRows:
    """Rows for every node and edge of the graph, grouped so each group is one Cypher text; entity nodes
    carry their trend properties (first year, strongest burst)."""
    rows = GraphRows()
    over_time = trend_properties(graph)
    for node, attrs in graph.nodes(data=True):
        props = _properties(attrs, _NODE_BOOKKEEPING, f"node {node!r}")
        props.update(over_time.get(node, {}))
        props["key"] = str(attrs.get("key", node))
        rows.nodes[_label_of(graph, node)].append({"key": props["key"], "props": props, "hash": props_hash(props)})
    for source, target, key, attrs in graph.edges(keys=True, data=True):
        rel_type = attrs.get("type", key)
        if rel_type not in REL_TYPES:
            raise PaperkgError(f"edge {source!r} -> {target!r} has type {rel_type!r}; paperkg "
                               f"pushes only {', '.join(REL_TYPES)}.", ExitCode.USAGE)
        where = f"edge {source!r} -[{rel_type}]-> {target!r}"
        props = _properties(attrs, _EDGE_BOOKKEEPING, where)
        props.update(evidence_lists(attrs.get("evidence") or []))
        group = (rel_type, _label_of(graph, source), _label_of(graph, target))
        rows.rels[group].append({"source": graph.nodes[source].get("key", source),
                                 "target": graph.nodes[target].get("key", target),
                                 "props": props, "hash": props_hash(props)})
    return rows


def props_hash(props: dict[str, Any]) -> str:
    """A short hash of a row's properties: equal properties, equal hash."""
    text = json.dumps(props, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.blake2b(text.encode("utf8"), digest_size=12).hexdigest()


def paper_digests(rows: GraphRows) -> dict[str, str]:
    """Per paper key, one digest over its node's hash and the (type, target, hash) of its relationships:
    equal digests, the paper and all it links to unchanged (what a re-push compares first)."""
    parts: dict[str, list[str]] = {row["key"]: [row["hash"]] for row in rows.nodes.get(PAPER, [])}
    for (rel_type, source_label, _), group_rows in rows.rels.items():
        if source_label == PAPER:
            for row in group_rows:
                parts[row["source"]].append(f"{rel_type} {row['target']} {row['hash']}")
    return {key: hashlib.blake2b("\n".join([found[0], *sorted(found[1:])]).encode("utf8"),
                                 digest_size=12).hexdigest() for key, found in parts.items()}
