"""Termhood: whether a phrase the model found reads as a term of the field, by corpus statistics.

A term recurs across a field's papers ("gaussian splatting" in 1,356 of 121,757 abstracts of the
shared corpus) or names a specific kind of a known thing ("citation classification": a task head
with specific words before it); a description made up for one paper ("dominant model class",
"diverting probability", "lightweight training strategy") does neither, and a lone word used
everywhere ("learning", "image") names nothing in particular. The document frequencies come from
extract/training/corpus_stats.py.
"""
from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable

from spacy.tokens import Span

from paperkg.core.words import singular

from .resources import DataFiles

_DOCUMENTS = re.compile(r"^# documents\t(\d+)$", re.MULTILINE)


class Termhood:
    """Looks phrases up in the corpus document-frequency table and says why one is not a term."""

    def __init__(self, rows: Iterable[str], documents: int, min_df: int, max_word_share: float) -> None:
        # 'ngram<TAB>df' lines in code-point order, looked up by bisection: the 376k rows load in
        # 0.15 s this way, 0.74 s as a dict, in every process that loads the pipeline.
        self.rows = sorted(rows)  # linear when already sorted, as corpus_stats.py writes the table
        self.documents = documents
        self.min_df = min_df
        self.max_word_share = max_word_share

    @classmethod
    def from_data(cls, data: DataFiles, name: str, min_df: int, max_word_share: float) -> Termhood:
        """The table of a gzipped 'ngram<TAB>df' file whose header names the number of documents."""
        text = data.text(name)
        documents = _DOCUMENTS.search(text)
        if documents is None:
            raise ValueError(f"{name}: no '# documents' line in the header.")
        rows = [line for line in text.split("\n") if line and line[0] != "#"]
        return cls(rows, int(documents.group(1)), min_df, max_word_share)

    def document_frequency(self, text: str) -> int:
        """In how many corpus abstracts a phrase occurs (its words as written between spaces, case
        ignored, the last word singular: the form corpus_stats.py counts)."""
        words = text.lower().split()
        if not words:
            return 0
        key = " ".join([*words[:-1], singular(words[-1])]) + "\t"
        at = bisect_left(self.rows, key)
        return int(self.rows[at][len(key):]) if at < len(self.rows) and self.rows[at].startswith(key) else 0

    def rule(self, span: Span, head_label: str | None, generic_words: frozenset[str],
             generic_heads: frozenset[str], vague_heads: frozenset[str]) -> str:
        """'corpus' when the field's abstracts use the phrase (df >= min_df), 'head' when a rarer
        phrase has a specific head word of a known type ("citation classification"); else the reason
        it is no term: 'common-word' (one word too frequent to name anything), 'generic' (a phrase with
        an evaluative or generic word: "real-world application", "lightweight training strategy"), 'vague'
        (a kind of procedure named by its purpose: "alignment process", "distillation technique") or
        'rare' (a description made up for one paper: "dominant model class", "sample-efficient
        algorithm": a generic kind of thing, however specific its modifiers)."""
        words = span.text.split()
        df = self.document_frequency(span.text)
        if len(words) == 1:
            return "common-word" if df > self.max_word_share * self.documents else (
                "corpus" if df >= self.min_df else "rare")
        if any(t.lower_ in generic_words for t in span):
            return "generic"
        if span[-1].lower_ in vague_heads:
            return "vague"
        if df >= self.min_df:
            return "corpus"
        if head_label is None or span[-1].lower_ in generic_heads:
            return "rare"
        modifiers = [t for t in span[:-1] if t.is_alpha]
        return "head" if all(self.document_frequency(t.text) >= self.min_df for t in modifiers) else "rare"
