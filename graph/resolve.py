"""Corpus-level decisions the builder takes once every paper is in: what a bare short form stands for,
which names are one entity, an entity's type and the name it goes by.

Every decision is a function of counts over the whole corpus (papers, weighted votes) with ties
broken by the names themselves, so the graph does not depend on the order papers arrive in.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from paperkg.core.schema import NodeLabel

# A short form resolves corpus-wide to its dominant definition when that definition holds at least
# this share of the papers defining the short form (measured on the ACL 2020-2021 slice: README,
# "Acronyms, types and junk names").
DOMINANT_SHARE = 0.5
# A definition is a sense of its own (bare mentions choose between senses by their paper's
# entities) when this many papers define it.
SENSE_PAPERS = 2
# Type votes: a mention counts its confidence, times its extractor's weight; Concept is the
# fallback type and counts half.
SOURCE_WEIGHT = {"lexicon": 2.0, "cue": 1.5}
CONCEPT_WEIGHT = 0.5
LABEL_ORDER = tuple(label.value for label in NodeLabel if label is not NodeLabel.PAPER)


def type_weight(label: str, source: str, confidence: float) -> float:
    """One mention's vote for its label."""
    return confidence * SOURCE_WEIGHT.get(source, 1.0) * (CONCEPT_WEIGHT if label == NodeLabel.CONCEPT else 1.0)


def vote_label(votes: Counter[str]) -> str:
    """The label with the most weight; a tie goes to the more specific label (Method before Concept)."""
    return min(votes, key=lambda label: (-round(votes[label], 6), LABEL_ORDER.index(label)))


def vote_name(papers_by_name: dict[str, set[str]], preferred: set[str]) -> str:
    """The name most papers use, among case variants of one canonical form the most used variant;
    names in `preferred` (repaired-free surface forms) win over repaired ones at equal use."""
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


@dataclass
class ShortForms:
    """The definitions of each short form across the corpus, with the entities around each sense."""

    papers: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    context: dict[tuple[str, str], Counter[str]] = field(default_factory=lambda: defaultdict(Counter))

    def define(self, short: str, form: str, context: Iterable[str], weight: int = 1) -> None:
        """A paper (or `weight` papers of an earlier graph) defines `short` as `form`, among `context` forms."""
        self.papers[short][form] += weight
        self.context[short, form].update(set(context) - {form})

    def __contains__(self, short: str) -> bool:
        return short in self.papers

    def resolve(self, short: str, context: set[str]) -> tuple[str, str] | None:
        """(form, rule) a bare `short` in a paper with entities `context` stands for, or None: the sense
        the paper's other entities point to when the short form has several, else the dominant one."""
        senses = self.papers.get(short)
        if not senses:
            return None
        real = sorted(form for form, count in senses.items() if count >= SENSE_PAPERS)
        if len(real) > 1:
            scores = {form: sum(self.context[short, form][c] for c in context) / senses[form] for form in real}
            best = sorted(real, key=lambda form: (-scores[form], form))
            if scores[best[0]] > scores[best[1]]:
                return best[0], "acronym-context"
        top = min(senses, key=lambda form: (-senses[form], form))
        if senses[top] >= DOMINANT_SHARE * sum(senses.values()):
            return top, "acronym-dominant"
        return None
