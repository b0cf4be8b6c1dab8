"""The Neo4j tests write only to a server they started: with someone's Neo4j serving data on 7687 (a server
started here from a home of its own by scripts/neo4j.sh with its default password, holding only paperkg's
labels: what the tests could most easily take for theirs), a run of a Neo4j test that empties its database
leaves that data as it was."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from neo4j_fixtures import PASSWORD, ROOT, TestServer, answers, free_port, neo4j_script, run_cypher

from paperkg.cypher.writer import Neo4jTarget

pytestmark = [pytest.mark.neo4j, pytest.mark.acceptance, pytest.mark.slow]

DEFAULT_BOLT = 7687
EMPTIES_ITS_DATABASE = ("tests/test_neo4j_push.py::"
                        "test_pushing_twice_leaves_the_same_counts_and_sends_nothing_the_second_time")


def contents(target: Neo4jTarget) -> tuple[list, list]:
    """Every node (labels, properties) and relationship (type, ends) of the database, sorted."""
    nodes = run_cypher(target, "MATCH (n) RETURN labels(n) AS labels, properties(n) AS props")
    rels = run_cypher(target, "MATCH (s)-[r]->(t) RETURN type(r) AS type, s.key AS source, t.key AS target")
    return (sorted((row["labels"], sorted(row["props"].items())) for row in nodes),
            sorted((row["type"], row["source"], row["target"]) for row in rels))


def test_a_test_run_leaves_a_server_on_7687_untouched(neo4j_server: TestServer, tmp_path: Path) -> None:
    if answers(DEFAULT_BOLT):
        pytest.skip("a server already answers on 7687: this test puts its own data there, so it needs the port free")
    owner_home, http = tmp_path / "someone", free_port()
    started = neo4j_script("start", owner_home, DEFAULT_BOLT, http, NEO4J_HEAP="512m")
    assert started.returncode == 0, started.stderr
    try:
        owner = Neo4jTarget(uri=f"bolt://127.0.0.1:{DEFAULT_BOLT}", password=PASSWORD)
        run_cypher(owner, "CREATE (:Method {key: 'method:their method', name: 'their method'})-[:USED_FOR]->"
                          "(:Task {key: 'task:their task', name: 'their task'})")
        before = contents(owner)
        environment = {name: value for name, value in os.environ.items()
                       if name not in ("NEO4J_BOLT_PORT", "NEO4J_HTTP_PORT") and not name.startswith("PYTEST_")}
        run = subprocess.run([sys.executable, "-m", "pytest", "-n", "0", "-q", "-p", "no:cacheprovider",
                              f"--basetemp={tmp_path / 'run'}", EMPTIES_ITS_DATABASE],
                             cwd=ROOT, env=environment, capture_output=True, text=True, timeout=900)
        assert run.returncode == 0, run.stdout + run.stderr
        assert contents(owner) == before
    finally:
        neo4j_script("stop", owner_home, DEFAULT_BOLT, http)
