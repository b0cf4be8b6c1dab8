"""Access to the data files shipped in extract/data/ (lexicons, patterns, word lists)."""
from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

DATA_DIR = Path(str(resources.files(__package__) / "data"))


def data_path(name: str) -> Path:
    """Path of a shipped data file, by its name under extract/data/."""
    return DATA_DIR / name


@lru_cache(maxsize=None)
def read_lines(name: str) -> tuple[str, ...]:
    """Non-empty, non-comment lines of a data file (comments start with '#')."""
    lines = data_path(name).read_text(encoding="utf8").splitlines()
    return tuple(line.rstrip("\n") for line in lines if line.strip() and not line.startswith("#"))


@lru_cache(maxsize=None)
def read_table(name: str) -> tuple[tuple[str, ...], ...]:
    """Rows of a tab-separated data file, comments and blank lines skipped."""
    return tuple(tuple(cell.strip() for cell in line.split("\t")) for line in read_lines(name))


def read_jsonl(name: str) -> list[dict[str, Any]]:
    """Objects of a JSON-lines data file, comments and blank lines skipped."""
    return [json.loads(line) for line in read_lines(name)]
