"""`paperkg train`: rebuild the shipped entity model from the public benchmarks, step by step
(extract/training/recipe.py), into the folder given."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from paperkg.cli_output import err
from paperkg.settings import command_settings

STEPS_HELP = ("termhood, teacher-corpora, teacher-method, teacher-metric, teacher-tags, corpus, types, terms, "
              "relations, package")


def register(app: typer.Typer) -> None:
    """Add the `train` command."""

    @app.command("train", epilog="Examples:\n\n  paperkg train runs/model --benchmarks ../shared/benchmarks "
                                 "--corpus ../shared/corpus/abstracts/abstracts.jsonl.gz\n\n"
                                 "  paperkg train runs/model --from-step types\n\n"
                                 "  paperkg train /tmp/smoke --limit 20 --max-steps 2")
    def train_command(
        output_dir: Annotated[Path, typer.Argument(
            help="Where the termhood table (OUTPUT_DIR/data), corpora, runs and the model (OUTPUT_DIR/model) go.",
            show_default=False)],
        benchmarks: Annotated[Optional[Path], typer.Option(
            help="The public benchmarks folder (default: PAPERKG_BENCHMARKS or the config file).",
            show_default=False)] = None,
        corpus: Annotated[Optional[Path], typer.Option(
            help="The shared abstracts (abstracts.jsonl.gz) the termhood table is counted in (default: "
                 "PAPERKG_CORPUS or the config file).", show_default=False)] = None,
        seed: Annotated[int, typer.Option(help="Seed of every training run.")] = 0,
        from_step: Annotated[Optional[str], typer.Option(
            help=f"Redo this step and the ones after it, even where their output exists ({STEPS_HELP}).",
            show_default=False)] = None,
        to_step: Annotated[Optional[str], typer.Option(help="Stop after this step.", show_default=False)] = None,
        limit: Annotated[int, typer.Option(
            help="Read only the first N records of each benchmark file and of the corpus (smoke runs; 0: all).")] = 0,
        max_steps: Annotated[int, typer.Option(
            help="At most N steps for every spacy train run (smoke runs; 0: the configs' own).")] = 0,
        model_version: Annotated[Optional[str], typer.Option(
            help="The version written into the model's meta.json (default: the recipe's).", show_default=False)] = None,
    ) -> None:
        """Rebuild what paperkg ships learned from data, from scratch with a fixed seed: the termhood table,
        then the entity model (teachers, partial-annotation corpus, types model, SciERC term layer,
        packaged model). Steps whose output exists are skipped."""
        from paperkg.extract.training.recipe import Options, run

        settings = command_settings(benchmarks=benchmarks, corpus=corpus)
        options = Options(output=output_dir, benchmarks=Path(settings.require("benchmarks", "--benchmarks")),
                          corpus=settings.corpus, seed=seed, limit=limit, max_steps=max_steps,
                          **({"version": model_version} if model_version else {}))
        model = run(options, from_step, to_step, echo=err.print)
        table = options.path("termhood")
        if table.exists():
            err.print(f"termhood table: {table} (copy it over extract/data/corpus_df.tsv.gz)")
        if model.exists():
            err.print(f"model: {model} (use it with --pipeline {model}, or copy it over extract/model/)")
