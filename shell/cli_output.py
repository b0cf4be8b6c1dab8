"""What the CLI commands share: one console for messages on stderr, the input warnings, common arguments."""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer

from rich.console import Console
from rich.markup import escape

err = Console(stderr=True, soft_wrap=True)  # a message stays one line, whatever the width
MAX_WARNINGS_SHOWN = 20
SavedGraphArgument = Annotated[Path, typer.Argument(
    help="graph.json (or graph.graphml, or the output folder) from paperkg build.")]
TypesOption = Annotated[list[str], typer.Option(
    "--type", help="Only these entity types (repeatable): Method, Task, Dataset, Metric.")]


def print_warnings(warnings: Sequence[object]) -> None:
    """The first warnings one per line on stderr, then how many there were."""
    for warning in warnings[:MAX_WARNINGS_SHOWN]:
        err.print(f"[yellow]warning[/]: {escape(str(warning))}", highlight=False)
    if len(warnings) > MAX_WARNINGS_SHOWN:
        err.print(f"[yellow]... and {len(warnings) - MAX_WARNINGS_SHOWN} more warnings[/]")
    if warnings:
        err.print(f"{len(warnings)} warnings")
