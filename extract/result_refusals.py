"""Numbers the result model may keep that are never results, by rule: money ('US$28.31', '15 USD'), confidence
intervals and p-values ('95% CI [-12.9, +2.7]', 'p > 0.2'), settings ('a threshold of 0.85'), inter-annotator
agreement, a rank ('the top 50%') and a share of the data, tokens or parameters used ('0.32% of parameters', 'using
11.1% of the tokens', '40% labeled data')."""
from __future__ import annotations

import re

from .result_context import SentenceContext, value_run
from .result_cues import ResultCues

_MONEY_BEFORE = re.compile(r"(?:(?:^|[\s(\[~]|US)\\?\$|€|£)$")  # '$28', 'US\$28.31', '€5'; not LaTeX's '$\geq$ 80%'
_LATEX_CLOSE = re.compile(r"^[^\s]{0,3}\$")  # '$93.8\%$': a number in LaTeX math
_P_VALUE = re.compile(r"\bp\s?(?:[<>=≤≥]|\\[lg]eq?)\s?$")
MAX_SHARE_GLUE = 3


def refused(ctx: SentenceContext, k: int, cues: ResultCues) -> bool:
    """Whether value `k` of the sentence is money, an interval or a p-value, a setting, an agreement between
    annotators (or in a list of values that is), a rank or a share of the data or parameters used, whatever the
    result model says."""
    value, span = ctx.values[k], ctx.spans[k]
    before = [ctx.word(span.start - n) for n in (1, 2, 3)]
    after = [ctx.word(span.end + n) for n in range(MAX_SHARE_GLUE + 1)]
    if _money(ctx, k, before, after, cues) or _P_VALUE.search(ctx.before(value.start, 12)):
        return True
    if set(before) & cues.setting_words:
        return True  # a setting: 'with a threshold of 0.85'
    if set(before[:2] + after[:1]) & cues.interval_words - {"p"}:
        return True  # '95% CI', 'CI [-12.9, +2.7]', 'a 95% confidence interval'
    first = ctx.spans[value_run(ctx, k, range(len(ctx.values)))[0]]
    if {ctx.word(first.start - n) for n in range(1, 7)} & cues.agreement_words:
        return True  # 'Inter-annotator agreement scores of 88%, 82%, and 89%'
    if value.unit == "%" and before[0] == "top":
        return True  # a rank: 'our submission gets into the top 50%'
    return value.unit == "%" and _share(after, cues)


def _money(ctx: SentenceContext, k: int, before: list[str], after: list[str], cues: ResultCues) -> bool:
    value = ctx.values[k]
    glued = bool(_MONEY_BEFORE.search(ctx.before(value.start, 4))) and not _LATEX_CLOSE.match(ctx.after(value.end, 4))
    return glued or before[0] in cues.money_words or after[0] in cues.money_words


def _share(after: list[str], cues: ResultCues) -> bool:
    """A % value followed by a share noun through share words only ('of the tokens', 'additional parameters')."""
    for word in after:
        if word in cues.share_nouns:
            return True
        if word not in cues.share_glue:
            return False
    return False
