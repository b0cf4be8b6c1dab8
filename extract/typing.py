"""Entity typing from a term's head word (extract/data/head_nouns.tsv) and the model's SciERC labels."""
from __future__ import annotations

from functools import lru_cache

from spacy.tokens import Span

from .resources import read_table
from .words import singular

_PREPOSITIONS = {"for", "of", "with", "in", "on", "via", "using", "under", "by", "from", "to", "over", "through"}

# How the statistical model's SciERC labels enter the graph (see README, "Combining the extractors").
SCIERC_TO_GRAPH = {"Method": "Method", "Task": "Task", "Metric": "Metric",
                   "Material": "Dataset", "OtherScientificTerm": "Concept", "Generic": None}


@lru_cache(maxsize=None)
def head_noun_labels(name: str = "head_nouns.tsv") -> dict[str, str]:
    """Head word (lower-case, singular) -> label."""
    return {row[0]: row[1] for row in read_table(name)}


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


def label_from_head(span: Span) -> str | None:
    """The label the term's head word signals, if the head is a known one."""
    return head_noun_labels().get(head_word(span))
