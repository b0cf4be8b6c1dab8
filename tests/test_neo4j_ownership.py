"""paperkg owns only what it pushed, against the real Neo4j server: `push --replace` deletes only the
nodes and relationships carrying its marker, a push keeps properties users added to its nodes and
removes only keys it set before, and another application's node under a paperkg label and key is an
error, not adopted."""
from __future__ import annotations

import pytest
from graph_fixtures import FLERM_KEY, sample_graph
from neo4j_fixtures import run_cypher

from paperkg.core.errors import ExitCode, PaperkgError
from paperkg.cypher.writer import push_graph

pytestmark = pytest.mark.neo4j


def test_replace_keeps_another_applications_paper_and_method_nodes(clean_neo4j):
    run_cypher(clean_neo4j, "CREATE (:Paper {title: 'theirs', id: 1})"
                            "-[:USES {since: 2020}]->(:Method {name: 'their method'})")
    graph = sample_graph()
    push_graph(graph, clean_neo4j)
    push_graph(graph, clean_neo4j, replace=True)
    theirs = run_cypher(clean_neo4j, "MATCH (p:Paper {title: 'theirs'})-[r:USES]->(m:Method {name: 'their method'}) "
                                     "RETURN r.since AS since")
    assert theirs == [{"since": 2020}]
    ours = run_cypher(clean_neo4j, "MATCH (n:Paper) WHERE n.paperkg_hash IS NOT NULL RETURN count(n) AS n")
    assert ours == [{"n": sum(1 for _, d in graph.nodes(data=True) if d["label"] == "Paper")}]


def test_a_push_keeps_properties_users_added_and_drops_keys_it_no_longer_sets(clean_neo4j):
    graph = sample_graph()
    push_graph(graph, clean_neo4j)
    run_cypher(clean_neo4j, "MATCH (n:Method {key: $key}) SET n.note = 'checked by hand'", key=FLERM_KEY)
    run_cypher(clean_neo4j, "MATCH (:Paper)-[r]->(:Method {key: $key}) SET r.reviewed = true", key=FLERM_KEY)
    del graph.nodes[FLERM_KEY]["long_form"]
    graph.nodes[FLERM_KEY]["mentions"] = 5
    for _, _, data in graph.in_edges(FLERM_KEY, data=True):
        data["weight"] = 9
    push_graph(graph, clean_neo4j)
    node = run_cypher(clean_neo4j, "MATCH (n:Method {key: $key}) RETURN n.note AS note, "
                                   "n.mentions AS mentions, n.long_form AS long_form", key=FLERM_KEY)
    assert node == [{"note": "checked by hand", "mentions": 5, "long_form": None}]
    rels = run_cypher(clean_neo4j, "MATCH (:Paper)-[r]->(:Method {key: $key}) RETURN r.reviewed AS reviewed, "
                                   "r.weight AS weight", key=FLERM_KEY)
    assert rels and all(row == {"reviewed": True, "weight": 9} for row in rels)


def test_another_applications_node_with_a_paperkg_key_is_a_clear_error(clean_neo4j):
    run_cypher(clean_neo4j, "CREATE (:Method {key: $key, name: 'theirs'})", key=FLERM_KEY)
    with pytest.raises(PaperkgError,
                       match=f"holds a :Method node with key '{FLERM_KEY}' that paperkg did not push") as caught:
        push_graph(sample_graph(), clean_neo4j)
    assert caught.value.code == ExitCode.SERVER
    for replace in (True,):
        with pytest.raises(PaperkgError, match="does not overwrite"):
            push_graph(sample_graph(), clean_neo4j, replace=replace)
    assert run_cypher(clean_neo4j, "MATCH (n:Method {key: $key}) RETURN properties(n) AS p", key=FLERM_KEY) == [
        {"p": {"key": FLERM_KEY, "name": "theirs"}}]
