"""`paperkg build --neo4j URI` builds and pushes in one go, against the real server."""
from __future__ import annotations

import pytest
from neo4j import GraphDatabase

from cli_helpers import CORPUS, run_cli

pytestmark = pytest.mark.neo4j


def test_build_with_neo4j_pushes_the_graph(clean_neo4j, tmp_path, monkeypatch):
    target = clean_neo4j
    for name, value in (("NEO4J_PASSWORD", target.password), ("NEO4J_USERNAME", target.user),
                        ("NEO4J_DATABASE", target.database)):
        monkeypatch.setenv(name, value)
    result = run_cli("build", str(CORPUS), "-o", str(tmp_path), "--neo4j", target.uri)
    assert target.password not in result.stdout + result.stderr
    with GraphDatabase.driver(target.uri, auth=(target.user, target.password)) as driver:
        records, _, _ = driver.execute_query("MATCH (p:Paper) RETURN count(p) AS n", database_=target.database)
        assert records[0]["n"] == 57
        records, _, _ = driver.execute_query(
            "MATCH (p:Paper)-[:PROPOSES]->(m {acronym: 'FLeRM'}) RETURN m.long_form AS long, count(p) AS n",
            database_=target.database)
        assert [(r["long"], r["n"]) for r in records] == [("Function-space Learning Rate Matching", 1)]
