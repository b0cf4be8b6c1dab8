"""Fixtures for the tests that need the real Neo4j server (marked `neo4j`).

`neo4j_target` starts the server with scripts/neo4j.sh (or uses the one already answering on
NEO4J_BOLT_PORT, 7687 by default) and stops it at the end only if it started it.
`clean_neo4j` empties the database before a test; it refuses to touch a database holding
labels other than paperkg's and the tests' own, so a developer's data is never wiped.
"""
from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

import pytest

if TYPE_CHECKING:  # conftest imports this module: the driver and NetworkX load when a Neo4j test runs
    import networkx as nx

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


@pytest.fixture(scope="session")
def neo4j_target() -> Iterator[Neo4jTarget]:
    """A running Neo4j 5 on 127.0.0.1:NEO4J_BOLT_PORT and the settings to reach it."""
    from paperkg.cypher.writer import Neo4jTarget

    was_running = _script("status").returncode == 0
    if not was_running:
        started = _script("start")
        if started.returncode != 0:
            pytest.fail(f"scripts/neo4j.sh start failed:\n{started.stdout}\n{started.stderr}")
    yield Neo4jTarget(uri=f"bolt://127.0.0.1:{BOLT_PORT}", user="neo4j", password=PASSWORD)
    if not was_running and not os.environ.get("PAPERKG_NEO4J_KEEP"):
        _script("stop")


def run_cypher(target: Neo4jTarget, text: str, **params) -> list[dict]:
    """Rows of one auto-commit query, as dicts (for test setup and assertions)."""
    from neo4j import GraphDatabase

    with GraphDatabase.driver(target.uri, auth=(target.user, target.password),
                              notifications_min_severity="OFF") as driver:
        with driver.session(database=target.database) as session:
            return [record.data() for record in session.run(text, params)]


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


def without_paper(graph: nx.MultiDiGraph, paper: str) -> nx.MultiDiGraph:
    """The graph as built before `paper` arrived: the paper gone, and every entity no other paper links to."""
    smaller = graph.copy()
    smaller.remove_node(paper)
    smaller.remove_nodes_from([node for node, data in graph.nodes(data=True) if node != paper
                               and data["label"] != "Paper"
                               and not any(smaller.nodes[p]["label"] == "Paper" for p in smaller.predecessors(node))])
    return smaller


def replicate(graph: nx.MultiDiGraph, copies: int) -> nx.MultiDiGraph:
    """`copies` copies of the graph's papers, each with distinct paper ids; entities are shared.

    Paper -> entity relationships multiply with the copies; entity -> entity ones stay, as in
    a larger corpus that keeps finding the same methods and tasks.
    """
    import networkx as nx

    big = nx.MultiDiGraph()
    big.graph.update(graph.graph)
    big.add_nodes_from((node, data) for node, data in graph.nodes(data=True) if data["label"] != "Paper")

    def renamed(node: str, copy: int) -> str:
        return f"{node}-{copy}" if graph.nodes[node]["label"] == "Paper" else node

    for copy in range(copies):
        for node, data in graph.nodes(data=True):
            if data["label"] == "Paper":
                big.add_node(renamed(node, copy), **{**data, "key": renamed(node, copy),
                                                     "paper_id": f"{data['paper_id']}-{copy}"})
        for source, target, key, data in graph.edges(keys=True, data=True):
            big.add_edge(renamed(source, copy), renamed(target, copy), key=key, **data)
    return big
