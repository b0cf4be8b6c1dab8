"""Word-form helpers shared by the extractors: plurals and singulars of term heads."""
from __future__ import annotations

_INVARIANT_ENDINGS = ("ss", "us", "is", "ias", "ics", "ous", "ness", "sis", "series", "data", "news")


def singular(word: str) -> str:
    """Singular of an English (or acronym) plural: models->model, LLMs->LLM, GTs->GT, studies->study."""
    if len(word) < 3 or not word.endswith("s") or word.lower().endswith(_INVARIANT_ENDINGS):
        return word
    if word[-2].isupper() or word[-2].isdigit():
        return word[:-1]
    lower = word.lower()
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
