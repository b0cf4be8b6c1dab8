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
from typing import NamedTuple

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


@dataclass(frozen=True)
class Sentence:
    """One sentence as the rules read it: token texts, their word infos, and the acronym-shaped
    runs by first token (run_at: start -> end) and by end (run_ending: end -> start)."""

    texts: list[str]
    words: list[WordInfo]
    run_at: dict[int, int]
    run_ending: dict[int, int]


STRICT_MIN_CONFIDENCE = 0.6
_CAMEL_CHUNK = re.compile(r"[A-Z][a-z0-9]*")  # Fed|Avg, Ada|Grad
_TITLE_WORD = re.compile(r"[A-Z][a-z]+(?:-[A-Z]?[a-z]+)*$")  # Regression, Center, Super-Resolution, Qubit-based
# the last word of a long form's noun phrase after its letters ran out: a plural or a noun of action
# (units, maps, scheduling; not "class", "analysis", nor a noun in -ion: "function", "criterion" name a thing
# of their own after a long form)
_NOUN_END = re.compile(r"[a-z-]{2,}(?:[^su]s|ing)$")
MAX_NOUN_TAIL = 2
QUOTES = frozenset({'"', "”", "'", "''"})
# closing marks just before a bracket that belong to the long form's phrase, not a boundary: a quote, or the
# brace of a LaTeX command around it ("\\emph{Self-Enforcing Transfer Equilibrium} (SETE)")
PHRASE_CLOSERS = QUOTES | {"}"}

class Rule(NamedTuple):
    """How far a definition rule is trusted."""

    confidence: float               # before the alignment's cost discounts it (a setting: rule_confidence)
    only_if_undefined: bool = False  # too weak to redefine a short form the Doc defined already


RULES: dict[str, Rule] = {
    "long_bracket_short": Rule(0.95),    # long form (SF)
    "short_bracket_long": Rule(0.9),     # SF (long form)
    "bracket_long_short": Rule(0.9),     # (long form; SF)
    "bracket_short_long": Rule(0.85),    # (SF; long form)
    "short_separator_long": Rule(0.85),  # SF: long form
    "short_cue_long": Rule(0.8),         # SF stands for long form
    "apposition": Rule(0.8),             # long form, SF
    "initials": Rule(0.7, only_if_undefined=True),  # Question Answering ... QA
    "camel_chunks": Rule(0.9),           # Federated Averaging (FedAvg)
    "subscript": Rule(0.8),              # intracellular pH (pHi), [Ca2+]i
    "chemical_word": Rule(0.6),          # reduced glutathione (GSH)
}
RULE_BASE_CONFIDENCE = {name: rule.confidence for name, rule in RULES.items()}
_ION = re.compile(r"\[([A-Z][a-z]?)\d*[+\-−]*\]([a-z]?)")  # [Ca2+]i, [K+]o, [Na+]
_SUBSCRIPTED = re.compile(r"([a-z]?[A-Z][A-Za-z]{0,2})([a-z])")  # pHi, pHe, PO2a: a name and a subscript letter
MAX_NAMED_GAP = 3  # words between a subscripted name and the word its subscript letter stands for
# A long form after its short form is looked for in at most this many tokens per letter (plus a few): no alignment
# the costs allow is longer, and a window reaching to a far bracket close would make nested brackets quadratic.
LONG_TOKENS_PER_LETTER, LONG_TOKENS_EXTRA = 6, 20
MAX_INITIALS_DISTANCE = 60  # tokens between a short form and the words whose initials spell it


def _long_tokens(short: str) -> int:
    """The most tokens a long form after the short form `short` is looked for in."""
    return LONG_TOKENS_PER_LETTER * sum(map(str.isalnum, short)) + LONG_TOKENS_EXTRA


def _abbreviates(chunk: str, word: str) -> bool:
    """True when `chunk` is the start of `word` followed by some of its later letters (Avg, Averaging)."""
    word, chunk = word.lower(), chunk.lower()
    if len(word) <= len(chunk) or word[0] != chunk[0]:
        return False
    rest = iter(word[1:])
    return all(c in rest for c in chunk[1:])


def _letters_missing(letters: str, word: str) -> int:
    """How many of `letters` a left-to-right scan of `word` does not find (each found letter
    moves the scan on; a missing one does not)."""
    missing, at = 0, 0
    for c in letters:
        found = word.find(c, at)
        if found < 0:
            missing += 1
        else:
            at = found + 1
    return missing


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

        sentence = Sentence(texts, word_infos(texts, features), {start: end for start, end in runs},
                            {end: start for start, end in runs})
        for open_at, close_at in brackets:
            accept(self._bracket_definition(sentence, open_at, close_at))
        for start, end in runs:
            if start not in used:
                accept(self._separator_definition(sentence, start, end))
        if self.initials_rule:
            for start, end in runs:
                if start not in used:
                    accept(self._initials_definition(sentence, start, end, used))
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

    def _bracket_definition(self, s: Sentence, open_at: int, close_at: int) -> Definition | None:
        """A definition made by the bracket texts[open_at] ... texts[close_at], in any of its forms."""
        texts, run_at, run_ending = s.texts, s.run_at, s.run_ending
        inner = self._skip_lead(texts, open_at + 1, close_at)
        short = self._bracket_short(texts, inner, close_at, run_at)
        if short is not None and self._is_short_tail(texts, short[0], close_at):
            if not short[1] and (found := self._camel_chunks(texts, inner, open_at)):
                return found
            found = self._long_before(s, (inner, short[0]), open_at, "long_bracket_short")
            if found and (short[1] or found.confidence >= self.strict_min_confidence):
                return self._with_unit_tail(texts, self._with_noun_tail(s, self._with_title_tail(s, found, open_at),
                                                                         open_at), open_at)
            if short[1] and short[0] + 1 < close_at:
                found = self._long_window(s, (inner, short[0]), (short[0] + 1, close_at), True, "bracket_short_long")
                if found and found.long_end == close_at and self._strict(texts, found):
                    return found
        if inner < close_at and self._is_short_tail(texts, inner + 1, close_at) and (
                found := self._subscript(s, inner, open_at) or self._chemical_word(texts, inner, open_at)):
            return found
        # "(long form, SHORT)": the run that ends at the bracket's close, right after a separator (looked up,
        # not scanned for: a scan of every bracket's content is quadratic in deeply nested brackets)
        sep = run_ending.get(close_at, inner + 1) - 1
        if sep > inner and texts[sep] in self.lexicon.apposition_separators and run_at.get(sep + 1) == close_at:
            found = self._long_window(s, (sep + 1, close_at), (inner, sep), True, "bracket_long_short")
            if found:
                return found
        if open_at in run_ending and inner < close_at:
            end = min(close_at, inner + _long_tokens("".join(texts[run_ending[open_at]:open_at])))
            stop = next((k for k in range(inner, end) if texts[k] in self.lexicon.apposition_separators), end)
            found = self._long_window(s, (run_ending[open_at], open_at), (inner, stop), True, "short_bracket_long")
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

    def _with_title_tail(self, s: Sentence, found: Definition, open_at: int) -> Definition:
        """Extend a title-cased long form by the one title-cased word left out just before the
        bracket ("Spectral Instrumental Variable Regression (SpecIV)", "Enhanced Deep Super-Resolution
        Network (EDSR)"), unless a generic head noun ("method")."""
        texts, words, tail = s.texts, s.words, found.long_end
        if tail + 1 != open_at or not _TITLE_WORD.match(texts[tail]) or words[tail].lower in self.lexicon.head_nouns:
            return found
        inside = [texts[k] for k in range(found.long_start, tail) if words[k].kind == "content"]
        return replace(found, long_end=open_at) if inside and all(w[:1].isupper() for w in inside) else found

    def _with_noun_tail(self, s: Sentence, found: Definition, open_at: int) -> Definition:
        """Extend a long form by the noun phrase head left out just before the bracket, one or two lower-case
        words ending in a noun the letters' words describe ("forty-foot equivalent units (FFE)", "Intermodal CT
        perfusion maps (MAGIC)", "sequential variable-node scheduling (RL-S)"), unless a generic head noun
        ("neural network models (CNN)")."""
        texts, words, tail = s.texts, s.words, found.long_end
        if not 1 <= open_at - tail <= MAX_NOUN_TAIL or not _NOUN_END.match(texts[open_at - 1]) \
                or words[open_at - 1].lower in self.lexicon.head_nouns:
            return found
        if all(texts[k][:1].islower() and words[k].kind in ("content", "part") for k in range(tail, open_at)):
            return replace(found, long_end=open_at)
        return found

    def _with_unit_tail(self, texts: list[str], found: Definition, open_at: int) -> Definition:
        """Keep the unit after the number that gives a short form's last digit ("forced
        expiratory volume in 1 s (FEV1)")."""
        end = found.long_end
        short = "".join(texts[found.short_start:found.short_end])
        if (end + 1 == open_at and short[-1:].isdigit() and texts[end - 1][:1].isdigit()
                and texts[end] in self.lexicon.units_after_number):
            return replace(found, long_end=open_at)
        return found

    def _subscript(self, s: Sentence, at: int, open_at: int) -> Definition | None:
        """A name with a subscript letter for the word before it: "intracellular pH (pHi)",
        "intracellular calcium concentration ([Ca2+]i)" (an ion by its element's name)."""
        texts, words = s.texts, s.words
        token = texts[at]
        if (ion := _ION.fullmatch(token)) is not None:
            symbol, letter = ion.groups()
            names = self.lexicon.element_symbols.get(symbol, frozenset())
            symbol = symbol.lower()

            def names_it(k: int) -> bool:
                lower = words[k].lower
                return lower in names or (lower.startswith(symbol) and not lower[len(symbol):].strip("0123456789+-−"))
        elif (named := _SUBSCRIPTED.fullmatch(token)) is not None:
            core, letter = named.groups()

            def names_it(k: int) -> bool:
                return texts[k] == core
        else:
            return None
        lo = max(open_at - 1 - MAX_NAMED_GAP, 0)
        name_at = next((k for k in range(open_at - 1, lo - 1, -1) if names_it(k)), None)
        if name_at is None:
            return None
        start = name_at
        if letter:
            stands_for = self.lexicon.subscript_words.get(letter, frozenset())
            letter_at = next((k for k in range(name_at - 1, max(name_at - 1 - MAX_NAMED_GAP, -1), -1)
                              if words[k].kind == "content"
                              and (words[k].lower.startswith(letter) or words[k].lower in stands_for)), None)
            if letter_at is None or any(texts[k] in BOUNDARIES for k in range(letter_at, open_at)):
                return None
            start = letter_at
        return Definition(at, at + 1, start, open_at, "subscript", self.rule_confidence["subscript"])

    def _chemical_word(self, texts: list[str], at: int, open_at: int) -> Definition | None:
        """A one-word chemical name, in lower case, whose short form adds one letter the name does
        not spell ("glutathione (GSH)"), with a state word before it ("reduced glutathione")."""
        short, name = texts[at], texts[open_at - 1] if open_at > 0 else ""
        lower = name.lower()
        if not (3 <= len(short) <= 5 and short.isalpha() and short.isupper() and len(name) >= 9 and name.isalpha()
                and name.islower() and lower[0] == short[0].lower() and lower.endswith(self.lexicon.chemical_suffixes)):
            return None
        if _letters_missing(short[1:].lower(), lower[1:]) != 1:
            return None
        start = open_at - 1
        if start > 0 and texts[start - 1].lower() in self.lexicon.state_words:
            start -= 1
        return Definition(at, at + 1, start, open_at, "chemical_word", self.rule_confidence["chemical_word"])

    def _window_before(self, texts: list[str], hi: int, letters: int) -> tuple[int, int]:
        """Window [lo, hi) that may hold a long form ending before token hi (a closing quote
        just before the bracket belongs to the long form's phrase, not a boundary)."""
        if hi > 0 and texts[hi - 1] in PHRASE_CLOSERS:
            hi -= 1
        lo, limit = hi, max(hi - (2 * letters + 4), 0)
        while lo > limit and texts[lo - 1] not in BOUNDARIES:
            lo -= 1
        return lo, hi

    def _long_before(self, s: Sentence, short: tuple[int, int], hi: int, rule: str) -> Definition | None:
        """The long form of texts[short[0]:short[1]] ending near token hi."""
        letters = sum(map(str.isalnum, "".join(s.texts[short[0]:short[1]])))
        return self._long_window(s, short, self._window_before(s.texts, hi, letters), False, rule)

    def _long_window(self, s: Sentence, short: tuple[int, int], window: tuple[int, int], anchored: bool,
                     rule: str) -> Definition | None:
        """The best long form of texts[short[0]:short[1]] inside the window [lo, hi) of tokens;
        anchored: it must open the window (a long form after its short form)."""
        text = "".join(s.texts[short[0]:short[1]])
        lo, hi = window
        if anchored:
            hi = min(hi, lo + _long_tokens(text))
        found: Alignment | None = self.aligner.align(text, s.words, lo, hi, anchored)
        if found is None:
            return None
        return Definition(short[0], short[1], found.start, found.end, rule, self._confidence(rule, found.cost, text))

    def _confidence(self, rule: str, cost: float, short: str) -> float:
        allowed = self.aligner.allowed(short)
        return round(self.rule_confidence[rule] * (1.0 - 0.5 * min(cost / allowed, 1.0)), 3)

    # ------------------------------------------------------- without brackets

    def _separator_definition(self, s: Sentence, start: int, end: int) -> Definition | None:
        """"HU: Hounsfield Unit", "DA = direct assessment", "PV denotes paragraph vector",
        "CoLA, which stands for ...", "... method, ESFMC,", "Text Annotation Graphs, or TAG"."""
        return self._long_after(s, start, end) or self._apposition(s, start, end)

    def _long_after(self, s: Sentence, start: int, end: int) -> Definition | None:
        texts = s.texts
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
        found = self._long_window(s, (start, end), (lo, hi), True, rule)
        if found and (rule == "short_separator_long" or self._strict(texts, found)):
            return found
        return None

    def _apposition(self, s: Sentence, start: int, end: int) -> Definition | None:
        texts = s.texts
        before = start
        for cue in self.lexicon.long_short_cues:
            if tuple(texts[max(start - len(cue), 0):start]) == cue:
                before = start - len(cue)
                break
        before -= 1
        closes = end >= len(texts) or texts[end] in BOUNDARIES or texts[end] in self.lexicon.apposition_separators
        if before > 0 and texts[before] in self.lexicon.apposition_separators and closes:
            found = self._long_before(s, (start, end), before, "apposition")
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
        return (found.confidence >= self.strict_min_confidence
                and self._plain_words(texts, found.long_start, found.long_end))

    def _plain_words(self, texts: list[str], lo: int, hi: int) -> bool:
        """At least two words and no acronym among them (so "OO, PP" is no definition)."""
        words = [t for t in texts[lo:hi] if t[:1].isalnum()]
        shaped = short_runs(words, self.cache.features(words))
        return len(words) >= 2 and not shaped

    def _initials_definition(self, s: Sentence, start: int, end: int, used: set[int]) -> Definition | None:
        """A long form written out elsewhere in the sentence, one word per letter, whose
        initials spell the short form exactly ("Question Answering task ... QA system",
        "CRNN is a convolutional recurrent neural network")."""
        texts, words = s.texts, s.words
        short = "".join(texts[start:end])
        letters = short[:-1] if len(short) > 2 and short.endswith("s") and short[-2].isupper() else short
        if not (len(letters) >= 2 and letters.isalpha() and letters.isupper()):
            return None
        n, best = len(letters), None
        near = range(max(start - MAX_INITIALS_DISTANCE - n, 0), min(end + MAX_INITIALS_DISTANCE, len(texts) - n + 1))
        for lo in near:
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
