"""Characters no output of paperkg can hold, found and replaced in one place.

XML 1.0 forbids the C0 controls other than tab, line feed and carriage return, the surrogates
and U+FFFE/U+FFFF; a lone surrogate cannot be written as UTF-8 at all (json, GraphML and the
Neo4j driver all fail on it). DEL and the C1 controls are allowed by XML but are never text
(they are what mis-decoded bytes look like), so they go too.
"""
from __future__ import annotations

import re

_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
_SURROGATE = re.compile("[\ud800-\udfff]")
SURROGATE_ESCAPES = range(0xDC80, 0xDD00)  # how Python's "surrogateescape" decoder keeps undecodable bytes


def replace_invalid_characters(text: str, replacement: str = " ") -> str:
    """The text with every character that XML 1.0 or UTF-8 cannot hold replaced."""
    return _INVALID.sub(replacement, text)


def first_surrogate(text: str) -> int:
    """The index of the first surrogate code point in the text (-1 when there is none)."""
    match = _SURROGATE.search(text)
    return match.start() if match else -1
