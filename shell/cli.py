"""The `paperkg` command: build, extract, export, stats, view, eval, train, push, query, leaderboard.

Every heavy import (spaCy, NetworkX, the Neo4j driver) happens inside the command that needs
it, so `paperkg --help` and usage errors answer at once.
"""
from __future__ import annotations

import sys
from pathlib import Path
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer
from rich.console import Console
from rich.markup import escape
from typer.core import TyperGroup

from paperkg import (__version__, cli_eval, cli_leaderboard, cli_names, cli_neo4j, cli_thesaurus, cli_train, cli_trends,
                     cli_view, cli_why)
from paperkg.cli_output import MinConfidenceOption, err, print_warnings
from paperkg.cli_output import min_confidence as cli_min_confidence
from paperkg.core.errors import ExitCode, PaperkgError
from paperkg.processes import run_and_exit
from paperkg.extract.limits import BATCH_SIZE
from paperkg.settings import command_settings
from paperkg.orchestrate.export import ExportFormat
from paperkg.viz.options import ColourBy, SizeBy, ViewOptions

if TYPE_CHECKING:
    from paperkg.orchestrate.run import ExtractSettings

EXIT_CODES = ("Exit codes: 0 ok · 1 unexpected failure (rerun with --debug) · 2 bad usage, missing input or "
              "setting · 3 finished, but some input records were skipped · 4 Neo4j unreachable or refused · "
              "5 Neo4j counts differ from the graph sent.")

class _PaperkgGroup(TyperGroup):
    """The root command: a user error prints one line and exits with its code (usage mistakes 2),
    an unexpected one says so (exit 1); --debug shows the traceback instead."""

    # The override ignore below: click's windows_expand_args is not named here, it is passed on in **extra.
    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,  # type: ignore[override]
             complete_var: str | None = None, standalone_mode: bool = True, **extra: Any) -> Any:
        arguments = list(sys.argv[1:] if args is None else args)
        try:
            code = super().main(arguments, prog_name or "paperkg", complete_var, standalone_mode=False, **extra)
        except Exception as error:
            if "--debug" in arguments:
                raise
            code = _report(error)
        code = code if isinstance(code, int) else ExitCode.OK
        if standalone_mode:
            sys.exit(code)
        return code


def _report(error: Exception) -> int:
    """Print one line for `error` and return the exit code it maps to."""
    if isinstance(error, PaperkgError):
        err.print(f"[red]error[/]: {escape(str(error))}", highlight=False)
        return int(error.code)
    if isinstance(error, typer.Abort):
        err.print("aborted")
        return 130
    if isinstance(error, typer.TyperException):
        err.print(f"[red]error[/]: {escape(_usage_line(error))}", highlight=False)
        return ExitCode.USAGE
    err.print(f"[red]error[/]: unexpected {type(error).__name__}: {escape(str(error))} "
              "(rerun with --debug for the traceback)", highlight=False)
    return ExitCode.FAILED


app = typer.Typer(
    name="paperkg",
    cls=_PaperkgGroup,
    help="Research abstracts in, a typed, evidence-backed knowledge graph out.\n\n"
         "Quick start: paperkg build examples/icml2025 -o out/",
    epilog=EXIT_CODES,
    rich_markup_mode="rich",
    pretty_exceptions_enable=False, add_completion=False,
)

GraphArgument = Annotated[Path, typer.Argument(
    help="A saved graph: graph.json, graph.graphml, or the build's output folder.", show_default=False)]


def _show_version(value: bool) -> None:
    if value:
        print(f"paperkg {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    debug: Annotated[bool, typer.Option("--debug", help="Show tracebacks for errors.")] = False,
    version: Annotated[bool, typer.Option("--version", callback=_show_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """paperkg: research abstracts in, a typed evidence-backed knowledge graph out (--debug is read by the root
    command's error handling)."""


InputsArgument = Annotated[list[Path], typer.Argument(
    help="Files, directories or globs of abstracts (.txt .jsonl .json .csv .tsv .bib, optionally .gz); - for "
         "standard input.",
    show_default=False)]
ModelOption = Annotated[bool, typer.Option(help="Use the statistical NER model (--no-model: rules only).")]
PipelineOption = Annotated[Optional[Path], typer.Option(
    help="A trained model or saved paperkg pipeline directory (default: PAPERKG_PIPELINE, else the shipped one).",
    show_default=False)]
BatchOption = Annotated[int, typer.Option(min=1, help="Abstracts per spaCy batch.")]
WarningsFileOption = Annotated[Optional[Path], typer.Option(
    "--warnings-file", help="Write every warning of the run, one a line, to this file (the terminal shows the "
                            "first 20).", show_default=False)]
FollowLinksOption = Annotated[bool, typer.Option(
    "--follow-links", help="Read the symbolic links in an input folder that lead out of it or to a folder "
                           "(skipped, with a warning, without it).")]


PARTITION_SIZE = 2000
PartitionSizeOption = Annotated[int, typer.Option(min=1, help="With --dask: abstracts per partition (one shard each).")]
JobsOption = Annotated[Optional[int], typer.Option(
    min=1, help="Extraction processes (default: the cores, from 128 abstracts); the output is the same for any N.",
    show_default=False)]


def _dask_build(inputs: list[Path], output: Path, address: str, update: bool, jobs: int | None,
                memory_limit: str | None, graph_files: bool, thesaurus: Path | None, view: ViewOptions,
                extract: ExtractSettings | None, partition_size: int, warnings_file: Path | None) -> None:
    """`paperkg build [--from-extractions] INPUTS --dask ADDRESS|local`: the extraction (without
    --from-extractions) and the assembly on Dask, then its summary."""
    from paperkg.admit.thesaurus import read_thesaurus
    from paperkg.processes.forked import available_cores
    from paperkg.orchestrate.dask_assembly import run_dask_build

    if update:
        raise PaperkgError("--dask builds a new graph; --update adds to a one-process build (build without --dask).",
                           ExitCode.USAGE)
    done, warnings = run_dask_build(inputs, output, address, workers=jobs or available_cores(),
                                    memory_limit=memory_limit, graph_files=graph_files,
                                    thesaurus=read_thesaurus(thesaurus) if thesaurus else {}, console=err, view=view,
                                    extract=extract, partition_size=partition_size)
    print_warnings(warnings, warnings_file)
    Console().print(f"{done.papers:,} papers: {sum(done.nodes.values()):,} nodes, {sum(done.edges.values()):,} "
                    f"edges in {output}/ ({'extractions/, ' if extract else ''}nodes/, edges/, evidence/, names/, "
                    "neo4j-import/, " + ", ".join(
                        name for name in done.written if "/" not in name) + ")")
    Console().print("seconds: " + ", ".join(f"{step} {seconds:.1f}" for step, seconds in done.steps.items()))
    if warnings:
        raise typer.Exit(ExitCode.INPUT_WARNINGS)


@app.command(epilog="Examples:\n\n  paperkg build examples/icml2025 -o out/\n\n"
                    "  paperkg build new_abstracts.jsonl -o out/ --update\n\n"
                    "  paperkg build --from-extractions shards/ -o out/")
def build(
    inputs: InputsArgument,
    output: Annotated[Path, typer.Option("--output", "-o", help="Output directory.")] = Path("out"),
    update: Annotated[bool, typer.Option(help="Add to the graph already in the output directory.")] = False,
    from_extractions: Annotated[bool, typer.Option(
        "--from-extractions", help="The inputs are saved extraction files (.jsonl, or folders of shards from "
                                   "paperkg extract): build the graph from them without spaCy.")] = False,
    strict: Annotated[bool, typer.Option(help="Stop at the first bad input record.")] = False,
    follow_links: FollowLinksOption = False,
    warnings_file: WarningsFileOption = None,
    model: ModelOption = True,
    pipeline: PipelineOption = None,
    thesaurus: Annotated[Optional[Path], typer.Option(
        help="TSV of 'label<TAB>replace by' (empty: drop the entity).", show_default=False)] = None,
    size_by: Annotated[SizeBy, typer.Option(case_sensitive=False, help="Entity size in graph.html.")] = SizeBy.PAPERS,
    colour_by: Annotated[ColourBy, typer.Option(case_sensitive=False,
                                                help="Node colour in the views.")] = ColourBy.COMMUNITY,
    batch_size: BatchOption = BATCH_SIZE,
    jobs: JobsOption = None,
    neo4j: Annotated[Optional[str], typer.Option(
        "--neo4j", help="Also push the graph to this Neo4j (bolt://host:7687); user, password and database "
                        "from the settings (NEO4J_USERNAME, NEO4J_PASSWORD, NEO4J_DATABASE).",
        show_default=False)] = None,
    dask: Annotated[Optional[str], typer.Option(
        "--dask", help="Build on a Dask cluster (its scheduler address, or 'local' for a LocalCluster of --jobs "
                       "workers): the extraction into extractions/ shards (unless --from-extractions), then the "
                       "assembly into Parquet parts (nodes/, edges/, evidence/), Neo4j import files and "
                       "admission.json.", show_default=False)] = None,
    partition_size: PartitionSizeOption = PARTITION_SIZE,
    memory_limit: Annotated[Optional[str], typer.Option(
        "--memory-limit", help="With --dask local: each worker's memory limit ('3GB').", show_default=False)] = None,
    graph_files: Annotated[bool, typer.Option(
        "--graph-files", help="With --dask: also stream graph.json and graph.graphml from the Parquet parts.")] = False,
    min_confidence: MinConfidenceOption = None,
) -> None:
    """Read abstracts, extract entities and results, build the graph; write graph.graphml, graph.json, graph.html,
    papers.html, leaderboard.html, extractions.jsonl, the derived layers (trends.json, views.json, admission.json,
    leaderboards.json) and manifest.json, replacing the previous ones together or not at all."""
    from paperkg.orchestrate.build import BuildOptions, check_build_folder, run_build
    from paperkg.orchestrate.report import print_build
    from paperkg.orchestrate.run import ExtractSettings

    check_build_folder(output)
    _check_warnings_file(warnings_file)
    settings = command_settings(pipeline=pipeline, neo4j_uri=neo4j)
    extract_settings = ExtractSettings(use_model=model, model=settings.pipeline, batch_size=batch_size,
                                       jobs=jobs, strict=strict, follow_links=follow_links)
    if dask is not None:
        if neo4j:
            raise PaperkgError(f"--neo4j with --dask: push the build when it is written, with paperkg push {output} "
                               "--bulk-import NEO4J_HOME (or --uri).", ExitCode.USAGE)
        _dask_build(inputs, output, dask, update, jobs, memory_limit, graph_files, thesaurus,
                    ViewOptions(size_by=size_by.value, colour_by=colour_by.value),
                    None if from_extractions else extract_settings, partition_size, warnings_file)
        return
    target = cli_neo4j.make_target(settings, "--neo4j") if neo4j else None
    options = BuildOptions(inputs=inputs, output=output, update=update, from_extractions=from_extractions,
                           extract=extract_settings, thesaurus=thesaurus,
                           view=ViewOptions(size_by=size_by.value, colour_by=colour_by.value,
                                            min_confidence=cli_min_confidence(min_confidence)))
    summary = run_build(options, err)
    print_warnings(summary.warnings, warnings_file)
    print_build(summary, inputs, output, Console(), err)
    if not summary.written and not summary.papers_skipped:
        raise typer.Exit(ExitCode.INPUT_WARNINGS)
    if target is not None and summary.graph is not None:  # the graph just written, not read back from disk
        from paperkg.orchestrate.neo4j import push_to_neo4j

        push_to_neo4j(summary.graph, target, err, source=str(output / "graph.json"), trends=summary.trends)
    if summary.warnings:
        raise typer.Exit(ExitCode.INPUT_WARNINGS)


@app.command(epilog="Examples:\n\n  paperkg extract examples/icml2025 -o out/extractions.jsonl\n\n"
                    "  paperkg extract abstracts.jsonl.gz --dask tcp://scheduler:8786 -o shards/")
def extract(
    inputs: InputsArgument,
    output: Annotated[Optional[Path], typer.Option(
        "--output", "-o",
        help="JSONL file to write, or a folder for extractions.jsonl (with --dask: a folder of shards).",
        show_default="out/extractions.jsonl; with --dask out/shards")] = None,
    strict: Annotated[bool, typer.Option(help="Stop at the first bad input record.")] = False,
    follow_links: FollowLinksOption = False,
    warnings_file: WarningsFileOption = None,
    model: ModelOption = True,
    pipeline: PipelineOption = None,
    batch_size: BatchOption = BATCH_SIZE,
    jobs: JobsOption = None,
    dask: Annotated[Optional[str], typer.Option(
        "--dask", help="Extract on a Dask cluster: its scheduler address (tcp://host:8786), or 'local' for a "
                       "LocalCluster of --jobs workers; writes one shard per partition.", show_default=False)] = None,
    partition_size: PartitionSizeOption = PARTITION_SIZE,
) -> None:
    """Extraction only: one JSON line per paper with its entities, acronyms, relations and results, with evidence."""
    from paperkg.orchestrate.build import extraction_target, run_extract
    from paperkg.orchestrate.report import print_extraction
    from paperkg.orchestrate.run import ExtractSettings

    settings = command_settings(pipeline=pipeline)
    extract_settings = ExtractSettings(use_model=model, model=settings.pipeline, batch_size=batch_size,
                                       jobs=jobs, strict=strict, follow_links=follow_links)
    target = extraction_target(output, dask is not None)
    _check_warnings_file(warnings_file)
    if dask:
        from paperkg.orchestrate.dask_extract import run_dask_extract

        count, warnings = run_dask_extract(inputs, target, extract_settings, dask, partition_size, err)
    else:
        count, warnings = run_extract(inputs, target, extract_settings, err)
    print_warnings(warnings, warnings_file)
    print_extraction(count, inputs, target, err)
    if warnings or not count:
        raise typer.Exit(ExitCode.INPUT_WARNINGS)


@app.command(epilog="Examples:\n\n  paperkg export out/ -o out/graph.gexf\n\n"
                    "  paperkg export out/graph.json --map -o out/map.graphml\n\n"
                    "  paperkg export out/ --format csv -o out/csv/")
def export(
    graph_file: GraphArgument,
    format: Annotated[Optional[ExportFormat], typer.Option(
        "--format", "-f", case_sensitive=False, show_default=False,
        help="Output format (default: from the -o file's extension, else graphml).")] = None,
    output: Annotated[Optional[Path], typer.Option(
        "--output", "-o", show_default=False,
        help="Output file (.graphml, .gexf, .json), or a folder (csv: nodes.csv and edges.csv; the others: "
             "graph.<format> or map.<format> in it). Default: beside the graph.")] = None,
    entity_map: Annotated[bool, typer.Option(
        "--map", help="Export the entity map graph.html draws (entities, links with paper counts and typed "
                      "relations, communities, positions) instead of the knowledge graph.")] = False,
    min_confidence: MinConfidenceOption = None,
) -> None:
    """Convert a saved graph to GraphML, GEXF, node-link JSON or CSV (nodes.csv + edges.csv), named
    as Gephi, Cytoscape and igraph expect (label = name, node_type, edge kind = relation type, weight: what a
    layout pulls by, 0 for a typed relation below --min-confidence)."""
    from paperkg.orchestrate.export import export_target, write_export

    threshold = cli_min_confidence(min_confidence)
    chosen, target = export_target(graph_file, format and format.value, output, entity_map)
    for path in write_export(graph_file, chosen, target, entity_map, threshold):
        err.print(f"wrote {escape(str(path))}")


@app.command(epilog="Example:\n\n  paperkg stats out/graph.json --top 15")
def stats(
    graph_file: GraphArgument,
    top: Annotated[int, typer.Option(min=1, help="How many top entities to list.")] = 10,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
) -> None:
    """Counts per node and edge type and the most-connected entities of a saved graph."""
    from paperkg.orchestrate.report import print_stats

    print_stats(graph_file, top, as_json, Console())


for _commands in (cli_eval, cli_train, cli_neo4j, cli_view, cli_thesaurus, cli_trends, cli_why, cli_names,
                  cli_leaderboard):
    _commands.register(app)


def _check_warnings_file(path: Path | None) -> None:
    """--warnings-file, before any work: a file (not a folder) that no build lists."""
    from paperkg.core.output_guard import check_output

    if path is not None:
        if path.is_dir():
            raise PaperkgError(f"--warnings-file {path} is a folder; name the file to write the warnings to.")
        check_output(path, "the warnings", "--warnings-file")


def _usage_line(error: typer.TyperException) -> str:
    """A usage mistake as one line: what is wrong, and where help is."""
    ctx = getattr(error, "ctx", None)
    command = ctx.command_path if ctx is not None else "paperkg"
    group = ctx.command if ctx is not None else None
    if error.format_message().startswith("Missing command") and group is not None and hasattr(group, "list_commands"):
        message = f"missing command: one of {', '.join(group.list_commands(ctx))}."
    else:
        message = error.format_message().strip().replace("\n", " ")
    return f"{message} (see: {command} --help)"


def main() -> None:
    """Entry point of the `paperkg` script (paperkg.processes.exit: without the interpreter's teardown)."""
    run_and_exit(app)
