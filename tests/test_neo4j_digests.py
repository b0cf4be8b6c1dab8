"""Paper digests against the real server: a re-push skips papers whose digest matches, compares the rows
of one whose digest differs or is missing, and writes exactly the rows that changed."""
from __future__ import annotations

import pytest
from graph_fixtures import sample_records
from neo4j_fixtures import replicate, run_cypher

from paperkg.cypher.rows import paper_digests
from paperkg.cypher.writer import push_graph

pytestmark = pytest.mark.neo4j

DIGESTS = "MATCH (p:Paper) RETURN p.key AS key, p.paperkg_digest AS digest ORDER BY key"


def test_a_push_stores_every_papers_digest_and_a_repush_writes_nothing(clean_neo4j):
    graph = replicate(sample_records(), 4)
    push_graph(graph, clean_neo4j)
    assert run_cypher(clean_neo4j, DIGESTS) == [{"key": key, "digest": digest}
                                                for key, digest in sorted(paper_digests(graph).values())]
    again = push_graph(graph, clean_neo4j)
    assert again.rows_written == 0 and not again.mismatches


def test_one_changed_relationship_is_the_only_row_written_and_its_paper_gets_a_new_digest(clean_neo4j):
    graph = replicate(sample_records(), 4)
    push_graph(graph, clean_neo4j)
    paper, target, key = next((s, t, k) for s, t, k in graph.edges(keys=True) if graph.nodes[s]["label"] == "Paper")
    graph.edges[paper, target, key]["confidence"] = 0.123
    report = push_graph(graph, clean_neo4j)
    assert report.rows_written == 1 and not report.mismatches
    assert run_cypher(clean_neo4j, f"MATCH (:Paper)-[r:{key}]->() WHERE r.confidence = 0.123 RETURN count(r) AS n") \
        == [{"n": 1}]
    assert run_cypher(clean_neo4j, DIGESTS) == [{"key": key, "digest": digest}
                                                for key, digest in sorted(paper_digests(graph).values())]


def test_a_paper_without_its_digest_is_compared_row_by_row_and_a_server_side_loss_is_restored(clean_neo4j):
    graph = replicate(sample_records(), 2)
    push_graph(graph, clean_neo4j)
    paper_key = graph.nodes[next(n for n, d in graph.nodes(data=True) if d["label"] == "Paper")]["key"]
    # what a push cut short leaves: the digest cleared, one of the paper's relationships not yet written
    lost = run_cypher(clean_neo4j, "MATCH (p:Paper {key: $key})-[r]->() WITH p, r LIMIT 1 "
                                   "REMOVE p.paperkg_digest DELETE r RETURN count(*) AS n", key=paper_key)
    assert lost == [{"n": 1}]
    report = push_graph(graph, clean_neo4j)
    assert report.rows_written == 1 and not report.mismatches
    assert run_cypher(clean_neo4j, "MATCH (p:Paper {key: $key}) RETURN p.paperkg_digest IS NOT NULL AS held",
                      key=paper_key) == [{"held": True}]
