"""The reported results of a paper as graph nodes: a `Result` node per result (core/graph_model.ResultNode) with
its evidence, reached from its paper (REPORTS) and leading to the entity nodes it is of (FOR_METHOD, ON_DATASET,
WITH_METRIC, ON_TASK), each edge with the evidence of the mention it goes through."""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, NamedTuple, cast

from paperkg.core.graph_model import EdgeAttrs, Evidence, ResultNode, result_key
from paperkg.core.schema import RESULT_PARTS, RESULT_REL_TYPES, NodeLabel, PaperRecord, RelType, ResultStatement

from .evidence import CompactEvidence, EvidenceFactory
from .metric_names import metric_names

EXTRACTOR = "results"
_FOLDED = re.compile(r"[^0-9a-z]+")
# The result's parts that are edges, with the relationship type of each.
PART_TYPES = {"method": RelType.FOR_METHOD, "dataset": RelType.ON_DATASET, "metric": RelType.WITH_METRIC,
              "task": RelType.ON_TASK}


class PendingResult(NamedTuple):
    """A result as the builder keeps it until the entity nodes are decided: the statement, the evidence of its
    value, and per part that is an entity mention its index in the record's entities and its evidence."""

    statement: ResultStatement
    evidence: CompactEvidence
    parts: dict[str, tuple[int, CompactEvidence]]


def pending_results(paper: PaperRecord, statements: list[ResultStatement],
                    sentences: list[tuple[str, int, int]], sentence_of: Callable[[int], int],
                    factory: EvidenceFactory) -> list[PendingResult]:
    """The paper's results with their evidence (`sentences`: the evidence spans of its sentences;
    `sentence_of(i)`: the sentence of entity mention i)."""
    found = []
    for statement in statements:
        value = factory.make(paper.id, sentences[statement.sentence], statement.start, statement.end, EXTRACTOR,
                             statement.confidence)
        parts = {}
        for name in PART_TYPES:
            part = getattr(statement, name)
            if part is not None and part.entity is not None and part.start is not None and part.end is not None:
                parts[name] = (part.entity, factory.make(paper.id, sentences[sentence_of(part.entity)], part.start,
                                                         part.end, EXTRACTOR, statement.confidence))
        found.append(PendingResult(statement, value, parts))
    return found


def result_graph(paper: str, results: list[PendingResult], ends: list[tuple[str, str] | None]
                 ) -> tuple[list[tuple[str, ResultNode]], list[tuple[str, str, str, EdgeAttrs]]]:
    """A paper's result nodes and their edges (one each: a result has one value and one part of each kind);
    `ends[i]` is the (key, label) of the node of the paper's entity mention i (None: no node). A part goes to its
    node only when the node has the label the part takes (a shared task the pipeline typed a Task is a data set
    by text only). The builder adds them to its graph; the assembly by parts writes them with the paper's."""
    nodes: list[tuple[str, ResultNode]] = []
    edges: list[tuple[str, str, str, EdgeAttrs]] = []
    for pending in results:
        statement, evidence = pending.statement, pending.evidence
        key = result_key(evidence.paper, statement.start)
        node = result_node(key, statement, evidence)
        edges.append((paper, key, RelType.REPORTS.value, _edge(RelType.REPORTS, evidence)))
        for name, (entity, part_evidence) in sorted(pending.parts.items()):
            kind, end = PART_TYPES[name], ends[entity]
            if end is not None and end[1] == RESULT_REL_TYPES[kind]:
                edges.append((key, end[0], kind.value, _edge(kind, part_evidence)))
                if kind is RelType.ON_DATASET:
                    node["dataset_key"] = end[0]
        nodes.append((key, node))
    return nodes, edges


def _edge(kind: RelType, evidence: CompactEvidence) -> EdgeAttrs:
    return EdgeAttrs(type=kind.value, count=1, confidence=evidence.confidence, evidence=[cast(Evidence, evidence)])


def result_node(key: str, statement: ResultStatement, evidence: CompactEvidence) -> ResultNode:
    """The attributes of a result's node."""
    numbers = statement.numbers or [0.0]
    written = evidence.abstract[statement.start:statement.end]
    node: dict[str, Any] = dict(
        label=NodeLabel.RESULT.value, key=key, name=_name(written, statement), paper=evidence.paper,
        value=statement.value, number=numbers[0], kind=statement.kind.value, relative=statement.relative,
        proposed=statement.proposed, confidence=statement.confidence, sentence=evidence["sentence"],
        sentence_start=evidence.sentence_start, start=statement.start, end=statement.end)
    if len(numbers) > 1:
        node["number_high"] = numbers[-1]
    node.update((name, getattr(statement, name)) for name in ("unit", "direction", "split") if getattr(statement, name))
    for name in RESULT_PARTS:
        part = getattr(statement, name)
        if part is not None:
            node[name] = part.text
            if part.start is not None and part.end is not None:
                node[f"{name}_start"], node[f"{name}_end"] = part.start, part.end
    if statement.dataset is not None:  # the data set's node, once the corpus has decided it, replaces this
        node["dataset_key"] = "text:" + _FOLDED.sub("", statement.dataset.text.lower())
    if statement.metric is not None:
        names = metric_names()
        node["metric_key"] = names.key(statement.metric.text)
        if names.direction(statement.metric.text):
            node["better"] = names.direction(statement.metric.text)
    return cast(ResultNode, node)


def _name(written: str, statement: ResultStatement) -> str:
    """'28.4 BLEU · WMT14', '+2.1 points accuracy' : the value as written, its metric and data set."""
    unit = " points" if statement.unit == "points" else ""
    metric = f" {statement.metric.text}" if statement.metric else ""
    dataset = f" · {statement.dataset.text}" if statement.dataset else ""
    return f"{written}{unit}{metric}{dataset}"
