"""Junk names: mentions shaped like a modifier, a verb phrase, a possessive or a quantity name no thing.

The model and the name rules sometimes take a modifier for a term ("Token-Guided", "ResNet-style",
"in-distribution"), a clause for a noun phrase ("predict Gaussian", "limiting scalability"), a place's
possessive ("Greenland's") or a measured change ("2x speedup"). Such a mention stays in the extraction
record with the reason, as its termhood, and is not a node (issue 19: junk names are not nodes). The
word lists are data files (modifier_affixes.txt, verb_openers.txt).
"""
from __future__ import annotations

import re

from spacy.tokens import Span

from .resources import DataFiles

_QUANTITY = re.compile(r"^[~≈]?\d+(?:[.,]\d+)?(?:\s*[x×X]|%)$")
_POSSESSIVE = ("'s", "’s")


class JunkNames:
    """Says why a mention's text names no thing, from hyphen affixes and clause-opening verb forms."""

    def __init__(self, suffixes: frozenset[str], prefixes: frozenset[str], verb_openers: frozenset[str]) -> None:
        self.suffixes = suffixes
        self.prefixes = prefixes
        self.verb_openers = verb_openers

    @classmethod
    def from_data(cls, data: DataFiles, affixes: str, verbs: str) -> JunkNames:
        """The rules of the affix table ('suffix|prefix<TAB>word' rows) and the verb-form list."""
        rows = [row for row in data.table(affixes) if len(row) == 2]
        unknown = sorted({kind for kind, _ in rows} - {"suffix", "prefix"})
        if unknown:
            raise ValueError(f"{affixes}: rows must start with 'suffix' or 'prefix', not {unknown[0]!r}.")
        return cls(frozenset(w.lower() for k, w in rows if k == "suffix"),
                   frozenset(w.lower() for k, w in rows if k == "prefix"), data.words(verbs))

    def reason(self, span: Span) -> str | None:
        """Why the mention is no name ('modifier', 'verb-phrase', 'possessive', 'quantity'), or None; a short
        form is judged by the long form it stands for ('IND' for 'in-distribution')."""
        return self.reason_for_text(span.text) or (span._.paperkg_acronym is not None
                                                   and self.reason_for_text(span._.paperkg_canonical)) or None

    def reason_for_text(self, text: str) -> str | None:
        """`reason` on a mention's text as written."""
        words = text.split()
        if not words:
            return None
        last = words[-1].lower()
        if text.startswith("-") or last.rsplit("-", 1)[-1] in self.suffixes and "-" in last:
            return "modifier"
        if len(words) == 1 and any(last.startswith(f"{prefix}-") for prefix in self.prefixes):
            return "modifier"
        if len(words) > 1 and words[0] in self.verb_openers:  # as written: lower case opens no name
            return "verb-phrase"
        if last.endswith(_POSSESSIVE):
            return "possessive"
        if len(words) > 1 and _QUANTITY.match(words[0]):
            return "quantity"
        return None
