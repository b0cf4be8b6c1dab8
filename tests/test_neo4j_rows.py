"""The rows the Neo4j writer sends and the Cypher library's loader; no server needed."""
from __future__ import annotations

import pytest
from graph_fixtures import FLERM_KEY, GT_KEY, LLM_KEY, sample_graph

from paperkg.cypher.library import list_queries, load_query, schema_statements
from paperkg.core.errors import PaperkgError
from paperkg.cypher.rows import NODE_LABELS, graph_rows


def test_rows_group_nodes_by_label_and_relationships_by_type_and_end_labels():
    graph = sample_graph()
    rows = graph_rows(graph)
    assert sum(rows.node_counts().values()) == graph.number_of_nodes()
    assert sum(rows.rel_counts().values()) == graph.number_of_edges()
    assert set(rows.nodes) <= set(NODE_LABELS)
    assert ("PROPOSES", "Paper", "Method") in rows.rels
    flerm = next(row for row in rows.nodes["Method"] if row["key"] == FLERM_KEY)
    assert flerm["props"]["aliases"] == ["FLeRM", "Function-space Learning Rate Matching"]
    assert "label" not in flerm["props"] and flerm["props"]["key"] == FLERM_KEY


def test_evidence_becomes_parallel_lists_of_one_type_each():
    rows = graph_rows(sample_graph())
    llm = next(row for row in rows.rels[("MENTIONS", "Paper", "Method")] if row["target"] == LLM_KEY)
    props = llm["props"]
    assert props["evidence_papers"] == ["4a2f2e6da9f81cf7"] * 2  # "large language models (LLMs)"
    assert props["evidence_sentences"][0].startswith("We develop Function-space Learning Rate Matching")
    assert isinstance(props["evidence_starts"][0], int) and isinstance(props["evidence_confidences"][0], float)
    assert "evidence" not in props and "type" not in props
    lengths = {len(value) for name, value in props.items() if name.startswith("evidence_")}
    assert lengths == {props["count"]}


def test_labels_and_types_outside_the_allow_list_are_refused():
    graph = sample_graph()  # a builder graph whose node label and edge type are then rewritten, as in a hostile file
    graph.nodes[FLERM_KEY]["label"] = "Method`) DETACH DELETE n //"
    with pytest.raises(PaperkgError, match="has label .*; paperkg pushes only"):
        graph_rows(graph)
    graph = sample_graph()
    graph.edges[FLERM_KEY, GT_KEY, "USED_FOR"]["type"] = "DROPS"
    with pytest.raises(PaperkgError, match="DROPS"):
        graph_rows(graph)


def test_nested_values_are_refused_with_the_attribute_named():
    graph = sample_graph()
    graph.nodes[FLERM_KEY]["extra"] = {"nested": 1}
    with pytest.raises(PaperkgError, match="'extra'"):
        graph_rows(graph)


def test_every_query_has_a_summary_and_browser_style_parameters():
    queries = list_queries()
    assert len(queries) >= 12
    for query in queries:
        assert query.summary and query.text.strip()
        for param in query.params:
            assert f"${param.name}" in query.text, (query.name, param.name)


def test_query_parameters_take_the_type_of_their_default():
    top = load_query("top_methods")
    assert top.parameters({"limit": "3"}) == {"limit": 3}
    assert load_query("new_entities").parameters({"since": "2"}) == {"since": 2}
    with pytest.raises(PaperkgError, match="takes a number"):
        top.parameters({"limit": "many"})
    with pytest.raises(PaperkgError, match="no parameter 'lim'"):
        top.parameters({"lim": "3"})
    with pytest.raises(PaperkgError, match="no query named 'nope'"):
        load_query("nope")


def test_schema_constrains_every_label_key():
    statements = schema_statements()
    for label in NODE_LABELS:
        assert any(f"(n:{label}) REQUIRE n.key IS UNIQUE" in s for s in statements), label
    assert all("IF NOT EXISTS" in s for s in statements)
