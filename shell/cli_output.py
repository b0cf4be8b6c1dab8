"""What the CLI commands share: one console for messages on stderr, the input warnings, common arguments."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

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
MinConfidenceOption = Annotated[Optional[float], typer.Option(
    "--min-confidence", show_default=False,
    help="Typed relations (USED_FOR, IS_A, ...) at least this sure, 0 to 1 (default: the min_confidence setting, "
         "else 0.8); the graph keeps every one from 0.25 with its confidence.")]


def min_confidence(given: float | None) -> float:
    """The threshold for typed relations: the flag's, else the settings' (config file, PAPERKG_MIN_CONFIDENCE)."""
    from paperkg.settings import load_settings
    from paperkg.viz.options import check_min_confidence

    value = load_settings().min_confidence if given is None else given
    check_min_confidence(value)
    return value


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
