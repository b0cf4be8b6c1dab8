"""`paperkg names TEXT OUT/`: the search over every entity name of a build at scale (its names/ index)."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from paperkg.core.errors import ExitCode, PaperkgError


def register(app: typer.Typer) -> None:
    """Add `names` to the paperkg command."""

    @app.command("names", epilog="Example:\n\n  paperkg names \"graph neural\" out/ --limit 10")
    def names_command(
        text: Annotated[str, typer.Argument(help="Part of a name, alias or acronym (any case).", show_default=False)],
        folder: Annotated[Path, typer.Argument(help="The output folder of `paperkg build --dask`.")] = Path("out"),
        limit: Annotated[int, typer.Option(min=1, help="How many entities to list.")] = 20,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON rows.")] = False,
    ) -> None:
        """The entities whose name or an alias holds TEXT, those in the most papers first: every name of a build
        at scale, whose views draw only the top of the corpus."""
        from paperkg.core.output_folder import checked_output
        from paperkg.graph.parquet_graph import NAMES, find_names, part_names

        if not (folder / NAMES).is_dir():
            raise PaperkgError(f"{folder} has no {NAMES}/ index: name the output folder of `paperkg build --dask` "
                               "(a one-process build's names are in its graph.html and `paperkg stats`).",
                               ExitCode.USAGE)
        for part in part_names(folder):
            checked_output(folder / NAMES / f"{part}.parquet", folder)
        rows = find_names(folder, text, limit)
        if as_json:
            json.dump(rows, sys.stdout, ensure_ascii=False, indent=1)
            sys.stdout.write("\n")
            return
        if not rows:
            Console().print(Text(f"no entity name or alias in {folder} holds {text!r}."))
            return
        table = Table("name", "type", "papers", "matched", "key", title=Text(f"names holding {text!r}"))
        for row in rows:
            table.add_row(Text(row["name"]), row["label"], str(row["papers"]), Text(row["matched"]), Text(row["key"]))
        Console().print(table)
