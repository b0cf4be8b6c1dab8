"""`push --bulk-import`: a first push by neo4j-admin database import into the real local server leaves
what a push leaves (properties, markers, digests, counts), and the next push finds nothing to write."""
from __future__ import annotations

from pathlib import Path

import networkx as nx
import pytest
from cli_helpers import run_cli
from graph_fixtures import sample_graph, sample_records
from neo4j_fixtures import TestServer, empty_database, replicate, run_cypher, server_graph

from paperkg.core.errors import ExitCode, PaperkgError
from paperkg.cypher.bulk_import import ARRAY_DELIMITER
from paperkg.cypher.writer import Neo4jTarget, push_graph
from paperkg.graph.exports import write_json

pytestmark = pytest.mark.neo4j

@pytest.fixture
def local_home(clean_neo4j: Neo4jTarget, neo4j_server: TestServer) -> Path:
    """The home of the tests' server (scripts/neo4j.sh runs it from there)."""
    return Path(neo4j_server.home)


def awkward_graph() -> nx.MultiDiGraph:
    """Three copies of the sample graph, with values CSV carries only with care or not at all: empty lists,
    an empty string, quotes, a semicolon, a line break, the array delimiter inside a list item, a boolean."""
    graph = replicate(sample_records(), 3)
    first, second, third = papers(graph)[:3]
    graph.nodes[first].update(authors=[], title="", venue='a "quoted"; venue')
    graph.nodes[second].update(title="two\nlines", authors=["A. Author", "B. Author"])
    graph.nodes[third].update(authors=[f"odd{ARRAY_DELIMITER}name"], open_access=True)
    return graph


def papers(graph: nx.MultiDiGraph) -> list[str]:
    """The graph's paper nodes, in its order."""
    return [node for node, data in graph.nodes(data=True) if data["label"] == "Paper"]


def test_bulk_import_leaves_what_a_push_leaves_and_the_next_push_writes_nothing(local_home, clean_neo4j):
    graph = awkward_graph()
    pushed = push_graph(graph, clean_neo4j)
    by_push = server_graph(clean_neo4j, unordered=("paperkg_keys",))
    empty_database(clean_neo4j)

    imported = push_graph(graph, clean_neo4j, bulk_import=local_home, source="bulk")
    assert imported.push == 1 and not imported.mismatches
    assert imported.rows_written == pushed.rows_written == graph.number_of_nodes() + graph.number_of_edges()
    assert server_graph(clean_neo4j, unordered=("paperkg_keys",)) == by_push
    without = run_cypher(clean_neo4j, "MATCH (p:Paper {key: $key}) RETURN p.authors AS authors, "
                                      "'authors' IN p.paperkg_keys AS owned", key=graph.nodes[papers(graph)[0]]["key"])
    assert without == [{"authors": None, "owned": False}]  # an empty list is no property, in both ways of pushing
    stamps = run_cypher(clean_neo4j, "MATCH (n:Paper|Method|Task|Dataset|Metric)-[r]->() RETURN collect(DISTINCT "
                                     "[n.first_push, n.last_push, r.first_push, r.last_push]) AS s")
    assert stamps == [{"s": [[1, 1, 1, 1]]}]
    assert run_cypher(clean_neo4j, "MATCH (p:PaperkgPush) RETURN p.seq AS seq, p.source AS source, "
                                   "p.completed_at IS NOT NULL AS done") == [{"seq": 1, "source": "bulk", "done": True}]

    again = push_graph(graph, clean_neo4j)
    assert again.rows_written == 0 and not again.mismatches


def test_bulk_import_refuses_a_database_that_holds_anything(local_home, clean_neo4j):
    run_cypher(clean_neo4j, "CREATE (:PaperkgTestOther {name: 'keep me'})")
    with pytest.raises(PaperkgError, match="loads only into an empty database") as caught:
        push_graph(sample_graph(), clean_neo4j, bulk_import=local_home)
    assert caught.value.code == ExitCode.USAGE
    assert run_cypher(clean_neo4j, "MATCH (n) RETURN n.name AS name") == [{"name": "keep me"}]


def test_cli_bulk_import_with_a_wrong_home_or_server_is_one_sentence(local_home, clean_neo4j, tmp_path, monkeypatch):
    graph_file = tmp_path / "graph.json"
    write_json(sample_graph(), graph_file)
    monkeypatch.setenv("NEO4J_PASSWORD", clean_neo4j.password)
    not_home = run_cli("push", str(graph_file), "--uri", clean_neo4j.uri, "--bulk-import", str(tmp_path),
                       check=False)
    assert not_home.returncode == ExitCode.USAGE and "not a Neo4j home" in not_home.stderr
    assert "Traceback" not in not_home.stderr
    other_port = clean_neo4j.uri.rsplit(":", 1)[0] + ":1"
    wrong_server = run_cli("push", str(graph_file), "--uri", other_port, "--bulk-import", str(local_home),
                           check=False)
    assert wrong_server.returncode == ExitCode.USAGE and "pass the --uri of that server" in wrong_server.stderr
    assert run_cypher(clean_neo4j, "MATCH (n) RETURN count(n) AS n") == [{"n": 0}]
