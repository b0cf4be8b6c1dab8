"""`paperkg thesaurus`: the merges a graph made and the candidates it did not, as a --thesaurus file to review."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from paperkg.cli_output import err

EXAMPLE = ("Example:\n\n  paperkg thesaurus out/graph.json -o thesaurus.tsv\n\n"
           "  (edit it, then: paperkg build --from-extractions out/extractions.jsonl -o out/ "
           "--thesaurus thesaurus.tsv)")


def register(app: typer.Typer) -> None:
    """Add `thesaurus` to the paperkg command."""

    @app.command("thesaurus", epilog=EXAMPLE)
    def thesaurus_command(
        graph_file: Annotated[Path, typer.Argument(help="graph.json (or graph.graphml) from paperkg build.",
                                                   show_default=False)],
        output: Annotated[Path, typer.Option("--output", "-o", help="The thesaurus file to write (TSV).",
                                             show_default=False)],
    ) -> None:
        """Write the merges the build made and candidate merges it did not, in the --thesaurus format
        (VOSviewer's 'label<TAB>replace by'), to review, edit and rebuild with."""
        from paperkg.orchestrate.export import write_thesaurus

        made = write_thesaurus(graph_file, output)
        err.print(f"wrote {escape(str(output))}: {made} active merge rows, candidates commented")
