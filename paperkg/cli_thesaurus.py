"""`paperkg thesaurus`: the merges a graph made and the candidates it did not, as a --thesaurus file to review."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from paperkg.cli_output import err
from paperkg.core.errors import ExitCode, PaperkgError

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
        from paperkg.core.atomic import atomic_write_text
        from paperkg.core.output_folder import write_beside_build
        from paperkg.graph.exports import read_graph
        from paperkg.graph.thesaurus_review import thesaurus_text

        if output.is_dir():
            raise PaperkgError(f"-o {output} is a folder; name the thesaurus file to write (e.g. thesaurus.tsv).",
                               ExitCode.USAGE)
        text = thesaurus_text(read_graph(graph_file))
        write_beside_build(output, lambda path: atomic_write_text(path, text))
        made = sum(1 for line in text.splitlines()[2:] if line and not line.startswith("#"))
        err.print(f"wrote {escape(str(output))}: {made} active merge rows, candidates commented")
