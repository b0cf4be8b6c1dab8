"""The paper record every reader yields and every later stage consumes."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class PaperRecord:
    """One paper: stable id, normalised abstract and whatever metadata the input had."""

    id: str
    abstract: str
    title: str | None = None
    year: int | None = None
    venue: str | None = None
    authors: list[str] = field(default_factory=list)
    url: str | None = None
    code_url: str | None = None
    source: str | None = None  # "path:line" where the record starts

    def to_dict(self) -> dict[str, Any]:
        """Plain-JSON form, keys in a fixed order."""
        return asdict(self)
