"""Acronym definitions and mentions in one sentence of token texts.

Forms recognised: "long form (SF)", "SF (long form)", "(long form; SF)", "(SF; long form)",
"(named long form, SF)", "(SF, for short)", "SF: long form", "SF = long form", "SF, which
stands for long form", apposition "long form, SF", CamelCase names after their words
("Federated Averaging (FedAvg)"), and long forms written out elsewhere in the sentence
("Question Answering ... QA").
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from .acronym_rules import (
    BOUNDARIES,
    OPENERS,
    Aligner,
    Alignment,
    Costs,
    Lexicon,
    TokenCache,
    WordInfo,
    short_runs,
    word_infos,
)


@dataclass(frozen=True)
class Definition:
    """A short form [short_start, short_end) defined by a long form [long_start, long_end)."""

    short_start: int
    short_end: int
    long_start: int
    long_end: int
    rule: str
    confidence: float


@dataclass
class SentenceAcronyms:
    """Everything the finder saw in one sentence (token offsets within the sentence)."""

    mentions: list[tuple[int, int]] = field(default_factory=list)
    definitions: list[Definition] = field(default_factory=list)


STRICT_MIN_CONFIDENCE = 0.6
_CAMEL_CHUNK = re.compile(r"[A-Z][a-z0-9]*")  # Fed|Avg, Ada|Grad
_TITLE_WORD = re.compile(r"[A-Z][a-z]+$")      # Regression, Center
QUOTES = frozenset({'"', "”", "'", "''"})

RULE_BASE_CONFIDENCE = {
    "long_bracket_short": 0.95,
    "short_bracket_long": 0.9,
    "bracket_long_short": 0.9,
    "bracket_short_long": 0.85,
    "short_separator_long": 0.85,
    "short_cue_long": 0.8,
    "apposition": 0.8,
    "initials": 0.7,
    "camel_chunks": 0.9,
}


def _abbreviates(chunk: str, word: str) -> bool:
    """True when `chunk` is the start of `word` followed by some of its later letters (Avg, Averaging)."""
    word, chunk = word.lower(), chunk.lower()
    if len(word) <= len(chunk) or word[0] != chunk[0]:
        return False
    rest = iter(word[1:])
    return all(c in rest for c in chunk[1:])


class AcronymFinder:
    """Finds acronym mentions and their definitions in a sentence given as token texts."""

    def __init__(self, lexicon: Lexicon, costs: Costs | None = None,
                 camel_case_names: bool = False, initials_rule: bool = True,
                 min_lowercase_initials: int = 3, strict_min_confidence: float = STRICT_MIN_CONFIDENCE,
                 rule_confidence: dict[str, float] | None = None) -> None:
        self.lexicon = lexicon
        self.aligner = Aligner(self.lexicon, costs)
        self.strict_min_confidence = strict_min_confidence
        self.rule_confidence = {**RULE_BASE_CONFIDENCE, **(rule_confidence or {})}
        self.cache = TokenCache(self.lexicon, camel_case_names)
        self.initials_rule = initials_rule
        self.min_lowercase_initials = min_lowercase_initials

    # ------------------------------------------------------------------ public

    def find(self, texts: list[str]) -> SentenceAcronyms:
        """Mentions and definitions of one sentence (at once empty when it has neither an
        acronym-shaped token nor a bracket)."""
        features = self.cache.features(texts)
        runs = short_runs(texts, features)
        brackets = self._brackets(texts)
        if not runs and not brackets:
            return SentenceAcronyms()
        words = word_infos(texts, features)
        run_at = {start: end for start, end in runs}
        run_ending = {end: start for start, end in runs}
        found: list[Definition] = []
        used: set[int] = set()

        def accept(d: Definition | None) -> None:
            if d is None:
                return
            span = set(range(d.short_start, d.short_end)) | set(range(d.long_start, d.long_end))
            if span & used:
                return
            used.update(span)
            found.append(d)

        for open_at, close_at in brackets:
            accept(self._bracket_definition(texts, words, open_at, close_at, run_at, run_ending))
        for start, end in runs:
            if start not in used:
                accept(self._separator_definition(texts, words, start, end))
        if self.initials_rule:
            for start, end in runs:
                if start not in used:
                    accept(self._initials_definition(texts, words, start, end, used))
        mentions = sorted(set(runs) | {(d.short_start, d.short_end) for d in found})
        return SentenceAcronyms(mentions, sorted(found, key=lambda d: d.short_start))

    # --------------------------------------------------------------- brackets

    @staticmethod
    def _brackets(texts: list[str]) -> list[tuple[int, int]]:
        """(open, close) token indices of bracket pairs; an unclosed bracket runs to the end."""
        if not any(opener in texts for opener in OPENERS):
            return []
        pairs, stack = [], []
        for i, t in enumerate(texts):
            if t in OPENERS:
                stack.append(i)
            elif stack and t == OPENERS[texts[stack[-1]]]:
                pairs.append((stack.pop(), i))
        pairs.extend((i, len(texts)) for i in stack)
        return sorted(pairs)

    def _skip_lead(self, texts: list[str], lo: int, hi: int) -> int:
        while lo + 1 < hi and texts[lo] in self.lexicon.bracket_lead:
            lo += 1
        return lo

    def _is_short_tail(self, texts: list[str], lo: int, hi: int) -> bool:
        """True when texts[lo:hi] is empty or a separator plus anything ("(LHS, for short)")."""
        return lo >= hi or texts[lo] in self.lexicon.apposition_separators

    def _bracket_short(self, texts: list[str], lo: int, hi: int, run_at: dict[int, int]) -> tuple[int, bool] | None:
        """(end, shaped) of the short form opening a bracket: an acronym-shaped run, or one
        token with a capital that only counts when its long form matches cleanly (Conv, kHz)."""
        if lo >= hi:
            return None
        if lo in run_at:
            return run_at[lo], True
        token = texts[lo]
        if 2 <= len(token) <= 10 and token.isalnum() and token[0].isalpha() and any(c.isupper() for c in token):
            return lo + 1, False
        return None

    def _bracket_definition(self, texts, words, open_at, close_at, run_at, run_ending) -> Definition | None:
        inner = self._skip_lead(texts, open_at + 1, close_at)
        short = self._bracket_short(texts, inner, close_at, run_at)
        if short is not None and self._is_short_tail(texts, short[0], close_at):
            if not short[1] and (found := self._camel_chunks(texts, inner, open_at)):
                return found
            found = self._long_before(texts, words, inner, short[0], open_at, "long_bracket_short")
            if found and (short[1] or found.confidence >= self.strict_min_confidence):
                return self._with_title_tail(texts, words, found, open_at)
            if short[1] and short[0] + 1 < close_at:
                found = self._long_window(texts, words, inner, short[0], short[0] + 1, close_at, True,
                                          "bracket_short_long")
                if found and found.long_end == close_at and self._strict(texts, found):
                    return found
        # "(long form, SHORT)": the run that ends at the bracket's close, right after a separator (looked up,
        # not scanned for: a scan of every bracket's content is quadratic in deeply nested brackets)
        sep = run_ending.get(close_at, inner + 1) - 1
        if sep > inner and texts[sep] in self.lexicon.apposition_separators and run_at.get(sep + 1) == close_at:
            found = self._long_window(texts, words, sep + 1, close_at, inner, sep, True, "bracket_long_short")
            if found:
                return found
        if open_at in run_ending and inner < close_at:
            stop = next((k for k in range(inner, close_at) if texts[k] in self.lexicon.apposition_separators), close_at)
            found = self._long_window(texts, words, run_ending[open_at], open_at, inner, stop, True,
                                      "short_bracket_long")
            if found and any(not f.shaped for f in self.cache.features(texts[found.long_start:found.long_end])):
                return found
        return None

    def _camel_chunks(self, texts: list[str], at: int, open_at: int) -> Definition | None:
        """"Federated Averaging (FedAvg)": a CamelCase name whose capital-led chunks abbreviate
        the words right before the bracket, one chunk per word (names alone stay undefined)."""
        chunks = _CAMEL_CHUNK.findall(texts[at])
        n = len(chunks)
        if n < 2 or n > open_at or "".join(chunks) != texts[at]:
            return None
        if all(_abbreviates(c, w) for c, w in zip(chunks, texts[open_at - n:open_at])):
            return Definition(at, at + 1, open_at - n, open_at, "camel_chunks",
                              self.rule_confidence["camel_chunks"])
        return None

    def _with_title_tail(self, texts, words, found: Definition, open_at: int) -> Definition:
        """Extend a title-cased long form by the one title-cased word left out just before the
        bracket ("Spectral Instrumental Variable Regression (SpecIV)"), unless a head noun."""
        tail = found.long_end
        if tail + 1 != open_at or not _TITLE_WORD.match(texts[tail]) or words[tail].lower in self.lexicon.head_nouns:
            return found
        inside = (texts[k] for k in range(found.long_start, tail) if words[k].kind == "content")
        return replace(found, long_end=open_at) if all(map(_TITLE_WORD.match, inside)) else found

    def _window_before(self, texts: list[str], hi: int, letters: int) -> tuple[int, int]:
        """Window [lo, hi) that may hold a long form ending before token hi (a closing quote
        just before the bracket belongs to the long form's phrase, not a boundary)."""
        if hi > 0 and texts[hi - 1] in QUOTES:
            hi -= 1
        lo, limit = hi, max(hi - (2 * letters + 4), 0)
        while lo > limit and texts[lo - 1] not in BOUNDARIES:
            lo -= 1
        return lo, hi

    def _long_before(self, texts, words, short_start, short_end, hi, rule) -> Definition | None:
        letters = sum(map(str.isalnum, "".join(texts[short_start:short_end])))
        lo, hi = self._window_before(texts, hi, letters)
        return self._long_window(texts, words, short_start, short_end, lo, hi, False, rule)

    def _long_window(self, texts, words, short_start, short_end, lo, hi, anchored, rule) -> Definition | None:
        short = "".join(texts[short_start:short_end])
        found: Alignment | None = self.aligner.align(short, words, lo, hi, anchored)
        if found is None:
            return None
        return Definition(short_start, short_end, found.start, found.end, rule,
                          self._confidence(rule, found.cost, short))

    def _confidence(self, rule: str, cost: float, short: str) -> float:
        allowed = self.aligner.allowed(short)
        return round(self.rule_confidence[rule] * (1.0 - 0.5 * min(cost / allowed, 1.0)), 3)

    # ------------------------------------------------------- without brackets

    def _separator_definition(self, texts, words, start, end) -> Definition | None:
        """"HU: Hounsfield Unit", "DA = direct assessment", "PV denotes paragraph vector",
        "CoLA, which stands for ...", "... method, ESFMC,", "Text Annotation Graphs, or TAG"."""
        return self._long_after(texts, words, start, end) or self._apposition(texts, words, start, end)

    def _long_after(self, texts, words, start, end) -> Definition | None:
        n = len(texts)
        if end < n and texts[end] in self.lexicon.definition_separators:
            lo, rule = end + 1, "short_separator_long"
        else:
            lead = self._cue_at(texts, end, self.lexicon.short_long_leads) or end
            cue = self._cue_at(texts, lead, self.lexicon.short_long_cues)
            if cue is None:
                return None
            lo, rule = cue, "short_cue_long"
        hi = lo
        while hi < n and texts[hi] not in BOUNDARIES and texts[hi] != ",":
            hi += 1
        found = self._long_window(texts, words, start, end, lo, hi, True, rule)
        if found and (rule == "short_separator_long" or self._strict(texts, found)):
            return found
        return None

    def _apposition(self, texts, words, start, end) -> Definition | None:
        before = start
        for cue in self.lexicon.long_short_cues:
            if tuple(texts[max(start - len(cue), 0):start]) == cue:
                before = start - len(cue)
                break
        before -= 1
        closes = end >= len(texts) or texts[end] in BOUNDARIES or texts[end] in self.lexicon.apposition_separators
        if before > 0 and texts[before] in self.lexicon.apposition_separators and closes:
            found = self._long_before(texts, words, start, end, before, "apposition")
            if found and self._strict(texts, found):
                return found
        return None

    @staticmethod
    def _cue_at(texts: list[str], at: int, cues: tuple[tuple[str, ...], ...]) -> int | None:
        """Index after the cue phrase that starts at `at`, if one does."""
        if at >= len(texts):
            return None
        first = texts[at].lower()
        for cue in cues:
            if cue[0] == first and tuple(t.lower() for t in texts[at:at + len(cue)]) == cue:
                return at + len(cue)
        return None

    def _strict(self, texts: list[str], found: Definition) -> bool:
        """Definitions without brackets need a clean match: plain words and a close alignment."""
        return found.confidence >= self.strict_min_confidence and self._plain_words(texts, found.long_start, found.long_end)

    def _plain_words(self, texts: list[str], lo: int, hi: int) -> bool:
        """At least two words and no acronym among them (so "OO, PP" is no definition)."""
        words = [t for t in texts[lo:hi] if t[:1].isalnum()]
        shaped = short_runs(words, self.cache.features(words))
        return len(words) >= 2 and not shaped

    def _initials_definition(self, texts, words: list[WordInfo], start, end, used: set[int]) -> Definition | None:
        """A long form written out elsewhere in the sentence, one word per letter, whose
        initials spell the short form exactly ("Question Answering task ... QA system",
        "CRNN is a convolutional recurrent neural network")."""
        short = "".join(texts[start:end])
        letters = short[:-1] if len(short) > 2 and short.endswith("s") and short[-2].isupper() else short
        if not (len(letters) >= 2 and letters.isalpha() and letters.isupper()):
            return None
        n, best = len(letters), None
        for lo in range(len(texts) - n + 1):
            if texts[lo][:1].upper() != letters[0]:
                continue
            hi = lo + n
            if not all(self._initial_word(texts[k], words[k], letters[k - lo]) for k in range(lo, hi)):
                continue
            if any(k in used or start <= k < end for k in range(lo, hi)):
                continue
            title_case = all(texts[k][0].isupper() for k in range(lo, hi))
            if not title_case and n < self.min_lowercase_initials:
                continue
            if title_case and lo > 0 and texts[lo - 1][:1].isupper() and texts[lo - 1].isalpha():
                continue
            distance = min(abs(lo - end), abs(start - hi))
            if best is None or distance < best[0]:
                best = (distance, lo, hi)
        if best is None:
            return None
        return Definition(start, end, best[1], best[2], "initials", self.rule_confidence["initials"])

    @staticmethod
    def _initial_word(text: str, word: WordInfo, letter: str) -> bool:
        return (word.kind in ("content", "part") and text.isalpha() and len(text) > 1
                and text[0].upper() == letter and text[1:].islower())
