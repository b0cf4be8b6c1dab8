"""Entity names as a node may carry them: junk spans refused, spelling artefacts repaired.

Extraction sometimes hands over a span cut by a line-break hyphen ('represen-'), glued to the
next sentence ('CARE.Github Repository') or word ('BLEUOur'), spaced inside a hyphen
('off- the-shelf LLM'), led by a list marker ('1 - Multi-label ...' of 'Subtask 1 - ...'), or a bare
number ('34k'). `clean_name` gives the repaired name and the
rule that repaired it (kept as merge evidence on the node), or None for a name that is no name;
`hyphenated_names` joins a name cut at a line-break hyphen with the rest of its word; `coordination` says
when a name is two terms joined by 'and'.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from paperkg.core.schema import Extraction

# Capitalised words that open an English sentence in an abstract; one glued to a name
# ('BLEUOur', 'SQuADThe') is the next sentence's first word after a lost full stop.
# Short words that also end product names ('PlugIn', 'AddOn', 'BigCode') are left out.
SENTENCE_OPENERS = frozenset((
    "Our", "We", "The", "This", "These", "Those", "Its", "Their", "Here", "Finally", "Moreover",
    "However", "Furthermore", "Additionally", "Experiments", "Experimental", "Results", "Also",
    "Further", "Overall", "Extensive", "Evaluation", "Evaluations", "Empirical", "Specifically", "Thus",
    "Hence", "Besides", "Compared", "Unlike", "Experimentally", "Lastly",
))

# a list marker cut into the name ('1 - Multi-label Dialect Identification' of 'Subtask 1 - ...')
_LIST_MARKER = re.compile(r"^\d{1,2}\s*[-–:.)]\s+(?=[A-Za-z]{2})")
_COORDINATION = re.compile(r"\s(?:and|or|&)\s")
_NUMBER = re.compile(r"^[~≈<>±+-]?\d[\d.,]*\s*(?:[kKMBbx×%]|bn|K\+?|M\+?)?$")
_CUT = re.compile(r"\w-$")
_GLUED_SENTENCE = re.compile(r"^(\S*[A-Za-z0-9)\]][A-Za-z0-9)\]])\.([A-Z][a-z]+)\b")
_GLUED_WORD = re.compile(r"^(.*[A-Za-z0-9])([A-Z][a-z]+)$")
_SPACED_HYPHEN = re.compile(r"(?<=\w)(?:-\s+|\s+-)(?=\w)")
_LETTER = re.compile(r"[^\W\d_]")
# the rest of a word a line-break hyphen cut; not a conjunction after a suspended hyphen ("closed- and open-source")
_BROKEN_WORD = re.compile(r"\s+(?!(?:and|or|nor|to|vs)\b)([a-z]+)\b")


class CleanName(NamedTuple):
    """A usable name and the repair that made it ('' when the name was fine)."""

    name: str
    rule: str


@lru_cache(maxsize=1 << 16)  # names repeat across papers
def clean_name(name: str) -> CleanName | None:
    """The name a node may carry, or None for a span that is no name (a number, a word cut at a hyphen)."""
    text = " ".join(name.split()).rstrip(",;:")
    if text.endswith(".") and text.count(".") == 1:  # a sentence's full stop ('XLM-R.'), not 'U.S.'
        text = text[:-1]
    if not _LETTER.search(text) or _NUMBER.match(text) or _CUT.search(text):
        return None
    rule = ""
    marker = _LIST_MARKER.match(text)
    if marker:
        text, rule = text[marker.end():], "list-marker"
    glued = _GLUED_SENTENCE.match(text)
    if glued:
        text, rule = glued.group(1), "glued-sentence"
    else:
        word = _GLUED_WORD.match(text)
        if word and word.group(2) in SENTENCE_OPENERS and len(word.group(1)) >= 2:
            text, rule = word.group(1), "glued-word"
    spaced = _SPACED_HYPHEN.sub("-", text)
    if spaced != text:
        text, rule = spaced, rule or "hyphen-spacing"
    if not _LETTER.search(text) or _NUMBER.match(text):
        return None
    return CleanName(text, rule)


def coordination(name: str) -> str | None:
    """'coordination' for two terms joined by 'and' or 'or' ('question answering and summarization'); a name
    whose every word is capitalised is one name ('Tanks and Temples')."""
    if not _COORDINATION.search(name):
        return None
    words = [w for w in name.split() if w not in ("and", "or", "&", "of", "for", "the", "in", "on", "with")]
    return None if all(w[:1].isupper() or w[:1].isdigit() for w in words) else "coordination"


def hyphenated_names(record: Extraction) -> dict[str, str]:
    """Names cut at a line-break hyphen in this paper, joined with the word that goes on after the break:
    'natural language process-' (before ' ing') -> 'natural language processing'."""
    spans = [(m.name, m.end) for m in record.entities if m.name.endswith("-") and m.text == m.name]
    spans += [(a.long, a.long_end) for a in record.acronyms if a.long.endswith("-")]
    joined = {}
    for name, end in spans:
        rest = _BROKEN_WORD.match(record.paper.abstract, end)
        if rest:
            joined[name] = name[:-1] + rest.group(1)
    return joined


@lru_cache(maxsize=1 << 16)
def is_short_form(name: str) -> bool:
    """A one-word name with two capitals or a capital and a digit ('NLP', 'mBERT', 'XLM-R', 'T5')."""
    if " " in name or len(name) > 15:
        return False
    capitals = sum(c.isupper() for c in name)
    return capitals >= 2 or (capitals == 1 and any(c.isdigit() for c in name))
