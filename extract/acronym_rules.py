"""Acronym rules on plain token texts: short-form shapes and long-form alignment.

Kept free of spaCy objects so the pipeline component, the SDU evaluation and the tests
share one implementation that runs on plain Python strings (thousands of sentences/s).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from .resources import DataFiles

ACRONYM_FILES = ("acronym_cues.json", "acronym_long_stopwords.txt", "acronym_not_long_start.txt",
                 "acronym_head_nouns.txt", "acronym_not_short.txt")

JOINERS = frozenset({"-", "/", "–"})
BOUNDARIES = frozenset({"(", ")", "[", "]", "{", "}", ";", ":", ".", "=", "!", "?", '"', "“", "”"})
OPENERS = {"(": ")", "[": "]"}
INF = float("inf")

_CAMEL_NAME = re.compile(r"^(?:[A-Z][a-z]{2,}){2,}\d*$")   # ResNet, TensorFlow, GitHub
_CAPITALISED = re.compile(r"^[A-Z][a-z]+$")                 # Self, Med (in Self-REF, Med-LVLMs)
_INNER_INITIAL = re.compile(  # mAtrix, Function-space, factor-β1, 1β
    r"[A-Z]|(?<=[^A-Za-z0-9α-ω])[a-z0-9α-ω]|(?<=[A-Za-zα-ω])[0-9]|(?<=[0-9])[α-ω]")
_GREEK_PART = re.compile(r"\d*[α-ω][A-Z]?\d*")                 # β, 1β, β1, κB (in IL-1β, TGF-β1, NF-κB)
_CITATION = re.compile(r"[a-z]{2,}(?:19|20)\d\d[a-z]?$")     # Fink2017, Steinke2008
_ALNUM = re.compile(r"[^\W_]")                               # what str.isalnum accepts
_JOINER_SPLIT = re.compile(r"[-/–]")                          # the JOINERS


@dataclass(frozen=True)
class Costs:
    """Penalties of an alignment between a short form and a candidate long form."""

    non_initial: float = 0.6      # a short-form letter matched inside a word, not at its start
    skipped_content: float = 1.5  # a content word inside the long form that gives no letter
    skipped_part: float = 0.6     # a hyphenated part that gives no letter (cell-to-cell)
    skipped_stop: float = 0.2     # a function word inside the long form that gives no letter
    skipped_comma: float = 0.8    # a comma inside the long form
    stop_for_capital: float = 0.4  # a capital of the short form matched by a function word
    trailing: float = 0.5         # the first word left out between long form and short form
    trailing_more: float = 1.0    # each further word left out there
    trailing_head: float = 0.2    # a head noun left out there ("... methods (MCMC)")
    leading: float = 0.8          # a word skipped before a long form that follows its short form
    per_word: float = 0.01        # tie-break: prefer the shorter long form
    allowed_base: float = 0.7     # accept when cost <= allowed_base + allowed_per_letter * n
    allowed_per_letter: float = 0.35


@dataclass(frozen=True)
class Lexicon:
    """Word lists of the acronym rules, read from extract/data/acronym_*."""

    long_stopwords: frozenset[str]
    not_long_start: frozenset[str]
    head_nouns: frozenset[str]
    not_short: frozenset[str]
    bracket_lead: frozenset[str]
    short_long_cues: tuple[tuple[str, ...], ...]
    short_long_leads: tuple[tuple[str, ...], ...]
    long_short_cues: tuple[tuple[str, ...], ...]
    digit_words: dict[str, frozenset[str]]
    definition_separators: frozenset[str]
    apposition_separators: frozenset[str]
    greek_letters: dict[str, str]
    letter_openings: dict[str, tuple[str, ...]]
    units_after_number: frozenset[str]
    element_symbols: dict[str, frozenset[str]]
    chemical_suffixes: tuple[str, ...]
    state_words: frozenset[str]
    subscript_words: dict[str, frozenset[str]]
    greek_pattern: re.Pattern[str] | None = None

    def fold_greek(self, text: str) -> str:
        """Greek letter names attached to a digit or hyphen as their symbol (IL-1beta -> IL-1β)."""
        if self.greek_pattern is None or not self.greek_pattern.search(text):
            return text
        return self.greek_pattern.sub(lambda m: self.greek_letters[m.group(0)], text)


def load_lexicon(data: DataFiles) -> Lexicon:
    """The acronym word lists and cues from the component's data files (ACRONYM_FILES)."""
    cues = data.json("acronym_cues.json")
    return Lexicon(
        long_stopwords=frozenset(line.strip() for line in data.lines("acronym_long_stopwords.txt")),
        not_long_start=frozenset(line.strip() for line in data.lines("acronym_not_long_start.txt")),
        head_nouns=frozenset(line.strip() for line in data.lines("acronym_head_nouns.txt")),
        not_short=frozenset(line.strip() for line in data.lines("acronym_not_short.txt")),
        bracket_lead=frozenset(cues["bracket_lead"]),
        short_long_cues=tuple(tuple(cue) for cue in cues["short_long_cues"]),
        short_long_leads=tuple(tuple(lead) for lead in cues["short_long_leads"]),
        long_short_cues=tuple(tuple(cue) for cue in cues["long_short_cues"]),
        digit_words={d: frozenset(ws) for d, ws in cues["digit_words"].items()},
        definition_separators=frozenset(cues["definition_separators"]),
        apposition_separators=frozenset(cues["apposition_separators"]),
        greek_letters=dict(cues["greek_letters"]),
        letter_openings=_letter_openings(cues["letter_openings"], cues["greek_letters"]),
        units_after_number=frozenset(cues["units_after_number"]),
        element_symbols={symbol: frozenset(names) for symbol, names in cues["element_symbols"].items()},
        chemical_suffixes=tuple(cues["chemical_suffixes"]),
        state_words=frozenset(cues["state_words"]),
        subscript_words={letter: frozenset(ws) for letter, ws in cues["subscript_words"].items()},
        greek_pattern=_greek_pattern(cues["greek_letters"]),
    )


def _letter_openings(openings: dict[str, list[str]], greek: dict[str, str]) -> dict[str, tuple[str, ...]]:
    """Word openings per short-form letter: the listed ones, and each Greek symbol's spelt names."""
    found = {letter: list(words) for letter, words in openings.items()}
    for name, symbol in greek.items():
        if name.islower():
            found.setdefault(symbol, []).append(name)
    return {letter: tuple(words) for letter, words in found.items()}


def _greek_pattern(names: dict[str, str]) -> re.Pattern[str] | None:
    """Greek letter names after a digit or hyphen, or before a digit, and not inside a word."""
    if not names:
        return None
    alternatives = "|".join(sorted(map(re.escape, names), key=len, reverse=True))
    return re.compile(rf"(?<=[-\d])(?:{alternatives})(?![a-z])|(?<![A-Za-z])(?:{alternatives})(?=\d)")


# ---------------------------------------------------------------------------- shapes

def is_short_shape(word: str, lexicon: Lexicon, camel_case_names: bool = False) -> bool:
    """True for a single token that looks like an acronym: LLMs, fMRI, F1, 3GPP, IoT."""
    if word.islower() or word[1:].islower() or not 2 <= len(word) <= 12 or not word.isalnum():
        return False  # the common cases first: "model", "Model"
    if word in lexicon.not_short:
        return False
    upper = sum(c.isupper() for c in word)
    if upper >= 2:
        if _CITATION.search(word):
            return False
        return camel_case_names or not _CAMEL_NAME.match(word)
    if upper == 1:
        digits = sum(c.isdigit() for c in word)
        lower = len(word) - upper - digits
        return digits >= 1 and lower <= 1 and len(word) <= 5
    return False


def _is_name_part(part: str, lexicon: Lexicon, camel_case_names: bool) -> bool:
    """A piece that may sit in a hyphenated short form beside an acronym (10, Self, U, 2D, the h of h-RNN)."""
    return (
        part.isdigit()
        or (len(part) == 1 and part.isalpha())
        or bool(_GREEK_PART.fullmatch(part))
        or bool(_CAPITALISED.match(part))
        or is_short_shape(part, lexicon, camel_case_names)
    )


def is_compound_short(word: str, lexicon: Lexicon, camel_case_names: bool = False) -> bool:
    """True for one token joining acronym pieces: MAGEP-NFN, TS-SNN, CIFAR-10, Med-LVLMs."""
    if not any(j in word for j in JOINERS):
        return False
    parts = _JOINER_SPLIT.split(word)
    if len(parts) < 2 or not all(parts):
        return False
    if not all(_is_name_part(p, lexicon, camel_case_names) for p in parts):
        return False
    return any(is_short_shape(p, lexicon, camel_case_names) for p in parts) or all(
        len(p) == 1 and p.isupper() for p in parts
    )


def short_runs(texts: list[str], features: list[TokenFeatures]) -> list[tuple[int, int]]:
    """Token ranges [start, end) of acronym mentions, joining pieces split by the tokenizer
    ("RASTA - PLP", "LTE - U", "O - D") into one mention; features[k] belongs to texts[k]."""
    runs: list[tuple[int, int]] = []
    i, n = 0, len(texts)
    while i < n:
        if not features[i].name_part:
            i += 1
            continue
        end = i + 1
        while end + 1 < n and texts[end] in JOINERS and features[end + 1].name_part:
            end += 2
        pieces = range(i, end, 2)
        if any(features[k].shaped for k in pieces) or (
            end - i > 1 and all(len(texts[k]) == 1 and texts[k].isupper() for k in pieces)
        ):
            runs.append((i, end))
            i = end
        else:
            i += 1
    return runs


def short_form_letters(short: str) -> list[str]:
    """Letter sequences to align for a short form: without joiners, then without a plural s."""
    core = "".join(filter(str.isalnum, short))
    variants = []
    if len(core) > 2 and core.endswith("s") and core[-2].isupper():
        variants.append(core[:-1])
    variants.append(core)
    return variants


def singular_plural_variants(short: str) -> tuple[str, ...]:
    """The keys under which a defined short form is recognised later (LLMs <-> LLM)."""
    if len(short) > 2 and short.endswith("s") and short[-2].isupper():
        return short, short[:-1]
    if short[-1:].isupper():
        return short, short + "s"
    return (short,)


# ------------------------------------------------------------------------ alignment

class WordInfo(NamedTuple):
    """What the aligner needs of one token. Tuples of strings and ints: cheap to hash as memo
    keys, and the garbage collector stops tracking them, so caching thousands costs no GC time."""

    lower: str
    initials: tuple[int, ...]  # ascending positions that start a word or a word part
    kind: str  # "content" | "part" (next to a hyphen) | "stop" | "joiner" | "comma" | "boundary"
    initial_letters: str  # the letters of `lower` at those positions


def word_infos(texts: list[str], features: list[TokenFeatures]) -> list[WordInfo]:
    """WordInfo of every token; a content word joined by a hyphen to its neighbour is a part."""
    infos = [f.info for f in features]
    for j, info in enumerate(infos):
        if info.kind == "joiner" and texts[j] in JOINERS:
            for k in (j - 1, j + 1):
                if 0 <= k < len(infos) and infos[k].kind == "content":
                    infos[k] = infos[k]._replace(kind="part")
    return infos


def word_info(text: str, lexicon: Lexicon) -> WordInfo:
    """Letters of a token and the positions that start a word or a word part."""
    lower = text.lower()
    if text in BOUNDARIES:
        kind = "boundary"
    elif text in JOINERS or not (text.isalnum() or _ALNUM.search(text)):
        kind = "comma" if text == "," else "joiner"
    elif lower in lexicon.long_stopwords:
        kind = "stop"
    else:
        kind = "content"
    if text.isalpha() and text[1:].islower():
        initials: tuple[int, ...] = (0,)
    else:
        inner = tuple(m.start() for m in _INNER_INITIAL.finditer(text, 1))
        initials = (0, *inner) if text[:1].isalnum() else inner
    return WordInfo(lower, initials, kind, "".join(lower[p] for p in initials if p < len(lower)))


class TokenFeatures(NamedTuple):
    """Shape and word features of one token text."""

    shaped: bool      # an acronym on its own (LLMs, MAGEP-NFN)
    name_part: bool   # may be a piece of an acronym split by the tokenizer (RASTA - PLP, LTE - U)
    info: WordInfo


class TokenCache:
    """Token features keyed by text: corpora repeat their words, so each is analysed once."""

    max_entries = 200_000

    def __init__(self, lexicon: Lexicon, camel_case_names: bool = False) -> None:
        self.lexicon = lexicon
        self.camel_case_names = camel_case_names
        self._features: dict[str, TokenFeatures] = {}

    def features(self, texts: list[str]) -> list[TokenFeatures]:
        """Features of every token text, analysing only texts not seen before."""
        known = self._features
        return [known[t] if t in known else self._analyse(t) for t in texts]

    def _analyse(self, text: str) -> TokenFeatures:
        """Features of a new text, stored (the store starts afresh when it is full)."""
        if len(self._features) >= self.max_entries:
            self._features.clear()
        folded = self.lexicon.fold_greek(text)
        shaped = is_short_shape(folded, self.lexicon, self.camel_case_names) or is_compound_short(
            folded, self.lexicon, self.camel_case_names)
        name_part = shaped or (len(text) == 1 and text.isupper())
        found = self._features[text] = TokenFeatures(shaped, name_part, word_info(folded, self.lexicon))
        return found


@dataclass(frozen=True)
class Alignment:
    """A long form [start, end) found for a short form, with its cost."""

    start: int
    end: int
    cost: float


def _letter_end(text: str, p: int, letter: str, openings: dict[str, tuple[str, ...]]) -> int:
    """End of the match of a short-form letter at text[p] (0 for none): the letter itself, or a
    word part opening the way the letter may stand for (XAI = explainable AI, XDC = Cross-Modal
    Deep Clustering, TNF-α = tumor necrosis factor alpha)."""
    if p >= len(text):
        return 0
    if text[p] == letter:
        return p + 1
    return next((p + len(opening) for opening in openings.get(letter, ()) if text.startswith(opening, p)), 0)


class Aligner:
    """Matches the letters of a short form to the words of a candidate long form.

    Letters prefer word initials (and capitals or hyphen parts inside a word); a letter may
    also come from inside a word already contributing one (RecNN = Recursive Neural Network).
    Every short-form letter must be used; skipped content words cost most, so the cheapest
    alignment is the long form a reader would choose.
    """

    max_memo = 200_000

    def __init__(self, lexicon: Lexicon, costs: Costs | None = None) -> None:
        self.lexicon = lexicon
        self.costs = costs or Costs()
        self._skip_costs = {
            "content": self.costs.skipped_content,
            "part": self.costs.skipped_part,
            "stop": self.costs.skipped_stop,
            "joiner": 0.0,
            "comma": self.costs.skipped_comma,
        }
        self._chunk_memo: dict[tuple, dict[int, float]] = {}

    def allowed(self, letters: str) -> float:
        return self.costs.allowed_base + self.costs.allowed_per_letter * len(letters)

    def _chunk_costs(self, word: WordInfo, letters: str, i: int, capitals: list[bool],
                     opens_long_form: bool = False) -> dict[int, float]:
        """Cost of letting one word supply letters[i:i+k], for every feasible k. The word that
        opens a long form must give its first letter from its very start."""
        key = (word, letters, i, capitals[i], opens_long_form)
        found = self._chunk_memo.get(key)
        if found is None:
            if len(self._chunk_memo) >= self.max_memo:
                self._chunk_memo.clear()
            found = self._chunk_memo[key] = self._match_chunks(word, letters, i, capitals[i], opens_long_form)
        return found

    def _match_chunks(self, word: WordInfo, letters: str, i: int, capital: bool,
                      opens_long_form: bool) -> dict[int, float]:
        out: dict[int, float] = {}
        first = letters[i]
        text = word.lower
        frontier: list[tuple[int, int, float]] = []
        if first.isdigit():
            digit_words = self.lexicon.digit_words.get(first, ())
            if text in digit_words:
                out[1] = 0.0
            else:  # a number word as the first hyphen chunk: two-stage, three-dimensional
                chunk = _JOINER_SPLIT.split(text, 1)[0]
                if chunk in digit_words and len(chunk) < len(text):
                    frontier.append((i + 1, len(chunk) + 1, 0.0))
        if word.kind not in ("content", "part", "stop"):
            return out
        stop_cost = self.costs.stop_for_capital if word.kind == "stop" and capital else 0.0
        openings = (0,) if opens_long_form else word.initials
        best: dict[tuple[int, int], float] = {}
        frontier += [(i + 1, end, stop_cost) for p in openings
                     if (end := _letter_end(text, p, first, self.lexicon.letter_openings))]
        while frontier:
            j, q, cost = frontier.pop()
            if best.get((j, q), INF) <= cost:
                continue
            best[(j, q)] = cost
            if cost < out.get(j - i, INF):
                out[j - i] = cost
            if j < len(letters):
                for p in range(q, len(text)):
                    if text[p] == letters[j]:
                        extra = 0.0 if p in word.initials else self.costs.non_initial
                        frontier.append((j + 1, p + 1, cost + extra))
                if letters[j].isdigit():  # a number word as a later part: Sample-to-Domain (S2D)
                    digit_words = self.lexicon.digit_words.get(letters[j], ())
                    for p in word.initials:
                        chunk = _JOINER_SPLIT.split(text[p:], 1)[0] if p >= q else ""
                        if chunk in digit_words and p + len(chunk) < len(text):
                            frontier.append((j + 1, p + len(chunk), cost))
        return out

    def _best(self, words: list[WordInfo], letters: str, capitals: list[bool], lo: int, hi: int
              ) -> dict[int, list[tuple[float, int]]]:
        """Dynamic programme: rows[w][i] = (cost, end of long form) of matching letters[i:]
        with words[w:hi]; words left over after the last letter are trimmed at a cost."""
        n, opened = len(letters), self.lexicon.letter_openings
        row: list[tuple[float, int]] = [(INF, hi)] * n + [(0.0, hi)]
        rows = {hi: row}
        trailing = 0.0
        for w in range(hi - 1, lo - 1, -1):
            word = words[w]
            if word.lower in self.lexicon.head_nouns:
                trailing += self.costs.trailing_head
            elif word.kind != "joiner":
                trailing += self.costs.trailing_more if trailing else self.costs.trailing
            skip = self._skip_costs.get(word.kind, INF)
            below = row
            row = [(skip + cost, end) for cost, end in below[:n]] + [(trailing, w)]
            for i in range(n):
                if letters[i] not in word.initial_letters and not letters[i].isdigit() and not (
                        letters[i] in opened and _letter_end(word.lower, 0, letters[i], opened)):
                    continue  # no chunk can start here (the cheap test before the memo)
                for k, cost in self._chunk_costs(word, letters, i, capitals).items():
                    rest, end = below[i + k]
                    if cost + rest < row[i][0]:
                        row[i] = (cost + rest, end)
            rows[w] = row
        return rows

    def align(self, short: str, words: list[WordInfo], lo: int, hi: int, anchored_start: bool) -> Alignment | None:
        """Best long form for `short` inside words[lo:hi].

        anchored_start: the long form must begin at the first word of the window (short form
        first, long form after it); otherwise it may begin anywhere and should end near hi.
        """
        best: Alignment | None = None
        for letters in short_form_letters(self.lexicon.fold_greek(short)):
            caps = [c.isupper() for c in letters]
            found = self._align_letters(letters.lower(), caps, words, lo, hi, anchored_start)
            if found and (best is None or found.cost < best.cost):
                best = found
        return best

    def _starts(self, words: list[WordInfo], lo: int, hi: int, anchored_start: bool) -> list[tuple[int, float]]:
        """Words that may open the long form, with the cost of the words skipped before it."""
        opening = [w for w in range(lo, hi) if words[w].kind in ("content", "part")
                   and words[w].lower not in self.lexicon.not_long_start]
        if not anchored_start:
            return [(w, 0.0) for w in opening]
        return [(w, self.costs.leading * n) for n, w in enumerate(opening[:3])]

    def _align_letters(self, letters: str, caps: list[bool], words: list[WordInfo], lo: int, hi: int,
                       anchored_start: bool) -> Alignment | None:
        if not letters or hi <= lo:
            return None
        window = "".join(words[w].lower for w in range(lo, hi))
        opened = self.lexicon.letter_openings
        if any(c.isalpha() and c not in window and not any(o in window for o in opened.get(c, ())) for c in letters):
            return None
        rows = self._best(words, letters, caps, lo, hi)
        allowed = self.allowed(letters)
        best: Alignment | None = None
        for s, lead_cost in self._starts(words, lo, hi, anchored_start):
            if not _letter_end(words[s].lower, 0, letters[0], opened) and not letters[0].isdigit():
                continue  # the opening word gives the first letter from its start, or none
            for k, cost in self._chunk_costs(words[s], letters, 0, caps, opens_long_form=True).items():
                rest, end = rows[s + 1][k]
                total = lead_cost + cost + rest + self.costs.per_word * (end - s)
                if total <= allowed and (best is None or total < best.cost):
                    best = Alignment(s, end, total)
        if best is not None:
            start = best.start
            while start - 2 >= lo and words[start - 1].kind == "joiner" and words[start - 2].kind == "part":
                start -= 2
            best = Alignment(start, best.end, best.cost)
        return best
