"""One loaded pipeline per (model, rules_only) and process: the build, its workers (loaded once each,
or inherited from the fork server), the evaluations and the Python API share it."""
from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # spaCy loads only when a pipeline is asked for
    from spacy.language import Language


def cached_pipeline(model: Path | str | None = None, rules_only: bool = False) -> Language:
    """The extraction pipeline (cached): the shipped one, or a trained model / saved pipeline directory;
    `rules_only` leaves the statistical model out."""
    return _pipeline(Path(model).resolve() if model else None, bool(rules_only))


@cache
def _pipeline(model: Path | None, rules_only: bool) -> Language:
    """One pipeline per (model, rules_only), however the caller spelt them (keyword, positional, str)."""
    from paperkg.extract import pipeline

    return pipeline.load_pipeline(model, rules_only=rules_only)
