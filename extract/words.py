"""Token-level word helpers of the extractors (the string-level ones are in paperkg.core.words)."""
from __future__ import annotations

from spacy.tokens import Doc

from paperkg.core.words import is_version


def version_after(doc: Doc, i: int) -> int:
    """1 when token i is a version number or year that belongs to the name before it
    ('Mip-NeRF 360,', 'BraTS 2023 and'), judged by what follows the number; else 0."""
    if i >= len(doc) or not is_version(doc[i].text):
        return 0
    after = doc[i + 1].text if i + 1 < len(doc) else "."
    return int(after in {",", ".", ";", ":", ")", "and", "or"} or after[:1].isupper())
