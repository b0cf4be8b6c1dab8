"""Cue word lists (extract/data/cues.json) as one immutable object the components share."""
from __future__ import annotations

import json
from dataclasses import dataclass, fields
from functools import lru_cache

from .resources import data_path


@dataclass(frozen=True)
class Cues:
    """Lower-case cue words by purpose; see extract/data/cues.json."""

    propose_verbs: frozenset[str]
    propose_subjects: frozenset[str]
    naming_words: frozenset[str]
    novelty_words: frozenset[str]
    kind_nouns: frozenset[str]
    dataset_nouns: frozenset[str]
    list_introducers: frozenset[str]
    list_openers: frozenset[str]
    data_verbs: frozenset[str]
    eval_words: frozenset[str]
    address_words: frozenset[str]
    use_for_words: frozenset[str]
    compare_words: frozenset[str]
    clause_breaks: frozenset[str]


@lru_cache(maxsize=None)
def load_cues(name: str = "cues.json") -> Cues:
    """Read a cue file shipped under extract/data/."""
    raw = json.loads(data_path(name).read_text(encoding="utf8"))
    return Cues(**{f.name: frozenset(raw[f.name]) for f in fields(Cues)})
