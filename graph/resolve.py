"""Corpus-level decisions the builder takes once every paper is in: what a bare short form stands for,
which names are one entity, an entity's type and the name it goes by.

Every decision is a function of counts over the whole corpus (papers, weighted votes) with ties
broken by the names themselves, so the graph does not depend on the order papers arrive in.
"""
from __future__ import annotations

import math
import os
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from paperkg.core.schema import NodeLabel

# A short form resolves corpus-wide to its dominant definition when that definition holds at least
# this share of the papers defining the short form (measured on the ACL 2020-2021 slice: docs/quality.md,
# "One thing, one node").
DOMINANT_SHARE = 0.5
# A definition is a sense of its own (bare mentions choose between senses by their paper's
# entities) when this many papers define it.
SENSE_PAPERS = 2
# A definition of a short form in at most this share of its papers, spelt with the main definition's
# words but for their endings, is a spelling of it ('natural language process-ing').
VARIANT_SHARE = 0.1
_FUNCTION_WORDS = frozenset({"a", "an", "and", "for", "in", "of", "on", "the", "to", "with"})
# Type votes: a mention counts its confidence, times its extractor's weight: a curated lexicon
# entry, a cue ('the X dataset') and an acronym definition (the model's type for the long form)
# say most; a capitalised name's type is a guess from its neighbours.
SOURCE_WEIGHT = {"lexicon": 3.0, "cue": 2.0, "acronym": 2.0, "model": 1.0, "name": 0.5}
LABEL_ORDER = tuple(label.value for label in NodeLabel if label is not NodeLabel.PAPER)


def type_weight(label: str, source: str, confidence: float) -> float:
    """One mention's vote for its label."""
    return confidence * SOURCE_WEIGHT.get(source, 1.0)


def vote_label(votes: Mapping[str, float]) -> str:
    """The label with the most weight; a tie goes to the label first in the schema's order."""
    if len(votes) == 1:  # most nodes: one label (no keys to compute)
        return next(iter(votes))
    return min(votes, key=lambda label: (-round(votes[label], 6), LABEL_ORDER.index(label)))


def vote_name(papers_by_name: dict[str, set[str]], preferred: set[str]) -> str:
    """The name most papers use, among case variants of one canonical form the most used variant;
    names in `preferred` (repaired-free surface forms) win over repaired ones at equal use."""
    if len(papers_by_name) == 1:  # most nodes: one name, nothing to vote on
        return next(iter(papers_by_name))
    by_form: dict[str, Counter[str]] = defaultdict(Counter)
    for name, papers in papers_by_name.items():
        by_form[name.lower()][name] = len(papers)
    form = min(by_form, key=lambda f: (-_papers(papers_by_name, by_form[f]), f))
    return min(by_form[form], key=lambda name: (name not in preferred, -by_form[form][name], name))


def _papers(papers_by_name: dict[str, set[str]], names: Iterable[str]) -> int:
    return len(set().union(*(papers_by_name[name] for name in names)))


class UnionFind:
    """Groups of name forms merged into one entity; the root of a group is its smallest form."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, form: str) -> str:
        """The root of the form's group."""
        root = form
        while self.parent.get(root, root) != root:
            root = self.parent[root]
        while form != root:
            self.parent[form], form = root, self.parent.get(form, form)
        return root

    def union(self, a: str, b: str) -> None:
        """One group for both forms."""
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


class Fold(NamedTuple):
    """A definition of `short` folded into another sense of it: everywhere, or (`local`) in the papers
    defining `short` by it."""

    short: str
    variant: str
    into: str
    local: bool


@dataclass
class ShortForms:
    """The definitions of each short form across the corpus, with the entities around each sense."""

    papers: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    context: dict[tuple[str, str], Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    spellings: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    defined_in: dict[tuple[str, str], set[str]] = field(default_factory=lambda: defaultdict(set))
    redirect: dict[tuple[str, str], str] = field(default_factory=dict)  # (short, variant form) -> its sense
    _senses: dict[str, set[str]] | None = field(default=None, init=False, repr=False)  # form -> shorts it defines
    _expand: dict[str, str] = field(default_factory=dict, init=False, repr=False)  # short -> its dominant long form

    def define(self, short: str, form: str, name: str, context: Iterable[str], paper: str = "",
               weight: int = 1) -> None:
        """`paper` (or `weight` papers of an earlier graph) defines `short` as `name` (grouped as `form`),
        among the entities `context`."""
        self.papers[short][form] += weight
        self.context[short, form].update(set(context) - {form})
        self.spellings[form][name] += weight
        if paper:
            self.defined_in[short, form].add(paper)

    def update(self, other: ShortForms) -> None:
        """Add the definitions another part of the corpus made (before any fold: the assembly's partitions)."""
        for short, senses in other.papers.items():
            self.papers[short].update(senses)
        for pair, context in other.context.items():
            self.context[pair].update(context)
        for form, spellings in other.spellings.items():
            self.spellings[form].update(spellings)
        for pair, papers in other.defined_in.items():
            self.defined_in[pair] |= papers

    def name(self, form: str) -> str:
        """A definition's long form as most papers write it."""
        spellings = self.spellings[form]
        return min(spellings, key=lambda name: (-spellings[name], name))

    def fold_variants(self) -> list[Fold]:
        """Fold each definition of a short form that is a variant of one sense into that sense, rarest first:
        the same words once the short forms inside are written out ('multilingual BART'), a rare spelling
        ('natural language process'), a noun beside its gerund co-defining the short form ('language
        model', 'language modeling'), a rare one with words left out or added under the same head
        ('natural processing'), a rare one cut short ('Dialectal' of 'Dialectal Arabic'). Returns the folds
        made, each to the sense it ends in; the last two only redirect the papers defining the short form
        so ('local'), as their long form may name another thing elsewhere."""
        expand = {short: self.name(main) for short, main in self._dominant().items()}
        folds = []
        for short in sorted(self.papers):
            senses = self.papers[short]
            total = sum(senses.values())
            words = {form: tuple(_content_words(_expand(self.name(form), expand))) for form in senses}
            spelt = {form: _spelt_by_initials(short, self.name(form)) for form in senses}
            into: dict[str, tuple[str, bool]] = {}
            for form in sorted(senses, key=lambda f: (senses[f], f)):
                rare = senses[form] <= VARIANT_SHARE * total
                for other in sorted(senses, key=lambda f: (-senses[f], f)):
                    if other == form or senses[other] < senses[form]:
                        continue
                    local = _variant_kind(words[form], words[other], rare, spelt[other] and not spelt[form])
                    if local is not None:
                        senses[other] += senses.pop(form)
                        self.context[short, other].update(self.context.pop((short, form), Counter()))
                        into[form] = other, local
                        break
            for form, (other, local) in sorted(into.items()):
                while other in into:
                    local, other = local or into[other][1], into[other][0]
                folds.append(Fold(short, form, other, local))
                if local:
                    self.redirect[short, form] = other
        return folds

    def may_be_synonyms(self, a: str, form_a: str, b: str, form_b: str) -> bool:
        """Whether a model's SYNONYM_OF pair may be one thing by the corpus: the names share a word once
        short forms inside are written out ('nested NER', 'nested named entity recognition'), neither is
        the other with words added (a kind of it: 'Chinese NER'), and the corpus does not define them as
        the long forms of two different short forms ('recurrent neural network', 'long short-term memory')."""
        if self._senses is None:  # asked once the senses are final (after fold_variants)
            self._senses = defaultdict(set)
            for short, senses in self.papers.items():
                for form in senses:
                    self._senses[form].add(short)
            self._expand = {short: self.name(main) for short, main in self._dominant().items()}
        words_a, words_b = (set(_content_words(_expand(name, self._expand))) for name in (a, b))
        if words_a == words_b:
            return True
        if not words_a & words_b or words_a < words_b or words_b < words_a:
            return False
        shorts_a, shorts_b = self._senses.get(form_a), self._senses.get(form_b)
        return not (shorts_a and shorts_b and not shorts_a & shorts_b)

    def _dominant(self) -> dict[str, str]:
        """Short form -> the form of the definition holding DOMINANT_SHARE of its papers, where one does."""
        found = {}
        for short, senses in self.papers.items():
            top = min(senses, key=lambda form: (-senses[form], form))
            if _dominates(senses, top):
                found[short] = top
        return found

    def resolve(self, short: str, context: set[str]) -> tuple[str, str] | None:
        """(form, rule) a bare `short` in a paper with entities `context` stands for, or None. Among the
        senses several papers define, the paper's other entities choose (naive Bayes, each sense's prior
        its papers); the choice stands when its posterior reaches DOMINANT_SHARE."""
        senses = self.papers.get(short)
        if not senses:
            return None
        top = min(senses, key=lambda form: (-senses[form], form))
        real = sorted(form for form, count in senses.items() if count >= SENSE_PAPERS)
        if len(real) < 2:
            return (top, "acronym-dominant") if _dominates(senses, top) else None
        posterior = self._posterior(short, real, context)
        best = min(real, key=lambda form: (-posterior[form], form))
        if posterior[best] < DOMINANT_SHARE or posterior[best] == max(
                (p for form, p in posterior.items() if form != best), default=0.0):
            return None
        return best, "acronym-dominant" if best == top else "acronym-context"

    def _posterior(self, short: str, senses: list[str], context: set[str]) -> dict[str, float]:
        """P(sense | the paper's entities) over `senses`; an entity's rate under a sense is smoothed
        towards its rate under all of them, and entities none of them met say nothing."""
        counts = {form: self.papers[short][form] for form in senses}
        total = sum(counts.values())
        pooled: Counter[str] = Counter()
        for form in senses:
            pooled.update({c: self.context[short, form][c] for c in context if self.context[short, form][c]})
        scores = {}
        for form in senses:
            seen = self.context[short, form]
            scores[form] = math.log(counts[form]) + sum(
                math.log((seen[c] + pooled[c] / total) / (counts[form] + 1)) for c in pooled)
        best = max(scores.values())
        weights = {form: math.exp(score - best) for form, score in scores.items()}
        return {form: weight / sum(weights.values()) for form, weight in weights.items()}


def _dominates(senses: Counter[str], top: str) -> bool:
    """The top definition holds DOMINANT_SHARE of the papers and more than any other (no 1:1 coin toss)."""
    rivals = [count for form, count in senses.items() if form != top]
    return senses[top] >= DOMINANT_SHARE * sum(senses.values()) and senses[top] > max(rivals, default=0)


def same_words(a: str, b: str) -> bool:
    """Two names with the same words but for endings ('pre-trained language model', 'pre-training
    language models'; 'question and answering', 'question answering')."""
    return _same_stems(tuple(_content_words(a)), tuple(_content_words(b)))


def _variant_kind(variant: tuple[str, ...], sense: tuple[str, ...], rare: bool, cut: bool) -> bool | None:
    """How a definition's content words make it a variant of a more used sense of the same short form: None
    for no variant, False to fold it everywhere (the same term), True only where it defines the short form.
    `cut`: the sense's word initials spell the short form and the variant's do not (a long form cut short,
    'Dialectal' for DA, not a term of its own such as 'speech-to-text' for ST)."""
    if variant == sense or rare and _same_stems(variant, sense) or _noun_and_gerund(variant, sense):
        return False
    if rare and len(variant) != len(sense) and (
            variant[-1:] == sense[-1:] and (_subsequence(variant, sense) or _subsequence(sense, variant))
            or cut and len(variant) < len(sense) and sense[:len(variant)] == variant):
        return True
    return None


def _spelt_by_initials(short: str, name: str) -> bool:
    """The short form's letters are, in order, initials of the name's words ('DA': 'Dialectal Arabic')."""
    initials = iter(word[0] for word in re.split(r"[\s\-/]+", name.lower()) if word)
    return all(letter in initials for letter in short.lower() if letter.isalpha())


def _same_stems(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Word by word the same but for endings."""
    return len(a) == len(b) and all(_same_stem(x, y) for x, y in zip(a, b))


def _noun_and_gerund(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """The same words but one, a noun in one and its gerund in the other ('question answer',
    'question answering'); a thing and what it does, which a short form defined by both names once."""
    pairs = [(x, y) for x, y in zip(a, b) if not _same_stem(x, y)]
    return len(a) == len(b) and len(pairs) == 1 and _gerund_of(*sorted(pairs[0], key=len))


def _gerund_of(noun: str, gerund: str) -> bool:
    """'model' -> 'modeling' / 'modelling', 'rewrite' -> 'rewriting'."""
    return gerund in (noun + "ing", noun + noun[-1] + "ing", noun.removesuffix("e") + "ing")


def _subsequence(short: tuple[str, ...], long: tuple[str, ...]) -> bool:
    """`short`'s words appear in `long` in order, some left out."""
    rest = iter(long)
    return all(word in rest for word in short)


def _expand(name: str, expand: dict[str, str]) -> str:
    """The name with the short forms among its words written out ('neural MT' -> 'neural machine translation')."""
    return " ".join(expand.get(word, word) for word in name.split())


def _content_words(name: str) -> list[str]:
    """A name's words, lower-case, without function words and plural 's'."""
    return [word.removesuffix("s") if len(word) > 3 else word
            for word in re.split(r"[\s\-/]+", name.lower()) if word and word not in _FUNCTION_WORDS]


def _same_stem(a: str, b: str) -> bool:
    """One word but for its ending ('trained', 'training'), not a noun and its gerund ('model', 'modelling')."""
    if a == b:
        return True
    short, long = sorted((a, b), key=len)
    if _gerund_of(short, long):
        return False
    shared = len(os.path.commonprefix([a, b]))
    return shared >= 4 and shared >= 0.7 * len(short)
