"""Cue word lists (cues.json) as one immutable object the rule components share."""
from __future__ import annotations

from dataclasses import dataclass, fields

from .resources import DataFiles


@dataclass(frozen=True)
class Cues:
    """Lower-case cue words by purpose; see extract/data/cues.json."""

    propose_verbs: frozenset[str]
    propose_subjects: frozenset[str]
    naming_words: frozenset[str]
    naming_phrases: frozenset[str]
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
    baseline_openers: frozenset[str]
    gain_words: frozenset[str]
    method_nouns: frozenset[str]
    vague_heads: frozenset[str]
    clause_breaks: frozenset[str]
    campaign_words: frozenset[str]  # after a name ('SMM4H Shared Task'), or before it with 'called': a shared task

    @classmethod
    def from_data(cls, data: DataFiles, name: str) -> Cues:
        """The cues of a JSON data file (one list per field)."""
        raw = data.json(name)
        return cls(**{f.name: frozenset(raw[f.name]) for f in fields(cls)})
