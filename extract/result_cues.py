"""The result finder's cue words (data/results/cues.json) as one immutable object."""
from __future__ import annotations

from dataclasses import dataclass, fields

from .resources import DataFiles


@dataclass(frozen=True)
class ResultCues:
    """Lower-case cue words by purpose; see extract/data/results/cues.json."""

    result_verbs: frozenset[str]
    change_words: frozenset[str]
    down_words: frozenset[str]
    relative_words: frozenset[str]
    comparatives: frozenset[str]
    compare_words: frozenset[str]
    count_nouns: frozenset[str]
    not_result_before: frozenset[str]
    metric_stops: frozenset[str]
    shared_task_words: frozenset[str]
    benchmark_ends: frozenset[str]
    benchmark_variants: frozenset[str]
    money_words: frozenset[str]
    interval_words: frozenset[str]
    agreement_words: frozenset[str]
    share_nouns: frozenset[str]
    share_glue: frozenset[str]
    setting_words: frozenset[str]
    split_words: dict[str, str]

    @classmethod
    def from_data(cls, data: DataFiles, name: str) -> ResultCues:
        """The cues of a JSON data file (one list per field; split_words maps a word to its split)."""
        raw = data.json(name)
        lists = {f.name: frozenset(raw[f.name]) for f in fields(cls) if f.name != "split_words"}
        return cls(**lists, split_words=dict(raw["split_words"]))
