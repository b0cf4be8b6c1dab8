"""`paperkg view`: re-render the views of a saved graph into a folder, or draw one focus view into a file."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from paperkg.core.errors import ExitCode, PaperkgError
from paperkg.core.output_folder import names_file_only, names_folder
from paperkg.core.output_guard import check_output, check_views_folder, rewriting
from paperkg.viz.options import LEADERBOARD_FILE, MAP_FILE, PAPERS_FILE, ViewOptions

if TYPE_CHECKING:
    import networkx as nx


def view_graph(graph_file: Path, output: Path | None, focus: str | None,
               options: ViewOptions) -> tuple[list[Path], int]:
    """Render graph.html, papers.html and leaderboard.html into a folder, or one focus view into a file; returns what
    was written and how many entities it draws. A page without a title is named after the graph's folder."""
    from paperkg.graph.exports import graph_path, read_graph
    from paperkg.orchestrate.artifact import views_layer
    from paperkg.viz.views import render_focus, start_views

    _check_output(output, focus)
    source = graph_path(graph_file)
    folder = output or source.parent
    if focus is None:
        redrawn = check_views_folder(folder, source, (MAP_FILE, PAPERS_FILE, LEADERBOARD_FILE))
    else:
        target = output if output is not None and not names_folder(output) else folder / "focus.html"
        check_output(target, "a focus view")
    graph = read_graph(source)
    options = replace(options, title=options.title or f"paperkg · {source.parent.name or source.name}")
    if focus is None:
        with rewriting(redrawn):
            pending = start_views(graph, folder, options, layer=views_layer(source))
            return [*pending.finish(), write_leaderboards(graph, source, folder, options.heading)], \
                len(pending.selection.nodes)
    render_focus(graph, target, focus, options)
    return [target], 1


def write_leaderboards(graph: nx.MultiDiGraph, source: Path, folder: Path, heading: str) -> Path:
    """leaderboard.html beside the re-rendered map (whose panels link to it), re-rendered as the map is: the build's
    leaderboards, or those of a graph that is no build's."""
    from paperkg.graph.leaderboard import compute_leaderboards
    from paperkg.orchestrate.artifact import leaderboards_layer
    from paperkg.viz.leaderboard_page import write_leaderboard_page

    boards = leaderboards_layer(source) or compute_leaderboards(graph)
    target = Path(folder) / LEADERBOARD_FILE
    write_leaderboard_page(boards.boards.values(), target, f"{heading} · leaderboards")
    return target


def _check_output(output: Path | None, focus: str | None) -> None:
    """-o names a folder for the two views (any name but a file type's), an .html file or a folder for a focus
    view."""
    if output is None or names_folder(output):
        return
    if focus is None and names_file_only(output):
        raise PaperkgError(f"-o {output}: without --focus, -o names a folder (graph.html and papers.html "
                           "are written there).", ExitCode.USAGE)
    if focus is not None and output.suffix.lower() != ".html":
        raise PaperkgError(f"-o {output}: a focus view is an HTML page: name the file .html, or name a folder "
                           "(focus.html is written there).", ExitCode.USAGE)


def nothing_drawn(options: ViewOptions) -> str:
    """The warning when no entity passes the filters, naming them."""
    words = f" of type {' or '.join(options.types)}" if options.types else ""
    words += f" is in at least {options.min_papers} papers" if (options.min_papers or 1) > 1 else " is left"
    return (f"nothing left to draw: no entity{words}; lower --min-papers or drop --type (paperkg stats lists the "
            "top entities and their papers).")
