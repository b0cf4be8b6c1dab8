"""`paperkg train`: rebuild the entity model from the public benchmarks, into the folder given."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from paperkg.cli_output import err
from paperkg.settings import load_settings


def register(app: typer.Typer) -> None:
    """Add the `train` command."""

    @app.command("train", epilog="Example:\n\n  paperkg train runs/model --benchmarks ../shared/benchmarks")
    def train_command(
        output_dir: Annotated[Path, typer.Argument(help="Where corpora, checkpoints and the model go.",
                                                   show_default=False)],
        benchmarks: Annotated[Optional[Path], typer.Option(
            help="The public benchmarks folder (default: PAPERKG_BENCHMARKS or the config file).",
            show_default=False)] = None,
    ) -> None:
        """Rebuild the entity model from scratch (convert, spacy train with a fixed seed); the model goes to OUTPUT_DIR/model."""
        from paperkg.extract.training.train import train

        folder = load_settings().with_flags(benchmarks=benchmarks).require("benchmarks", "--benchmarks")
        model = train(output_dir, Path(folder))
        err.print(f"model: {model} (use it with --pipeline {model}, or copy it over extract/model/)")
