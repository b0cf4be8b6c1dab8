"""The first push into a database without paperkg nodes CREATEs in large batches: against the real
server it leaves exactly what the MERGE push leaves (counts, keys, properties), and the next push
MERGEs again."""
from __future__ import annotations

import logging

import networkx as nx
import pytest
from graph_fixtures import FLERM_KEY, sample_graph, sample_records
from neo4j_fixtures import empty_database, replicate, run_cypher, server_graph

from paperkg.cypher.writer import push_graph

pytestmark = pytest.mark.neo4j

CREATING = "no paperkg node on the server: creating the rows"


def one_paper(graph: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """The graph's first paper alone: pushed first, it makes the next push MERGE."""
    paper = next(node for node, data in graph.nodes(data=True) if data["label"] == "Paper")
    return graph.subgraph([paper]).copy()


def test_first_push_creates_what_the_merge_push_leaves(clean_neo4j, caplog):
    graph = replicate(sample_records(), 3)
    with caplog.at_level(logging.INFO, logger="paperkg.cypher.writer"):
        created = push_graph(graph, clean_neo4j, batch_size=7)
    assert CREATING in caplog.text
    assert created.rows_written == graph.number_of_nodes() + graph.number_of_edges() and not created.mismatches
    by_create = server_graph(clean_neo4j)
    stamps = run_cypher(clean_neo4j, "MATCH (n:Paper|Method|Task|Dataset|Metric|Concept)-[r]->() "
                                     "RETURN collect(DISTINCT [n.first_push, n.last_push, r.first_push, r.last_push]) "
                                     "AS s")
    assert stamps == [{"s": [[created.push] * 4]}]

    empty_database(clean_neo4j)
    push_graph(one_paper(graph), clean_neo4j)
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="paperkg.cypher.writer"):
        merged = push_graph(graph, clean_neo4j, batch_size=7)
    assert CREATING not in caplog.text
    assert merged.rows_written == graph.number_of_nodes() + graph.number_of_edges() - 1 and not merged.mismatches
    assert server_graph(clean_neo4j) == by_create
    assert len(by_create[0]) == graph.number_of_nodes() and len(by_create[1]) == graph.number_of_edges()


def test_push_after_a_first_push_merges_and_writes_nothing_unchanged(clean_neo4j, caplog):
    graph = sample_graph()
    push_graph(graph, clean_neo4j)
    with caplog.at_level(logging.INFO, logger="paperkg.cypher.writer"):
        again = push_graph(graph, clean_neo4j)
    assert CREATING not in caplog.text and again.rows_written == 0 and not again.mismatches


def test_first_push_of_rows_sharing_a_key_folds_them_as_merge_does(clean_neo4j):
    graph = sample_graph()
    copy = {**graph.nodes[FLERM_KEY], "name": "the later row"}
    graph.add_node("method:flerm-again", **copy)
    empty_database(clean_neo4j)
    with pytest.raises(Exception, match="Method sent 8 but found 7"):
        push_graph(graph, clean_neo4j)
    assert run_cypher(clean_neo4j, "MATCH (m:Method {key: $key}) RETURN m.name AS name", key=FLERM_KEY) == \
        [{"name": "the later row"}]
