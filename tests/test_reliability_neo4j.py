"""The Neo4j commands' weak cases of issue 33: a password in a URI is refused without being printed, a line
break in NEO4J_URI, a port out of range and an integer Neo4j cannot hold are one sentence each, neo4j+s:// to a
server without TLS says so (and no driver line strays onto stderr), and the "nodes from earlier pushes" note
counts only paperkg's own nodes, never after --replace (against the real server)."""
from __future__ import annotations

import pytest

from graph_fixtures import sample_graph
from neo4j_fixtures import run_cypher

from cli_helpers import run_cli
from fake_bolt import FakeBolt
from paperkg.cypher.writer import push_graph

SECRET = "pa55-w0rd-of-the-user"


@pytest.fixture
def graph_file(tmp_path, monkeypatch):
    from paperkg.graph.exports import write_json

    monkeypatch.setenv("NEO4J_PASSWORD", "from-the-environment")
    monkeypatch.delenv("NEO4J_URI", raising=False)
    monkeypatch.chdir(tmp_path)
    write_json(sample_graph(), tmp_path / "graph.json")
    return tmp_path / "graph.json"


def _one_sentence(result, code: int = 2) -> str:
    assert result.returncode == code, result.stderr
    assert result.stderr.count("\n") == 1 and "unexpected" not in result.stderr, result.stderr
    return result.stderr


@pytest.mark.parametrize("uri", [f"bolt://neo4j:{SECRET}@127.0.0.1:9", f"neo4j://neo4j:{SECRET}@db.example:7687",
                                 f"bolt+s://{SECRET}@127.0.0.1"])
def test_a_password_in_the_uri_is_refused_and_never_printed(graph_file, uri, monkeypatch):
    said = _one_sentence(run_cli("push", str(graph_file), "--uri", uri, check=False))
    assert SECRET not in said and "holds credentials" in said and said.startswith("error: --uri '")
    monkeypatch.setenv("NEO4J_URI", uri)
    said = _one_sentence(run_cli("query", "acronym", "-p", "acronym=X", check=False))
    assert SECRET not in said and said.startswith("error: NEO4J_URI '")
    said = _one_sentence(run_cli("build", "--from-extractions", "nothing.jsonl", "--neo4j", uri, check=False))
    assert SECRET not in said


@pytest.mark.parametrize("uri, message", [
    ("bolt://127.0.0.1:7687\n", "error: NEO4J_URI: the Neo4j URI holds a line break or another control character; "
                                "give it on one line, as scheme://host:port.\n"),
    ("bolt://127.0.0.1\n:7687", "error: NEO4J_URI: the Neo4j URI holds a line break or another control character; "
                                "give it on one line, as scheme://host:port.\n"),
    ("bolt://127.0.0.1:99999", "error: NEO4J_URI 'bolt://127.0.0.1:99999' is not a Neo4j URI (Port out of range "
                               "0-65535).\n"),
])
def test_a_neo4j_uri_on_more_than_one_line_or_with_a_bad_port_is_one_sentence(graph_file, monkeypatch, uri, message):
    monkeypatch.setenv("NEO4J_URI", uri)
    assert _one_sentence(run_cli("push", str(graph_file), check=False)) == message


def test_a_uri_from_a_found_config_file_is_named_by_its_file_and_key(graph_file, tmp_path):
    (tmp_path / "paperkg.toml").write_text('[neo4j]\nuri = "http://127.0.0.1:7474"\npassword = "its-own"\n')
    said = _one_sentence(run_cli("push", str(graph_file), check=False))
    assert said.startswith(f"error: [neo4j] uri in {tmp_path / 'paperkg.toml'} 'http://127.0.0.1:7474' is not a "
                           "Neo4j URI")


@pytest.mark.parametrize("value", ["100000000000000000000", "-9223372036854775809", "9" * 5000])
def test_an_integer_neo4j_cannot_hold_is_one_sentence_before_any_connection(graph_file, value):
    said = _one_sentence(run_cli("query", "acronym_glossary", "-p", f"limit={value}", "--uri", "bolt://127.0.0.1:9",
                                 check=False))
    assert said.startswith("error: parameter limit takes a")
    assert len(said) < 200


@pytest.mark.parametrize("scheme", ["neo4j+s", "bolt+s", "bolt+ssc"])
def test_tls_to_a_server_without_it_is_a_clear_sentence(graph_file, scheme):
    server = FakeBolt(handshake=False)
    try:
        result = run_cli("push", str(graph_file), "--uri", f"{scheme}://127.0.0.1:{server.port}", check=False)
    finally:
        server.close()
    said = _one_sentence(result, code=4)
    plain = scheme.partition("+")[0]
    assert said == (f"error: Neo4j at {scheme}://127.0.0.1:{server.port} (user 'neo4j', database 'neo4j') did not "
                    f"complete a TLS handshake: {scheme}:// asks for an encrypted connection and the server does not "
                    f"offer one (use {plain}://) or its certificate is not trusted (use {plain}+ssc:// for a "
                    "self-signed one).\n")


@pytest.mark.neo4j
def test_the_earlier_pushes_note_counts_only_paperkgs_nodes_and_not_after_replace(clean_neo4j):
    graph = sample_graph()
    smaller = graph.copy()
    dropped = [key for key, data in graph.nodes(data=True) if data["label"] == "Method"][:2]
    smaller.remove_nodes_from(dropped)
    run_cypher(clean_neo4j, "CREATE (:Paper {title: 'theirs'}), (:Method {name: 'their method'})")
    assert push_graph(graph, clean_neo4j).earlier_nodes == 0  # the other application's two nodes are not counted
    assert push_graph(graph, clean_neo4j).earlier_nodes == 0  # a re-push: its nodes are on the server as they are
    assert push_graph(smaller, clean_neo4j).earlier_nodes == 2
    assert push_graph(smaller, clean_neo4j, replace=True).earlier_nodes == 0
