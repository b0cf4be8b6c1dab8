"""`paperkg push` against the real Neo4j server: idempotent, incremental, --replace, counts, errors."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import networkx as nx
import pytest
from cli_helpers import run_cli
from graph_fixtures import FLERM_KEY, LLM_KEY, sample_graph
from neo4j_fixtures import OTHER_LABEL, free_port, replicate, run_cypher, without_paper
from records import read_extractions

from paperkg.cypher.library import load_query
from paperkg.core.errors import ExitCode, PaperkgError
from paperkg.graph.exports import write_json
from paperkg.cypher.runner import run_named_query
from paperkg.cypher.writer import CountMismatch, Neo4jTarget, push_graph

pytestmark = pytest.mark.neo4j


def server_counts(target: Neo4jTarget) -> tuple[dict[str, int], dict[str, int]]:
    """Nodes per paperkg label and relationships per type, as the server has them."""
    nodes = run_cypher(target, "MATCH (n:Paper|Method|Task|Dataset|Metric|Result) "
                               "RETURN labels(n)[0] AS name, count(*) AS n")
    rels = run_cypher(target, "MATCH (:Paper|Method|Task|Dataset|Metric|Result)-[r]->() "
                              "RETURN type(r) AS name, count(*) AS n")
    return ({row["name"]: row["n"] for row in nodes}, {row["name"]: row["n"] for row in rels})


def graph_counts(graph: nx.MultiDiGraph) -> tuple[dict[str, int], dict[str, int]]:
    """The same counts, from the graph."""
    nodes: dict[str, int] = {}
    rels: dict[str, int] = {}
    for _, data in graph.nodes(data=True):
        nodes[data["label"]] = nodes.get(data["label"], 0) + 1
    for *_, data in graph.edges(data=True):
        rels[data["type"]] = rels.get(data["type"], 0) + 1
    return nodes, rels


def test_pushing_twice_leaves_the_same_counts_and_sends_nothing_the_second_time(clean_neo4j):
    graph = sample_graph()
    first = push_graph(graph, clean_neo4j)
    second = push_graph(graph, clean_neo4j, batch_size=4)
    assert server_counts(clean_neo4j) == graph_counts(graph)
    assert second.push == first.push + 1 and not second.mismatches
    assert first.rows_written == graph.number_of_nodes() + graph.number_of_edges() and second.rows_written == 0
    assert [row.total for row in second.nodes] == [row.sent for row in second.nodes]
    flerm = run_cypher(clean_neo4j, "MATCH (m:Method {key: $key}) RETURN m.first_push AS first, "
                                    "m.last_push AS last, m.aliases AS aliases, m.acronym AS acronym", key=FLERM_KEY)
    assert flerm == [{"first": first.push, "last": first.push, "acronym": "FLeRM",
                      "aliases": ["FLeRM", "Function-space Learning Rate Matching"]}]


def test_lists_and_evidence_are_list_properties_not_json_strings(clean_neo4j):
    push_graph(sample_graph(), clean_neo4j)
    [row] = run_cypher(clean_neo4j, """
        MATCH (p:Paper {paper_id: '4a2f2e6da9f81cf7'})-[r:MENTIONS]->(:Method {key: $key})
        RETURN valueType(p.authors) AS authors, valueType(r.evidence_sentences) AS sentences,
               valueType(r.evidence_starts) AS starts, valueType(r.evidence_confidences) AS confidences,
               r.evidence_papers AS papers, r.count AS count, p.authors[0] AS first_author""", key=LLM_KEY)
    assert row["authors"].startswith("LIST<STRING") and row["sentences"].startswith("LIST<STRING")
    assert row["starts"].startswith("LIST<INTEGER") and row["confidences"].startswith("LIST<FLOAT")
    assert row["papers"] == ["4a2f2e6da9f81cf7"] * 2 and row["count"] == 2  # "large language models (LLMs)"
    assert row["first_author"] == "Edward Milsom"


def test_update_push_sends_only_what_changed_and_new_entities_lists_it(clean_neo4j):
    full = sample_graph()
    before = without_paper(full, "paper:6d6887ad5122c59b")
    push_graph(before, clean_neo4j)
    report = push_graph(full, clean_neo4j)
    assert server_counts(clean_neo4j) == graph_counts(full)
    changed_nodes = {n for n in full if n not in before or full.nodes[n] != before.nodes[n]}
    changed_edges = {e for e in full.edges(keys=True) if not before.has_edge(*e)
                     or full.edges[e] != before.edges[e]}
    assert report.rows_written == len(changed_nodes) + len(changed_edges) < full.number_of_nodes()
    new = run_named_query(load_query("new_entities"), clean_neo4j, load_query("new_entities").parameters())
    assert {row["key"] for row in new} == set(full) - set(before)
    assert {row["first_push"] for row in new} == {report.push}
    assert "dataset:imagenet" in {row["key"] for row in new} and LLM_KEY not in {row["key"] for row in new}


def test_replace_clears_paperkg_labels_only(clean_neo4j):
    run_cypher(clean_neo4j, f"CREATE (:{OTHER_LABEL} {{name: 'keep'}})-[:KEEPS]->(:{OTHER_LABEL} {{name: 'too'}})")
    full = sample_graph()
    smaller = without_paper(full, "paper:6d6887ad5122c59b")
    push_graph(full, clean_neo4j)
    report = push_graph(smaller, clean_neo4j, replace=True, batch_size=3)
    assert server_counts(clean_neo4j) == graph_counts(smaller)
    assert all(row.total == row.sent for row in report.nodes + report.relationships)
    others = run_cypher(clean_neo4j,
                        f"MATCH (a:{OTHER_LABEL})-[:KEEPS]->(b:{OTHER_LABEL}) RETURN a.name AS a, b.name AS b")
    assert others == [{"a": "keep", "b": "too"}]


def test_counts_that_differ_from_the_graph_sent_fail_loudly(clean_neo4j):
    graph = sample_graph()
    graph.add_node("method:flerm-again", **{**graph.nodes[FLERM_KEY]})  # same key: MERGE folds the two
    with pytest.raises(CountMismatch) as caught:
        push_graph(graph, clean_neo4j)
    assert caught.value.code == ExitCode.MISMATCH
    assert "Method sent 8 but found 7" in str(caught.value)


def test_server_down_is_one_clear_error():
    target = Neo4jTarget(uri=f"bolt://127.0.0.1:{free_port()}", password="whatever-1")
    with pytest.raises(PaperkgError) as caught:
        push_graph(sample_graph(), target)
    assert caught.value.code == ExitCode.SERVER
    assert "is not reachable" in str(caught.value)


def test_wrong_password_is_one_clear_error_without_the_password(neo4j_target):
    target = Neo4jTarget(uri=neo4j_target.uri, password="not-the-password-42")
    with pytest.raises(PaperkgError) as caught:
        push_graph(sample_graph(), target)
    assert caught.value.code == ExitCode.SERVER
    assert "refused the credentials" in str(caught.value)
    assert "not-the-password-42" not in str(caught.value) and "not-the-password-42" not in repr(target)
    time.sleep(1)  # let the server's failed-login counter settle before the next test logs in


def test_wrong_database_is_one_clear_error(neo4j_target):
    target = Neo4jTarget(uri=neo4j_target.uri, password=neo4j_target.password, database="nosuchdb")
    with pytest.raises(PaperkgError) as caught:
        push_graph(sample_graph(), target)
    assert caught.value.code == ExitCode.SERVER
    assert "has no database 'nosuchdb'" in str(caught.value)


def test_push_killed_midway_is_completed_exactly_by_the_next_push(clean_neo4j, built, tmp_path):
    graph = replicate(read_extractions(built / "extractions.jsonl"), 40)
    graph_file = tmp_path / "big.json"
    write_json(graph, graph_file)
    pusher = (
        "import os, sys; from pathlib import Path; from paperkg.graph.exports import read_json; "
        "from paperkg.cypher.writer import Neo4jTarget, push_graph; "
        "push_graph(read_json(Path(sys.argv[1])), "
        "Neo4jTarget(uri=sys.argv[2], password=os.environ['NEO4J_PASSWORD']), batch_size=25)")
    client = subprocess.Popen([sys.executable, "-c", pusher, str(graph_file), clean_neo4j.uri],
                              env={**os.environ, "NEO4J_PASSWORD": clean_neo4j.password},
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and client.poll() is None:
        if run_cypher(clean_neo4j, "MATCH ()-[r:MENTIONS]->() RETURN count(r) AS n")[0]["n"] > 500:
            break
        time.sleep(0.05)
    assert client.poll() is None, "the push finished before it could be interrupted"
    os.kill(client.pid, signal.SIGKILL)
    client.wait()
    partial_nodes, partial_rels = server_counts(clean_neo4j)
    assert 0 < sum(partial_rels.values()) < graph.number_of_edges()

    report = push_graph(graph, clean_neo4j)
    assert server_counts(clean_neo4j) == graph_counts(graph)
    assert all(row.total == row.sent == row.pushed for row in report.nodes + report.relationships)
    pushes = run_cypher(clean_neo4j, "MATCH (p:PaperkgPush) RETURN p.seq AS seq, p.completed_at IS NOT NULL AS done "
                                     "ORDER BY seq")
    assert [push["done"] for push in pushes][-2:] == [False, True]


def test_cli_push_prints_counts_and_query_prints_rows(clean_neo4j, built, monkeypatch):
    monkeypatch.setenv("NEO4J_URI", clean_neo4j.uri)
    monkeypatch.setenv("NEO4J_PASSWORD", clean_neo4j.password)
    pushed = run_cli("push", str(built / "graph.json"), "--batch-size", "100")
    assert "Paper" in pushed.stdout and "MENTIONS" in pushed.stdout and "in database" in pushed.stdout
    assert clean_neo4j.password not in pushed.stdout + pushed.stderr
    answer = run_cli("query", "acronym", "--param", "acronym=FLeRM", "--json")
    [row] = json.loads(answer.stdout)
    assert row["stands_for"] == "Function-space Learning Rate Matching"
    listing = run_cli("query", "--list")
    assert "shortest_path" in listing.stdout


def test_cli_errors_are_one_sentence_with_the_server_exit_code(neo4j_target, built, monkeypatch):
    graph_file = str(built / "graph.json")
    monkeypatch.setenv("NEO4J_PASSWORD", "wrong-password-7")
    refused = run_cli("push", graph_file, "--uri", neo4j_target.uri, check=False)
    down = run_cli("push", graph_file, "--uri", f"bolt://127.0.0.1:{free_port()}", check=False)
    for result, phrase in ((refused, "refused the credentials"), (down, "is not reachable")):
        assert result.returncode == ExitCode.SERVER
        message = " ".join(result.stderr.split())  # rich wraps long lines
        assert phrase in message and "Traceback" not in message
        assert "wrong-password-7" not in result.stdout + result.stderr
    helped = run_cli("push", "--help")
    assert "wrong-password-7" not in helped.stdout and "NEO4J_PASSWORD" in helped.stdout
    time.sleep(1)
