"""Sentence boundaries for abstracts: ends at . ! ? unless an abbreviation (e.g., i.e., et al.) owns the period."""
from __future__ import annotations

import numpy
from spacy.attrs import SENT_START
from spacy.language import Language
from spacy.tokens import Doc

from .resources import DataComponent, DataFiles

_ENDERS = {".", "!", "?"}
_CLOSERS = {")", "]", "\"", "'", "”", "’"}


class AbstractSentencizer(DataComponent):
    """Rule-based senter in one pass over the tokens: a sentence ends at a terminal mark followed
    by a capital, digit or bracket (closing brackets and quotes stay with the sentence they end)."""

    def __init__(self, name: str, abbreviations: str, final_abbreviations: str) -> None:
        super().__init__(name, (abbreviations, final_abbreviations))
        self.abbreviations_file = abbreviations
        self.final_abbreviations_file = final_abbreviations
        self.abbreviations: frozenset[str] = frozenset()
        self.final_abbreviations: frozenset[str] = frozenset()

    def build(self, data: DataFiles) -> None:
        self.abbreviations = data.words(self.abbreviations_file)
        self.final_abbreviations = data.words(self.final_abbreviations_file)

    def process(self, doc: Doc) -> Doc:
        # All boundaries set at once: each `token.is_sent_start = ...` scans the whole Doc for
        # parse annotation, which made long texts quadratic (100k characters took 6.8 s here).
        starts = numpy.full(len(doc), -1, dtype="int64")  # SENT_START: 1 starts a sentence, -1 does not
        starts[:1] = 1
        for token in doc[:-1]:
            if self._ends_sentence(doc, token.i):
                end = token.i + 1
                while end < len(doc) and doc[end].text in _CLOSERS:
                    end += 1
                if end < len(doc) and _opens_sentence(doc[end].text):
                    starts[end] = 1
        doc.from_array([SENT_START], starts.astype("uint64").reshape(-1, 1))  # type: ignore[arg-type]  # thinc's Ints2d is a numpy array
        return doc

    def _ends_sentence(self, doc: Doc, i: int) -> bool:
        token = doc[i]
        text = token.text
        if text in _ENDERS:
            prev = doc[i - 1].text.lower() if i > 0 else ""
            return not (prev in self.abbreviations and not doc[i - 1].whitespace_)
        return text.lower() in self.final_abbreviations


def _opens_sentence(text: str) -> bool:
    first = text[0]
    return first.isupper() or first.isdigit() or first in "([\"'“‘$"


@Language.factory(
    "paperkg_sentences",
    assigns=["token.is_sent_start"],
    default_config={"abbreviations": "abbreviations.txt", "final_abbreviations": "sentence_final_abbreviations.txt"},
)
def make_sentencizer(nlp: Language, name: str, abbreviations: str, final_abbreviations: str) -> AbstractSentencizer:
    """Factory: both word lists are data files of the component."""
    return AbstractSentencizer(name, abbreviations, final_abbreviations)
