"""Every Doc and Span extension paperkg attaches, registered in one place under the `paperkg_` prefix
(other libraries, scispaCy among them, register their own unprefixed `long_form`).

Acronyms are stored per Doc as plain records in `doc._.paperkg_acronym_records`
[start, end, kind, rule, confidence, long_start, long_end] (token offsets; -1 when there is no
long form), so they survive Doc serialisation; the acronym Span extensions are getters over them.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from spacy.tokens import Doc, Span

START, END, KIND, RULE, CONFIDENCE, LONG_START, LONG_END = range(7)

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
}


def acronym_record(span: Span) -> list | None:
    """The acronym record of exactly this span, if it is an acronym mention."""
    for record in span.doc._.paperkg_acronym_records:
        if record[START] == span.start and record[END] == span.end:
            return record
    return None


def _long_form(span: Span) -> Span | None:
    record = acronym_record(span)
    if record is None or record[LONG_START] < 0:
        return None
    return span.doc[record[LONG_START]:record[LONG_END]]


def _record_field(index: int) -> Callable[[Span], Any]:
    def getter(span: Span) -> Any:
        record = acronym_record(span)
        return None if record is None else record[index]
    return getter


def _definitions(doc: Doc) -> list[tuple[Span, Span]]:
    return [(doc[r[START]:r[END]], doc[r[LONG_START]:r[LONG_END]])
            for r in doc._.paperkg_acronym_records if r[KIND] == "definition"]


SPAN_GETTERS: dict[str, Callable[[Span], Any]] = {
    "paperkg_long_form": _long_form,
    "paperkg_acronym_kind": _record_field(KIND),       # definition, resolved or undefined
    "paperkg_acronym_rule": _record_field(RULE),
    "paperkg_acronym_confidence": _record_field(CONFIDENCE),
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
