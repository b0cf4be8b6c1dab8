"""What `paperkg eval` scores: the benchmark layouts and systems it knows, and one function per command
that checks the file, loads the pipeline (cached) and returns the scores with their report function."""
from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import Any

from paperkg.core.errors import ExitCode, PaperkgError
from paperkg.extract.pipeline_cache import cached_pipeline

Scores = tuple[dict[str, Any], Callable[[dict[str, Any]], str]]  # the result and the function that reports it


class AcronymSystem(str, Enum):
    """Systems `paperkg eval acronyms` can score."""

    PAPERKG = "paperkg"
    SCHWARTZ_HEARST = "schwartz-hearst"
    SCHWARTZ_HEARST_CAPITALS = "schwartz-hearst-capitals"


class AcronymFormat(str, Enum):
    """Layouts `paperkg eval acronyms` reads."""

    SDU = "sdu"
    DEFS = "defs"
    SCIER = "scier"


class EntityFormat(str, Enum):
    """Benchmark layouts `paperkg eval entities` reads."""

    TDMSCI = "tdmsci"
    SCIER = "scier"
    SCIERC = "scierc"


class RelationFormat(str, Enum):
    """Benchmark layouts `paperkg eval relations` reads."""

    SCIER = "scier"
    SCIERC = "scierc"


class TdmsciSplit(str, Enum):
    """TDMSci has no dev split: paperkg holds out a fixed ~20% of train (see extract/evaluate/benchmarks.py)."""

    DEV = "dev"
    TRAIN = "train"
    ALL = "all"


class Mentions(str, Enum):
    """Which entity mentions `paperkg eval entities` scores."""

    NODES = "nodes"
    ALL = "all"


class SciercPipeline(str, Enum):
    """What `paperkg eval scierc` scores."""

    FULL = "full"
    MODEL = "model"


def acronym_scores(file: Path, format: AcronymFormat, system: AcronymSystem, predictions: Path | None) -> Scores:
    """Score the acronym component on `file` read as `format`."""
    _require_file(file)
    if format is AcronymFormat.SDU:
        from paperkg.extract.evaluate import acronyms as sdu

        return sdu.run(file, predictions_out=predictions, system=system.value), sdu.format_report
    from paperkg.extract.evaluate import acronym_definitions as evaluation

    if system is AcronymSystem.SCHWARTZ_HEARST and format is AcronymFormat.DEFS:
        return evaluation.run_definitions(file, None, predictions_out=predictions), evaluation.format_report
    if system is not AcronymSystem.PAPERKG:
        raise PaperkgError(f"--system {system.value} scores SDU files and (schwartz-hearst) defs files only; "
                           f"leave it out with --format {format.value}.")
    nlp = cached_pipeline(rules_only=True)
    result = (evaluation.run_definitions(file, nlp, predictions_out=predictions) if format is AcronymFormat.DEFS
              else evaluation.run_scier_synonyms(file, nlp))
    return result, evaluation.format_report


def entity_scores(file: Path, format: EntityFormat, split: TdmsciSplit, mentions: Mentions,
                  model: Path | None) -> Scores:
    """Score the graph-level entities of the pipeline (`model`: a trained one, else the shipped one)."""
    from paperkg.extract.evaluate import entities as evaluation

    _require_file(file)
    result = evaluation.run(cached_pipeline(model), file, format.value,
                            split=None if split is TdmsciSplit.ALL else split.value, mentions=mentions.value)
    return result, evaluation.format_report


def scierc_scores(file: Path, pipeline: SciercPipeline, predictions: Path | None, model: Path | None) -> Scores:
    """Score the full pipeline or the NER model alone on SciERC's six labels."""
    from paperkg.extract.evaluate import scierc as evaluation

    _require_file(file)
    nlp = cached_pipeline(model) if pipeline is SciercPipeline.FULL else evaluation.load_model(model)
    return evaluation.run(file, nlp=nlp, predictions_out=predictions), evaluation.format_report


def relation_scores(file: Path, format: RelationFormat, gold_entities: bool, model: Path | None,
                    min_confidence: float = 0.0) -> Scores:
    """Score the relations in paperkg's schema (those at least `min_confidence` sure), between the pipeline's
    mentions or the gold ones."""
    from paperkg.extract.evaluate import relations as evaluation

    _require_file(file)
    if not 0 <= min_confidence <= 1:
        raise PaperkgError(f"--min-confidence must be between 0 and 1, not {min_confidence}.", ExitCode.USAGE)
    result = evaluation.run(cached_pipeline(model), file, format.value, gold_entities=gold_entities,
                            min_confidence=min_confidence)
    return result, evaluation.format_report


def _require_file(path: Path) -> None:
    if not path.is_file():
        raise PaperkgError(f"{path}: no such file.")
