"""Fixtures for the tests that need the real Neo4j server (marked `neo4j`).

`neo4j_target` starts the server with scripts/neo4j.sh (or uses the one already answering on
NEO4J_BOLT_PORT, 7687 by default) and stops it at the end only if the run started it; `neo4j_turn`
(autouse, conftest.py) gives each `neo4j` module the database to itself.
`clean_neo4j` empties the database before a test; it refuses to touch a database holding
labels other than paperkg's and the tests' own, so a developer's data is never wiped.
"""
from __future__ import annotations

import fcntl
import os
import subprocess
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Sequence

import pytest

if TYPE_CHECKING:  # conftest imports this module: the driver and NetworkX load when a Neo4j test runs
    import networkx as nx

    from paperkg.core.schema import Extraction
    from paperkg.cypher.writer import Neo4jTarget

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "neo4j.sh"
BOLT_PORT = os.environ.get("NEO4J_BOLT_PORT", "7687")
PASSWORD = os.environ.get("NEO4J_PASSWORD", "paperkg-neo4j")
OTHER_LABEL = "PaperkgTestOther"  # a label that is not paperkg's, for the --replace test


def _script(command: str) -> subprocess.CompletedProcess:
    """Run `scripts/neo4j.sh COMMAND` with the tests' port and password."""
    env = {**os.environ, "NEO4J_BOLT_PORT": BOLT_PORT, "NEO4J_PASSWORD": PASSWORD}
    return subprocess.run(["bash", str(SCRIPT), command], env=env, capture_output=True, text=True,
                          timeout=900)


@contextmanager
def _held(tmp_path_factory: pytest.TempPathFactory, name: str) -> Iterator[Path]:
    """An exclusive lock that the pytest-xdist workers of one run share (a file in their common temp
    folder); yields that folder."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield shared
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def neo4j_target(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Neo4jTarget]:
    """A running Neo4j 5 on 127.0.0.1:NEO4J_BOLT_PORT and the settings to reach it. The workers of a run
    share it: the first starts it (if none answers), the last to finish stops what the run started."""
    from paperkg.cypher.writer import Neo4jTarget

    with _held(tmp_path_factory, "neo4j-server") as shared:
        users, started = shared / "neo4j-users", shared / "neo4j-started"
        if _script("status").returncode != 0:
            result = _script("start")
            if result.returncode != 0:
                pytest.fail(f"scripts/neo4j.sh start failed:\n{result.stdout}\n{result.stderr}")
            started.touch()
        users.write_text(str(int(users.read_text() if users.exists() else 0) + 1))
    yield Neo4jTarget(uri=f"bolt://127.0.0.1:{BOLT_PORT}", user="neo4j", password=PASSWORD)
    with _held(tmp_path_factory, "neo4j-server"):
        users.write_text(str(int(users.read_text()) - 1))
        if users.read_text() == "0" and started.exists() and not os.environ.get("PAPERKG_NEO4J_KEEP"):
            started.unlink()
            _script("stop")


@pytest.fixture(scope="module", autouse=True)
def neo4j_turn(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """A module marked `neo4j` has the database to itself while it runs: the modules share one database,
    and pytest-xdist (--dist loadfile) may hand two of them to two workers at once."""
    if request.node.get_closest_marker("neo4j") is None:
        yield
        return
    with _held(tmp_path_factory, "neo4j-database"):
        yield


def run_cypher(target: Neo4jTarget, text: str, **params) -> list[dict]:
    """Rows of one auto-commit query, as dicts (for test setup and assertions)."""
    from neo4j import GraphDatabase

    with GraphDatabase.driver(target.uri, auth=(target.user, target.password),
                              notifications_min_severity="OFF") as driver:
        with driver.session(database=target.database) as session:
            return [record.data() for record in session.run(text, params)]


def run_query(target: Neo4jTarget, query_name: str, /, **overrides: Any) -> list[dict[str, Any]]:
    """Rows of the library's named query with its defaults, overridden by `overrides` (given as text)."""
    from paperkg.cypher.library import load_query
    from paperkg.cypher.runner import run_named_query

    query = load_query(query_name)
    return run_named_query(query, target, query.parameters({k: str(v) for k, v in overrides.items()}))


def server_graph(target: Neo4jTarget, unordered: tuple[str, ...] = ()) -> tuple[list, list]:
    """Every paperkg node and relationship with its properties, sorted (the push stamps first_push and last_push
    aside; the list properties named in `unordered` compared as sets)."""
    from paperkg.cypher.rows import NODE_LABELS

    labels = "|".join(NODE_LABELS)
    nodes = run_cypher(target, f"MATCH (n:{labels}) RETURN labels(n) AS labels, properties(n) AS props")
    rels = run_cypher(target, f"MATCH (s:{labels})-[r]->(t) "
                              "RETURN type(r) AS type, s.key AS source, t.key AS target, properties(r) AS props")

    def plain(props: dict) -> list:
        return sorted((name, sorted(value) if name in unordered else value)
                      for name, value in props.items() if name not in ("first_push", "last_push"))

    return (sorted((row["labels"], plain(row["props"])) for row in nodes),
            sorted((row["type"], row["source"], row["target"], plain(row["props"])) for row in rels))


def empty_database(target: Neo4jTarget) -> None:
    """Delete every node, unless the database holds labels other than paperkg's and the tests'."""
    from paperkg.cypher.rows import NODE_LABELS
    from paperkg.cypher.writer import PUSH_LABEL

    labels = {row["label"] for row in run_cypher(target, "CALL db.labels() YIELD label RETURN label")}
    foreign = labels - set(NODE_LABELS) - {PUSH_LABEL, OTHER_LABEL}
    if foreign:
        pytest.fail(f"the Neo4j database at {target.uri} holds nodes labelled {sorted(foreign)}, "
                    "which the tests would delete; point NEO4J_BOLT_PORT at a test server.")
    run_cypher(target, "MATCH ()-[r]->() CALL (r) { DELETE r } IN TRANSACTIONS OF 5000 ROWS")
    run_cypher(target, "MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS")


@pytest.fixture
def clean_neo4j(neo4j_target: Neo4jTarget) -> Neo4jTarget:
    """The server with an empty database (paperkg's schema may stay)."""
    empty_database(neo4j_target)
    return neo4j_target


def linked(graph: nx.MultiDiGraph, source: str, *types: str) -> set[str]:
    """Targets of `source`'s edges of the given types."""
    return {target for _, target, key in graph.out_edges(source, keys=True) if key in types}


def without_paper(graph: nx.MultiDiGraph, paper: str) -> nx.MultiDiGraph:
    """The graph as built before `paper` arrived: the paper gone, and every entity no other paper links to."""
    smaller = graph.copy()
    smaller.remove_node(paper)
    smaller.remove_nodes_from([node for node, data in graph.nodes(data=True) if node != paper
                               and data["label"] != "Paper"
                               and not any(smaller.nodes[p]["label"] == "Paper" for p in smaller.predecessors(node))])
    return smaller


def replicate(records: Sequence[Extraction], copies: int) -> nx.MultiDiGraph:
    """The builder's graph of `copies` copies of the records, copy n's papers under the ids '<id>-<n>'.

    Entities are shared: paper -> entity relationships multiply with the copies, entity -> entity ones
    gain count and evidence, as in a larger corpus that keeps finding the same methods and tasks.
    """
    from dataclasses import replace

    from records import build

    return build(replace(record, paper=replace(record.paper, id=f"{record.paper.id}-{copy}"))
                 for copy in range(copies) for record in records)
