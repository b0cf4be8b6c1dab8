"""`paperkg view`: re-render the views from graph.json without re-extracting, or draw a focus view."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console

from paperkg.core.errors import ExitCode, PaperkgError
from paperkg.viz.options import FOCUS_MAX_NODES, FOLD_ABOVE, HUB_DEGREE, check_limits, check_options

EXAMPLES = ("Examples:\n\n  paperkg view out/graph.json\n\n"
            "  paperkg view out/graph.json --focus LLM --depth 2 -o llm.html\n\n"
            "  paperkg view out/graph.json --type Method --type Task --min-papers 5 --max-nodes 800 -o out/")


def view(graph_file: Path, *, output: Path | None, focus: str | None, depth: int, hub_degree: int, types: list[str],
         min_papers: int, max_nodes: int | None, size_by: str, colour_by: str, show_concepts: bool,
         title: str | None) -> list[Path]:
    """Render graph.html and papers.html into a folder, or one focus view into a file; returns what was written."""
    from paperkg.graph.exports import read_graph
    from paperkg.viz.views import render_focus, render_views

    if output is not None and focus is None and output.suffix.lower() == ".html":
        raise PaperkgError(f"-o {output}: without --focus, -o names a folder (graph.html and papers.html "
                           "are written there).", ExitCode.USAGE)
    check_limits(depth=depth, min_papers=min_papers, max_nodes=max_nodes, hub_degree=hub_degree)
    check_options(size_by, colour_by, types)
    graph = read_graph(graph_file)
    name = title or f"paperkg · {graph_file.parent.name or graph_file.name}"
    options = {"size_by": size_by, "colour_by": colour_by, "show_concepts": show_concepts,
               "types": types or None, "min_papers": min_papers, "max_nodes": max_nodes, "title": name}
    if focus is None:
        return render_views(graph, output or graph_file.parent, **options)
    target = output or graph_file.parent / "focus.html"
    if target.is_dir():
        target = target / "focus.html"
    render_focus(graph, target, focus, depth=depth, hub_degree=hub_degree, **options)
    return [target]


def register(app: typer.Typer) -> None:
    """Add `view` to the paperkg command."""
    console = Console(stderr=True)

    @app.command("view", epilog=EXAMPLES)
    def view_command(
        graph_file: Annotated[Path, typer.Argument(help="graph.json (or graph.graphml) from paperkg build.")],
        output: Annotated[Optional[Path], typer.Option(
            "--output", "-o", help="With --focus: the HTML file (default focus.html beside the graph). "
                                   "Without: the folder for graph.html and papers.html (default: the graph's).")] = None,
        focus: Annotated[Optional[str], typer.Option(help="Draw this entity (name, alias or acronym) and its neighbours.")] = None,
        depth: Annotated[int, typer.Option(help="With --focus: how many links away to go.")] = 2,
        hub_degree: Annotated[int, typer.Option(
            help="With --focus: entities with more neighbours than this are drawn but not gone through "
                 "(0: no limit).")] = HUB_DEGREE,
        types: Annotated[list[str], typer.Option("--type", help="Only these entity types (repeatable): Method, Task, Dataset, Metric.")] = [],  # noqa: B006 - typer reads the default
        min_papers: Annotated[int, typer.Option(help="Only entities in at least this many papers.")] = 1,
        max_nodes: Annotated[Optional[int], typer.Option(
            help=f"Keep the N entities with the highest PageRank (default: the {FOLD_ABOVE:,} in the most papers); "
                 f"with --focus, the N closest to it by personalised PageRank (default {FOCUS_MAX_NODES}). "
                 "The page says what was left out.")] = None,
        size_by: Annotated[str, typer.Option(help="Entity size: papers, degree or pagerank.")] = "papers",
        colour_by: Annotated[str, typer.Option(help="Colour at opening: type, community or year.")] = "type",
        show_concepts: Annotated[bool, typer.Option(help="Include the low-priority Concept entities.")] = False,
        title: Annotated[Optional[str], typer.Option(help="Page title.")] = None,
    ) -> None:
        """Re-render graph.html and papers.html from a saved graph, or draw a focus view around one entity."""
        written = view(graph_file, output=output, focus=focus, depth=depth, hub_degree=hub_degree, types=types,
                       min_papers=min_papers, max_nodes=max_nodes, size_by=size_by, colour_by=colour_by,
                       show_concepts=show_concepts, title=title)
        console.print("wrote " + ", ".join(str(path) for path in written))
