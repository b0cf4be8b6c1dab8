"""Canonical names and keys: 'Large Language Models', 'large language model' and 'LLMs' meet here."""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from paperkg.core.words import singular

_DASHES = re.compile(r"[\u2010-\u2015\u2212]")
_SPACE = re.compile(r"\s+")
_SPACED_HYPHEN = re.compile(r"\s*-\s*")
# 'X of Ys': the head is X, the plural after 'of' is part of the name ('Internet of Things', 'mixture of experts')
_OF_PHRASE = re.compile(r"\sof\s\S+$", re.IGNORECASE)


@lru_cache(maxsize=1 << 16)  # names repeat across papers; the builder asks for each form several times
def canonical_name(name: str, label: str | None = None) -> str:
    """Lower-case, dash- and space-normalised, last word singular: 'Graph Transformers' -> 'graph transformer'.

    Data set names are proper names and keep their plural ('Cityscapes', 'Tanks and Temples'), and so does the
    word after 'of' ('Internet of Things').
    """
    text = unicodedata.normalize("NFKC", name)
    text = _DASHES.sub("-", text)
    text = _SPACED_HYPHEN.sub("-", _SPACE.sub(" ", text).strip(" .,;:"))
    if label == "Dataset" or _OF_PHRASE.search(text):
        return text.lower()
    head, _, last = text.rpartition(" ")
    return f"{head} {singular(last)}".strip().lower()


def match_form(canonical: str) -> str:
    """The form two names are compared in: hyphens and spaces dropped, so 'multi-modal', 'multimodal',
    'state-space model' and 'state space model' meet."""
    return canonical.replace("-", "").replace(" ", "")


def display_name(name: str, label: str | None = None) -> str:
    """A node's display name: the surface form with its last word singular ('Graph Transformers' ->
    'Graph Transformer'), case kept; data set names as written."""
    text = " ".join(name.split())
    if label == "Dataset" or _OF_PHRASE.search(text):
        return text
    head, _, last = text.rpartition(" ")
    return f"{head} {singular(last)}".strip()


def acronym_key(short: str) -> str:
    """An acronym's lookup form: plural 's' removed, case kept ('LLMs' -> 'LLM')."""
    return singular(short.strip())


def entity_key(label: str, name: str) -> str:
    """The node key of an entity: '<label>:<canonical name>'."""
    return f"{label.lower()}:{canonical_name(name, label)}"


@lru_cache(maxsize=1 << 16)  # names repeat across papers
def group_form(name: str) -> str:
    """The form names are grouped under: canonical, singular, without hyphens and spaces."""
    return match_form(canonical_name(name))
