"""What `paperkg build`, `extract` and `stats` print: count tables, the run's summary, the top entities."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from paperkg.orchestrate.build import BuildSummary


def count_table(title: str, counts: dict[str, int]) -> Table:
    """A two-column table of counts."""
    table = Table("type", "count", title=title)
    for name, count in counts.items():
        table.add_row(name, str(count))
    return table


def print_build(summary: BuildSummary, inputs: list[Path], output: Path, out: Console, err: Console) -> None:
    """What a build read and wrote (on `out`), or why it wrote nothing (no paper read: on `err`)."""
    if summary.written:
        out.print(f"[bold]{summary.papers_new}[/] new papers read ({summary.papers_skipped} already in the graph), "
                  f"{summary.papers_total} papers in the graph, {summary.seconds:.1f} s")
        out.print("seconds: " + ", ".join(f"{step} {seconds:.1f}" for step, seconds in summary.steps.items()),
                  soft_wrap=True)
        out.print(count_table("Nodes", summary.nodes), count_table("Edges", summary.edges))
        out.print(f"wrote build {summary.build_id} in {escape(str(output))}: "
                  + escape(", ".join(path.name for path in summary.written)), soft_wrap=True, highlight=False)
    elif summary.papers_skipped:
        out.print(f"0 new papers read ({summary.papers_skipped} already in the graph); the outputs in "
                  f"{escape(str(output))} are unchanged")
    else:
        err.print(f"no papers read from {escape(', '.join(map(str, inputs)))}; nothing written: the outputs "
                  f"in {escape(str(output))} are as they were")


def print_extraction(count: int, inputs: list[Path], target: Path, err: Console) -> None:
    """How many papers `paperkg extract` wrote, or that it wrote nothing."""
    if count:
        err.print(f"{count} papers -> {escape(str(target))}")
    else:
        err.print(f"no papers read from {escape(', '.join(map(str, inputs)))}; {escape(str(target))} was not "
                  "written")


def stats_tables(result: dict[str, Any], top: int) -> list[Table]:
    """The node and edge counts and the top entities of graph_summary's result."""
    table = Table("entity", "type", "acronym", "papers", title=f"Top {top} entities by papers")
    for row in result["top"]:
        table.add_row(escape(row["name"]), row["label"], escape(row["acronym"] or ""), str(row["papers"]))
    return [count_table("Nodes", result["nodes"]), count_table("Edges", result["edges"]), table]


def print_stats(graph_file: Path, top: int, as_json: bool, out: Console) -> None:
    """`paperkg stats`: the saved graph's counts and top entities, as JSON or as tables."""
    import json

    from paperkg.graph.exports import read_graph
    from paperkg.graph.summary import graph_summary

    result = graph_summary(read_graph(graph_file), top)
    if as_json:
        print(json.dumps(result, indent=1, ensure_ascii=False))
        return
    out.print(*stats_tables(result, top))
