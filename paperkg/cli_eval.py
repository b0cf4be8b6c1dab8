"""`paperkg eval`: measure extraction on public benchmarks (entities, relations, SDU acronyms)."""
from __future__ import annotations

import json
from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from paperkg.core.errors import ExitCode, PaperkgError
from paperkg.core.schema import GRAPH_MIN_RELATION_CONFIDENCE
from paperkg.settings import load_settings


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


FileArgument = Annotated[Path, typer.Argument(help="The benchmark file.", show_default=False)]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON.")]
PredictionsOption = Annotated[Optional[Path], typer.Option(help="Write the predictions here.", show_default=False)]


def _require_file(path: Path) -> None:
    if not path.is_file():
        raise PaperkgError(f"{path}: no such file.")


def _acronym_result(file: Path, format: AcronymFormat, system: AcronymSystem,
                    predictions: Path | None) -> tuple[dict, Callable[[dict], str]]:
    """Score the acronym component on `file` read as `format`; the result and its report function."""
    if format is AcronymFormat.SDU:
        from paperkg.extract.evaluate import acronyms as sdu

        return sdu.run(file, predictions_out=predictions, system=system.value), sdu.format_report
    from paperkg.api import load_pipeline
    from paperkg.extract.evaluate import acronym_definitions as evaluation

    if system is not AcronymSystem.PAPERKG:
        raise PaperkgError(f"--system {system.value} scores SDU files only; leave it out with --format {format.value}.")
    nlp = load_pipeline(rules_only=True)
    result = (evaluation.run_definitions(file, nlp, predictions_out=predictions) if format is AcronymFormat.DEFS
              else evaluation.run_scier_synonyms(file, nlp))
    return result, evaluation.format_report


def register(app: typer.Typer) -> None:
    """Add the `eval` command group."""
    eval_app = typer.Typer(help="Measure extraction on public benchmarks (entities, relations, SDU acronyms).")
    app.add_typer(eval_app, name="eval")

    @eval_app.command("acronyms", epilog="Examples:\n\n"
                                         "  paperkg eval acronyms ../shared/benchmarks/sdu-acronyms/dev.json\n\n"
                                         "  paperkg eval acronyms tests/data/acronyms_noncs_dev.jsonl --format defs\n\n"
                                         "  paperkg eval acronyms ../shared/benchmarks/scier/train.jsonl "
                                         "--format scier")
    def eval_acronyms(file: FileArgument, as_json: JsonOption = False, predictions: PredictionsOption = None,
                      system: Annotated[AcronymSystem, typer.Option(
                          help="paperkg or a baseline (sdu only).")] = AcronymSystem.PAPERKG,
                      format: Annotated[AcronymFormat, typer.Option(
                          "--format", "-f", help="sdu: SDU token labels; defs: JSON lines of texts with definition "
                                                 "offsets; scier: SciER's Synonym-Of pairs.")] = AcronymFormat.SDU,
                      ) -> None:
        """Phrase-level short/long-form precision, recall, F1 and their macro average, plus sentences per second
        (sdu); definition-pair P/R/F1 (defs); Synonym-Of recall (scier)."""
        _require_file(file)
        result, report = _acronym_result(file, format, system, predictions)
        print(json.dumps(result, indent=1) if as_json else report(result))

    @eval_app.command("entities", epilog="Examples:\n\n  paperkg eval entities ../shared/benchmarks/scier/dev.jsonl "
                                         "--format scier\n\n"
                                         "  paperkg eval entities ../shared/benchmarks/tdmsci/train.conll "
                                         "--format tdmsci --split dev")
    def eval_entities(file: FileArgument,
                      format: Annotated[EntityFormat, typer.Option("--format", "-f", help="The file's layout.")],
                      split: Annotated[TdmsciSplit, typer.Option(
                          help="TDMSci only: paperkg's held-out ~20% of train (dev), the rest, or all.")
                      ] = TdmsciSplit.DEV,
                      mentions: Annotated[Mentions, typer.Option(
                          help="nodes: the mentions that become graph nodes; all: every typed mention.")
                      ] = Mentions.NODES,
                      as_json: JsonOption = False) -> None:
        """Exact-match micro and per-label P/R/F1 of the graph-level entities, overlap match beside them, words/s."""
        from paperkg.api import load_pipeline
        from paperkg.extract.evaluate import entities as evaluation

        _require_file(file)
        result = evaluation.run(load_pipeline(load_settings().pipeline), file, format.value,
                                split=None if split is TdmsciSplit.ALL else split.value, mentions=mentions.value)
        print(json.dumps(result, indent=1) if as_json else evaluation.format_report(result))

    @eval_app.command("scierc", epilog="Example:\n\n  paperkg eval scierc ../shared/benchmarks/scierc/dev.json")
    def eval_scierc(file: FileArgument, as_json: JsonOption = False, predictions: PredictionsOption = None,
                    pipeline: Annotated[SciercPipeline, typer.Option(
                        help="full (the paperkg pipeline) or model (the NER model alone).")] = SciercPipeline.FULL,
                    ) -> None:
        """Exact-match entity precision, recall and F1 per label, over six labels and over
        Task/Method/Material/Metric."""
        from paperkg.api import load_pipeline
        from paperkg.extract.evaluate import scierc as evaluation

        _require_file(file)
        model = load_settings().pipeline
        nlp = load_pipeline(model) if pipeline is SciercPipeline.FULL else evaluation.load_model(model)
        result = evaluation.run(file, nlp=nlp, predictions_out=predictions)
        print(json.dumps(result, indent=1) if as_json else evaluation.format_report(result))

    @eval_app.command("relations", epilog=(
        "Examples:\n\n  paperkg eval relations ../shared/benchmarks/scier/dev.jsonl --format scier\n\n"
        "  paperkg eval relations ../shared/benchmarks/scierc/dev.json --format scierc --gold-entities\n\n"
        "  paperkg eval relations ../shared/benchmarks/scier/dev.jsonl --format scier --min-confidence 0.8"))
    def eval_relations(file: FileArgument,
                       format: Annotated[RelationFormat, typer.Option("--format", "-f", help="The file's layout.")],
                       gold_entities: Annotated[bool, typer.Option(
                           "--gold-entities",
                           help="Relations between the gold mentions instead of the pipeline's own.")] = False,
                       min_confidence: Annotated[float, typer.Option(
                           "--min-confidence",
                           help="Score only relations at least this sure (0 to 1); the graph keeps those at "
                                f"{GRAPH_MIN_RELATION_CONFIDENCE}.")] = 0.0,
                       as_json: JsonOption = False) -> None:
        """Exact-argument micro and per-type P/R/F1 of the relations in paperkg's schema, overlap match beside
        them, words/s."""
        from paperkg.api import load_pipeline
        from paperkg.extract.evaluate import relations as evaluation

        _require_file(file)
        if not 0 <= min_confidence <= 1:
            raise PaperkgError(f"--min-confidence must be between 0 and 1, not {min_confidence}.", ExitCode.USAGE)
        result = evaluation.run(load_pipeline(load_settings().pipeline), file, format.value,
                                gold_entities=gold_entities, min_confidence=min_confidence)
        print(json.dumps(result, indent=1) if as_json else evaluation.format_report(result))
