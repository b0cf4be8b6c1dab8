"""Readers of the public relation benchmarks (SciER, SciERC) in paperkg's relation schema, for
training the relation model (extract/training/relations.py) and scoring it (`paperkg eval relations`).

Mapping (docs/reference/graph-model.md): SciER's nine labels map one to one; of SciERC's seven, EVALUATE-FOR
is turned round (SciERC writes "data EVALUATE-FOR method", paperkg "method EVALUATED_ON data") and
CONJUNCTION and FEATURE-OF have no paperkg type. SciERC entities in paperkg's types: Method, Task,
Metric as given, Material as Dataset only where it names a data set (the types corpus's rule),
OtherScientificTerm and Generic are not entities here; a SciERC relation survives the mapping only
when its ends are entities and its type allows them (core.schema.relation_allowed). A gold span
"X ( ACR )" is scored as X, the mention paperkg writes.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

from paperkg.core.errors import PaperkgError
from paperkg.core.schema import RelType, relation_allowed

from .benchmarks import Record, read_benchmark
from .entities import split_acronym_pair

RELATION_FORMATS = ("scier", "scierc")
SCIER_RELATIONS = {"Used-For": RelType.USED_FOR, "Evaluated-With": RelType.EVALUATED_ON,
                   "Trained-With": RelType.TRAINED_ON, "Benchmark-For": RelType.BENCHMARK_FOR,
                   "Compare-With": RelType.COMPARED_WITH, "SubClass-Of": RelType.IS_A,
                   "SubTask-Of": RelType.SUBTASK_OF, "Part-Of": RelType.PART_OF, "Synonym-Of": RelType.SYNONYM_OF}
# SciERC label -> (paperkg type, whether head and tail swap); absent labels have no paperkg type
SCIERC_RELATIONS = {"USED-FOR": (RelType.USED_FOR, False), "EVALUATE-FOR": (RelType.EVALUATED_ON, True),
                    "HYPONYM-OF": (RelType.IS_A, False), "PART-OF": (RelType.PART_OF, False),
                    "COMPARE": (RelType.COMPARED_WITH, False)}
# The paperkg types each source annotates: the others are unknown there, neither right nor wrong.
ANNOTATED = {"scier": frozenset(SCIER_RELATIONS.values()),
             "scierc": frozenset(kind for kind, _ in SCIERC_RELATIONS.values())}
Span3 = tuple[int, int, str]                       # start, end exclusive, paperkg label
Arc = tuple[int, int, int, int, RelType]           # head start, head end, tail start, tail end, type


@dataclass
class RelationRecord:
    """One benchmark document: tokens, entities in paperkg's types and relations in its schema."""

    record: Record
    entities: list[Span3]
    relations: list[Arc]

    @property
    def source(self) -> str:
        return self.record.source


def read_relations(fmt: str, path: Path, limit: int = 0) -> list[RelationRecord]:
    """The relation records of a SciER (train or dev layout) or SciERC file; one sentence naming the
    file and line when it is not in that layout."""
    if fmt not in RELATION_FORMATS:
        raise PaperkgError(f"--format must be one of {', '.join(RELATION_FORMATS)}, not {fmt!r}.")
    records = read_benchmark(fmt, path, limit=limit)
    try:
        items = list(islice((json.loads(line) for line in path.open(encoding="utf-8") if line.strip()), limit or None))
        convert = _scier if fmt == "scier" else _scierc
        return [convert(record, item) for record, item in zip(records, items)]
    except (ValueError, KeyError, TypeError, IndexError) as error:
        raise PaperkgError(f"{path} is not a {fmt} relation file: {error!r}") from None


def _scier(record: Record, item: dict) -> RelationRecord:
    entities = [(s, e, label) for s, e, label in record.spans]
    if "doc_tokens" in item:  # dev layout: inclusive token offsets over the paper
        arcs = [(int(a), int(b) + 1, int(c), int(d) + 1, SCIER_RELATIONS[label])
                for sent in item["relations"] for a, b, c, d, label in sent]
        return RelationRecord(record, entities, arcs)
    by_text: dict[str, list[Span3]] = {}
    for s, e, label in entities:
        by_text.setdefault(" ".join(record.words[s:e]), []).append((s, e, label))
    arcs = []
    for head, label, tail in item["rel"]:
        heads, tails = by_text.get(" ".join(head.split()), []), by_text.get(" ".join(tail.split()), [])
        if len(heads) == 1 and len(tails) == 1:  # a string found once: its place is certain
            arcs.append((*heads[0][:2], *tails[0][:2], SCIER_RELATIONS[label]))
    return RelationRecord(record, entities, arcs)


def _scierc(record: Record, item: dict) -> RelationRecord:
    from paperkg.extract.training.corpus import names_a_dataset

    labels: dict[tuple[int, int], str] = {}
    for s, e, label in record.spans:
        if label in ("Method", "Task", "Metric"):
            labels[(s, e)] = label
        elif label == "Material" and names_a_dataset(record.words[s:e], record.sent_starts[s]):
            labels[(s, e)] = "Dataset"
    name = {key: split_acronym_pair(*key, label, record.words)[0] for key, label in labels.items()}
    arcs = []
    for sent in item["relations"]:
        for a, b, c, d, label in sent:
            if label not in SCIERC_RELATIONS or (a, b + 1) not in name or (c, d + 1) not in name:
                continue
            kind, swap = SCIERC_RELATIONS[label]
            head, tail = name[(a, b + 1)], name[(c, d + 1)]
            if swap:
                head, tail = tail, head
            if relation_allowed(kind, head[2], tail[2]):
                arcs.append((head[0], head[1], tail[0], tail[1], kind))
    entities = sorted({piece for key, label in labels.items()
                       for piece in split_acronym_pair(*key, label, record.words)})
    return RelationRecord(record, entities, arcs)

