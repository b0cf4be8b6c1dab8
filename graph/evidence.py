"""Evidence items as the graph holds them: read-only mappings with the `Evidence` fields, stored compactly.

A 100k-paper graph carries over a million evidence items; as dicts, each with its own copy of
the sentence, they were the largest part of the graph's memory. Here an item keeps its sentence
as a span of the paper's abstract (the string the Paper node holds anyway; the span comes from
the extraction record, so a repeated sentence keeps its own place), its extractor name
interned, and its numbers shared through the builder's tables, in slots. Readers see an
ordinary mapping (`ev["sentence"]`, `ev.get("paper")`, `dict(ev)`), equal to the dict of the
same fields; writers turn it into a dict (`json.dumps(..., default=json_default)`).
"""
from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping
from typing import Any, get_type_hints

from paperkg.core.graph_model import Evidence

FIELDS = tuple(get_type_hints(Evidence))  # paper, sentence, sentence_start, start, end, extractor, confidence


class CompactEvidence(Mapping):
    """One piece of evidence: the `Evidence` mapping, its sentence a slice of the abstract made on access."""

    __slots__ = ("paper", "abstract", "sentence_start", "sentence_end", "start", "end", "extractor", "confidence")

    def __init__(self, paper: str, abstract: str, sentence_start: int, sentence_end: int, start: int, end: int,
                 extractor: str, confidence: float) -> None:
        self.paper, self.abstract = paper, abstract
        self.sentence_start, self.sentence_end = sentence_start, sentence_end
        self.start, self.end, self.extractor, self.confidence = start, end, extractor, confidence

    def __getitem__(self, key: str) -> Any:
        if key == "sentence":
            return self.abstract[self.sentence_start:self.sentence_end]
        if key in FIELDS:
            return getattr(self, key)
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(FIELDS)

    def __len__(self) -> int:
        return len(FIELDS)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CompactEvidence):
            return self._numbers() == other._numbers() and self["sentence"] == other["sentence"]
        return Mapping.__eq__(self, other)

    __hash__ = None  # type: ignore[assignment]  # equal to a dict, so unhashable like one

    def __repr__(self) -> str:
        return repr(self.to_dict())

    def to_dict(self) -> dict[str, Any]:
        """The evidence as a plain dict (what the exports write)."""
        return {"paper": self.paper, "sentence": self.abstract[self.sentence_start:self.sentence_end],
                "sentence_start": self.sentence_start, "start": self.start, "end": self.end,
                "extractor": self.extractor, "confidence": self.confidence}

    def _numbers(self) -> tuple[Any, ...]:
        """Every field but the sentence (compared first, as it is cheap)."""
        return (self.paper, self.sentence_start, self.start, self.end, self.extractor, self.confidence)


def json_default(value: object) -> dict[str, Any]:
    """json.dumps' `default`: compact evidence as its dict (any other unknown type stays an error)."""
    if isinstance(value, CompactEvidence):
        return value.to_dict()
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


class EvidenceFactory:
    """Makes the evidence of one graph, sharing equal numbers between items (one int or float object
    per distinct value instead of one per item)."""

    def __init__(self) -> None:
        self._ints: dict[int, int] = {}
        self._floats: dict[float, float] = {}  # apart from the ints: 1.0 must stay a float

    def spans(self, abstract: str, sentence_spans: list[tuple[int, int]]) -> list[tuple[str, int, int]]:
        """(abstract, start, end) of each sentence, from the extraction record's sentence spans."""
        return [(abstract, self._int(start), self._int(end)) for start, end in sentence_spans]

    def make(self, paper: str, span: tuple[str, int, int], start: int, end: int, extractor: str,
             confidence: float) -> CompactEvidence:
        """The evidence of a mention or relation at [start, end) in the sentence `span`."""
        return CompactEvidence(paper, *span, self._int(start), self._int(end), sys.intern(extractor),
                               self._float(round(float(confidence), 4)))

    def _int(self, value: int) -> int:
        return self._ints.setdefault(value, value)

    def _float(self, value: float) -> float:
        """The shared object of a positive float (-0.0 equals 0.0 but is written differently)."""
        return self._floats.setdefault(value, value) if value > 0 else value
