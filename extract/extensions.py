"""The Doc and Span extensions paperkg attaches, registered once in one place."""
from __future__ import annotations

from spacy.tokens import Doc, Span

SPAN_EXTENSIONS = {
    "canonical": None,      # display name the graph canonicalises (long form for acronyms)
    "acronym": None,        # short form, when the entity has one
    "source": None,         # which extractor found it: acronym, lexicon, cue, name, model
    "confidence": 0.0,
    "proposed": False,      # the paper proposes this entity
    "role": "mentions",     # the paper's relation to it: proposes, addresses, evaluates_on, mentions
}
DOC_EXTENSIONS = {
    "relations": None,      # list of dicts: type, head/tail entity indices, sentence index, source, confidence
    "undefined_acronyms": None,  # short forms seen but neither defined nor in the lexicon
}


def ensure_extensions() -> None:
    """Register the extensions (idempotent; components call it in their constructors)."""
    for name, default in SPAN_EXTENSIONS.items():
        if not Span.has_extension(name):
            Span.set_extension(name, default=default)
    for name, default in DOC_EXTENSIONS.items():
        if not Doc.has_extension(name):
            Doc.set_extension(name, default=default)
