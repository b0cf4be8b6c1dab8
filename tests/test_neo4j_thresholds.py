"""Typed relations in Neo4j with how sure they are: every edge from the graph's floor is pushed with its
calibrated confidence and support, the library's relation queries read the threshold the user sets, and a
query whose relation type the graph lacks at that threshold says so in one sentence naming it.

The graph is the builder's, from hand-written extraction records: a comparison stated surely and one stated
unsurely (above the floor, below the default threshold), and no PART_OF, IS_A or SUBTASK_OF at all.
"""
from __future__ import annotations

import networkx as nx
import pytest
from cli_helpers import run_cli
from neo4j_fixtures import empty_database, run_cypher, run_query as run
from records import Link, Term, build, paper

from paperkg.core.schema import DEFAULT_MIN_CONFIDENCE, RELATION_FLOOR
from paperkg.cypher.runner import lacking
from paperkg.cypher.writer import Neo4jTarget, push_graph

pytestmark = pytest.mark.neo4j

SURE = "AlphaNet outperforms BetaNet on parsing."
UNSURE = "GammaNet is compared with AlphaNet."


@pytest.fixture(scope="module")
def unsure(neo4j_target: Neo4jTarget) -> nx.MultiDiGraph:
    graph = build([
        paper("a1a1a1a1a1a1a1a1", SURE, [Term("AlphaNet", "Method"), Term("BetaNet", "Method")],
              [Link("COMPARED_WITH", 0, 1, confidence=0.95)]),
        paper("b2b2b2b2b2b2b2b2", UNSURE, [Term("GammaNet", "Method"), Term("AlphaNet", "Method")],
              [Link("COMPARED_WITH", 0, 1, confidence=0.45)]),
    ])
    empty_database(neo4j_target)
    push_graph(graph, neo4j_target)
    return graph


def test_every_typed_edge_from_the_floor_is_in_neo4j_with_its_confidence_and_support(neo4j_target, unsure):
    built = sorted((d["confidence"], d["papers"], d["count"], d["against"])
                   for _, _, k, d in unsure.edges(keys=True, data=True) if k == "COMPARED_WITH")
    assert len(built) == 2 and RELATION_FLOOR <= built[0][0] < DEFAULT_MIN_CONFIDENCE <= built[1][0]
    rows = run_cypher(neo4j_target, "MATCH ()-[r:COMPARED_WITH]->() "
                                    "RETURN r.confidence AS c, r.papers AS p, r.count AS n, r.against AS a")
    assert sorted((row["c"], row["p"], row["n"], row["a"]) for row in rows) == built


def test_a_relation_query_reads_the_threshold_it_is_given(neo4j_target, unsure):
    assert [row["compared_with"] for row in run(neo4j_target, "compared_with", method="AlphaNet")] == ["BetaNet"]
    rows = run(neo4j_target, "compared_with", method="AlphaNet", min_confidence=RELATION_FLOOR)
    assert sorted(row["compared_with"] for row in rows) == ["BetaNet", "GammaNet"]


def test_the_cli_says_which_relation_types_the_graph_lacks_at_its_threshold(neo4j_target, unsure, monkeypatch):
    monkeypatch.setenv("NEO4J_PASSWORD", neo4j_target.password)
    where = ("--uri", neo4j_target.uri, "--database", neo4j_target.database)
    result = run_cli("query", "parts_and_kinds", "-p", "name=AlphaNet", *where)
    assert (f"query parts_and_kinds: the graph holds no PART_OF relation at confidence {DEFAULT_MIN_CONFIDENCE} "
            "or more (none at all: the relation model found none in these papers).") in result.stderr
    assert "no IS_A relation" in result.stderr and "no SUBTASK_OF relation" in result.stderr
    result = run_cli("query", "compared_with", "-p", "method=GammaNet", "--min-confidence", "0.99", *where)
    assert "compared_with: no rows" in result.stdout
    assert ("query compared_with: the graph holds no COMPARED_WITH relation at confidence 0.99 or more (2 less sure: "
            "lower --min-confidence to see them).") in result.stderr
    monkeypatch.setenv("PAPERKG_MIN_CONFIDENCE", "0.3")  # the setting, when no flag is given
    result = run_cli("query", "compared_with", "-p", "method=GammaNet", *where)
    assert "AlphaNet" in result.stdout


def test_the_sentence_for_a_lacking_type_names_it_and_the_threshold() -> None:
    assert lacking("compared_with", {"COMPARED_WITH": (0, 3), "USED_FOR": (2, 2)}, 0.8) == [
        "query compared_with: the graph holds no COMPARED_WITH relation at confidence 0.8 or more (3 less sure: "
        "lower --min-confidence to see them)."]
