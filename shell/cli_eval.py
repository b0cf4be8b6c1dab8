"""`paperkg eval`: measure extraction on public benchmarks (entities, relations, SDU acronyms)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer

from paperkg.extract.evaluate.commands import (AcronymFormat, AcronymSystem, EntityFormat, Mentions, RelationFormat,
                                               Scores, SciercPipeline, TdmsciSplit, acronym_scores, entity_scores,
                                               relation_scores, scierc_scores)
from paperkg.core.schema import GRAPH_MIN_RELATION_CONFIDENCE
from paperkg.settings import command_settings

FileArgument = Annotated[Path, typer.Argument(help="The benchmark file.", show_default=False)]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON.")]
PredictionsOption = Annotated[Optional[Path], typer.Option(help="Write the predictions here.", show_default=False)]


def _print(scores: Scores, as_json: bool) -> None:
    """The scores as JSON or as their report."""
    result, report = scores
    print(json.dumps(result, indent=1) if as_json else report(result))


eval_app = typer.Typer(help="Measure extraction on public benchmarks (entities, relations, SDU acronyms).")


def register(app: typer.Typer) -> None:
    """Add the `eval` command group."""
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
    _print(acronym_scores(file, format, system, predictions), as_json)


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
    _print(entity_scores(file, format, split, mentions, command_settings().pipeline), as_json)


@eval_app.command("scierc", epilog="Example:\n\n  paperkg eval scierc ../shared/benchmarks/scierc/dev.json")
def eval_scierc(file: FileArgument, as_json: JsonOption = False, predictions: PredictionsOption = None,
                pipeline: Annotated[SciercPipeline, typer.Option(
                    help="full (the paperkg pipeline) or model (the NER model alone).")] = SciercPipeline.FULL,
                ) -> None:
    """Exact-match entity precision, recall and F1 per label, over six labels and over
    Task/Method/Material/Metric."""
    _print(scierc_scores(file, pipeline, predictions, command_settings().pipeline), as_json)


@eval_app.command("relations", epilog=(
    "Examples:\n\n  paperkg eval relations ../shared/benchmarks/scier/dev.jsonl --format scier\n\n"
    "  paperkg eval relations ../shared/benchmarks/scier/dev.jsonl --format scier --min-confidence 0.8"))
def eval_relations(file: FileArgument,
                   format: Annotated[RelationFormat, typer.Option("--format", "-f", help="The file's layout.")],
                   gold_entities: Annotated[bool, typer.Option(
                       "--gold-entities",
                       help="Relations between the gold mentions instead of the pipeline's own.")] = False,
                   min_confidence: Annotated[float, typer.Option(help=f"Score only relations at least this sure "
                                     f"(0 to 1); the graph keeps {GRAPH_MIN_RELATION_CONFIDENCE} and up.")] = 0.0,
                   as_json: JsonOption = False) -> None:
    """Exact-argument micro and per-type P/R/F1 of the relations in paperkg's schema, overlap match beside
    them, words/s."""
    _print(relation_scores(file, format, gold_entities, command_settings().pipeline, min_confidence), as_json)
