"""`paperkg view`: re-render the views from graph.json without re-extracting, or draw a focus view."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from paperkg.cli_output import err, names_folder
from paperkg.core.errors import ExitCode, PaperkgError
from paperkg.viz.options import (COLOUR_SCHEMES, ENTITY_TYPES, FOCUS_MAX_NODES, FOLD_ABOVE, HUB_DEGREE,
                                 SIZE_METRICS, canonical_choice, check_limits, check_options)

EXAMPLES = ("Examples:\n\n  paperkg view out/graph.json\n\n"
            "  paperkg view out/graph.json --focus LLM --depth 2 -o llm.html\n\n"
            "  paperkg view out/graph.json --type Method --type Task --min-papers 5 --max-nodes 800 -o out/")


def view(graph_file: Path, *, output: Path | None, focus: str | None, depth: int, hub_degree: int, types: list[str],
         min_papers: int, max_nodes: int | None, size_by: str, colour_by: str,
         title: str | None) -> tuple[list[Path], int]:
    """Render graph.html and papers.html into a folder, or one focus view into a file; returns what
    was written and how many entities it draws."""
    from paperkg.graph.exports import graph_path, read_graph
    from paperkg.viz.views import render_focus, start_views

    if output is not None and focus is None and not names_folder(output):
        raise PaperkgError(f"-o {output}: without --focus, -o names a folder (graph.html and papers.html "
                           "are written there).", ExitCode.USAGE)
    if output is not None and focus is not None and not names_folder(output) and output.suffix.lower() != ".html":
        raise PaperkgError(f"-o {output}: a focus view is an HTML page: name the file .html, or name a folder "
                           "(focus.html is written there).", ExitCode.USAGE)
    check_limits(depth=depth, min_papers=min_papers, max_nodes=max_nodes, hub_degree=hub_degree)
    check_options(size_by, colour_by, types)
    source = graph_path(graph_file)
    graph = read_graph(source)
    name = title or f"paperkg · {source.parent.name or source.name}"
    options: dict[str, Any] = {"size_by": size_by, "colour_by": colour_by, "types": types or None,
                               "min_papers": min_papers, "max_nodes": max_nodes, "title": name}
    if focus is None:
        pending = start_views(graph, output or source.parent, **options)
        return pending.finish(), len(pending.selection.nodes)
    target = output if output is not None and not names_folder(output) else (output or source.parent) / "focus.html"
    render_focus(graph, target, focus, depth=depth, hub_degree=hub_degree, **options)
    return [target], 1


def _filters(types: list[str], min_papers: int) -> str:
    """' of type Method in at least 500 papers': the filters a view was asked for, as words."""
    words = f" of type {' or '.join(types)}" if types else ""
    return words + (f" is in at least {min_papers} papers" if min_papers > 1 else " is left")


def register(app: typer.Typer) -> None:
    """Add `view` to the paperkg command."""

    @app.command("view", epilog=EXAMPLES)
    def view_command(
        graph_file: Annotated[Path, typer.Argument(
            help="graph.json (or graph.graphml, or the output folder) from paperkg build.")],
        output: Annotated[Optional[Path], typer.Option(
            "--output", "-o", help="With --focus: the HTML file (default focus.html beside the graph). "
                                   "Without: the folder for graph.html and papers.html (default: the graph's).")
        ] = None,
        focus: Annotated[Optional[str], typer.Option(
            help="Draw this entity (name, alias or acronym) and its neighbours.")] = None,
        depth: Annotated[int, typer.Option(help="With --focus: how many links away to go.")] = 2,
        hub_degree: Annotated[int, typer.Option(
            help="With --focus: entities with more neighbours than this are drawn but not gone through "
                 "(0: no limit).")] = HUB_DEGREE,
        types: Annotated[list[str], typer.Option(
            "--type", help="Only these entity types (repeatable): Method, Task, Dataset, Metric.")
        ] = [],  # noqa: B006 - typer reads the default
        min_papers: Annotated[int, typer.Option(help="Only entities in at least this many papers.")] = 1,
        max_nodes: Annotated[Optional[int], typer.Option(
            help=f"Keep the N entities with the highest PageRank (default: the {FOLD_ABOVE:,} in the most papers); "
                 f"with --focus, the N closest to it by personalised PageRank (default {FOCUS_MAX_NODES}). "
                 "The page says what was left out.")] = None,
        size_by: Annotated[str, typer.Option(help="Entity size: papers, degree or pagerank.")] = "papers",
        colour_by: Annotated[str, typer.Option(help="Colour at opening: type, community or year.")] = "type",
        title: Annotated[Optional[str], typer.Option(help="Page title.")] = None,
    ) -> None:
        """Re-render graph.html and papers.html from a saved graph, or draw a focus view around one entity."""
        size_by, colour_by = canonical_choice(size_by, SIZE_METRICS), canonical_choice(colour_by, COLOUR_SCHEMES)
        types = [canonical_choice(name, ENTITY_TYPES) for name in types]
        written, drawn = view(graph_file, output=output, focus=focus, depth=depth, hub_degree=hub_degree, types=types,
                              min_papers=min_papers, max_nodes=max_nodes, size_by=size_by, colour_by=colour_by,
                              title=title)
        err.print("wrote " + ", ".join(str(path) for path in written))
        if not drawn:
            err.print(f"[yellow]warning[/]: nothing left to draw: no entity{_filters(types, min_papers)}; lower "
                          "--min-papers or drop --type (paperkg stats lists the top entities and their papers).",
                          highlight=False)
            raise typer.Exit(ExitCode.INPUT_WARNINGS)
