"""The `paperkg` command: build, extract, export, stats, eval, train, push, query.

Exit codes: 0 ok; 1 unexpected failure (rerun with --debug for the traceback); 2 bad usage,
missing input or setting; 3 finished but some input was skipped (warnings printed);
4 Neo4j unreachable or refused; 5 Neo4j counts differ from the graph sent.
"""
from __future__ import annotations

import json
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Annotated, Optional

import click
import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from paperkg import cli_neo4j, cli_train, cli_view
from paperkg.errors import ExitCode, PaperkgError
from paperkg.pipeline_run import BuildOptions, BuildSummary, run_build, run_extract
from paperkg.graph import exports

EXIT_CODES = ("Exit codes: 0 ok · 1 unexpected failure (rerun with --debug) · 2 bad usage, missing input or "
              "setting · 3 finished, but some input records were skipped · 4 Neo4j unreachable or refused · "
              "5 Neo4j counts differ from the graph sent.")

app = typer.Typer(
    name="paperkg",
    help="Research abstracts in, a typed, evidence-backed knowledge graph out.\n\n"
         "Quick start: paperkg build examples/icml2025 -o out/",
    epilog=EXIT_CODES,
    no_args_is_help=True,
    rich_markup_mode="rich",
    pretty_exceptions_enable=False,
    add_completion=False,
)
eval_app = typer.Typer(help="Measure extraction on public benchmarks (SciERC entities, SDU acronyms).",
                       no_args_is_help=True)
app.add_typer(eval_app, name="eval")
console = Console(stderr=True)
_state = {"debug": False}

EXPORT_FORMATS = ("graphml", "gexf", "json", "csv")


@app.callback()
def _root(debug: Annotated[bool, typer.Option("--debug", help="Show tracebacks for errors.")] = False) -> None:
    """paperkg: research abstracts in, a typed evidence-backed knowledge graph out."""
    _state["debug"] = debug


@app.command(epilog="Examples:\n\n  paperkg build examples/icml2025 -o out/\n\n"
                    "  paperkg build new_abstracts.jsonl -o out/ --update")
def build(
    inputs: Annotated[list[Path], typer.Argument(help="Files, directories or globs of abstracts (.txt .jsonl .json .csv .tsv .bib).")],
    output: Annotated[Path, typer.Option("--output", "-o", help="Output directory.")] = Path("out"),
    update: Annotated[bool, typer.Option(help="Add to the graph already in the output directory.")] = False,
    strict: Annotated[bool, typer.Option(help="Stop at the first bad input record.")] = False,
    model: Annotated[bool, typer.Option(help="Use the shipped statistical NER model (--no-model: rules only).")] = True,
    thesaurus: Annotated[Optional[Path], typer.Option(help="TSV of 'label<TAB>replace by' (empty: drop the entity).")] = None,
    size_by: Annotated[str, typer.Option(help="Entity size in graph.html: papers, degree or pagerank.")] = "papers",
    colour_by: Annotated[str, typer.Option(help="Node colour in the views: type, community or year.")] = "type",
    show_concepts: Annotated[bool, typer.Option(help="Include the low-priority Concept nodes in graph.html.")] = False,
    batch_size: Annotated[int, typer.Option(help="Abstracts per spaCy batch.")] = 32,
    neo4j: Annotated[Optional[str], typer.Option(
        "--neo4j", help="Also push the graph to this Neo4j (bolt://host:7687); user, password and database "
                        "from NEO4J_USERNAME, NEO4J_PASSWORD, NEO4J_DATABASE.")] = None,
) -> None:
    """Read abstracts, extract entities, build the graph; write graph.graphml, graph.json, graph.html, extractions.jsonl."""
    options = BuildOptions(inputs=inputs, output=output, update=update, strict=strict, use_model=model,
                           thesaurus=thesaurus, size_by=size_by, colour_by=colour_by,
                           show_concepts=show_concepts, batch_size=batch_size)
    target = cli_neo4j.make_target(neo4j, os.environ.get("NEO4J_USERNAME", "neo4j"),
                                   os.environ.get("NEO4J_PASSWORD"), os.environ.get("NEO4J_DATABASE", "neo4j")) if neo4j else None
    summary = run_build(options, console)
    _print_summary(summary)
    if target is not None:
        cli_neo4j.push(output / "graph.json", target)
    if summary.warnings:
        raise typer.Exit(ExitCode.INPUT_WARNINGS)


@app.command(epilog="Example:\n\n  paperkg extract examples/icml2025 -o out/extractions.jsonl")
def extract(
    inputs: Annotated[list[Path], typer.Argument(help="Files, directories or globs of abstracts.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="JSONL file to write.")] = Path("out/extractions.jsonl"),
    strict: Annotated[bool, typer.Option(help="Stop at the first bad input record.")] = False,
    model: Annotated[bool, typer.Option(help="Use the shipped statistical NER model.")] = True,
    batch_size: Annotated[int, typer.Option(help="Abstracts per spaCy batch.")] = 32,
) -> None:
    """Extraction only: one JSON line per paper with its entities, acronyms and relations, with evidence."""
    count, warnings = run_extract(inputs, output, strict=strict, use_model=model, batch_size=batch_size, console=console)
    console.print(f"{count} papers -> {output}")
    _print_warnings(warnings)
    if warnings:
        raise typer.Exit(ExitCode.INPUT_WARNINGS)


@app.command(epilog="Example:\n\n  paperkg export out/graph.json --format gexf -o out/graph.gexf")
def export(
    graph_file: Annotated[Path, typer.Argument(help="A saved graph: graph.json or graph.graphml.")],
    format: Annotated[str, typer.Option("--format", "-f", help="graphml, gexf, json or csv.")] = "graphml",
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="Output file (a directory for csv).")] = None,
) -> None:
    """Convert a saved graph to GraphML, GEXF, node-link JSON or CSV (nodes.csv + edges.csv)."""
    if format not in EXPORT_FORMATS:
        raise PaperkgError(f"--format must be one of {', '.join(EXPORT_FORMATS)}, not {format!r}.")
    graph = load_graph(graph_file)
    target = output or (graph_file.parent if format == "csv" else graph_file.with_suffix(f".{format}"))
    writers = {"graphml": exports.write_graphml, "gexf": exports.write_gexf, "json": exports.write_json,
               "csv": exports.write_csv}
    writers[format](graph, target)
    console.print(f"wrote {target}")


@app.command(epilog="Example:\n\n  paperkg stats out/graph.json --top 15")
def stats(
    graph_file: Annotated[Path, typer.Argument(help="A saved graph: graph.json or graph.graphml.")],
    top: Annotated[int, typer.Option(help="How many top entities to list.")] = 10,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
) -> None:
    """Counts per node and edge type and the most-connected entities of a saved graph."""
    graph = load_graph(graph_file)
    nodes = Counter(d["label"] for _, d in graph.nodes(data=True))
    edges = Counter(d["type"] for *_, d in graph.edges(data=True))
    entities = sorted((d for _, d in graph.nodes(data=True) if d["label"] != "Paper"),
                      key=lambda d: (-d.get("papers", 0), -d.get("pagerank", 0.0), d["key"]))[:top]
    result = {"nodes": dict(sorted(nodes.items())), "edges": dict(sorted(edges.items())),
              "top": [{"key": d["key"], "name": d["name"], "label": d["label"], "papers": d.get("papers", 0),
                       "acronym": d.get("acronym")} for d in entities]}
    if as_json:
        print(json.dumps(result, indent=1, ensure_ascii=False))
        return
    out = Console()
    out.print(_count_table("Nodes", result["nodes"]), _count_table("Edges", result["edges"]))
    table = Table("entity", "type", "acronym", "papers", title=f"Top {top} entities by papers")
    for row in result["top"]:
        table.add_row(row["name"], row["label"], row["acronym"] or "", str(row["papers"]))
    out.print(table)


@eval_app.command("acronyms", epilog="Example:\n\n  paperkg eval acronyms ../shared/benchmarks/sdu-acronyms/dev.json")
def eval_acronyms(
    file: Annotated[Path, typer.Argument(help="SDU@AAAI-21 acronym identification JSON.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    predictions: Annotated[Optional[Path], typer.Option(help="Write predicted labels here (JSON).")] = None,
    system: Annotated[str, typer.Option(help="paperkg, or a baseline: schwartz-hearst, schwartz-hearst-capitals.")] = "paperkg",
) -> None:
    """Phrase-level short/long-form precision, recall, F1 and their macro average, plus sentences per second."""
    from paperkg import eval_acronyms as evaluation

    _require_file(file)
    result = evaluation.run(file, predictions_out=predictions, system=system)
    print(json.dumps(result, indent=1) if as_json else evaluation.format_report(result))


@eval_app.command("scierc", epilog="Example:\n\n  paperkg eval scierc ../shared/benchmarks/scierc/dev.json")
def eval_scierc(
    file: Annotated[Path, typer.Argument(help="SciERC JSON lines (sentences, ner).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    predictions: Annotated[Optional[Path], typer.Option(help="Write predicted entities here (JSONL).")] = None,
    pipeline: Annotated[str, typer.Option(help="'full' (the paperkg pipeline) or 'model' (the NER model alone).")] = "full",
) -> None:
    """Exact-match entity precision, recall and F1 per label, over six labels and over Task/Method/Material/Metric."""
    from paperkg import eval_scierc as evaluation
    from paperkg.api import load_pipeline

    _require_file(file)
    if pipeline not in ("full", "model"):
        raise PaperkgError(f"--pipeline must be 'full' or 'model', not {pipeline!r}.")
    nlp = load_pipeline() if pipeline == "full" else evaluation.load_model()
    result = evaluation.run(file, nlp=nlp, predictions_out=predictions)
    print(json.dumps(result, indent=1) if as_json else evaluation.format_report(result))


def load_graph(path: Path):
    """Read graph.json or graph.graphml, with a clear error when it is missing or not a graph."""
    _require_file(path)
    try:
        return exports.read_graphml(path) if path.suffix == ".graphml" else exports.read_json(path)
    except (ValueError, KeyError, json.JSONDecodeError) as error:
        raise PaperkgError(f"{path} is not a paperkg graph ({error}).") from error


def _require_file(path: Path) -> None:
    if not path.is_file():
        raise PaperkgError(f"{path}: no such file.")


def _count_table(title: str, counts: dict[str, int]) -> Table:
    table = Table("type", "count", title=title)
    for name, count in counts.items():
        table.add_row(name, str(count))
    return table


def _print_summary(summary: BuildSummary) -> None:
    out = Console()
    out.print(f"[bold]{summary.papers_new}[/] new papers read ({summary.papers_skipped} already in the graph), "
              f"{summary.papers_total} papers in the graph, {summary.seconds:.1f} s")
    out.print(_count_table("Nodes", summary.nodes), _count_table("Edges", summary.edges))
    out.print("wrote " + ", ".join(str(p) for p in summary.written))
    _print_warnings(summary.warnings)


def _print_warnings(warnings: list) -> None:
    for warning in warnings[:20]:
        console.print(f"[yellow]warning[/]: {warning}")
    if len(warnings) > 20:
        console.print(f"[yellow]... and {len(warnings) - 20} more warnings[/]")
    if warnings:
        console.print(f"{len(warnings)} warnings")


cli_train.register(app)
cli_neo4j.register(app)
cli_view.register(app)


def main() -> None:
    """Entry point: user errors print one sentence and exit with their code; --debug shows tracebacks."""
    try:
        code = app(standalone_mode=False)
    except PaperkgError as error:
        if _state["debug"]:
            raise
        console.print(f"[red]error[/]: {escape(str(error))}")
        sys.exit(int(error.code))
    except click.exceptions.Exit as done:
        sys.exit(done.exit_code)
    except click.ClickException as error:
        error.show()
        sys.exit(ExitCode.USAGE)
    except click.exceptions.Abort:
        console.print("aborted")
        sys.exit(130)
    except Exception as error:  # noqa: BLE001 - the last line of defence for a CLI
        if _state["debug"] or "--debug" in sys.argv:
            raise
        console.print(f"[red]error[/]: unexpected {type(error).__name__}: {escape(str(error))} "
                      "(rerun with --debug for the traceback)")
        sys.exit(ExitCode.FAILED)
    sys.exit(code if isinstance(code, int) else ExitCode.OK)
