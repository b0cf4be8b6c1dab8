"""`paperkg trends`: bursts, risers and fallers of a saved graph, as tables, JSON or trends.html."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.markup import escape

from paperkg.cli_output import SavedGraphArgument, TypesOption

EXAMPLES = ("Examples:\n\n  paperkg trends out/graph.json\n\n"
            "  paperkg trends out/graph.json --type Method --since 2015 --top 10\n\n"
            "  paperkg trends out/graph.json --json > trends.json\n\n"
            "  paperkg trends out/graph.json -o out/trends.html")


def register(app: typer.Typer) -> None:
    """Add `trends` to the paperkg command."""
    @app.command("trends", epilog=EXAMPLES)
    def trends_command(
        graph_file: SavedGraphArgument,
        types: TypesOption = [],  # noqa: B006 - typer reads the default
        since: Annotated[Optional[int], typer.Option(help="First year to follow (default: the graph's first).")] = None,
        until: Annotated[Optional[int], typer.Option(help="Last year to follow (default: the graph's last).")] = None,
        top: Annotated[int, typer.Option(help="Entities per list.")] = 25,
        window: Annotated[int, typer.Option(
            help="Years (the last ones) over which risers and fallers are measured.")] = 5,
        min_papers: Annotated[int, typer.Option(
            help="Papers an entity needs in the window to be ranked as rising or fading.")] = 3,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON (for scripts) instead of tables.")] = False,
        output: Annotated[Optional[Path], typer.Option(
            "--output", "-o", help="Also write the trends page (an .html file, or a folder for trends.html).")] = None,
        title: Annotated[Optional[str], typer.Option(help="Title of the trends page.")] = None,
    ) -> None:
        """When each entity came in, what is bursting, rising and fading: per entity and year, with the papers."""
        from paperkg.core.output_guard import check_output
        from paperkg.graph.exports import graph_path
        from paperkg.orchestrate.trends import check_trend_options, graph_trends, one_year, report, summary, tables

        check_trend_options(types, top, window, min_papers, since, until, output)
        target = None if output is None else output if output.suffix.lower() == ".html" else output / "trends.html"
        if target is not None:
            check_output(target, "the trends page")
        graph_file = graph_path(graph_file)
        trends = graph_trends(graph_file, types=types, top=top, since=since, until=until, window=window,
                              min_papers=min_papers, page=target is not None)
        if as_json:
            json.dump(report(trends, types, top), sys.stdout, ensure_ascii=False, indent=1)
            sys.stdout.write("\n")
        else:
            out = Console()
            out.print(escape(summary(trends, graph_file)), highlight=False)
            out.print(*[one_year(trends)] if one_year(trends) else tables(trends, types, top), highlight=False)
        if target is not None:
            from paperkg.viz.trends_page import write_trends_page

            write_trends_page(trends, target, types=types, top=top,
                              title=title or f"paperkg trends · {graph_file.parent.name or graph_file.name}")
            Console(stderr=True).print(f"wrote {escape(str(target))}", highlight=False)
