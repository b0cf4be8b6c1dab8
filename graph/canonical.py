"""Canonical names and keys: 'Large Language Models', 'large language model' and 'LLMs' meet here."""
from __future__ import annotations

import re
import unicodedata

from paperkg.extract.words import singular

_DASHES = re.compile(r"[\u2010-\u2015\u2212]")
_SPACE = re.compile(r"\s+")
_SPACED_HYPHEN = re.compile(r"\s*-\s*")

LABELS = ("Paper", "Method", "Task", "Dataset", "Metric", "Concept")


def canonical_name(name: str) -> str:
    """Lower-case, dash- and space-normalised, last word singular: 'Graph Transformers' -> 'graph transformer'."""
    text = unicodedata.normalize("NFKC", name)
    text = _DASHES.sub("-", text)
    text = _SPACED_HYPHEN.sub("-", _SPACE.sub(" ", text).strip(" .,;:"))
    head, _, last = text.rpartition(" ")
    return f"{head} {singular(last)}".strip().lower()


def display_name(name: str) -> str:
    """A node's display name: the surface form with its last word singular ('Graph Transformers' ->
    'Graph Transformer'), case kept."""
    head, _, last = " ".join(name.split()).rpartition(" ")
    return f"{head} {singular(last)}".strip()


def acronym_key(short: str) -> str:
    """An acronym's lookup form: plural 's' removed, case kept ('LLMs' -> 'LLM')."""
    return singular(short.strip())


def entity_key(label: str, name: str) -> str:
    """The node key of an entity: '<label>:<canonical name>'."""
    return f"{label.lower()}:{canonical_name(name)}"


def paper_key(paper_id: str) -> str:
    """The node key of a paper."""
    return f"paper:{paper_id}"
