"""What a result is of: the metric, data set, method, comparison and split a value goes with in its sentence,
by the words between them (the rules of the result finder, measured on bench/data/results_dev)."""
from __future__ import annotations

from collections.abc import Sequence

from spacy.tokens import Span

from paperkg.core.schema import NodeLabel

from .result_context import SentenceContext, value_run
from .result_cues import ResultCues
from .result_metrics import GENERIC

# Words that may stand between a value and the metric after it ('2.1 points higher in accuracy', '5% relative
# improvement in F1') or before it ('an F1 of 0.84', 'accuracy: 91%', 'BLEU score reaches 28.4').
_AFTER_GLUE = frozenset({"points", "point", "pp", "pts", "percentage", "%", "absolute", "relative", "higher", "lower",
                         "better", "improvement", "improvements", "gain", "gains", "increase", "increases", "boost",
                         "reduction", "reductions", "drop", "decrease", "decline", "enhancement", "lift", "in", "of",
                         "terms", "the", "on", "average", "mean", "overall", "up", "respectively", "for", "(", ")",
                         "x", "times", "fold", "db", "an", "a", "and", ","})
_BEFORE_GLUE = frozenset({"of", "=", ":", "is", "was", "are", "were", "at", "to", "reaches", "reached", "reaching",
                          "by", "achieves", "achieved", "achieving", "up", "approximately", "about", "around",
                          "nearly", "over", "a", "an", "the", "(", "rate", "score", "scores", "value", "values",
                          "improved", "improves", "increased", "increases", "reduced", "reduces", "drops", "dropped",
                          "fell", "rises", "rose", "from", "roughly", "only", "just", "almost", "than", "more",
                          "even", "as", "high", "low", "still", "remains", "stays", "obtains", "obtained",
                          "yields", "gets", "scored", "scoring", "with", "lags", "lagging", "~", "≈"})
_LIST_GLUE = frozenset({",", "and", "/", "or", ";", "respectively", "(", ")", "vs", "vs.", "versus", "to"})
_DATA_GLUE = frozenset({"on", "in", "for", "across", "of", "the", "over", "at", "with", "from", "using", "set",
                        "dataset", "datasets", "benchmark", "benchmarks", "test", "dev", "validation", "split",
                        "points", "point", "pp", "%", "absolute", "relative", "higher", "lower", "and", "respectively",
                        ",", "(", ")", "improvement", "improvements", "gain", "gains", "accuracy", "score", "scores"})
_COMPARISON_ENDS = frozenset({",", ";", ".", ")", "(", "by", "on", "in", "with", "while", "and", "across", "at",
                              "for"})
_JOINING = frozenset({"or", "and", "at", "as", "to", "in", "of", "on"})
MAX_METHOD_MODIFIERS = 3
_CLAUSE_BREAKS = frozenset({";", "while", "whereas", "but", "although", "though", "however"})


def attach_metric(ctx: SentenceContext, k: int) -> Span | None:
    """The metric phrase value `k` goes with: one written right after or before it or its list of values ('2.83% and
    2.05% in accuracy'), or before the list of values it ends ('F1 scores of 57% and 61%'), or the named one in the
    order of a 'respectively' or of a list of as many metrics before its list of values, else the
    nearest in its clause with no other value nearer; a phrase of a generic word alone ('score', 'performance') only
    when no other is as near."""
    span = ctx.spans[k]
    named = [metric for metric in ctx.metrics if metric.label_ != GENERIC]
    if "respectively" in ctx.lower and len(named) == len(ctx.results) > 1 and named[-1].end <= ctx.spans[
            ctx.results[0]].start:
        return named[ctx.results.index(k)]  # 'the lowest WER and CER and the highest BLEU: 55.05, 19.44 and 69.15'
    paired = _paired(ctx, k, named, after=False)
    if paired is not None:
        return paired  # 'chrF++ and CER of 87.91 and 0.05 from Farsi to Tajik and 92.28 and 0.04 from Tajik to Farsi'
    best: tuple[float, Span] | None = None
    run = value_run(ctx, k)
    last = ctx.spans[run[-1]]  # the metric after a list of values is the whole list's ('2.83% and 2.05% in accuracy')
    for metric in ctx.metrics:
        score = _metric_score(ctx, last if metric.start >= last.end else span, metric)
        if metric.label_ == GENERIC:
            score -= 1.0
        if score > 0 and (best is None or score > best[0]):
            best = (score, metric)
    return best[1] if best else None


def _metric_score(ctx: SentenceContext, span: Span, metric: Span) -> float:
    if metric.start >= span.end:
        between = ctx.between(span.end, metric.start)
        if between[:1] == [")"] and ctx.between(span.start - 1, span.start) == ["("]:
            return 0.5  # 'accuracy (69.2%) and F1 score (66.1%)': the bracketed value is the metric's before it
        if len(between) <= 6 and all(word in _AFTER_GLUE for word in between):
            return (2.0 if between[:1] in (["a"], ["an"], ["and"], [","]) else 4.0) - 0.1 * len(between)
        if _clause_break(between) or _holds_value(ctx, span.end, metric.start):
            return 0.0
        return 1.0 - 0.01 * len(between)
    between = ctx.between(metric.end, span.start)
    if len(between) <= 5 and all(word in _BEFORE_GLUE for word in between):
        return (3.8 if between[:1] in (["of"], ["="], [":"]) else 3.5) - 0.1 * len(between)
    others = _values_between(ctx, metric.end, span.start)
    if others and all(word in _LIST_GLUE or word in _BEFORE_GLUE or _inside(ctx, i) for i, word in
                      zip(range(metric.end, span.start), between)):
        return 2.5 - 0.01 * len(between)
    if any(_directly_after(ctx, other, metric) for other in others):
        return 0.3
    return (0.5 if _clause_break(between) else 1.5) - 0.01 * len(between)


def _directly_after(ctx: SentenceContext, k: int, metric: Span) -> bool:
    """Value `k` is the metric's own ('accuracy of 91%'), so a value after it is not."""
    between = ctx.between(metric.end, ctx.spans[k].start)
    return len(between) <= 5 and all(word in _BEFORE_GLUE for word in between)


def _values_between(ctx: SentenceContext, start: int, end: int) -> list[int]:
    """The results (values the result model kept) between two token positions."""
    return [k for k in ctx.results if start <= ctx.spans[k].start and ctx.spans[k].end <= end]


def _holds_value(ctx: SentenceContext, start: int, end: int) -> bool:
    return bool(_values_between(ctx, start, end))


def _inside(ctx: SentenceContext, position: int) -> bool:
    """Whether a token is part of a value."""
    return any(span.start <= position < span.end for span in ctx.spans)


def _clause_break(words: Sequence[str]) -> bool:
    return any(word in _CLAUSE_BREAKS for word in words)


def attach_dataset(ctx: SentenceContext, k: int) -> Span | None:
    """The data set value `k` is measured on: the one paired with it in order ('on A and B ... 96.6% and 98.4%,
    respectively'; each list of as many values as the data sets named before the sentence's values), else the
    first named after it or its list of values before another value ('81.3% on ALG514', '93.02% and 67.21% on the
    ArBanking77 dataset'), or the last named before the sentence's values ('On ImageNet, ... 85.1%'), or the
    sentence's only data set."""
    span = ctx.spans[k]
    if len(ctx.datasets) == len(ctx.results) > 1 and ("respectively" in ctx.lower or ctx.datasets[-1].end <= ctx.spans[
            ctx.results[0]].start):
        return ctx.datasets[ctx.results.index(k)]  # 'on A and B ... 96.6% and 98.4%, respectively'; 'on A, B and C,
        # which are 80.3, 79.4 and 77.8'
    run = value_run(ctx, k)
    if len(ctx.datasets) == len(run) > 1 and ctx.datasets[-1].end <= ctx.spans[ctx.results[0]].start:
        return ctx.datasets[run.index(k)]  # 'on A, B and C, which are 80.3, 79.4 and 77.8 with X, and 81.0, 80.1
        # and 78.2 with Y': each list of as many values as the data sets named before them, in order
    paired = _paired(ctx, k, ctx.datasets, after=True)
    if paired is not None:
        return paired  # 'improvements of 2.83% and 2.05% in accuracy on M-OWODB and S-OWODB, respectively'
    best: tuple[float, Span] | None = None
    for dataset in ctx.datasets:
        if dataset.start >= span.end:
            between = ctx.between(span.end, dataset.start)
            run = value_run(ctx, k)
            if any(j not in run for j in _values_between(ctx, span.end, dataset.start)) or _clause_break(between) \
                    or len(between) > 12:
                continue
            glued = all(word in _DATA_GLUE or _in_metric(ctx, i) for i, word in zip(range(span.end, dataset.start),
                                                                                     between))
            score = (3.0 if glued else 2.0) - 0.01 * len(between)
        else:
            between = ctx.between(dataset.end, span.start)
            if _clause_break(between) or any(other.end <= span.start and other.start >= dataset.end
                                             for other in ctx.datasets):
                continue
            if dataset.end <= ctx.spans[ctx.results[0]].start:
                score = 1.5  # 'On ImageNet, ...': the sentence's data set
            elif any(not ctx.values[j].start_of_move for j in _values_between(ctx, dataset.end, span.start)):
                continue  # 'on WMT14 and 41.0 BLEU on ...': a data set before another value is that value's
            else:
                score = 1.0
        if best is None or score > best[0]:
            best = (score, dataset)
    return best[1] if best else None


def _paired(ctx: SentenceContext, k: int, names: list[Span], after: bool) -> Span | None:
    """The name paired with value `k` when its list of values and a list of names have the same length: the names
    between the previous result and the list ('A and B of 87.91 and 0.05'), else the list of names before that ('...
    and 92.28 and 0.04'), or, with a 'respectively', the first names after it ('2.83% and 2.05% on A and B,
    respectively')."""
    run = value_run(ctx, k)
    if len(run) < 2:
        return None
    start, end = ctx.spans[run[0]].start, ctx.spans[run[-1]].end
    earlier = [ctx.spans[j].end for j in ctx.results if ctx.spans[j].end <= start]
    later = [ctx.spans[j].start for j in ctx.results if ctx.spans[j].start >= end]
    if after:
        limit = min(later, default=ctx.sent.end)
        listed = [name for name in names if end <= name.start and name.end <= limit]
        if "respectively" not in ctx.between(end, ctx.sent.end) or len(listed) < len(run):
            return None
        listed = listed[:len(run)]
    else:
        floor = max(earlier, default=ctx.sent.start)
        listed = [name for name in names if floor <= name.start and name.end <= start]
        if not listed:  # '... and 92.28 and 0.04 from Tajik to Farsi': the list the values before it took
            listed = [name for name in names if name.end <= start][-len(run):]
            if not listed or _holds_value(ctx, listed[0].start, listed[-1].end):
                return None
        if len(listed) != len(run):
            return None
    return listed[run.index(k)]


def _in_metric(ctx: SentenceContext, position: int) -> bool:
    return any(metric.start <= position < metric.end for metric in ctx.metrics)


def attach_comparison(ctx: SentenceContext, k: int, cues: ResultCues) -> Span | None:
    """What the value is set against, when the sentence says ('over the previous best', 'than GPT-4'): the
    words after a comparison word, up to a value, a comma or a clause break, at most eight, not starting with a
    joining word."""
    sent, lower = ctx.sent, ctx.lower
    for offset, word in enumerate(lower):
        if word not in cues.compare_words or word == "from":
            continue
        start = offset + 1
        if word == "compared" and start < len(lower) and lower[start] in ("to", "with"):
            start += 1
        end = start
        while end < len(lower) and end - start < 8 and not _inside(ctx, sent.start + end) \
                and lower[end] not in _COMPARISON_ENDS:
            end += 1
        if end > start and lower[start] not in _JOINING:  # not 'better than or as good as'
            return sent.doc[sent.start + start:sent.start + end]
    return None


def attach_method(ctx: SentenceContext, k: int, cues: ResultCues) -> Span | None:
    """A method the sentence gives the value to by name, other than the paper's own: one named right after it
    with 'for' ('61.4% for Mem0') or right before it with the value in brackets ('surpassing V2P-7B (50.6%)'), else
    the nearest Method mention before the value in its clause that is its subject ('GPT-4 reaches 74%', 'GPT-4's
    accuracy of 74%'), not one the value is compared with ('than GPT-4'); no name inside a metric phrase
    ('Hierarchical Recall')."""
    span = ctx.spans[k]
    named = [m for m in ctx.of_label(NodeLabel.METHOD.value) if not _in_metric(ctx, m.start)]
    after = next((m for m in named if m.start == span.end + 1 and ctx.word(span.end) == "for"), None)
    if after is not None:
        return None if after._.paperkg_proposed else after  # '61.4% for Mem0'
    methods = [m for m in named if m.end <= span.start]
    if not methods:
        return None
    method = methods[-1]
    if ctx.between(method.end, span.start) == ["("]:  # 'outperforming the deterministic U-Net (85.3%)'
        return None if method._.paperkg_proposed else _with_modifiers(ctx, method, cues)

    if method._.paperkg_proposed:
        return None
    between = ctx.between(method.end, span.start)
    before = ctx.between(method.start - 1, method.start)[0] if method.start > ctx.sent.start else ""
    if _clause_break(between) or before in cues.compare_words or before in ("to", "with", "and"):
        return None
    if any(word in ("our", "we", "by", "over", "than") for word in between) or _holds_value(ctx, method.end,
                                                                                             span.start):
        return None
    if len(between) > 8 or not (set(between) & (cues.result_verbs | {"'s", "’s", "of", "at"})):
        return None
    return method


def _with_modifiers(ctx: SentenceContext, method: Span, cues: ResultCues) -> Span:
    """A method's mention with the words before it that say which one ('the deterministic U-Net', 'varying U-Nets'),
    up to a determiner, a cue word or punctuation."""
    stops = cues.metric_stops | cues.compare_words | cues.result_verbs
    start = method.start
    while start > ctx.sent.start and method.start - start < MAX_METHOD_MODIFIERS \
            and ctx.token_text(start - 1)[:1].isalpha() and ctx.word(start - 1) not in stops:
        start -= 1
    return method.doc[start:method.end]


def sentence_split(ctx: SentenceContext, cues: ResultCues) -> str:
    """The split the sentence names ('on the test set', 'dev'), '' when none."""
    for position, word in enumerate(ctx.lower[:-1]):
        if word in cues.split_words and ctx.lower[position + 1] in ("set", "sets", "split", "splits", "data"):
            return cues.split_words[word]
    return next((cues.split_words[word] for word in ctx.lower if "-" in word and word in cues.split_words), "")
