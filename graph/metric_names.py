"""Which results measure the same thing and which way is better: a metric's key (its written name folded, aliases
to one: 'F1-score', 'F1 scores' and 'F-measure' are 'f1'; 'macro F1' stays apart) and its direction, from the data
files graph/data/metrics.tsv and metric_lower_words.txt."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

HIGHER, LOWER = "higher", "lower"
_SEPARATORS = re.compile(r"[\s\-_/]+")
_TRAILING_ACRONYM = re.compile(r"\s*\([^)]*\)$")


@dataclass(frozen=True)
class MetricNames:
    """Alias key -> the key of its metric's first name, and key -> which way is better."""

    keys: dict[str, str]
    better: dict[str, str]
    lower_words: frozenset[str]

    def key(self, written: str) -> str:
        """The key a metric as written is compared by."""
        folded = _fold(written)
        return self.keys.get(folded, folded)

    def direction(self, written: str) -> str:
        """'higher', 'lower', or '' when the metric's direction is not known: a listed metric's, also after words
        that qualify it ('average F1', 'test accuracy'), else lower for a metric with a word of the lower words."""
        words = written.split()
        for first in range(len(words)):  # 'average F1' is better higher as F1 is
            known = self.better.get(self.key(" ".join(words[first:])))
            if known is not None:
                return known
        return LOWER if set(_SEPARATORS.split(written.lower())) & self.lower_words else ""


def _fold(written: str) -> str:
    """Lower case, no trailing '(acronym)', no spaces, hyphens, slashes; no trailing 'score' or plural s."""
    key = _SEPARATORS.sub("", _TRAILING_ACRONYM.sub("", written.strip().lower()))
    if re.search(r"(?:rate|error|score)s$", key):
        key = key[:-1]
    if key.endswith("score") and len(key) > len("score") + 1 and key != "bertscore":
        key = key[:-len("score")]
    return key


@lru_cache(maxsize=1)
def metric_names() -> MetricNames:
    """The shipped metric names (read once)."""
    folder = resources.files("paperkg.graph") / "data"
    keys: dict[str, str] = {}
    better: dict[str, str] = {}
    for line in (folder / "metrics.tsv").read_text(encoding="utf8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, aliases, direction = (line.split("\t") + ["", ""])[:3]
        key = _fold(name)
        for form in [name, *filter(None, aliases.split("|"))]:
            keys.setdefault(_fold(form), key)
        if direction.strip():
            better[key] = direction.strip()
    words = frozenset(line.strip().lower() for line in
                      (folder / "metric_lower_words.txt").read_text(encoding="utf8").splitlines()
                      if line.strip() and not line.startswith("#"))
    return MetricNames(keys, better, words)
