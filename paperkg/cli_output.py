"""What the CLI commands print: one console for messages on stderr, tables, warnings."""
from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.markup import escape
from rich.table import Table

err = Console(stderr=True, soft_wrap=True)  # a message stays one line, whatever the width
MAX_WARNINGS_SHOWN = 20


def count_table(title: str, counts: dict[str, int]) -> Table:
    """A two-column table of counts."""
    table = Table("type", "count", title=title)
    for name, count in counts.items():
        table.add_row(name, str(count))
    return table


def print_warnings(warnings: Sequence[object]) -> None:
    """The first warnings one per line on stderr, then how many there were."""
    for warning in warnings[:MAX_WARNINGS_SHOWN]:
        err.print(f"[yellow]warning[/]: {escape(str(warning))}", highlight=False)
    if len(warnings) > MAX_WARNINGS_SHOWN:
        err.print(f"[yellow]... and {len(warnings) - MAX_WARNINGS_SHOWN} more warnings[/]")
    if warnings:
        err.print(f"{len(warnings)} warnings")
