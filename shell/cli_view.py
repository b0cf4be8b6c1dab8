"""`paperkg view`: re-render the views from graph.json without re-extracting, or draw a focus view."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.markup import escape

from paperkg.cli_output import MinConfidenceOption, SavedGraphArgument, err
from paperkg.cli_output import min_confidence as cli_min_confidence
from paperkg.core.errors import ExitCode
from paperkg.viz.options import (DEFAULT_MIN_PAPERS, DEFAULT_TYPES, ENTITY_TYPES, FOCUS_MAX_NODES, FOLD_ABOVE,
                                 HUB_DEGREE, ColourBy, SizeBy, ViewOptions)

EXAMPLES = ("Examples:\n\n  paperkg view out/graph.json\n\n"
            "  paperkg view out/graph.json --focus LLM --depth 2 -o llm.html\n\n"
            "  paperkg view out/graph.json --type Method --type Task --min-papers 5 --max-nodes 800 -o out/")


def register(app: typer.Typer) -> None:
    """Add `view` to the paperkg command."""

    @app.command("view", epilog=EXAMPLES)
    def view_command(
        graph_file: SavedGraphArgument,
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
            "--type", help=f"Only these entity types (repeatable): {', '.join(ENTITY_TYPES)} (default: "
                           f"{', '.join(DEFAULT_TYPES)}; with --focus, all).")] = [],  # noqa: B006 - typer reads it
        min_papers: Annotated[Optional[int], typer.Option(
            help=f"Only entities in at least this many papers (default: {DEFAULT_MIN_PAPERS} when at least "
                 f"{FOLD_ABOVE // 2:,} entities are, else 1).")] = None,
        max_nodes: Annotated[Optional[int], typer.Option(
            help=f"Keep the N entities with the highest PageRank (default: the {FOLD_ABOVE:,} in the most papers); "
                 f"with --focus, the N closest to it by personalised PageRank (default {FOCUS_MAX_NODES}). "
                 "The page says what was left out.")] = None,
        size_by: Annotated[SizeBy, typer.Option(
            case_sensitive=False, help="Entity size: papers, degree or pagerank.")] = SizeBy.PAPERS,
        colour_by: Annotated[ColourBy, typer.Option(
            case_sensitive=False, help="Colour at opening: type, community or year.")] = ColourBy.COMMUNITY,
        title: Annotated[Optional[str], typer.Option(help="Page title.")] = None,
        min_confidence: MinConfidenceOption = None,
    ) -> None:
        """Re-render graph.html, papers.html and leaderboard.html from a saved graph, or draw a focus view around
        one entity."""
        from paperkg.orchestrate.view import nothing_drawn, view_graph

        options = ViewOptions(size_by=size_by.value, colour_by=colour_by.value, types=tuple(types),
                              min_papers=min_papers, max_nodes=max_nodes, title=title, depth=depth,
                              hub_degree=hub_degree, min_confidence=cli_min_confidence(min_confidence))
        written, drawn = view_graph(graph_file, output, focus, options)
        err.print("wrote " + ", ".join(str(path) for path in written))
        if not drawn:
            err.print(f"[yellow]warning[/]: {escape(nothing_drawn(options))}", highlight=False)
            raise typer.Exit(ExitCode.INPUT_WARNINGS)
