"""One sentence as the result finder reads it: its values with their tokens, its metric phrases and its typed
entity mentions, and the features of each value for the result and change models."""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from spacy.tokens import Span

from .result_cues import ResultCues
from .result_values import Value

_DIGITS = re.compile(r"\d+")
_YEAR = re.compile(r"^(?:19|20)\d\d$")
_RUN_GLUE = frozenset({",", "and", "or", "/", "%"})


@dataclass(frozen=True)
class SentenceTokens:
    """A sentence's words read once: its token texts, lower-cased texts and text (each Span.text or token loop
    makes a Token object per token)."""

    sent: Span
    texts: list[str]
    lower: list[str]
    text: str

    @classmethod
    def read(cls, sent: Span) -> SentenceTokens:
        """The words of a sentence."""
        tokens = list(sent)
        text = "".join(t.text_with_ws for t in tokens)
        return cls(sent, [t.text for t in tokens], [t.lower_ for t in tokens], text[:len(text.rstrip())])


@dataclass
class SentenceContext:
    """A sentence with its values (and each value's tokens), metric phrases and entity mentions by type."""

    words: SentenceTokens
    index: int                 # the sentence's place in the abstract
    values: list[Value]
    spans: list[Span]          # the tokens of each value (expanded to whole tokens)
    metrics: list[Span]
    entities: list[Span]
    datasets: list[Span]       # the data sets it names: Dataset mentions and shared tasks
    results: list[int] = field(default_factory=list)  # the values the result model kept (set once it has run)

    @property
    def sent(self) -> Span:
        """The sentence."""
        return self.words.sent

    @property
    def lower(self) -> list[str]:
        """The sentence's tokens, lower case."""
        return self.words.lower

    @property
    def text(self) -> str:
        """The sentence's text."""
        return self.words.text

    def between(self, start: int, end: int) -> list[str]:
        """The lower-case tokens at doc positions [start, end) of the sentence."""
        offset = self.sent.start
        return self.words.lower[max(0, start - offset):max(0, end - offset)]

    def token_text(self, position: int) -> str:
        """The text of the token at a doc position of the sentence."""
        return self.words.texts[position - self.sent.start]

    def after(self, position: int, width: int) -> str:
        """The `width` characters of the sentence after a character position of the Doc."""
        start = position - self.sent.start_char
        return self.text[start:start + width]

    def before(self, position: int, width: int) -> str:
        """The `width` characters of the sentence before a character position of the Doc."""
        end = position - self.sent.start_char
        return self.text[max(0, end - width):end]

    def word(self, position: int) -> str:
        """The lower-case token at a doc position, '' outside the sentence; digits as '#'."""
        offset = position - self.sent.start
        return _DIGITS.sub("#", self.lower[offset]) if 0 <= offset < len(self.lower) else ""

    def of_label(self, label: str) -> list[Span]:
        """The sentence's entity mentions of one type."""
        return [span for span in self.entities if span.label_ == label]


def value_run(ctx: SentenceContext, k: int, among: Sequence[int] | None = None) -> list[int]:
    """The values listed together with value `k`, in order ('93.02% and 67.21%', '4.05%, 2.50%, and 7.71%'): each
    joined to the next by list words alone; among the results (or the values `among`)."""
    order = sorted(ctx.results if among is None else among, key=lambda j: ctx.spans[j].start)
    if k not in order:
        return [k]
    first = last = order.index(k)
    while first > 0 and _listed(ctx, order[first - 1], order[first]):
        first -= 1
    while last + 1 < len(order) and _listed(ctx, order[last], order[last + 1]):
        last += 1
    return order[first:last + 1]


def _listed(ctx: SentenceContext, j: int, k: int) -> bool:
    between = ctx.between(ctx.spans[j].end, ctx.spans[k].start)
    return bool(between) and len(between) <= 3 and all(word in _RUN_GLUE for word in between)


def value_features(ctx: SentenceContext, k: int, cues: ResultCues) -> list[str]:
    """The named binary features of value `k` of the sentence: its shape, its words around, and the cues
    nearby (what the result and change models weigh)."""
    value, span = ctx.values[k], ctx.spans[k]
    before = [ctx.word(span.start - n) for n in (1, 2, 3)]
    after = [ctx.word(span.end + n) for n in (0, 1, 2)]
    tail = ctx.after(value.end, 12).lower()
    features = [f"unit={value.unit or '-'}", f"p1={before[0]}", f"p2={before[1]}", f"n1={after[0]}",
                f"n2={after[1]}", f"p12={before[1]}_{before[0]}", f"n12={after[0]}_{after[1]}"]
    number = value.numbers[0] if value.numbers else 0.0
    decimals = "." in value.text
    features.append("decimal" if decimals else "integer")
    features.append("range" if value.ranged else "single")
    features.append("magnitude=" + ("<=1" if number <= 1 else "<=10" if number <= 10 else "<=100" if number <= 100
                                    else "<=1000" if number <= 1000 else ">1000"))
    if value.text[:1] in "+-−":
        features.append("signed")
    if not value.unit and not decimals and _YEAR.match(value.text):
        features.append("year")
    if re.match(r"\s*(?:points?|pp|percentage points?|pts?)\b", tail) or re.match(r"[\s-]*points?\b", tail):
        features.append("points")
    if after[0] in cues.count_nouns or after[1] in cues.count_nouns and after[0] not in cues.change_words:
        features.append("count-noun")
    if before[0] in cues.not_result_before:
        features.append("setting-word")
    if any(word in cues.change_words for word in before[:2] + after[:2]):
        features.append("change-word")
    if before[0] == "by" or before[1] == "by" and before[0] in ("about", "approximately", "up", "roughly", "over",
                                                                 "nearly", "almost", "around", "~"):
        features.append("by")
    if any(word in cues.comparatives for word in after[:2]):
        features.append("comparative")
    if any(word in cues.relative_words for word in before[:2] + after[:2]):
        features.append("relative")
    if any(word in cues.result_verbs for word in ctx.lower):
        features.append("result-verb")
    if _near_metric(ctx, span):
        features.append("metric-near")
    elif ctx.metrics:
        features.append("metric-in-sentence")
    if "(" in before[:2] or "(" == ctx.word(span.start - 1):
        features.append("bracketed")
    if ctx.index == 0:
        features.append("first-sentence")
    if len(ctx.values) > 1:
        features.append("several-values")
    run = value_run(ctx, k, range(len(ctx.values)))
    if len(run) > 1:  # a list of values: the words around the whole list ('by 7.6 and 8.4 BLEU', '5.7% and 3.4% gains')
        first, last = ctx.spans[run[0]], ctx.spans[run[-1]]
        around = [ctx.word(first.start - 1), ctx.word(first.start - 2), ctx.word(last.end), ctx.word(last.end + 1)]
        features += ["listed", f"list-p1={around[0]}", f"list-n1={around[2]}"]
        if "by" in around[:2]:
            features.append("list-by")
        if any(word in cues.change_words for word in around):
            features.append("list-change-word")
    return features


def _near_metric(ctx: SentenceContext, span: Span) -> bool:
    """A metric phrase within three tokens of the value."""
    return any(metric.start - span.end <= 3 and span.start - metric.end <= 3 for metric in ctx.metrics)
