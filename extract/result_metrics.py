"""Metric phrases of a sentence: a metric word ('accuracy', 'F1-score', 'BLEU', 'Recall@1') or a mention the
pipeline types Metric, with the words before it that name which one ('macro F1-score', 'top-1 accuracy',
'average success rate'), as written."""
from __future__ import annotations

import re
from collections.abc import Iterable

from spacy.matcher import PhraseMatcher
from spacy.tokens import Span

from .result_context import SentenceTokens

# A metric word with a cut-off or a variant glued on: 'Recall@1', 'NDCG@10', 'Pass@1', 'Hits@10', 'R@1'
_AT_K = re.compile(r"^[A-Za-z][\w\-]*@\d+(?:\\?%)?$")
_SUFFIXES = frozenset({"score", "scores", "rate", "rates", "metric", "metrics", "measure", "ratio", "index"})
GENERIC, SPECIFIC = "generic", "metric"  # a phrase's label: its head is a generic word ('score') or a metric's name
_WORD = re.compile(r"^[\w][\w\-'’/+.]*$")
MAX_MODIFIERS = 4


def metric_phrases(words: SentenceTokens, matcher: PhraseMatcher, typed: Iterable[Span], stops: frozenset[str],
                   values: Iterable[tuple[int, int]], generic: frozenset[str], names: Iterable[Span]) -> list[Span]:
    """The metric phrases of `sent`, in order, none overlapping: each metric word (the `matcher`'s, a
    'word@k' token, or a span of `typed`) with a following 'score'/'rate' (also after its acronym: 'IoU (intersection
    over union) score') and the modifiers before it: words that are no stop word, number, value (`values`: token
    spans) or other entity's name (`names`: 'Effort' in 'Effort AUC'). Labelled GENERIC when the metric word is one
    of `generic` ('score', 'performance'), else SPECIFIC."""
    sent = words.sent
    doc, first_token = sent.doc, sent.start
    texts, lower = words.texts, words.lower
    taken = {i for start, end in values for i in range(start, end)}
    names = list(names)
    named = {i for span in names for i in range(span.start, span.end)}
    heads = [(start, end) for _, start, end in matcher(sent)]
    heads += [(first_token + i, first_token + i + 1) for i, text in enumerate(texts) if _AT_K.match(text)]
    heads += [(span.start, span.end) for span in typed]
    phrases: list[Span] = []
    used: set[int] = set()
    for start, end in sorted(heads, key=lambda h: (h[0] - h[1], h[0])):  # the longest first
        if used.intersection(range(start, end)) or taken.intersection(range(start, end)):
            continue
        label = GENERIC if " ".join(lower[start - first_token:end - first_token]) in generic else SPECIFIC
        if label == GENERIC and start > sent.start and _named_metric(texts[start - 1 - first_token]):
            start, label = start - 1, SPECIFIC  # 'pAP scores', 'Jaccard score'
        around = next((span for span in names if span.start <= start and end <= span.end
                       and not taken.intersection(range(span.start, span.end))), None)
        if around is not None:  # a metric word in a name is that name ('Hierarchical Recall'), unless it holds a value
            start, end = around.start, around.end
        end = first_token + _suffixed(texts, lower, end - first_token, taken, first_token)
        first = start
        while (first > sent.start and start - first < MAX_MODIFIERS and not {first - 1} & (taken | used | named)
               and _modifier(texts[first - 1 - first_token], stops)):
            first -= 1
        used.update(range(first, end))
        phrases.append(Span(doc, first, end, label=label))
    return sorted(phrases, key=lambda span: span.start)


def _suffixed(texts: list[str], lower: list[str], end: int, taken: set[int], offset: int) -> int:
    """The end (in the sentence's tokens) of a metric word with the 'score' or 'rate' after it, also after a
    bracketed acronym ('IoU (intersection over union) score')."""
    limit = len(texts)
    if end + 3 < limit and texts[end] == "(" and texts[end + 2] == ")" and lower[end + 3] in _SUFFIXES:
        end += 3
    while end < limit and lower[end] in _SUFFIXES and end + offset not in taken:
        end += 1
    return end


def _named_metric(text: str) -> bool:
    """A word that names a metric before 'score' or 'scores': one with a capital letter ('pAP', 'Jaccard')."""
    return bool(_WORD.match(text)) and any(c.isupper() for c in text)


def _modifier(text: str, stops: frozenset[str]) -> bool:
    """A word that can name which metric: no stop word, adverb, punctuation or bare number."""
    return (bool(_WORD.match(text)) and text.lower() not in stops and not text.replace(".", "").isdigit()
            and not (text.endswith("ly") and text.islower()))
