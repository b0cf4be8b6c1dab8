"""The rows the Neo4j writer sends and the Cypher library's loader; no server needed."""
from __future__ import annotations

import pytest
from graph_fixtures import FLERM_KEY, GT_KEY, LLM_KEY, sample_graph

from paperkg.cypher.library import list_queries, load_query, schema_statements
from paperkg.core.errors import PaperkgError
from paperkg.cypher import rows as rows_module
from paperkg.cypher.rows import NODE_LABELS, evidence_lists, graph_counts, graph_rows, paper_digests


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


def test_evidence_with_a_missing_field_or_another_type_becomes_lists_of_the_field_type():
    items = [{"paper": "p1", "sentence": "One.", "sentence_start": 0, "start": 1, "end": 4, "extractor": "model",
              "confidence": 1},  # an int confidence, as a hand-edited graph.json may hold
             {"paper": "p2", "sentence": "Two.", "start": 2, "end": 5, "confidence": 0.5}]  # no extractor or start
    lists = evidence_lists(items)
    assert lists["evidence_confidences"] == [1.0, 0.5] and type(lists["evidence_confidences"][0]) is float
    assert lists["evidence_extractors"] == ["model", ""] and lists["evidence_sentence_starts"] == [0, -1]
    assert lists["evidence_papers"] == ["p1", "p2"] and evidence_lists([]) == {prop: [] for prop, *_ in
                                                                             rows_module.EVIDENCE_FIELDS.values()}


def test_paper_digests_shared_with_a_forked_copy_equal_those_made_here(monkeypatch: pytest.MonkeyPatch):
    graph = sample_graph()
    here = paper_digests(graph)
    monkeypatch.setattr(rows_module, "_FORK_PAPERS", 2)
    shared = paper_digests(graph)
    assert list(shared.items()) == list(here.items()) and len(here) == 3


def test_labels_and_types_outside_the_allow_list_are_refused():
    graph = sample_graph()  # a builder graph whose node label and edge type are then rewritten, as in a hostile file
    graph.nodes[FLERM_KEY]["label"] = "Method`) DETACH DELETE n //"
    with pytest.raises(PaperkgError, match="has label .*; paperkg pushes only"):
        graph_rows(graph)
    graph = sample_graph()
    graph.edges[FLERM_KEY, GT_KEY, "USED_FOR"]["type"] = "DROPS"
    with pytest.raises(PaperkgError, match="DROPS"):
        graph_rows(graph)


def test_counts_refuse_a_label_or_type_outside_the_allow_list_naming_it():
    assert graph_counts(sample_graph())[0]["Paper"] == 3
    graph = sample_graph()
    graph.nodes[FLERM_KEY]["label"] = ["Method"]  # unhashable, as a hostile graph.json can make it
    with pytest.raises(PaperkgError, match=r"has label \['Method'\]; paperkg pushes only"):
        graph_counts(graph)
    graph = sample_graph()
    graph.edges[FLERM_KEY, GT_KEY, "USED_FOR"]["type"] = "DROPS"
    with pytest.raises(PaperkgError, match="has type 'DROPS'"):
        graph_counts(graph)


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
