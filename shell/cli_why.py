"""`paperkg why NAME`: why a name is a node or not, and why the relations it ends are not edges."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

EXAMPLES = ("Examples:\n\n  paperkg why \"graph neural network\" out/\n\n"
            "  paperkg why LLM out/graph.json --json")


def register(app: typer.Typer) -> None:
    """Add `why` to the paperkg command."""

    @app.command("why", epilog=EXAMPLES)
    def why_command(
        name: Annotated[str, typer.Argument(help="A name, alias or acronym, as written in the abstracts.",
                                            show_default=False)],
        graph_file: Annotated[Path, typer.Argument(
            help="A build's output folder (or its graph.json) with its admission.json.")] = Path("out"),
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")] = False,
    ) -> None:
        """Why a name is a node (which one) or not (the reasons, how often, in which papers), and why the
        relations it ends are not edges: answered from the build's refusal table."""
        from paperkg.graph.exports import graph_path
        from paperkg.orchestrate.why import answer_lines, why

        source = graph_path(graph_file)
        answer = why(source, name)
        if as_json:
            json.dump(answer.to_dict(), sys.stdout, ensure_ascii=False, indent=1)
            sys.stdout.write("\n")
            return
        out = Console(soft_wrap=True)
        for line in answer_lines(answer, source):
            out.print(escape(line), highlight=False)
