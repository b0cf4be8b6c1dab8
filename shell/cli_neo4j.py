"""`paperkg push` and `paperkg query`: load a graph into Neo4j and run the Cypher library on it.

Connection options follow Neo4j's own conventions (NEO4J_URI, NEO4J_USERNAME, NEO4J_PASSWORD,
NEO4J_DATABASE). The password is best given through NEO4J_PASSWORD: a --password on the
command line is visible in the process list; paperkg never logs or prints it.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from paperkg.cli_output import SavedGraphArgument, err
from paperkg.core.errors import PaperkgError
from paperkg.settings import Settings, load_settings

if TYPE_CHECKING:
    from paperkg.cypher.writer import Neo4jTarget

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


def make_target(settings: Settings, flag: str = "--uri") -> Neo4jTarget:
    """The connection from the settings, its URI checked (`flag` gave it, if a flag did); asks for a missing
    password on a terminal."""
    from paperkg.cypher.writer import Neo4jTarget
    from paperkg.orchestrate.neo4j import check_uri

    check_uri(settings.neo4j_uri, settings.origin("neo4j_uri", flag))
    settings.check_password_destination()
    settings.announce()
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


def register(app: typer.Typer) -> None:
    """Add `push` and `query` to the paperkg command."""

    @app.command("push", epilog="Example:\n\n  NEO4J_PASSWORD=... paperkg push out/graph.json "
                                "--uri bolt://localhost:7687 --database neo4j")
    def push_command(
        graph_file: SavedGraphArgument,
        uri: UriOption = None,
        user: UserOption = None,
        password: PasswordOption = None,
        database: DatabaseOption = None,
        batch_size: Annotated[Optional[int], typer.Option(
            min=1, help="Rows per write transaction (default 2000).", show_default=False)] = None,
        replace: Annotated[bool, typer.Option(help="First delete paperkg's nodes (its labels only).")] = False,
        bulk_import: Annotated[Optional[Path], typer.Option(metavar="NEO4J_HOME", help="Into an empty database "
            "of this Neo4j home's local server: stop it, neo4j-admin database import, start it (faster).")] = None,
    ) -> None:
        """Load a graph into Neo4j: schema, batched idempotent MERGE, counts read back and checked."""
        from paperkg.graph.exports import graph_path
        from paperkg.orchestrate.neo4j import push

        push(graph_path(graph_file), make_target(_settings(uri, user, password, database)), err, batch_size, replace,
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
        from paperkg.orchestrate.neo4j import print_query_list, print_query_text, query

        if list_all or name is None:
            print_query_list()
        elif show:
            print_query_text(name)
        else:
            query(name, param, lambda: make_target(_settings(uri, user, password, database)), err, as_json)
