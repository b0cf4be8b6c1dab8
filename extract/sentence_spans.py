"""Spans grouped by the sentence they start in, in one pass (a long text must not cost sentences x spans)."""
from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence

from spacy.tokens import Span


def group_by_sentence(sentences: Sequence[Span], spans: Iterable[Span]) -> list[list[Span]]:
    """`result[i]` holds the spans that start in `sentences[i]`, in their original order."""
    starts = [sent.start for sent in sentences]
    groups: list[list[Span]] = [[] for _ in sentences]
    for span in spans:
        groups[bisect_right(starts, span.start) - 1].append(span)
    return groups
