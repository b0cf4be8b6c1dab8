"""Turn the paperkg graph into the parameter rows the Neo4j writer sends.

Only labels and relationship types of the graph model pass (they are the only strings
ever placed into Cypher text); every value travels as a row parameter. Lists stay lists
(Neo4j list properties; an empty list is left out, as None is: Neo4j's bulk importer cannot store one,
and both ways of pushing leave the same data, so readers take a missing list as empty), and edge
evidence becomes parallel lists, one per field. Each row
carries the hash of its properties, stored with them, so a push can skip what the server holds.
"""
from __future__ import annotations

import hashlib
import json
import marshal
import operator
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any, Callable, Collection, Iterable, Mapping, get_type_hints

import networkx as nx

from paperkg.core.errors import ExitCode, PaperkgError
from paperkg.core import graph_model as model
from paperkg.core.graph_model import Evidence, NodeAttrs
from paperkg.core.schema import NodeLabel, RelType
from paperkg.graph.evidence import CompactEvidence
from paperkg.graph.trends import Trends, trends as graph_trends
from paperkg.processes import available_cores, in_parts

NODE_LABELS = tuple(label.value for label in NodeLabel)
REL_TYPES = tuple(rel_type.value for rel_type in RelType)
_NODE_LABEL_SET, _REL_TYPE_SET = frozenset(NODE_LABELS), frozenset(REL_TYPES)
PAPER = NodeLabel.PAPER.value

# evidence dict field -> (relationship property holding the parallel list, its element type,
# the value stored when the field is absent: Neo4j lists hold neither nulls nor mixed types)
_MISSING = {str: "", int: -1, float: 0.0}
EVIDENCE_FIELDS = {name: (f"evidence_{name}s", kind, _MISSING[kind]) for name, kind in get_type_hints(Evidence).items()}
_evidence_fields = operator.itemgetter(*EVIDENCE_FIELDS)  # an evidence dict's values, in EVIDENCE_FIELDS' order

_SCALARS = (str, int, float, bool)
_SCALAR_TYPES = frozenset(_SCALARS)
_FORK_PAPERS = 10_000  # papers from which paper_digests shares the work with a forked copy
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


def _property_value(value: Any, where: Callable[[], str], name: str) -> Any:
    """A value Neo4j can store: a scalar, or a list of scalars of one type (`where` names the node or edge)."""
    if isinstance(value, _SCALARS):
        return value
    if isinstance(value, (list, tuple)) and all(isinstance(item, _SCALARS) for item in value):
        if len({type(item) for item in value}) <= 1:
            return list(value)
    raise PaperkgError(f"{where()}: attribute '{name}' holds {type(value).__name__} {value!r:.60}, "
                       "which is not a Neo4j property value (a scalar or a list of one scalar type).",
                       ExitCode.USAGE)


def _properties(attrs: Mapping[str, Any], skip: Iterable[str], where: Callable[[], str]) -> dict[str, Any]:
    """The attributes as Neo4j properties, without bookkeeping fields and absent values (None, an empty list);
    a value of an exact scalar type is taken as it is, any other checked."""
    props = {}
    for name, value in sorted(attrs.items()):
        if name in skip or value is None:
            continue
        if type(value) in _SCALAR_TYPES:
            props[name] = value
        elif not _empty_list(value):
            props[name] = _property_value(value, where, name)
    return props


def _empty_list(value: Any) -> bool:
    """Whether a value is an empty list or tuple (stored as no property, as None is)."""
    return isinstance(value, (list, tuple)) and not value


def evidence_lists(evidence: list[Any]) -> dict[str, list[Any]]:
    """The evidence items of one edge as parallel list properties (evidence_papers, ...); compact items
    turned into dicts once, the fields of each item taken in one lookup (one by one when one is missing)."""
    items = [item.to_dict() if type(item) is CompactEvidence else item for item in evidence]
    try:
        columns = list(zip(*map(_evidence_fields, items))) if items else [()] * len(EVIDENCE_FIELDS)
    except KeyError:
        columns = [tuple(item.get(key) for item in items) for key in EVIDENCE_FIELDS]
    lists = {}
    for (prop, kind, missing), values in zip(EVIDENCE_FIELDS.values(), columns):
        for value in values:
            if type(value) is not kind:  # a missing field or another type: each one converted
                values = tuple(missing if item is None else kind(item) for item in values)
                break
        lists[prop] = list(values)
    return lists


def _label_of(graph: nx.MultiDiGraph, node: Any) -> str:
    """The node's label, checked against the allow-list."""
    return _checked_label(node, model.node_attrs(graph, node))


def _checked_label(node: Any, attrs: Mapping[str, Any]) -> str:
    """The label in a node's attributes, checked against the allow-list."""
    label = attrs.get("label")
    if label not in NODE_LABELS:
        raise PaperkgError(f"node {node!r} has label {label!r}; paperkg pushes only "
                           f"{', '.join(NODE_LABELS)}.", ExitCode.USAGE)
    return label


def trend_properties(graph: nx.MultiDiGraph, trends: Trends | None = None) -> dict[str, dict[str, Any]]:
    """Per entity: first_year, and burst_start, burst_end, burst_strength of its strongest burst (if any), from the
    build's `trends` (computed from the graph when none is given)."""
    found = {}
    if trends is None:
        trends = graph_trends(graph, with_papers=False)
    for key, entity in trends.entities.items():
        props: dict[str, Any] = {"first_year": entity.first_year}
        burst = entity.strongest_burst
        if burst is not None:
            props.update(burst_start=burst.start, burst_end=burst.end, burst_strength=burst.strength)
        found[key] = props
    return found


def graph_rows(graph: nx.MultiDiGraph, papers: Collection[Any] | None = None,
               trends: Trends | None = None) -> GraphRows:
    """Rows for every node and edge of the graph (with `papers`: of the entities, of those papers and of
    their relationships only), grouped so each group is one Cypher text; entity nodes carry their trend
    properties (first year, strongest burst: of `trends`, the build's)."""
    rows = GraphRows()
    over_time = trend_properties(graph, trends)
    for node, attrs in model.nodes(graph):
        label = _label_of(graph, node)
        if papers is None or label != PAPER or node in papers:
            rows.nodes[label].append(keyed_row(node_properties(graph, node, attrs, over_time)))
    for source, target, key, edge in model.edges(graph):
        if papers is not None and source not in papers and model.node_attrs(graph, source).get("label") == PAPER:
            continue
        group, row = rel_row(graph, source, target, key, edge)
        rows.rels[group].append(row)
    return rows


def keyed_row(props: dict[str, Any]) -> dict[str, Any]:
    """A node's row from its properties (node_properties): its key, the properties and their hash."""
    return {"key": props["key"], "props": props, "hash": props_hash(props)}


def node_properties(graph: nx.MultiDiGraph, node: Any, attrs: Mapping[str, Any],
                    over_time: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """One node's properties: its attributes, its trend properties from `over_time`, its key."""
    props = _properties(attrs, _NODE_BOOKKEEPING, lambda: f"node {node!r}")
    props.update(over_time.get(node, {}))
    props["key"] = node_key(graph, node)
    return props


def rel_row(graph: nx.MultiDiGraph, source: Any, target: Any, key: Any,
            attrs: Mapping[str, Any]) -> tuple[tuple[str, str, str], dict[str, Any]]:
    """One edge's (type, source label, target label) and row: its ends' keys, properties (evidence as
    parallel lists) and their hash."""
    rel_type = _type_of(source, target, key, attrs)
    source_attrs, target_attrs = model.node_attrs(graph, source), model.node_attrs(graph, target)
    group = (rel_type, _checked_label(source, source_attrs), _checked_label(target, target_attrs))
    props = _properties(attrs, _EDGE_BOOKKEEPING, lambda: f"edge {source!r} -[{rel_type}]-> {target!r}")
    evidence = attrs.get("evidence")
    if evidence:  # no evidence: no lists, as an empty list is no property
        props.update(evidence_lists(evidence))
    return group, {"source": source_attrs.get("key", source), "target": target_attrs.get("key", target),
                   "props": props, "hash": props_hash(props)}


def node_key(graph: nx.MultiDiGraph, node: Any) -> str:
    """The node's `key` property (its id when it has none)."""
    return str(model.node_attrs(graph, node).get("key", node))


def _type_of(source: Any, target: Any, key: Any, attrs: Mapping[str, Any]) -> str:
    """The edge's relationship type, checked against the allow-list."""
    rel_type = attrs.get("type", key)
    if rel_type not in REL_TYPES:
        raise PaperkgError(f"edge {source!r} -> {target!r} has type {rel_type!r}; paperkg "
                           f"pushes only {', '.join(REL_TYPES)}.", ExitCode.USAGE)
    return rel_type


def graph_counts(graph: nx.MultiDiGraph) -> tuple[dict[str, int], dict[str, int]]:
    """How many nodes of each label and relationships of each type the graph holds (what a push sends);
    counted first, then checked against the allow-lists, and only a graph that fails is walked again to
    name the node or edge."""
    try:
        labels = Counter(attrs.get("label") for _, attrs in model.nodes(graph))
        types = Counter(attrs.get("type", key) for _, _, key, attrs in model.edges(graph))
        allowed = labels.keys() <= _NODE_LABEL_SET and types.keys() <= _REL_TYPE_SET
    except TypeError:  # an unhashable label or type
        allowed = False
    if not allowed:
        labels = Counter(_label_of(graph, node) for node in graph)
        types = Counter(_type_of(source, target, key, attrs) for source, target, key, attrs in model.edges(graph))
    return dict(sorted(labels.items())), dict(sorted(types.items()))


def props_hash(props: dict[str, Any]) -> str:
    """A short hash of a row's properties: equal properties, equal hash."""
    return hashlib.blake2b(_value_bytes(sorted(props.items(), key=_first)), digest_size=12).hexdigest()


def _any_json(value: object) -> Any:
    """json.dumps' `default` for a hash or digest: compact evidence as its dict, anything else as its repr (a value
    Neo4j cannot hold is then reported by graph_rows, with the node or edge it is on)."""
    return value.to_dict() if isinstance(value, CompactEvidence) else repr(value)


def _first(pair: tuple[str, Any]) -> str:
    """The name of a (name, value) pair (the sort key: names are unique, values may not compare; faster than
    comparing the pairs, which tests the names for equality first)."""
    return pair[0]


def paper_digests(graph: nx.MultiDiGraph) -> dict[Any, tuple[str, str]]:
    """Per paper node, its key and one digest over its attributes and its edges' (type, target, attributes,
    evidence), taken from the graph as it is (no rows built): equal digests, equal rows for the paper and
    its relationships, which a re-push then skips unread. Rows are a function of exactly these values, so
    a digest that differs only in form (1 for 1.0) costs a row-by-row comparison, never a missed change.
    From _FORK_PAPERS papers on, a forked copy of this process digests the second half (on two cores the
    digests then take about half the time)."""
    papers = list(model.papers(graph))
    parts = 2 if len(papers) >= _FORK_PAPERS and available_cores() > 1 else 1
    size = -(-len(papers) // parts)
    shares = in_parts(lambda part: {node: paper_digest(graph, node, attrs)
                                    for node, attrs in papers[part * size:(part + 1) * size]},
                      parts, "digesting the papers", "push again")
    return {node: digest for share in shares for node, digest in share.items()}


def paper_digest(graph: nx.MultiDiGraph, node: Any, attrs: NodeAttrs) -> tuple[str, str]:
    """One paper node's key and digest (see paper_digests)."""
    edges = sorted([_type_of(node, target, key, data), node_key(graph, target), _label_of(graph, target),
                    _edge_pairs(data)] for _, target, key, data in model.out_edges(graph, node))
    return node_key(graph, node), hashlib.blake2b(_value_bytes([sorted(attrs.items(), key=_first), edges]),
                                                  digest_size=12).hexdigest()


def _edge_pairs(data: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """An edge's attributes as sorted (name, value) pairs, compact evidence as dicts."""
    evidence = data.get("evidence")
    if evidence and any(type(item) is CompactEvidence for item in evidence):
        data = {**data, "evidence": [item.to_dict() if type(item) is CompactEvidence else item
                                     for item in evidence]}
    return sorted(data.items(), key=_first)


def _value_bytes(value: Any) -> bytes:
    """The bytes a hash or digest is taken over: marshal's version 0 (no object sharing or interning in it, so
    equal values give equal bytes; two to five times as fast as JSON), or JSON for a value marshal does not
    take."""
    try:
        return marshal.dumps(value, 0)
    except ValueError:
        return b"json:" + json.dumps(value, ensure_ascii=False, default=_any_json).encode("utf8")
