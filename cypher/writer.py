"""Push the paperkg graph into Neo4j: schema first, then batched, idempotent MERGEs.

Every batch is one managed write transaction (`session.execute_write`, retried by the driver
on transient failures) running `UNWIND $rows AS row MERGE ...` on a uniquely constrained
`key`; labels and relationship types come only from the graph model's allow-list, every value
is a parameter. Only rows the server lacks or holds with other properties are sent
(paperkg.cypher.changes: one digest per paper first, then row hashes), so pushing the same graph twice
sends nothing the second time and an interrupted push is completed by the next one. A first load into
an empty local server can go through Neo4j's bulk importer instead (paperkg.cypher.bulk_import).
Each push is recorded as a (:PaperkgPush {seq}) node and every node and relationship carries
`first_push` (set once), `last_push` (the last push that wrote it), `paperkg_hash` (its properties'
hash, paperkg's marker) and `paperkg_keys` (the properties it set: a push replaces those and keeps
the ones users added); every paper carries `paperkg_digest`.
"""
from __future__ import annotations

import logging
import socket
import ssl
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator
from urllib.parse import urlsplit

import networkx as nx
from neo4j import Driver, GraphDatabase, ManagedTransaction, Session
from neo4j.exceptions import AuthError, ClientError, ConfigurationError, ServiceUnavailable, SessionExpired

from paperkg.core import graph_model as model
from paperkg.core.errors import ExitCode, PaperkgError
from paperkg.cypher.bulk_import import ImportFiles, LocalServer, write_import_files
from paperkg.cypher.changes import DIGEST_PROPERTY, HASH_PROPERTY, Changes, all_rows, changed_rows
from paperkg.cypher.library import schema_statements
from paperkg.graph.trends import Trends
from paperkg.cypher.rows import NODE_LABELS, PAPER, REL_TYPES, GraphRows, graph_counts, graph_rows, node_key

log = logging.getLogger(__name__)
# The driver logs its own failures ("Unable to retrieve routing information"); the push reports them as one
# sentence (_server_errors).
logging.getLogger("neo4j").addHandler(logging.NullHandler())

DEFAULT_URI = "bolt://localhost:7687"
DEFAULT_BATCH_SIZE = 2000
# A first push into a database without paperkg nodes CREATEs (nothing to match): larger batches
# then pay, as each transaction's commit and planning costs are spread over more rows.
CREATE_BATCH_SIZE = 20_000
PUSH_LABEL = "PaperkgPush"
_ANY_LABEL = "|".join(NODE_LABELS)

_OWNED_KEYS = "paperkg_keys"  # the properties paperkg set on a node or relationship (the rest are the user's)
# `+=` keeps properties users added in Neo4j; keys paperkg set before and no longer has are removed.
_OWN_PROPERTIES = f"""
WITH {{var}}, row, coalesce({{var}}.first_push, $push) AS first_push,
     [k IN coalesce({{var}}.{_OWNED_KEYS}, []) WHERE NOT k IN keys(row.props)] AS gone
SET {{var}} += row.props
SET {{var}}.first_push = first_push, {{var}}.last_push = $push, {{var}}.{{hash}} = row.hash,
    {{var}}.{_OWNED_KEYS} = keys(row.props)
FOREACH (k IN gone | REMOVE {{var}}[k])
"""
_NODE_MERGE = """
UNWIND $rows AS row
MERGE (n:{label} {{key: row.key}})
""" + _OWN_PROPERTIES.format(var="n", hash="{hash}")
_REL_MERGE = """
UNWIND $rows AS row
MATCH (s:{source} {{key: row.source}})
MATCH (t:{target} {{key: row.target}})
MERGE (s)-[r:{rel_type}]->(t)
""" + _OWN_PROPERTIES.format(var="r", hash="{hash}")
# The first push (no node of paperkg's labels on the server): CREATE, with the same properties as
# the MERGEs above write; the relationships' ends are found through the unique `key` indexes.
_NODE_CREATE = """
UNWIND $rows AS row
CREATE (n:{label})
SET n += row.props
SET n.first_push = $push, n.last_push = $push, n.{hash} = row.hash, n.OWNED = keys(row.props)
""".replace("OWNED", _OWNED_KEYS)
_REL_CREATE = """
UNWIND $rows AS row
MATCH (s:{source} {{key: row.source}})
MATCH (t:{target} {{key: row.target}})
CREATE (s)-[r:{rel_type}]->(t)
SET r += row.props
SET r.first_push = $push, r.last_push = $push, r.{hash} = row.hash, r.OWNED = keys(row.props)
""".replace("OWNED", _OWNED_KEYS)
_ANY_PAPERKG_NODE = f"OPTIONAL MATCH (n:{_ANY_LABEL}) WITH n LIMIT 1 RETURN n IS NOT NULL AS held"
_START_PUSH = f"""
OPTIONAL MATCH (p:{PUSH_LABEL})
WITH coalesce(max(p.seq), 0) + 1 AS seq
CREATE (push:{PUSH_LABEL} {{seq: seq, started_at: datetime(), source: $source,
                           graph_nodes: $nodes, graph_relationships: $rels}})
RETURN seq
"""
# A paper's digest is stored once all its rows are written, and cleared before any of them is: a
# push cut short never leaves a digest that vouches for rows the server does not hold.
_CLEAR_DIGESTS = f"UNWIND $rows AS key MATCH (p:{PAPER} {{key: key}}) REMOVE p.{DIGEST_PROPERTY}"
_SET_DIGESTS = f"UNWIND $rows AS row MATCH (p:{PAPER} {{key: row[0]}}) SET p.{DIGEST_PROPERTY} = row[1]"
_COUNT_ALL_NODES = "MATCH (n) RETURN count(n) AS nodes"
_FINISH_PUSH = f"MATCH (p:{PUSH_LABEL} {{seq: $push}}) SET p.completed_at = datetime()"
# Only what carries paperkg's marker (its hash property): another application's nodes and relationships
# under the same labels stay. Relationships first, then nodes: one DETACH DELETE batch that holds the
# big entities would carry most of the graph's relationships (and their evidence text) in one transaction.
_DELETE_PAPERKG = (f"""
MATCH (:{_ANY_LABEL})-[r]->() WHERE r.{HASH_PROPERTY} IS NOT NULL
CALL (r) {{ DELETE r }} IN TRANSACTIONS OF $batch ROWS
""", f"""
MATCH (n:{_ANY_LABEL}) WHERE n.{HASH_PROPERTY} IS NOT NULL
CALL (n) {{ DETACH DELETE n }} IN TRANSACTIONS OF $batch ROWS
""")
# Nodes under paperkg's labels with a key but without its marker: another application's, never adopted.
_FOREIGN_KEYS = f"""
MATCH (n:{_ANY_LABEL}) WHERE n.{HASH_PROPERTY} IS NULL AND n.key IS NOT NULL
RETURN [label IN labels(n) WHERE label IN $labels][0] AS label, collect(n.key) AS keys
"""
# Totals per label and per type from the server's count store (no scan), in one query text: on a
# fresh server every new query text costs a second or more of Cypher planning.
_COUNT_TOTALS = "\nUNION ALL\n".join(
    [f"MATCH (n:{label}) RETURN 'node' AS kind, '{label}' AS name, count(n) AS total" for label in NODE_LABELS]
    + [f"MATCH ()-[r:{rel_type}]->() RETURN 'rel' AS kind, '{rel_type}' AS name, count(r) AS total"
       for rel_type in REL_TYPES])
_COUNT_MARKED = f"MATCH (n:{_ANY_LABEL}) WHERE n.{HASH_PROPERTY} IS NOT NULL RETURN count(n) AS marked"
# What this push wrote, counted only over the labels and types it wrote to (a re-push that wrote
# nothing scans nothing).
_COUNT_STAMPED_NODES = """
MATCH (n:{labels}) WHERE n.last_push = $push
RETURN [label IN labels(n) WHERE label IN $labels][0] AS name, count(*) AS pushed
"""
_COUNT_STAMPED_RELS = """
MATCH ()-[r:{types}]->() WHERE r.last_push = $push
RETURN type(r) AS name, count(*) AS pushed
"""


Counts = tuple[dict[str, int], dict[str, int]]  # nodes per label, relationships per type


@dataclass(frozen=True)
class Neo4jTarget:
    """Where to push: a Bolt/Neo4j URI, credentials and the database name."""

    uri: str = DEFAULT_URI
    user: str = "neo4j"
    password: str = field(default="", repr=False)
    database: str = "neo4j"


@dataclass
class CountRow:
    """One label or relationship type: in the graph sent, on the server as sent (held unchanged or
    written by this push), and in total."""

    name: str
    sent: int
    pushed: int
    total: int


@dataclass
class PushReport:
    """What a push did, with the counts read back from the server."""

    push: int
    nodes: list[CountRow]
    relationships: list[CountRow]
    seconds: float
    rows_written: int = 0  # nodes and relationships this push wrote (the rest were on the server as they are)
    earlier_nodes: int = 0  # paperkg's nodes from earlier pushes that this graph lacks (not other applications')

    @property
    def mismatches(self) -> list[CountRow]:
        """Labels and types whose count on the server differs from the count sent."""
        return [row for row in self.nodes + self.relationships if row.pushed != row.sent]

    @property
    def relationships_sent(self) -> int:
        """How many relationships the pushed graph has."""
        return sum(row.sent for row in self.relationships)


class CountMismatch(PaperkgError):
    """A push finished but the server does not hold what was sent; carries the counts."""

    def __init__(self, message: str, report: PushReport) -> None:
        super().__init__(message, ExitCode.MISMATCH)
        self.report = report


def _describe(target: Neo4jTarget) -> str:
    """The target for messages: URI, user and database, never the password."""
    return f"Neo4j at {target.uri} (user {target.user!r}, database {target.database!r})"


@contextmanager
def _server_errors(target: Neo4jTarget, retry_hint: str) -> Iterator[None]:
    """Turn the driver's connection, credential and database errors into one-sentence PaperkgErrors."""
    try:
        yield
    except ConfigurationError as error:
        raise PaperkgError(f"--uri {target.uri!r} is not a Neo4j URI: {error}", ExitCode.USAGE) from None
    except AuthError:
        raise PaperkgError(f"{_describe(target)} refused the credentials: check the user and "
                           "NEO4J_PASSWORD.", ExitCode.SERVER) from None
    except (ServiceUnavailable, SessionExpired) as error:
        if _tls_refused(error) or _tls_handshake_fails(target.uri):
            scheme = target.uri.partition("://")[0]
            raise PaperkgError(f"{_describe(target)} did not complete a TLS handshake: {scheme}:// asks for an "
                               f"encrypted connection and the server does not offer one (use "
                               f"{scheme.partition('+')[0]}://) or its certificate is not trusted (use "
                               f"{scheme.partition('+')[0]}+ssc:// for a self-signed one).", ExitCode.SERVER) from None
        raise PaperkgError(f"{_describe(target)} is not reachable: start it (bash scripts/neo4j.sh "
                           f"start) or pass --uri{retry_hint}.", ExitCode.SERVER) from None
    except ClientError as error:
        if error.code == "Neo.ClientError.Database.DatabaseNotFound":
            raise PaperkgError(f"{_describe(target)}: the server has no database "
                               f"{target.database!r} (Community edition has only 'neo4j'); "
                               "pass --database.", ExitCode.SERVER) from None
        raise


def _tls_refused(error: BaseException) -> bool:
    """Whether a connection failed in its TLS handshake (the driver's BoltSecurityError, an SSL error), looking
    through the causes and the routing driver's exception groups."""
    pending, seen = [error], set()
    while pending:
        current = pending.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, ssl.SSLError) or type(current).__name__ == "BoltSecurityError":
            return True
        pending += [*getattr(current, "exceptions", ()), *filter(None, (current.__cause__, current.__context__))]
    return False


def _tls_handshake_fails(uri: str) -> bool:
    """Whether an encrypted URI's server takes a connection but no TLS handshake: the driver's routing error
    does not carry the SSL error before neo4j 6, so the handshake is tried once here (certificate unchecked)."""
    parts = urlsplit(uri)
    if "+s" not in parts.scheme or not parts.hostname:
        return False
    try:
        connection = socket.create_connection((parts.hostname, parts.port or 7687), timeout=3)
    except (OSError, ValueError):
        return False  # nothing listens there: not reachable, whatever the scheme
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    try:
        with connection, context.wrap_socket(connection, server_hostname=parts.hostname):
            return False
    except OSError:  # ssl.SSLError included
        return True


@contextmanager
def open_driver(target: Neo4jTarget, retry_hint: str = "") -> Iterator[Driver]:
    """A driver whose server, credentials and database were checked, with errors as PaperkgErrors;
    `retry_hint` ends the unreachable-server message ('; a push cut short ...')."""
    log.info("connecting to %s", _describe(target))
    with _server_errors(target, retry_hint):
        # Notifications off: counting a relationship type not yet created is not worth a warning.
        with GraphDatabase.driver(target.uri, auth=(target.user, target.password),
                                  notifications_min_severity="OFF") as driver:
            driver.verify_connectivity()
            with driver.session(database=target.database) as session:
                session.run("RETURN 1").consume()
            yield driver


def apply_schema(driver: Driver, database: str, *, wait: bool = True) -> None:
    """Create paperkg's constraints and indexes (IF NOT EXISTS) and wait until they are online (`wait`; a
    uniqueness constraint is online once created, as the server checks it then, so MERGE can use it anyway).
    Without `wait` (a store the importer filled) the indexes come first, in one transaction: the server
    populates them together, in one pass over the nodes, in the background while it builds the constraints."""
    statements = schema_statements()
    with driver.session(database=database) as session:
        if not wait:
            indexes = [statement for statement in statements if " CONSTRAINT " not in statement]
            session.execute_write(lambda tx: [tx.run(statement).consume() for statement in indexes])
            statements = [statement for statement in statements if statement not in indexes]
        for statement in statements:
            session.run(statement).consume()
        if wait:
            await_indexes(session)


def await_indexes(session: Session) -> None:
    """Wait until every index is online."""
    session.run("CALL db.awaitIndexes(300)").consume()


def delete_paperkg_nodes(driver: Driver, database: str, batch_size: int) -> None:
    """Delete paperkg's relationships, then detach-delete its nodes (those carrying its marker), in batches."""
    with driver.session(database=database) as session:
        for statement in _DELETE_PAPERKG:
            session.run(statement, batch=batch_size).consume()


def refuse_foreign_nodes(driver: Driver, target: Neo4jTarget, graph: nx.MultiDiGraph) -> None:
    """A node of another application under a paperkg label with a key paperkg pushes is an error, not
    overwritten."""
    with driver.session(database=target.database) as session:
        foreign = {label: set(keys) for label, keys in session.run(_FOREIGN_KEYS, labels=list(NODE_LABELS)).values()}
    for label, keys in foreign.items():
        clash = sorted(keys & {node_key(graph, node) for node, node_label in model.labels(graph)
                               if node_label == label})
        if clash:
            raise PaperkgError(f"{_describe(target)} holds a :{label} node with key {clash[0]!r} that paperkg did not "
                               f"push (it has no {HASH_PROPERTY}), and paperkg does not overwrite another "
                               "application's data: remove or re-key that node, or push to another --database.",
                               ExitCode.SERVER)


def _run_batch(tx: ManagedTransaction, query: str, rows: list[Any], push: int, **params: Any) -> None:
    """One batch in one managed transaction (`params`: the query's other parameters)."""
    tx.run(query, rows=rows, push=push, **params).consume()


def _batches(rows: list[Any], size: int) -> Iterator[list[Any]]:
    """`rows` in consecutive slices of at most `size`."""
    for start in range(0, len(rows), size):
        yield rows[start:start + size]


def start_push(driver: Driver, database: str, counts: Counts, source: str) -> int:
    """Record a new (:PaperkgPush) of a graph with `counts` and return its sequence number."""
    def create(tx: ManagedTransaction) -> int:
        return tx.run(_START_PUSH, source=source, nodes=sum(counts[0].values()),
                      rels=sum(counts[1].values())).single(strict=True)["seq"]
    with driver.session(database=database) as session:
        return session.execute_write(create)


def finish_push(driver: Driver, database: str, push: int) -> None:
    """Mark the (:PaperkgPush) complete."""
    with driver.session(database=database) as session:
        session.execute_write(lambda tx: tx.run(_FINISH_PUSH, push=push).consume())


def write_rows(driver: Driver, database: str, rows: GraphRows, push: int, batch_size: int,
               on_batch: Callable[[int], None] | None = None) -> None:
    """MERGE all node rows, then all relationship rows, batch by batch."""
    _write_batches(driver, database, _work(rows, _NODE_MERGE, _REL_MERGE), push, batch_size, on_batch)


def create_rows(driver: Driver, database: str, rows: GraphRows, push: int, batch_size: int,
                on_batch: Callable[[int], None] | None = None) -> None:
    """CREATE all node rows, then all relationship rows, batch by batch: for a database that holds no
    paperkg node (a first push), where there is nothing to MERGE with."""
    _write_batches(driver, database, _work(distinct_rows(rows), _NODE_CREATE, _REL_CREATE), push, batch_size,
                   on_batch)


def distinct_rows(rows: GraphRows) -> GraphRows:
    """The rows as a MERGE push leaves them: one per label and key, and per relationship group and
    pair of ends, with the properties of the last (MERGE folds rows with the same key into one node,
    each SET overwriting the one before)."""
    distinct = GraphRows()
    for label, label_rows in rows.nodes.items():
        distinct.nodes[label] = list({row["key"]: row for row in label_rows}.values())
    for group, group_rows in rows.rels.items():
        distinct.rels[group] = list({(row["source"], row["target"]): row for row in group_rows}.values())
    return distinct


def holds_paperkg_nodes(driver: Driver, database: str) -> bool:
    """Whether the database holds any node with one of paperkg's labels."""
    with driver.session(database=database) as session:
        return bool(session.run(_ANY_PAPERKG_NODE).single(strict=True)["held"])


def _work(rows: GraphRows, node_query: str, rel_query: str) -> list[tuple[str, list[dict[str, Any]]]]:
    """(query text, its rows) per label, then per relationship group."""
    work = [(node_query.format(label=label, hash=HASH_PROPERTY), label_rows)
            for label, label_rows in rows.nodes.items()]
    return work + [(rel_query.format(rel_type=rel_type, source=source, target=target, hash=HASH_PROPERTY), group_rows)
                   for (rel_type, source, target), group_rows in rows.rels.items()]


def _write_batches(driver: Driver, database: str, work: list[tuple[str, list[dict[str, Any]]]], push: int,
                   batch_size: int, on_batch: Callable[[int], None] | None) -> None:
    """Each query over its rows, one managed write transaction per batch."""
    with driver.session(database=database) as session:
        for query, group_rows in work:
            for batch in _batches(group_rows, batch_size):
                session.execute_write(_run_batch, query, batch, push)
                if on_batch:
                    on_batch(len(batch))


def _run_batched(driver: Driver, database: str, query: str, rows: list[Any], batch_size: int,
                 **params: Any) -> None:
    """One query over `rows`, one managed write transaction per batch (`params`: its other parameters)."""
    with driver.session(database=database) as session:
        for batch in _batches(rows, batch_size):
            session.execute_write(_run_batch, query, batch, 0, **params)


def _write_changes(driver: Driver, database: str, changes: Changes, push: int, fresh: bool,
                   batch_size: int | None, on_batch: Callable[[int], None] | None) -> None:
    """CREATE the rows into a database without paperkg nodes (`fresh`), else MERGE them."""
    _run_batched(driver, database, _CLEAR_DIGESTS, changes.stale, CREATE_BATCH_SIZE)
    rows = changes.rows
    if fresh:
        log.info("no paperkg node on the server: creating the rows")
        create_rows(driver, database, rows, push, batch_size or CREATE_BATCH_SIZE, on_batch)
    else:
        write_rows(driver, database, rows, push, batch_size or DEFAULT_BATCH_SIZE, on_batch)
    _run_batched(driver, database, _SET_DIGESTS, sorted(changes.digests.items()), CREATE_BATCH_SIZE)


def read_counts(driver: Driver, database: str, counts: Counts, push: int,
                changes: Changes) -> tuple[list[CountRow], list[CountRow]]:
    """Per label and per relationship type: sent, on the server as sent (held unchanged, or stamped by
    this push), and in total."""
    node_sent, rel_sent = counts
    with driver.session(database=database) as session:
        totals = {(r["kind"], r["name"]): r["total"] for r in session.run(_COUNT_TOTALS)}
        stamped = _stamped_counts(session, sorted(changes.rows.node_counts()), sorted(changes.rows.rel_counts()),
                                  push)

    def row(kind: str, name: str, sent: int, same: int) -> CountRow:
        return CountRow(name, sent, same + stamped.get((kind, name), 0), totals.get((kind, name), 0))

    return ([row("node", label, node_sent.get(label, 0), changes.same_nodes[label]) for label in NODE_LABELS],
            [row("rel", kind, rel_sent.get(kind, 0), changes.same_rels[kind]) for kind in REL_TYPES])


def read_totals(driver: Driver, database: str, counts: Counts) -> tuple[list[CountRow], list[CountRow]]:
    """Per label and per relationship type: sent, and on the server in total, which is also what a push into
    an empty database (the bulk import) left there."""
    node_sent, rel_sent = counts
    with driver.session(database=database) as session:
        totals = {(r["kind"], r["name"]): r["total"] for r in session.run(_COUNT_TOTALS)}
    return ([CountRow(label, node_sent.get(label, 0), totals.get(("node", label), 0), totals.get(("node", label), 0))
             for label in NODE_LABELS],
            [CountRow(kind, rel_sent.get(kind, 0), totals.get(("rel", kind), 0), totals.get(("rel", kind), 0))
             for kind in REL_TYPES])


def _stamped_counts(session: Any, labels: list[str], types: list[str], push: int) -> dict[tuple[str, str], int]:
    """How many nodes per label and relationships per type carry last_push = `push`, counted over
    `labels` and `types` only (names from the graph model's allow-list)."""
    counts: dict[tuple[str, str], int] = {}
    if labels:
        for record in session.run(_COUNT_STAMPED_NODES.format(labels="|".join(labels)), labels=labels, push=push):
            counts["node", record["name"]] = record["pushed"]
    if types:
        for record in session.run(_COUNT_STAMPED_RELS.format(types="|".join(types)), push=push):
            counts["rel", record["name"]] = record["pushed"]
    return counts


def push_graph(graph: nx.MultiDiGraph, target: Neo4jTarget, *, batch_size: int | None = None,
               replace: bool = False, source: str = "", bulk_import: Path | None = None,
               on_batch: Callable[[int], None] | None = None, trends: Trends | None = None) -> PushReport:
    """Push `graph` to `target` and check the server's counts against it; entities carry the trend properties
    of `trends` (the build's trends.json; computed from the graph when none is given).

    `replace` first deletes the nodes and relationships paperkg pushed (other data stays); a push sets
    the properties paperkg owns and keeps those users added. Into a database without paperkg nodes
    the rows are CREATEd in batches of CREATE_BATCH_SIZE, else MERGEd in batches of DEFAULT_BATCH_SIZE
    (`batch_size` sets both). `bulk_import` (the home of the local server `target` names, whose database
    must be empty) loads the graph with Neo4j's bulk importer instead, leaving the same data. Raises
    PaperkgError(ExitCode.SERVER) for connection, credential and database errors and
    CountMismatch (ExitCode.MISMATCH) when the server does not hold what was sent.
    """
    if batch_size is not None and batch_size < 1:
        raise PaperkgError(f"--batch-size must be at least 1, not {batch_size}.")
    began = time.perf_counter()
    counts = graph_counts(graph)
    if bulk_import is not None:
        push, files = bulk_load(graph, target, bulk_import, source, on_batch, counts, trends)
        with open_driver(target) as driver:
            nodes, rels = read_totals(driver, target.database, counts)
        return _checked(PushReport(push, nodes, rels, time.perf_counter() - began,
                                   rows_written=sum(files.nodes.values()) + sum(files.rels.values())), target)
    with open_driver(target, "; a push cut short is completed by pushing again") as driver:
        apply_schema(driver, target.database)
        refuse_foreign_nodes(driver, target, graph)
        if replace:
            delete_paperkg_nodes(driver, target.database, batch_size or DEFAULT_BATCH_SIZE)
        fresh = not holds_paperkg_nodes(driver, target.database)
        changes = (all_rows(graph, graph_rows(graph, trends=trends)) if replace or fresh
                   else changed_rows(driver, target.database, graph, trends))
        unchanged = sum(changes.same_nodes.values()) + sum(changes.same_rels.values())
        if on_batch and unchanged:
            on_batch(unchanged)
        push = start_push(driver, target.database, counts, source)
        written = sum(changes.rows.node_counts().values()) + sum(changes.rows.rel_counts().values())
        log.info("push %d: %d nodes and relationships to write (%d on the server as they are)",
                 push, written, unchanged)
        _write_changes(driver, target.database, changes, push, fresh, batch_size, on_batch)
        finish_push(driver, target.database, push)
        nodes, rels = read_counts(driver, target.database, counts, push, changes)
        earlier = earlier_paperkg_nodes(driver, target.database, nodes)
    return _checked(PushReport(push, nodes, rels, time.perf_counter() - began, rows_written=written,
                               earlier_nodes=earlier), target)


def earlier_paperkg_nodes(driver: Driver, database: str, nodes: list[CountRow]) -> int:
    """paperkg's nodes (its marker set) beyond those of the graph just pushed: left by earlier pushes of another
    graph (another application's nodes under the same labels are not). Counted only when the labels' totals
    exceed what the push holds."""
    if all(row.total == row.pushed for row in nodes):
        return 0
    with driver.session(database=database) as session:
        marked = int(session.run(_COUNT_MARKED).single(strict=True)["marked"])
    return max(0, marked - sum(row.pushed for row in nodes))


def _checked(report: PushReport, target: Neo4jTarget) -> PushReport:
    """The report, or CountMismatch when the server's counts differ from the graph's."""
    if report.mismatches:
        detail = ", ".join(f"{row.name} sent {row.sent} but found {row.pushed}" for row in report.mismatches)
        raise CountMismatch(f"push {report.push} to {_describe(target)} finished but the server's counts "
                            f"differ: {detail}.", report)
    return report


def bulk_load(graph: nx.MultiDiGraph, target: Neo4jTarget, home: Path, source: str,
              on_batch: Callable[[int], None] | None = None, counts: Counts | None = None,
              trends: Trends | None = None) -> tuple[int, ImportFiles]:
    """The first push into the empty database of the local server run from `home`: the server stopped
    while the graph is written as CSV, then load_import_files. Returns the push and the files' account."""
    return load_import_files(lambda folder: write_import_files(graph, folder, push=1, trends=trends),
                             counts or graph_counts(graph), target, home, source, on_batch)


def push_import_files(files: ImportFiles, target: Neo4jTarget, home: Path, source: str) -> PushReport:
    """A build's import files (a build at scale writes them: orchestrate/dask_assembly.py) into the empty database
    of the local server run from `home`, with the counts checked as a push checks them."""
    began = time.perf_counter()
    counts = (dict(sorted(files.nodes.items())), dict(sorted(files.rels.items())))
    push, _ = load_import_files(lambda _: files, counts, target, home, source)
    with open_driver(target) as driver:
        nodes, rels = read_totals(driver, target.database, counts)
    return _checked(PushReport(push, nodes, rels, time.perf_counter() - began,
                               rows_written=sum(files.nodes.values()) + sum(files.rels.values())), target)


def load_import_files(write: Callable[[Path], ImportFiles], counts: Counts, target: Neo4jTarget, home: Path,
                      source: str, on_batch: Callable[[int], None] | None = None) -> tuple[int, ImportFiles]:
    """The import files `write` gives (writing them into the folder it is given, or made already) loaded into the
    empty database of the local server run from `home`: the server stopped meanwhile, `neo4j-admin database
    import`, the server started, then by Cypher the schema, the push record and what CSV cannot carry."""
    server = LocalServer(home)
    server.check(target.uri)
    with open_driver(target) as driver, driver.session(database=target.database) as session:
        held = session.run(_COUNT_ALL_NODES).single(strict=True)["nodes"]
    if held:
        raise PaperkgError(f"--bulk-import loads only into an empty database, and {_describe(target)} holds "
                           f"{held} nodes: push without --bulk-import, or empty the database first.", ExitCode.USAGE)
    log.info("bulk import: stopping the server in %s while the CSV files are written, importing, starting it", home)
    began = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="paperkg-import-", dir=home) as folder:
        stopping = server.stop()
        try:
            files = write(Path(folder))
            log.info("bulk import: CSV files written at %.1f s", time.perf_counter() - began)
            server.stopped(stopping)
            server.import_files(target.database, files, Path(folder) / "import.report")
            log.info("bulk import: imported at %.1f s", time.perf_counter() - began)
        finally:
            stopping.wait()
            server.start(target.uri, (target.user, target.password), target.database)
            log.info("bulk import: server started at %.1f s", time.perf_counter() - began)
    with open_driver(target) as driver:
        apply_schema(driver, target.database, wait=False)  # the other indexes populate while Cypher writes
        push = start_push(driver, target.database, counts, source)
        if push != 1:
            raise PaperkgError(f"--bulk-import: {_describe(target)} was written to during the import.",
                               ExitCode.SERVER)
        log.info("bulk import: schema created, push recorded at %.1f s", time.perf_counter() - began)
        if on_batch:
            on_batch(sum(files.nodes.values()) + sum(files.rels.values()))
        _write_changes(driver, target.database, Changes(files.leftover, digests=files.digests), push, True,
                       None, None)
        finish_push(driver, target.database, push)
        log.info("bulk import: Cypher's rows written at %.1f s", time.perf_counter() - began)
        with driver.session(database=target.database) as session:
            await_indexes(session)
    log.info("bulk import: Cypher's rows written, indexes online at %.1f s", time.perf_counter() - began)
    return push, files
