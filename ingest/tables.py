"""Access to the tables shipped in ingest/data/ (URL hosts, field aliases)."""
from __future__ import annotations

from functools import cache
from importlib import resources


@cache
def read_table(name: str) -> tuple[tuple[str, ...], ...]:
    """Rows of a tab-separated file in ingest/data/, comment ('#') and blank lines skipped.

    Cells are kept verbatim (an empty cell is a meaningful empty replacement).
    """
    text = (resources.files(__package__) / "data" / name).read_text(encoding="utf8")
    return tuple(
        tuple(line.split("\t"))
        for line in text.splitlines()
        if line.strip() and not line.startswith("#")
    )
