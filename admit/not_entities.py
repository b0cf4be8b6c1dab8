"""Names that are no entity of the schema: an organisation, a product, a law, a venue, a gene or receptor, a
disease, a material, a language, an instrument (hardware, a sensor, an imaging modality), or no thing at all (an
adjective, a dimension or colour word, a bare generic word, a property).

Such a mention is no Method, Task, Dataset or Metric whatever its sentence says ("GDPR", "COLING 2025", "HER2",
"Three-dimensional", "AI"); it stays in the extraction record and admission's refusal table with its kind as
the reason (issue 31). The lists are data (admit/data/not_entities.txt); `kind_of` is a pure function of the name.
"""
from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from typing import NamedTuple

from paperkg.core.canonical import canonical_name, match_form

NAMES_FILE = "not_entities.txt"
KINDS = ("organisation", "product", "law", "venue", "biomedical", "disease", "material", "language", "instrument",
         "not-a-thing")
LANGUAGES_FILE = "results/languages.txt"  # the result finder's list (paperkg.extract data): names, and codes left out


class NotEntities(NamedTuple):
    """Whole names (by their canonical match form, so a plural or hyphenated form is the same name), last words
    and patterns, each with its kind."""

    names: dict[str, str]
    heads: dict[str, str]
    patterns: tuple[tuple[re.Pattern[str], str], ...]

    @classmethod
    def parse(cls, text: str, source: str = NAMES_FILE) -> NotEntities:
        """The lists of a 'kind[-head|-regex]<TAB>value' file ('#' comments); a bad line is a ValueError naming it."""
        names: dict[str, str] = {}
        heads: dict[str, str] = {}
        patterns: list[tuple[re.Pattern[str], str]] = []
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip() or line.startswith("#"):
                continue
            tag, _, value = line.partition("\t")
            kind, how = tag, ""
            for suffix in ("-head", "-regex"):
                if tag.endswith(suffix):
                    kind, how = tag.removesuffix(suffix), suffix[1:]
            if kind not in KINDS or not value.strip():
                raise ValueError(f"{source}, line {number}: expected 'kind<TAB>name' with kind one of {KINDS} "
                                 f"(or kind-head, kind-regex).")
            value = value.strip()
            if how == "regex":
                patterns.append((re.compile(value, re.IGNORECASE), kind))
            elif how == "head":
                heads[value.lower()] = kind
            else:
                names[_form(value)] = kind
        return cls(names, heads, tuple(patterns))


@lru_cache(maxsize=1)
def shipped_lists() -> NotEntities:
    """The lists shipped in paperkg/admit/data/, and the language names of paperkg/extract/data/ ('English' alone
    is a language, no data set; its two-letter codes are left out: 'ML' is no Malayalam)."""
    lists = NotEntities.parse((resources.files("paperkg.admit") / "data" / NAMES_FILE).read_text(encoding="utf8"))
    languages = (resources.files("paperkg.extract") / "data" / LANGUAGES_FILE).read_text(encoding="utf8")
    for line in languages.splitlines():
        if len(line.strip()) > 2 and not line.startswith("#"):
            lists.names.setdefault(_form(line.strip()), "language")
    return lists


@lru_cache(maxsize=1 << 16)  # names repeat across papers
def kind_of(name: str) -> str | None:
    """The kind of non-entity a name is ('venue', 'disease', 'not-a-thing', ...), or None for a possible entity."""
    lists = shipped_lists()
    lower = " ".join(name.lower().split())
    if (form := _form(lower)) in lists.names:
        return lists.names[form]
    for pattern, kind in lists.patterns:
        if pattern.fullmatch(lower):
            return kind
    return lists.heads.get(lower.rsplit(" ", 1)[-1])


def _form(name: str) -> str:
    """The form a listed name and a mention's name are compared in: 'machine-learning models' is 'machine learning
    model'."""
    return match_form(canonical_name(name))
