"""Word forms shared by extraction and the graph: singulars and plurals of term heads, release numbers."""
from __future__ import annotations

import re

_VERSION = re.compile(r"^v?(?:\d{1,3}(?:\.\d+)?|(?:19|20)\d\d)$")
_INVARIANT_ENDINGS = ("ss", "us", "is", "ias", "ics", "ous", "ness", "sis", "series", "data", "news")
# Greek plurals in -ses whose singular is -sis ('analyses', 'diagnoses', 'hypotheses'), not -se
_SIS_PLURALS = ("lyses", "gnoses", "theses", "noses", "tases")


def singular(word: str) -> str:
    """Singular of an English (or acronym) plural: models->model, LLMs->LLM, GTs->GT, studies->study."""
    if len(word) < 3 or not word.endswith("s") or word.lower().endswith(_INVARIANT_ENDINGS):
        return word
    if word[-2].isupper() or word[-2].isdigit():
        return word[:-1]
    if "-" in word and (len(word.rsplit("-", 1)[-1]) < 4 or "-of-" in word.lower()):
        return word  # 'Yes-Yes-Yes', a coined name; 'Mixture-of-Experts', whose head is before 'of'
    lower = word.lower()
    if lower.endswith(_SIS_PLURALS):
        return word[:-2] + "is"
    if lower.endswith("ies") and len(word) > 4:
        return word[:-3] + ("Y" if word[-3].isupper() else "y")
    if lower.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    return word[:-1]


def plural_forms(term: str) -> set[str]:
    """Plural variants of a term's last word: 'graph transformer' -> {'graph transformers'}."""
    head, _, last = term.rpartition(" ")
    if not last or last.endswith("s") or not last[-1].isalpha():
        return set()
    if last.isupper() or (sum(c.isupper() for c in last) >= 2):
        forms = {last + "s"}
    elif last.endswith("y") and len(last) > 2 and last[-2] not in "aeiou":
        forms = {last[:-1] + "ies"}
    elif last.endswith(("x", "ch", "sh")):
        forms = {last + "es"}
    else:
        forms = {last + "s"}
    return {f"{head} {form}".strip() for form in forms}


def is_version(text: str) -> bool:
    """A release number or year as written after a name: 2, v2, 3.5, 360, 2023."""
    return bool(_VERSION.match(text))
