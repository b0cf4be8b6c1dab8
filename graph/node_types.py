"""A node's type from what the thing is (issue 31): the shape of its names, the training data's lexicon, then the
vote of its mentions, so that one sentence's position ('on X', 'with X') never overrides strong evidence.

Each rule is a pure function of a node's names (and its mentions' weighted votes), so the corpus-level decision
is the same however the mentions are grouped (one machine or partitions of a Dask run):

- `shape_label`: a benchmark's or corpus' ending ('LongMemEval-RR', 'MT-Bench', 'S2-VLUE'), a measure's
  ('Valid Consumption Rate', 'Read-Recall', 'COMET'), a model's size or family ('Qwen3-8B-base', 'MedGemma 3 27B',
  'Mistral Small 3.2'); the words are data (graph/data/name_shapes.txt).
- `lexicon_label`: the one type the training data gives the name (graph/data/type_lexicon.tsv, written by
  extract/training/type_lexicon.py from the train splits of SciER, SciERC and TDMSci).
- `decide_label`: the shape's type, else the lexicon's, else the vote (graph/resolve.py vote_label); with the
  evidence that decided it.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from importlib import resources
from typing import NamedTuple

from paperkg.core.canonical import group_form

from .resolve import vote_label

SHAPES_FILE, LEXICON_FILE = "name_shapes.txt", "type_lexicon.tsv"
SHAPE_KINDS = ("dataset-end", "dataset-year", "metric-end", "metric", "dataset", "method", "not-metric", "model-family")
WHOLE_NAME_TYPES = {"metric": "Metric", "dataset": "Dataset", "method": "Method"}  # kind -> the type of such a name
# a model's size in parameters ('8B', '1.5B', '27B'); millions are left out: 'Hachimi-1M' counts examples
_SIZE = re.compile(r"(?:^|[\s-])\d+(?:\.\d+)?[BT](?:$|[\s-])")
_VARIANT = re.compile(r"-[A-Z0-9]{1,4}$")  # 'LongMemEval-RR', 'MT-Bench-101'
_WORD_SPLIT = re.compile(r"[\s-]+")
# Method or Task depends on what a paper does with the thing ('data augmentation'): the mentions' vote decides
AMBIGUOUS = frozenset({"Method", "Task"})
ACTIVITY_ENDINGS = ("tion", "sion", "ment", "ing", "ance", "ence", "ysis", "val", "sal", "wal")
_YEAR = re.compile(r"([a-z]+)[\s-]?'?(?:19|20)?\d\d")


class NameShapes(NamedTuple):
    """The word lists of name_shapes.txt, by kind."""

    dataset_ends: tuple[str, ...]
    dataset_years: frozenset[str]
    metric_ends: tuple[str, ...]
    whole_names: dict[str, str]      # a whole name (lower case) -> its type, whatever the sentence says
    not_metrics: frozenset[str]
    model_families: frozenset[str]

    @classmethod
    def parse(cls, text: str, source: str = SHAPES_FILE) -> NameShapes:
        """The lists of a 'kind<TAB>word' file ('#' comments); an unknown kind is a ValueError naming its line."""
        words: dict[str, list[str]] = {kind: [] for kind in SHAPE_KINDS}
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip() or line.startswith("#"):
                continue
            kind, _, word = line.partition("\t")
            if kind not in words or not word.strip():
                raise ValueError(f"{source}, line {number}: expected 'kind<TAB>word' with kind one of {SHAPE_KINDS}.")
            words[kind].append(word.strip().lower())
        whole = {word: label for kind, label in WHOLE_NAME_TYPES.items() for word in words[kind]}
        return cls(tuple(words["dataset-end"]), frozenset(words["dataset-year"]), tuple(words["metric-end"]), whole,
                   frozenset(words["not-metric"]), frozenset(words["model-family"]))


@lru_cache(maxsize=1)
def shipped_shapes() -> NameShapes:
    """The shapes shipped in paperkg/graph/data/."""
    return NameShapes.parse((resources.files("paperkg.graph") / "data" / SHAPES_FILE).read_text(encoding="utf8"))


@lru_cache(maxsize=1)
def shipped_lexicon() -> dict[str, str]:
    """Group form -> type, from the shipped type_lexicon.tsv."""
    text = (resources.files("paperkg.graph") / "data" / LEXICON_FILE).read_text(encoding="utf8")
    return {row[0]: row[1] for row in (line.split("\t") for line in text.splitlines())
            if len(row) == 3 and not row[0].startswith("#")}


@lru_cache(maxsize=1 << 16)  # names repeat across nodes and builds
def shape_label(name: str) -> str | None:
    """The type a name's shape says ('Dataset', 'Metric', 'Method'), or None when its shape says nothing."""
    shapes = shipped_shapes()
    lower = " ".join(name.lower().split())
    forms = {" ".join(name.split()), _VARIANT.sub("", " ".join(name.split()))}  # 'LongMemEval-RR' without '-RR'
    for form in sorted(forms):
        if (label := shapes.whole_names.get(form.lower())) is not None:
            return label
    if any(_made_with(form, end) for form in forms for end in shapes.dataset_ends):
        return "Dataset"
    if (year := _YEAR.fullmatch(lower)) and year.group(1) in shapes.dataset_years:
        return "Dataset"  # a shared task's data of a year ('WMT22', 'CoNLL-2003')
    last = _WORD_SPLIT.split(lower)[-1]
    if lower not in shapes.not_metrics and (last in shapes.metric_ends or lower.endswith(("score",))) \
            and (last != "index" or name.split()[-1][:1].isupper()):
        return "Metric"
    first = _WORD_SPLIT.split(lower)[0].rstrip("0123456789.")
    if first in shapes.model_families or (_SIZE.search(name) and name[:1].isupper()):
        return "Method"
    return None


def _made_with(name: str, end: str) -> bool:
    """The name is made with the ending as a word or a name part of its own: 'Penn Treebank', 'MT-Bench',
    'SWE-bench', 'HumanEval', 'VBench', 'SuperGLUE'; not 'information retrieval' nor 'our new dataset'."""
    lower = name.lower()
    if not lower.endswith(end) or lower in (end, f"new {end}") or lower.endswith((" dataset", " benchmark")):
        return False
    before = name[-len(end) - 1] if len(name) > len(end) else " "
    written = name[-len(end):]
    return before in " -" or written[:1].isupper() and before.isalnum() or written.isupper()


def _names_an_activity(names: Iterable[str]) -> bool:
    """The names are one common word naming an action, written in lower case somewhere ('retrieval',
    'Retrieval'; 'segmentation'): no data set, which the field names with a proper name, whatever the
    sentences' 'on retrieval' say."""
    words = {name.lower() for name in names}
    return len(words) == 1 and (word := words.pop()).isalpha() and word.endswith(ACTIVITY_ENDINGS) \
        and any(name.islower() for name in names)


def lexicon_label(name: str, lexicon: Mapping[str, str] | None = None) -> str | None:
    """The one type the training data gives the name, or None when it does not know it (or is of two minds)."""
    return (shipped_lexicon() if lexicon is None else lexicon).get(group_form(name))


def decide_label(votes: Mapping[str, float], names: Mapping[str, set[str]],
                 lexicon: Mapping[str, str] | None = None) -> tuple[str, str]:
    """(type, evidence) of a node whose mentions vote `votes` and whose names are `names` (name -> papers using
    it): the shape of its most used name with a shape, else the training lexicon's type of its most used known
    name (unless it and the vote are Method and Task, which the mentions' context decides), else the vote, in
    which a common word naming an action is no Dataset. Evidence: 'shape', 'lexicon' or 'vote'."""
    ranked = sorted(names, key=lambda name: (-len(names[name]), name))
    lower = {name for name in names if name.islower()}
    for name in ranked:
        if name.isupper() and name.lower() in lower:
            continue  # a lower-case name in capitals ('RETRIEVAL' of a title): its shape is no name's
        if (label := shape_label(name)) is not None:
            return label, "shape"
    voted = vote_label(votes)
    if voted == "Dataset" and _names_an_activity(names):
        voted = vote_label({label: weight for label, weight in votes.items() if label != "Dataset"} or {"Task": 1.0})
    for name in ranked:
        if (label := lexicon_label(name, lexicon)) is not None:
            return (voted, "vote") if {label, voted} <= AMBIGUOUS else (label, "lexicon")
    return voted, "vote"
