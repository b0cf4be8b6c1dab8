"""`paperkg leaderboard NAME`: which methods report what on a task or a data set, as tables, JSON, CSV or a page."""
from __future__ import annotations

import json
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.markup import escape

from paperkg.cli_output import err

EXAMPLES = ("Examples:\n\n  paperkg leaderboard \"machine translation\" out/\n\n"
            "  paperkg leaderboard WMT14 out/graph.json --type Dataset --sort year\n\n"
            "  paperkg leaderboard NER out/ --by-year --json > ner.json\n\n"
            "  paperkg leaderboard \"question answering\" out/ -o qa.html")


class Subject(str, Enum):
    """What the name may be."""

    TASK = "Task"
    DATASET = "Dataset"


class Sort(str, Enum):
    """How a board's rows are ordered."""

    VALUE = "value"
    YEAR = "year"
    METHOD = "method"
    PAPER = "paper"


def register(app: typer.Typer) -> None:
    """Add `leaderboard` to the paperkg command."""

    @app.command("leaderboard", epilog=EXAMPLES)
    def leaderboard_command(
        name: Annotated[str, typer.Argument(help="A task or a data set, by any of its names, aliases or acronym.",
                                            show_default=False)],
        graph_file: Annotated[Path, typer.Argument(
            help="A build's output folder (or its graph.json, or any paperkg graph file).")] = Path("out"),
        subject: Annotated[Optional[Subject], typer.Option(
            "--type", case_sensitive=False, help="Only a Task or only a Dataset of that name.")] = None,
        sort: Annotated[Sort, typer.Option(
            case_sensitive=False, help="Order of each board's rows: value (best first on a ranked board), year, "
                                       "method or paper.")] = Sort.VALUE,
        by_year: Annotated[bool, typer.Option(
            "--by-year", help="Also the best value reported each year on each ranked board.")] = False,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
        as_csv: Annotated[bool, typer.Option(
            "--csv", help="Print CSV (one row per result) instead of tables.")] = False,
        output: Annotated[Optional[Path], typer.Option(
            "--output", "-o", help="Also write it: an .html page, a .json or .csv file, or a folder for "
                                   "leaderboard.html.")] = None,
        title: Annotated[Optional[str], typer.Option(help="Title of the page (-o .html).")] = None,
    ) -> None:
        """Which methods report what on a task or a data set: a table per board of comparable results (one data
        set, metric, split, kind and scale), levels best first where the metric's direction is known, changes
        apart and never ranked, each with its year, paper and the sentence (--json, --csv, -o .html). A name no
        task or data set with results answers to is an error (exit 2)."""
        from paperkg.core.errors import ExitCode, PaperkgError
        from paperkg.graph.exports import graph_path
        from paperkg.orchestrate.leaderboard import (csv_text, find_leaderboard, output_target, read_leaderboards,
                                                     report, summary, tables, write_output)

        if as_json and as_csv:
            raise PaperkgError("--json and --csv: choose one.", ExitCode.USAGE)
        target = output_target(output)
        source = graph_path(graph_file)
        boards = read_leaderboards(source)
        label = subject.value if subject else None
        board = find_leaderboard(boards, name, label, source)
        if target is not None:
            write_output(board, target, sort.value, by_year, title or f"paperkg leaderboard · {board.name}")
        if as_json:
            json.dump(report(board, sort.value, by_year), sys.stdout, ensure_ascii=False, indent=1)
            sys.stdout.write("\n")
        elif as_csv:
            sys.stdout.write(csv_text(board, sort.value))
        else:
            out = Console()
            out.print(escape(summary(board, source, len(boards.named(name, label)) - 1)), highlight=False)
            out.print(*tables(board, sort.value, by_year), highlight=False)
        if target is not None:
            err.print(f"wrote {escape(str(target))}", highlight=False)
