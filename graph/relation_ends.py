"""Which nodes may end a typed edge: a property is a term but not a thing a method is used for or
evaluated on, and a language, organisation or toolkit is no data set.

A quality ("computational efficiency", "spatial resolution", "3D geometric consistency") stays a node
with its papers, but the graph writes no USED_FOR, EVALUATED_ON, ... edge to it; a name in a Dataset
slot that is a language ("English", "Slavic languages"), an organisation ("Ministry of ...") or a
toolkit ("PyTorch") makes no edge either. The rules are data (graph/data/relation_ends.txt).
"""
from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from typing import NamedTuple

from paperkg.core.schema import NodeLabel

RULES_FILE = "relation_ends.txt"
KINDS = ("quality", "quality-after-adj", "not-dataset", "organisation")
# Word shapes that read as an adjective before a head noun: 'spatial', 'geometric', 'modular', 'generative'.
_ADJECTIVE = re.compile(r"(?:al|ic|ar|ive|ous|ful)$")
_GRADES = frozenset({"high", "low", "fine", "coarse", "full", "poor", "strong", "weak", "better", "higher", "lower"})


class EndRules(NamedTuple):
    """The word lists of the rules file, one per kind."""

    quality: frozenset[str]
    quality_after_adjective: frozenset[str]
    not_dataset: frozenset[str]
    organisation: frozenset[str]

    @classmethod
    def parse(cls, text: str, source: str = RULES_FILE) -> EndRules:
        """The rules of a 'kind<TAB>word' file ('#' comments); an unknown kind is a ValueError naming its line."""
        words: dict[str, set[str]] = {kind: set() for kind in KINDS}
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip() or line.startswith("#"):
                continue
            kind, _, word = line.partition("\t")
            if kind not in words or not word.strip():
                raise ValueError(f"{source}, line {number}: expected 'kind<TAB>word' with kind one of {KINDS}.")
            words[kind].add(word.strip().lower())
        return cls(*(frozenset(words[kind]) for kind in KINDS))


@lru_cache(maxsize=1)
def shipped_rules() -> EndRules:
    """The rules shipped in paperkg/graph/data/."""
    return EndRules.parse((resources.files("paperkg.graph") / "data" / RULES_FILE).read_text(encoding="utf8"))


def end_refusal(name: str, label: str, rules: EndRules | None = None) -> str | None:
    """Why a node of this name and label may not end a typed edge ('quality', 'not-dataset'), or None."""
    rules = rules or shipped_rules()
    words = name.lower().split()
    if not words:
        return None
    head = words[-1]
    if head in rules.quality:
        return "quality"
    if head in rules.quality_after_adjective and len(words) > 1 and _reads_as_adjective(words[-2]):
        return "quality"
    if label == NodeLabel.DATASET.value and (head in rules.not_dataset or head in rules.organisation
                                             or words[0] in rules.organisation):
        return "not-dataset"
    return None


def _reads_as_adjective(word: str) -> bool:
    return word in _GRADES or bool(_ADJECTIVE.search(word))
