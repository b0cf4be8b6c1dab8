"""The graph model: the attributes of a paper node, an entity node, an edge and a piece of evidence.

The builder writes these records, and every sink (the exports, the Neo4j rows, the views, the
commands) reads a node or edge through the accessors below, which give them typed: a name that
is not the model's is a mypy error, so the names here are the one set of names (tests walk the
sinks for raw attribute access). `describe()` gives the model as data, for the reference page.
Metrics (degree, pagerank, community) are set on every paper and entity node by the build's last step; a
reported result is a node of its own (`ResultNode`), linked from its paper (REPORTS) and to what it is of
(FOR_METHOD, ON_DATASET, WITH_METRIC, ON_TASK), outside the metrics and the views' maps.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, TypedDict, Union, cast, get_args, get_origin, get_type_hints

from paperkg.core.canonical import canonical_name
from paperkg.core.schema import (ENTITY_LABELS, ENTITY_REL_TYPES, REL_ENDS, RESULT_REL_TYPES, ROLE_STRENGTH,
                                 SCHEMA_VERSION, SYMMETRIC_REL_TYPES, NodeLabel, RelType)

if TYPE_CHECKING:  # only the accessors' signatures name NetworkX; core does not import it
    import networkx as nx

PAPER_KEY_PREFIX = "paper:"
RESULT_KEY_PREFIX = "result:"
_ENTITY_LABEL_VALUES = frozenset(label.value for label in ENTITY_LABELS)


class Evidence(TypedDict):
    """One piece of evidence on an edge: where in which paper, found by what, how sure."""

    paper: Annotated[str, "the paper's id (its node key without 'paper:')"]
    sentence: Annotated[str, "the sentence that says it"]
    sentence_start: Annotated[int, "where the sentence starts in the paper's normalised abstract"]
    start: Annotated[int, "where the mention (or the relation's two mentions) starts in the abstract"]
    end: Annotated[int, "where it ends in the abstract"]
    extractor: Annotated[str, "which extractor found it (acronym, lexicon, cue, name, model, relation_model, ...)"]
    confidence: Annotated[float, "how sure the extractor was, 0-1 (4 decimals)"]


class NodeAttrs(TypedDict):
    """What every node has."""

    label: Annotated[str, "the node's type: Paper, Method, Task, Dataset or Metric"]
    key: Annotated[str, "unique per node: 'paper:<id>', or '<type>:<canonical name>' for an entity"]
    name: Annotated[str, "what the node is called: a paper's title (or first words), an entity's name"]
    degree: Annotated[int, "edges in and out (metrics)"]
    pagerank: Annotated[float, "PageRank over the edges weighted by evidence count (metrics, 8 decimals)"]
    community: Annotated[int, "Louvain community, 0 the largest (metrics)"]


class _EntityFields(NodeAttrs):
    canonical: Annotated[str, "the canonical form the key was made from"]
    aliases: Annotated[list[str], "the surface forms seen, sorted"]
    mentions: Annotated[int, "mentions across the corpus"]
    papers: Annotated[int, "papers with an edge to it"]


class EntityNode(_EntityFields, total=False):
    """Attributes of an entity node (Method, Task, Dataset, Metric)."""

    acronym: Annotated[str, "its short form, where the corpus defines one"]
    long_form: Annotated[str, "what the short form stands for"]
    merged_from: Annotated[list[str], "other names merged into it: 'name [rule: papers]'"]


class _PaperFields(NodeAttrs):
    paper_id: Annotated[str, "the paper's stable id"]
    abstract: Annotated[str, "the normalised abstract (evidence offsets point into it)"]
    authors: Annotated[list[str], "authors, when the input has them"]


class PaperNode(_PaperFields, total=False):
    """Attributes of a paper node; the metadata only when the input has it."""

    title: Annotated[str, "the title"]
    year: Annotated[int, "the publication year"]
    venue: Annotated[str, "the venue"]
    url: Annotated[str, "the paper's page"]
    code_url: Annotated[str, "a code repository named in the abstract"]
    source: Annotated[str, "'file:line' of the input record"]


class _ResultFields(TypedDict):
    label: Annotated[str, "Result"]
    key: Annotated[str, "'result:<paper id>:<where its value starts in the abstract>'"]
    name: Annotated[str, "the value, unit, metric and data set, for a label ('28.4 BLEU · WMT14')"]
    paper: Annotated[str, "the id of the paper reporting it"]
    value: Annotated[str, "its numbers as written, without unit marks ('9-19' of '9%-19%')"]
    number: Annotated[float, "its (first) number"]
    kind: Annotated[str, "'absolute' (a level reached: '28.4 BLEU') or 'change' ('by 2.1 points')"]
    relative: Annotated[bool, "a relative change, a multiplier, or a share of a compared figure"]
    proposed: Annotated[bool, "the paper's own method's figure"]
    confidence: Annotated[float, "the result model's probability that the number is a result"]
    sentence: Annotated[str, "the sentence that reports it"]
    sentence_start: Annotated[int, "where the sentence starts in the paper's normalised abstract"]
    start: Annotated[int, "where the value (with its sign and unit) starts in the abstract"]
    end: Annotated[int, "where it ends"]


class ResultNode(_ResultFields, total=False):
    """Attributes of a reported result: its value with its evidence, and what it is of as the abstract writes it
    (the parts that are entity nodes are also its edges FOR_METHOD, ON_DATASET, WITH_METRIC, ON_TASK)."""

    number_high: Annotated[float, "a range's last number"]
    unit: Annotated[str, "'%', 'points' or 'x'"]
    direction: Annotated[str, "a change's direction: 'up' or 'down'"]
    split: Annotated[str, "the split the sentence names: 'test', 'dev', 'validation', ..."]
    metric: Annotated[str, "the metric as written ('macro F1-score')"]
    metric_start: Annotated[int, "where it is in the abstract"]
    metric_end: Annotated[int, "where it ends"]
    metric_key: Annotated[str, "what results are compared by: the metric folded, aliases to one ('f1' of 'F1-score')"]
    better: Annotated[str, "which way the metric is better, 'higher' or 'lower', where it is known"]
    dataset: Annotated[str, "the data set as written (a shared task named by the title: no offsets)"]
    dataset_start: Annotated[int, "where it is in the abstract"]
    dataset_end: Annotated[int, "where it ends"]
    dataset_key: Annotated[str, "what results are compared by: its Dataset node's key, else 'text:' and the name "
                                "folded (lower case, letters and digits)"]
    method: Annotated[str, "the method as written (the paper's own named one when proposed; none: unnamed)"]
    method_start: Annotated[int, "where it is in the abstract"]
    method_end: Annotated[int, "where it ends"]
    task: Annotated[str, "the task as written (the sentence's, else the paper's main task)"]
    task_start: Annotated[int, "where it is in the abstract"]
    task_end: Annotated[int, "where it ends"]
    comparison: Annotated[str, "what the value is set against, as written ('the previous best', 'GPT-4')"]
    comparison_start: Annotated[int, "where it is in the abstract"]
    comparison_end: Annotated[int, "where it ends"]


class _EdgeFields(TypedDict):
    type: Annotated[str, "the relationship type (also the edge's key: one edge per source, type and target)"]
    count: Annotated[int, "mentions or sentences supporting it (a typed relation: in its direction)"]
    confidence: Annotated[float, "a role: the highest confidence of its evidence; a typed relation: calibrated from "
                                 "all the mentions stating it across papers (4 decimals)"]
    evidence: Annotated[list[Evidence], "up to 10 pieces of evidence, the surest first (a typed relation: each "
                                        "paper's best sentence first; count has the full number)"]


class EdgeAttrs(_EdgeFields, total=False):
    """Attributes of an edge: a paper's role towards an entity, or a typed relation between two entities."""

    papers: Annotated[int, "papers stating it (entity-entity relations only)"]
    against: Annotated[int, "mentions stating the other direction (entity-entity relations only)"]


class GraphAttrs(TypedDict):
    """Attributes of the graph itself."""

    paperkg_schema: Annotated[int, "the graph schema version, checked when the graph is read"]


RECORDS: tuple[type, ...] = (PaperNode, EntityNode, ResultNode, EdgeAttrs, Evidence, GraphAttrs)


def paper_key(paper_id: str) -> str:
    """The node key of a paper."""
    return PAPER_KEY_PREFIX + paper_id


def result_key(paper_id: str, start: int) -> str:
    """The node key of the result whose value starts at `start` in the paper's abstract."""
    return f"{RESULT_KEY_PREFIX}{paper_id}:{start}"


def is_paper(attrs: NodeAttrs) -> bool:
    """Whether a node is a paper."""
    return attrs["label"] == NodeLabel.PAPER


def is_entity(attrs: NodeAttrs) -> bool:
    """Whether a node is an entity (a Method, Task, Dataset or Metric)."""
    return attrs["label"] in _ENTITY_LABEL_VALUES


def entity_forms(attrs: EntityNode) -> set[str]:
    """The case-folded names an entity answers to: its name, acronym, long form and aliases."""
    forms = [attrs.get("name"), attrs.get("acronym"), attrs.get("long_form"), *attrs.get("aliases", [])]
    return {str(form).casefold() for form in forms if form}


def name_forms(attrs: EntityNode) -> frozenset[str]:
    """What an entity answers to when a user names it: its case-folded names (entity_forms), its canonical form, and
    the canonical forms of the names merged into it."""
    merged = {canonical_name(line.partition(" [")[0]) for line in attrs.get("merged_from", [])}
    return frozenset(entity_forms(attrs) | {attrs["canonical"]} | merged)


def answers_to(forms: frozenset[str], label: str, name: str) -> bool:
    """Whether an entity of these forms (name_forms) and label is what `name` names: one of its names in any case,
    or the same canonical form ('Graph Transformers' for 'graph transformer')."""
    return (name.strip().casefold() in forms or canonical_name(name) in forms
            or canonical_name(name, label) in forms)


def node_attrs(graph: nx.MultiDiGraph, node: str) -> NodeAttrs:
    """A node's attributes (an EntityNode or a PaperNode: see entity_attrs and paper_attrs)."""
    return cast(NodeAttrs, graph.nodes[node])


def entity_attrs(graph: nx.MultiDiGraph, node: str) -> EntityNode:
    """An entity node's attributes."""
    return cast(EntityNode, graph.nodes[node])


def paper_attrs(graph: nx.MultiDiGraph, node: str) -> PaperNode:
    """A paper node's attributes."""
    return cast(PaperNode, graph.nodes[node])


def edge_attrs(graph: nx.MultiDiGraph, source: str, target: str, kind: str) -> EdgeAttrs | None:
    """The attributes of the edge source -[kind]-> target, None when there is none."""
    return cast("EdgeAttrs | None", graph.get_edge_data(source, target, kind))


def nodes(graph: nx.MultiDiGraph) -> Iterable[tuple[str, NodeAttrs]]:
    """(key, attributes) of every node, in the graph's order."""
    return cast("Iterable[tuple[str, NodeAttrs]]", graph.nodes(data=True))


def labels(graph: nx.MultiDiGraph) -> Iterable[tuple[str, str]]:
    """(key, label) of every node, in the graph's order."""
    return cast("Iterable[tuple[str, str]]", graph.nodes(data="label"))


def entities(graph: nx.MultiDiGraph) -> Iterator[tuple[str, EntityNode]]:
    """(key, attributes) of every entity node, in the graph's order."""
    return ((key, cast(EntityNode, attrs)) for key, attrs in nodes(graph) if is_entity(attrs))


def results(graph: nx.MultiDiGraph) -> Iterator[tuple[str, ResultNode]]:
    """(key, attributes) of every result node, in the graph's order."""
    return ((key, cast(ResultNode, attrs)) for key, attrs in graph.nodes(data=True)
            if attrs["label"] == NodeLabel.RESULT)


def result_attrs(graph: nx.MultiDiGraph, node: str) -> ResultNode:
    """A result node's attributes."""
    return cast(ResultNode, graph.nodes[node])


def papers(graph: nx.MultiDiGraph) -> Iterator[tuple[str, PaperNode]]:
    """(key, attributes) of every paper node, in the graph's order."""
    return ((key, cast(PaperNode, attrs)) for key, attrs in nodes(graph) if is_paper(attrs))


def edges(graph: nx.MultiDiGraph, *among: Any) -> Iterable[tuple[str, str, str, EdgeAttrs]]:
    """(source, target, type, attributes) of every edge (of the nodes `among`, when given), in the graph's order."""
    view = graph.edges(*among, keys=True, data=True)
    return cast("Iterable[tuple[str, str, str, EdgeAttrs]]", view)


def out_edges(graph: nx.MultiDiGraph, node: str) -> Iterable[tuple[str, str, str, EdgeAttrs]]:
    """(node, target, type, attributes) of the edges leaving `node`."""
    return cast("Iterable[tuple[str, str, str, EdgeAttrs]]", graph.out_edges(node, keys=True, data=True))


def in_edges(graph: nx.MultiDiGraph, node: str) -> Iterable[tuple[str, str, str, EdgeAttrs]]:
    """(source, node, type, attributes) of the edges entering `node`."""
    return cast("Iterable[tuple[str, str, str, EdgeAttrs]]", graph.in_edges(node, keys=True, data=True))


def between(graph: nx.MultiDiGraph, source: str, target: str) -> dict[str, EdgeAttrs]:
    """The edges source -> target by type (empty when there is none)."""
    return cast("dict[str, EdgeAttrs]", graph.get_edge_data(source, target) or {})


@dataclass(frozen=True)
class FieldDescription:
    """One attribute of a record: its name, type, whether every record has it, and what it means."""

    name: str
    type: str
    required: bool
    description: str


@dataclass(frozen=True)
class RecordDescription:
    """One record of the model with its fields, in declaration order."""

    name: str
    description: str
    fields: tuple[FieldDescription, ...]


@dataclass(frozen=True)
class RelationDescription:
    """One relationship type: its (source, target) labels and whether it is symmetric."""

    type: str
    ends: tuple[tuple[str, str], ...]
    symmetric: bool


@dataclass(frozen=True)
class ModelDescription:
    """The whole graph model, for a reference page: version, labels, records and relationship types."""

    schema_version: int
    labels: tuple[str, ...]
    records: tuple[RecordDescription, ...]
    relations: tuple[RelationDescription, ...]


def describe() -> ModelDescription:
    """The graph model as data: what a generator renders as the reference page of the graph model."""
    paper_ends = tuple((NodeLabel.PAPER.value, label.value) for label in ENTITY_LABELS)
    paper_roles = tuple(RelationDescription(kind.value, paper_ends, False) for kind in reversed(ROLE_STRENGTH))
    typed = tuple(RelationDescription(kind.value, tuple(sorted((h.value, t.value) for h, t in REL_ENDS[kind])),
                                      kind in SYMMETRIC_REL_TYPES) for kind in ENTITY_REL_TYPES)
    result = tuple(RelationDescription(kind.value, ((end.value, NodeLabel.RESULT.value) if kind is RelType.REPORTS
                                                    else (NodeLabel.RESULT.value, end.value),), False)
                   for kind, end in RESULT_REL_TYPES.items())
    return ModelDescription(SCHEMA_VERSION, tuple(label.value for label in NodeLabel),
                            tuple(describe_record(record) for record in RECORDS), paper_roles + typed + result)


def describe_record(record: type) -> RecordDescription:
    """A TypedDict of this module as a RecordDescription (its fields' types and descriptions from the
    Annotated hints)."""
    hints = get_type_hints(record, include_extras=True)
    required = getattr(record, "__required_keys__", frozenset(hints))
    fields = tuple(FieldDescription(name, _type_name(get_args(hint)[0]), name in required, str(get_args(hint)[1]))
                   for name, hint in hints.items())
    return RecordDescription(record.__name__, " ".join((record.__doc__ or "").split()), fields)


def field_names(record: type) -> frozenset[str]:
    """The attribute names a record of the model declares."""
    return frozenset(get_type_hints(record))


def _type_name(hint: Any) -> str:
    """'str', 'int', 'list[str]', 'list[Evidence]' for a field's type."""
    origin = get_origin(hint)
    if origin is list:
        return f"list[{_type_name(get_args(hint)[0])}]"
    if origin is Union:
        return " | ".join(_type_name(arg) for arg in get_args(hint))
    return getattr(hint, "__name__", str(hint))
