"""What the CLI commands share: one console for messages on stderr, the input warnings, common arguments."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from rich.console import Console
from rich.markup import escape

if TYPE_CHECKING:
    from paperkg.orchestrate.warnings_log import WarningLog

err = Console(stderr=True, soft_wrap=True)  # a message stays one line, whatever the width
MAX_WARNINGS_SHOWN = 20
SavedGraphArgument = Annotated[Path, typer.Argument(
    help="graph.json (or graph.graphml, or the output folder) from paperkg build.")]
TypesOption = Annotated[list[str], typer.Option(
    "--type", help="Only these entity types (repeatable): Method, Task, Dataset, Metric.")]


def print_warnings(warnings: WarningLog, listed_in: Path | None = None) -> None:
    """The first warnings one per line on stderr, then how many there were; all of them into `listed_in`
    (--warnings-file), written here."""
    for warning in warnings.first[:MAX_WARNINGS_SHOWN]:
        err.print(f"[yellow]warning[/]: {escape(str(warning))}", highlight=False)
    if listed_in is not None:
        warnings.write(listed_in)
    if len(warnings) > MAX_WARNINGS_SHOWN:
        hint = "" if listed_in else " (--warnings-file FILE lists them all)"
        err.print(f"[yellow]... and {len(warnings) - MAX_WARNINGS_SHOWN} more warnings[/]{hint}", highlight=False)
    if warnings:
        err.print(f"{len(warnings)} warnings" + (f"; all of them in {escape(str(listed_in))}" if listed_in else ""),
                  highlight=False)
