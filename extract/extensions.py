"""Every Doc and Span extension paperkg attaches, registered in one place under the `paperkg_` prefix
(other libraries, scispaCy among them, register their own unprefixed `long_form`).

Acronyms are stored per Doc as AcronymRecords in `doc._.paperkg_acronym_records` (token offsets;
-1 when there is no long form), with an index from a mention's "start:end" to its record in
`doc._.paperkg_acronym_index`; both are plain lists, strings and numbers, so they survive Doc
serialisation (a Doc read back holds each record as a list: `acronym_records` gives them typed).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from spacy.tokens import Doc, Span


class AcronymRecord(NamedTuple):
    """One acronym mention: a definition, a later mention resolved to one, or undefined."""

    start: int          # the short form's tokens [start, end)
    end: int
    kind: str           # "definition" | "resolved" | "undefined"
    rule: str           # the rule that found it
    confidence: float
    long_start: int = -1  # the long form's tokens [long_start, long_end), -1 when there is none
    long_end: int = -1


class ResultRecord(NamedTuple):
    """One reported result of a Doc (extract/results.py): character offsets into the Doc's text (-1: none) and
    the index of the entity mention each part is, in the entity span group (-1: none)."""

    start: int            # the value as written, with its sign and unit: [start, end)
    end: int
    value: str            # its numbers as written, without unit marks ('9-19' of '9%-19%')
    unit: str             # '%', 'points', 'x' or ''
    kind: str             # 'absolute' or 'change'
    relative: bool        # a relative change, a multiplier, or a share of a compared figure
    direction: str        # for a change: 'up' or 'down'; '' for an absolute value
    split: str            # the split the sentence names ('test', 'dev', ...), '' when none
    proposed: bool        # the value is the paper's own method's
    confidence: float     # the result model's probability
    metric_start: int = -1
    metric_end: int = -1
    metric_entity: int = -1
    dataset_start: int = -1
    dataset_end: int = -1
    dataset_entity: int = -1
    method_start: int = -1
    method_end: int = -1
    method_entity: int = -1
    task_start: int = -1
    task_end: int = -1
    task_entity: int = -1
    comparison_start: int = -1
    comparison_end: int = -1
    dataset_title: str = ""  # the data set when the title names it (a shared task: 'X at SemEval-2024 Task 4: ...')


SPAN_ATTRIBUTES: dict[str, Any] = {
    "paperkg_canonical": None,     # the name the graph canonicalises (the long form for an acronym)
    "paperkg_acronym": None,       # the short form, when the entity has one
    "paperkg_source": None,        # which extractor found it: acronym, lexicon, cue, name, model
    "paperkg_confidence": 0.0,
    "paperkg_proposed": False,     # the paper proposes this entity
    "paperkg_role": "mentions",    # proposes, addresses, evaluates_on or mentions
    "paperkg_node": False,         # the mention becomes a graph node (it reads as a term)
    "paperkg_termhood": "",        # the rule that made it a node, or the reason it is not one
}
DOC_ATTRIBUTES: dict[str, Any] = {
    "paperkg_relations": None,           # list of Relation records (heads/tails index doc.spans["entities"])
    "paperkg_undefined_acronyms": None,  # short forms seen but neither defined nor in the lexicon
    "paperkg_acronym_index": None,       # "start:end" of each acronym mention -> its record's position
    "paperkg_results": None,             # list of ResultRecord, one per span of the results span group, in order
    "paperkg_title": None,               # the paper's title, when the input has one (set before the pipeline runs)
}


def _index_key(start: int, end: int) -> str:
    return f"{start}:{end}"


def set_acronym_records(doc: Doc, records: list[AcronymRecord]) -> None:
    """Store the Doc's acronym records and their index."""
    doc._.paperkg_acronym_records = records
    doc._.paperkg_acronym_index = {_index_key(r.start, r.end): k for k, r in enumerate(records)}


def acronym_records(doc: Doc) -> list[AcronymRecord]:
    """The Doc's acronym records, typed (a deserialised Doc holds them as lists)."""
    return [r if isinstance(r, AcronymRecord) else AcronymRecord._make(r) for r in doc._.paperkg_acronym_records]


def acronym_record(span: Span) -> AcronymRecord | None:
    """The acronym record of exactly this span, if it is an acronym mention (by the Doc's index)."""
    doc = span.doc
    index = doc._.paperkg_acronym_index
    if index is None:  # a Doc made before the index existed
        index = {_index_key(r[0], r[1]): k for k, r in enumerate(doc._.paperkg_acronym_records)}
    position = index.get(_index_key(span.start, span.end))
    if position is None:
        return None
    record = doc._.paperkg_acronym_records[position]
    return record if isinstance(record, AcronymRecord) else AcronymRecord._make(record)


def _long_form(span: Span) -> Span | None:
    record = acronym_record(span)
    if record is None or record.long_start < 0:
        return None
    return span.doc[record.long_start:record.long_end]


def _record_field(name: str) -> Callable[[Span], Any]:
    def getter(span: Span) -> Any:
        record = acronym_record(span)
        return None if record is None else getattr(record, name)
    return getter


def results(doc: Doc) -> list[ResultRecord]:
    """The Doc's result records, typed (a deserialised Doc holds them as lists)."""
    return [r if isinstance(r, ResultRecord) else ResultRecord._make(r) for r in doc._.paperkg_results or []]


def _definitions(doc: Doc) -> list[tuple[Span, Span]]:
    return [(doc[r.start:r.end], doc[r.long_start:r.long_end]) for r in acronym_records(doc) if r.kind == "definition"]


SPAN_GETTERS: dict[str, Callable[[Span], Any]] = {
    "paperkg_long_form": _long_form,
    "paperkg_acronym_kind": _record_field("kind"),       # definition, resolved or undefined
    "paperkg_acronym_rule": _record_field("rule"),
    "paperkg_acronym_confidence": _record_field("confidence"),
}


def register_extensions() -> None:
    """Declare every extension (idempotent; components call it when they are created)."""
    if not Doc.has_extension("paperkg_acronym_records"):
        Doc.set_extension("paperkg_acronym_records", default=[])
    if not Doc.has_extension("paperkg_acronym_definitions"):
        Doc.set_extension("paperkg_acronym_definitions", getter=_definitions)
    for name, default in DOC_ATTRIBUTES.items():
        if not Doc.has_extension(name):
            Doc.set_extension(name, default=default)
    for name, default in SPAN_ATTRIBUTES.items():
        if not Span.has_extension(name):
            Span.set_extension(name, default=default)
    for name, getter in SPAN_GETTERS.items():
        if not Span.has_extension(name):
            Span.set_extension(name, getter=getter)
