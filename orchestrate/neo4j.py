"""What `paperkg push` and `paperkg query` do once connected: the push with its progress and counts
table, a named query's parameters checked, its rows as a table, and close names after "no rows"."""
from __future__ import annotations

import json
from contextlib import ExitStack
from functools import partial
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from rich.console import Console
from rich.table import Table
from rich.text import Text

from paperkg.core.errors import ExitCode, PaperkgError
from paperkg.core.schema import DEFAULT_MIN_CONFIDENCE

if TYPE_CHECKING:
    import networkx as nx

    from paperkg.cypher.library import NamedQuery
    from paperkg.cypher.writer import Neo4jTarget, PushReport
    from paperkg.graph.trends import Trends


URI_SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")


def check_uri(uri: str, given: str = "--uri") -> None:
    """A usage error unless `uri` (from `given`: the flag, variable or file key) is a Bolt or neo4j:// URI on
    one line, with a valid port and no credentials; no message shows a password."""
    if any(ord(char) < 32 or ord(char) == 127 for char in uri):
        raise PaperkgError(f"{given}: the Neo4j URI holds a line break or another control character; give it on "
                           "one line, as scheme://host:port.")
    try:
        parts = urlsplit(uri)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number from 0 to 65535
    except ValueError as error:
        raise PaperkgError(f"{given} {redacted(uri)!r} is not a Neo4j URI ({error}).") from None
    if parts.username is not None or parts.password is not None:
        raise PaperkgError(f"{given} {redacted(uri)!r} holds credentials; give the user with --user or "
                           "NEO4J_USERNAME and the password with NEO4J_PASSWORD, never in the URI.")
    if parts.scheme not in URI_SCHEMES:
        raise PaperkgError(f"{given} {uri!r} is not a Neo4j URI: it must start with one of "
                           f"{', '.join(s + '://' for s in URI_SCHEMES)}.")


def redacted(uri: str) -> str:
    """The URI with the user and password of its credentials, if any, as ***."""
    scheme, sep, rest = uri.partition("://")
    userinfo, at, host = rest.rpartition("@")
    if not sep:
        return "***" if "@" in uri else uri
    return f"{scheme}{sep}***@{host}" if at and "/" not in userinfo else uri


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


def push_to_neo4j(graph: nx.MultiDiGraph, target: Neo4jTarget, err: Console, *, batch_size: int | None = None,
                  replace: bool = False, source: str = "", bulk_import: Path | None = None,
                  trends: Trends | None = None) -> PushReport:
    """Push with a progress bar on a terminal (`err`) and print the counts table (also on a mismatch); `trends`:
    the build's."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from paperkg.cypher.writer import CountMismatch, push_graph

    total = graph.number_of_nodes() + graph.number_of_edges()
    columns = ("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with ExitStack() as stack:
        on_batch: Callable[[int], None] | None = None
        if err.is_terminal:  # off a terminal no Progress at all: a disabled one still prints a blank line (rich 13.8)
            progress = stack.enter_context(Progress(*columns, console=err, transient=True))
            task = progress.add_task("pushing", total=total)
            on_batch = partial(progress.advance, task)
        try:
            report = push_graph(graph, target, replace=replace, source=source, bulk_import=bulk_import, trends=trends,
                                on_batch=on_batch, batch_size=batch_size or None)
        except CountMismatch as mismatch:
            Console().print(counts_table(mismatch.report))
            raise
    Console().print(counts_table(report))
    if report.earlier_nodes:
        err.print(f"note: the database also holds {report.earlier_nodes} paperkg nodes from earlier pushes that "
                  "this graph lacks; push with --replace for a database that mirrors this graph.")
    return report


def push(graph_file: Path, target: Neo4jTarget, err: Console, batch_size: int | None = None,
         replace: bool = False, bulk_import: Path | None = None) -> PushReport:
    """Load a saved graph (graph.json or graph.graphml) with its build's trends and push it; a build at scale
    (`build --dask`: its folder) loads its import files with --bulk-import."""
    from paperkg.graph.exports import graph_path, read_graph
    from paperkg.orchestrate.artifact import trends_layer

    if import_account(graph_file).is_file() and (bulk_import is not None or not (graph_file / "graph.json").is_file()):
        return push_at_scale(graph_file, target, bulk_import)
    graph_file = graph_path(graph_file)

    return push_to_neo4j(read_graph(graph_file), target, err, batch_size=batch_size, replace=replace,
                         source=str(graph_file), bulk_import=bulk_import, trends=trends_layer(graph_file))


def print_query_text(name: str) -> None:
    """The named query's Cypher with its labels filled in, to paste into Neo4j Browser."""
    from paperkg.cypher.library import load_query

    print(load_query(name).text)


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


def query(name: str, params: list[str], connect: Callable[[], Neo4jTarget], err: Console,
          as_json: bool = False, min_confidence: float = DEFAULT_MIN_CONFIDENCE) -> list[dict[str, Any]]:
    """Run one named query and print its rows as a table or JSON (the query and its parameters are
    checked before `connect` gives the server); a query reading typed relations reads them at
    `min_confidence` (unless --param sets it) and says which of its relation types the graph lacks there."""
    from paperkg.cypher.library import THRESHOLD_PARAM, load_query
    from paperkg.cypher.runner import lacking, relation_counts, run_named_query

    named = load_query(name)
    given = _parse_params(params)
    threshold = {THRESHOLD_PARAM: str(min_confidence)} if any(p.name == THRESHOLD_PARAM for p in named.params) else {}
    given = {**threshold, **given}
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
    target = connect()
    rows = run_named_query(named, target, values)
    if named.relation_types:
        at = float(values.get(THRESHOLD_PARAM, 0.0))
        for sentence in lacking(named.name, relation_counts(target, named.relation_types, at), at):
            err.print(sentence, highlight=False)
    if as_json:
        print(json.dumps(rows, indent=1, ensure_ascii=False))
    elif not rows:
        Console().print(f"{named.name}: no rows")
    if not rows:
        _suggest(named, given, target, err)
    if as_json or not rows:
        return rows
    columns = list(rows[0])
    table = Table(*columns, title=Text(f"{named.name}: {named.summary} ({len(rows)} rows)"))
    for row in rows:
        table.add_row(*(Text(_cell(row[column])) for column in columns))  # Text: no markup from data
    Console().print(table)
    return rows


def _suggest(named: NamedQuery, given: dict[str, str], target: Neo4jTarget, err: Console) -> None:
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




def import_account(folder: Path) -> Path:
    """The account of a build's Neo4j import files (orchestrate/dask_assembly.py writes them)."""
    from paperkg.orchestrate.dask_assembly import IMPORT, IMPORT_ACCOUNT

    return Path(folder) / IMPORT / IMPORT_ACCOUNT


def push_at_scale(folder: Path, target: Neo4jTarget, bulk_import: Path | None) -> PushReport:
    """A build at scale's import files (its Parquet parts' rows, written by the build's workers) into the empty
    database of a local server with neo4j-admin's importer; its counts read back and checked."""
    from paperkg.core.output_folder import checked_output
    from paperkg.cypher.bulk_import import ImportFiles
    from paperkg.cypher.writer import CountMismatch, push_import_files

    if bulk_import is None:
        raise PaperkgError(f"{folder} is a build at scale (build --dask) without graph.json: push it with "
                           "--bulk-import NEO4J_HOME (a local server's home, its database empty), or build it with "
                           "--graph-files and push graph.json.", ExitCode.USAGE)
    account = import_account(folder)
    checked_output(account, Path(folder))
    files = ImportFiles.from_json(account.read_text(encoding="utf8"), Path(folder).resolve())
    try:
        report = push_import_files(files, target, bulk_import, str(folder))
    except CountMismatch as mismatch:
        Console().print(counts_table(mismatch.report))
        raise
    Console().print(counts_table(report))
    return report
