"""Entity typing from a term's head word (head_nouns.tsv) and the model's SciERC labels."""
from __future__ import annotations

from spacy.tokens import Span

from paperkg.core.words import singular

from .resources import DataFiles

_PREPOSITIONS = {"for", "of", "with", "in", "on", "via", "using", "under", "by", "from", "to", "over", "through"}

# A span's label for a term of none of the graph's types (its mention has label None, never a node).
OTHER_TERM = "OtherTerm"
# How the statistical model's SciERC labels enter the graph (docs/explain/extraction.md, "Combining the extractors").
SCIERC_TO_GRAPH = {"Method": "Method", "Task": "Task", "Metric": "Metric",
                   "Material": "Dataset", "OtherScientificTerm": OTHER_TERM, "Generic": None}


def head_word(span: Span) -> str:
    """The head of a term: its last word before the first preposition ('module for SNNs' -> module)."""
    words = [t for t in span if not t.is_punct]
    for i, token in enumerate(words):
        if i > 0 and token.lower_ in _PREPOSITIONS:
            words = words[:i]
            break
    if not words:
        return ""
    last = words[-1].lower_
    return singular(last.rsplit("-", 1)[-1]) if "-" in last else singular(last)


class HeadNouns:
    """Head word (lower-case, singular) -> the entity type it signals ('...attention' is a Method)."""

    def __init__(self, labels: dict[str, str]) -> None:
        self.labels = labels

    @classmethod
    def from_data(cls, data: DataFiles, name: str) -> HeadNouns:
        """The table of a two-column TSV data file."""
        return cls({row[0]: row[1] for row in data.table(name)})

    def label_of_word(self, word: str) -> str | None:
        """The label a (possibly plural) head word signals."""
        return self.labels.get(singular(word))

    def label_of(self, span: Span) -> str | None:
        """The label the term's head word signals, if the head is a known one."""
        return self.labels.get(head_word(span))
