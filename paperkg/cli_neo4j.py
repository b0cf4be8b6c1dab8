"""`paperkg push` and `paperkg query`: load a graph into Neo4j and run the Cypher library on it.

Connection options follow Neo4j's own conventions (NEO4J_URI, NEO4J_USERNAME, NEO4J_PASSWORD,
NEO4J_DATABASE). The password is best given through NEO4J_PASSWORD: a --password on the
command line is visible in the process list; paperkg never logs or prints it.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional
from urllib.parse import urlsplit

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from paperkg.cli_output import err
from paperkg.core.errors import ExitCode, PaperkgError
from paperkg.settings import Settings, load_settings

if TYPE_CHECKING:
    import networkx as nx

    from paperkg.cypher.writer import Neo4jTarget, PushReport

URI_SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")

UriOption = Annotated[Optional[str], typer.Option(
    "--uri", help="Bolt or neo4j:// URI (default: NEO4J_URI, the config file, else bolt://localhost:7687).",
    show_default=False)]
UserOption = Annotated[Optional[str], typer.Option(
    "--user", help="Neo4j user (default: NEO4J_USERNAME, the config file, else neo4j).", show_default=False)]
PasswordOption = Annotated[Optional[str], typer.Option(
    "--password", show_default=False,
    help="Neo4j password; prefer the NEO4J_PASSWORD variable (a command-line value shows in the "
         "process list). Prompted for when none is given on a terminal.")]
DatabaseOption = Annotated[Optional[str], typer.Option(
    "--database", help="Database name (default: NEO4J_DATABASE, the config file, else neo4j).", show_default=False)]


def make_target(settings: Settings) -> Neo4jTarget:
    """The connection from the settings, its URI checked; asks for a missing password on a terminal."""
    from paperkg.cypher.writer import Neo4jTarget

    scheme = urlsplit(settings.neo4j_uri).scheme
    if scheme not in URI_SCHEMES:
        raise PaperkgError(f"--uri {settings.neo4j_uri!r} is not a Neo4j URI: it must start with one of "
                           f"{', '.join(s + '://' for s in URI_SCHEMES)}.")
    settings.check_password_destination()
    notice = settings.server_notice()
    if notice:
        print(notice, file=sys.stderr)
    password = settings.neo4j_password
    if password is None:
        if not sys.stdin.isatty():
            raise PaperkgError("no Neo4j password: set NEO4J_PASSWORD (or pass --password).")
        password = typer.prompt("Neo4j password", hide_input=True)
    return Neo4jTarget(uri=settings.neo4j_uri, user=settings.neo4j_user, password=password,
                       database=settings.neo4j_database)


def _settings(uri: str | None, user: str | None, password: str | None, database: str | None) -> Settings:
    return load_settings().with_flags(neo4j_uri=uri, neo4j_user=user, neo4j_password=password,
                                      neo4j_database=database)


def counts_table(report: PushReport) -> Table:
    """Counts per label and relationship type: sent, stamped by this push, and in the database."""
    table = Table("label / type", "sent", "on server as sent", "in database",
                  title=f"Neo4j push {report.push}: {report.relationships_sent} relationships, "
                        f"{report.rows_written} nodes and relationships written (the rest unchanged), "
                        f"{report.seconds:.1f} s")
    for row in report.nodes + report.relationships:
        style = "red" if row.pushed != row.sent else None
        table.add_row(row.name, str(row.sent), str(row.pushed), str(row.total), style=style)
    return table


def push_to_neo4j(graph: nx.MultiDiGraph, target: Neo4jTarget, *, batch_size: int | None = None,
                  replace: bool = False, source: str = "", bulk_import: Path | None = None) -> PushReport:
    """Push with a progress bar on a terminal and print the counts table (also on a mismatch)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from paperkg.cypher.writer import CountMismatch, push_graph

    total = graph.number_of_nodes() + graph.number_of_edges()
    columns = ("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=err, transient=True, disable=not err.is_terminal) as progress:
        task = progress.add_task("pushing", total=total)
        try:
            report = push_graph(graph, target, replace=replace, source=source, bulk_import=bulk_import,
                                on_batch=lambda done: progress.advance(task, done), batch_size=batch_size or None)
        except CountMismatch as mismatch:
            Console().print(counts_table(mismatch.report))
            raise
    Console().print(counts_table(report))
    extra = sum(row.total - row.pushed for row in report.nodes)
    if extra:
        err.print(f"note: the database also holds {extra} paperkg nodes from earlier pushes that this "
                  "graph lacks; push with --replace for a database that mirrors this graph.")
    return report


def push(graph_file: Path, target: Neo4jTarget, batch_size: int | None = None,
         replace: bool = False, bulk_import: Path | None = None) -> PushReport:
    """Load a saved graph (graph.json or graph.graphml) and push it."""
    from paperkg.graph.exports import read_graph

    return push_to_neo4j(read_graph(graph_file), target, batch_size=batch_size, replace=replace,
                         source=str(graph_file), bulk_import=bulk_import)


def _parse_params(pairs: list[str]) -> dict[str, str]:
    """`k=v` strings as a dict (the query converts values to its parameters' types)."""
    parsed = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise PaperkgError(f"--param takes name=value, not {pair!r}.")
        parsed[name.strip()] = value
    return parsed


def _cell(value: Any) -> str:
    """A table cell: lists joined with '; ', floats shortened, None empty."""
    if value is None:
        return ""
    if isinstance(value, list):
        return "; ".join(_cell(item) for item in value)
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def print_query_list() -> None:
    """Every query of the library with its summary and parameters."""
    from paperkg.cypher.library import list_queries

    table = Table("query", "answers", "parameters (defaults)", title="paperkg Cypher library")
    for query in list_queries():
        params = ", ".join(f"{p.name}={json.dumps(p.default)}" for p in query.params)
        table.add_row(query.name, query.summary, params)
    Console().print(table)


def query(name: str, settings: Settings, params: list[str], as_json: bool = False) -> list[dict[str, Any]]:
    """Run one named query and print its rows as a table or JSON (the query and its parameters are
    checked before any connection is made)."""
    from paperkg.cypher.library import load_query
    from paperkg.cypher.runner import run_named_query

    named = load_query(name)
    given = _parse_params(params)
    missing = [param for param in named.params if param.required and param.name not in given]
    if missing:
        asked = " ".join(f"--param {param.name}=..." for param in missing)
        raise PaperkgError(f"query {named.name} needs {asked} ({missing[0].help}), e.g. paperkg query {named.name} "
                           + " ".join(f"--param {param.name}={json.dumps(param.default)}" for param in missing) + ".",
                           ExitCode.USAGE)
    values = named.parameters(given)
    defaults = [param for param in named.params if param.name not in given]
    if defaults:
        err.print(f"{named.name}: defaults used: "
                  + ", ".join(f"{param.name}={json.dumps(param.default)}" for param in defaults)
                  + " (set one with --param name=value)", highlight=False)
    target = make_target(settings)
    rows = run_named_query(named, target, values)
    if as_json:
        print(json.dumps(rows, indent=1, ensure_ascii=False))
    elif not rows:
        Console().print(f"{named.name}: no rows")
    if not rows:
        _suggest(named, given, target)
    if as_json or not rows:
        return rows
    columns = list(rows[0])
    table = Table(*columns, title=Text(f"{named.name}: {named.summary} ({len(rows)} rows)"))
    for row in rows:
        table.add_row(*(Text(_cell(row[column])) for column in columns))  # Text: no markup from data
    Console().print(table)
    return rows


def _suggest(named: Any, given: dict[str, str], target: Neo4jTarget) -> None:
    """After "no rows": for each name the user gave, the close names the database has (of the type
    the parameter is named after: task -> Task), as `view --focus` does."""
    from paperkg.core.schema import NodeLabel
    from paperkg.cypher.runner import close_names

    labels = {label.value.casefold(): label.value for label in NodeLabel}
    for param in named.params:
        if param.required and param.name in given:
            close = close_names(target, given[param.name], labels.get(param.name.casefold()))
            hint = f"close names: {', '.join(close)}" if close else "no close names either"
            err.print(f"{param.name} {given[param.name]!r}: {hint}.", highlight=False)


def register(app: typer.Typer) -> None:
    """Add `push` and `query` to the paperkg command."""

    @app.command("push", epilog="Example:\n\n  NEO4J_PASSWORD=... paperkg push out/graph.json "
                                "--uri bolt://localhost:7687 --database neo4j")
    def push_command(
        graph_file: Annotated[Path, typer.Argument(
            help="graph.json (or graph.graphml, or the output folder) from paperkg build.")],
        uri: UriOption = None,
        user: UserOption = None,
        password: PasswordOption = None,
        database: DatabaseOption = None,
        batch_size: Annotated[Optional[int], typer.Option(
            min=1, help="Rows per write transaction (default 2000).", show_default=False)] = None,
        replace: Annotated[bool, typer.Option(help="First delete paperkg's nodes (its labels only).")] = False,
        bulk_import: Annotated[Optional[Path], typer.Option(
            metavar="NEO4J_HOME", help="First push into an empty database of a local server run from this Neo4j "
            "home (as scripts/neo4j.sh makes): stop it, load with neo4j-admin database import, start it; "
            "the same data as a push, much faster for a large graph.")] = None,
    ) -> None:
        """Load a graph into Neo4j: schema, batched idempotent MERGE, counts read back and checked."""
        from paperkg.graph.exports import graph_path

        push(graph_path(graph_file), make_target(_settings(uri, user, password, database)), batch_size, replace,
             bulk_import)

    @app.command("query", epilog="Examples:\n\n  paperkg query --list\n\n"
                                 "  paperkg query acronym --param acronym=FLeRM --json")
    def query_command(
        name: Annotated[Optional[str], typer.Argument(help="Query name (see --list).")] = None,
        param: Annotated[list[str], typer.Option("--param", "-p", help="name=value; repeatable.")] = [],  # noqa: B006 - typer reads the default
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON rows.")] = False,
        list_all: Annotated[bool, typer.Option("--list", help="List the queries and their parameters.")] = False,
        show: Annotated[bool, typer.Option("--show", help="Print the query's Cypher (labels filled in), for "
                                                          "Neo4j Browser; no server needed.")] = False,
        uri: UriOption = None,
        user: UserOption = None,
        password: PasswordOption = None,
        database: DatabaseOption = None,
    ) -> None:
        """Run a named query of the Cypher library (cypher/queries) and print a table or JSON."""
        if list_all or name is None:
            print_query_list()
            return
        if show:
            from paperkg.cypher.library import load_query

            print(load_query(name).text)
            return
        query(name, _settings(uri, user, password, database), param, as_json)
