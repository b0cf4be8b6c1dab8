"""The Cypher library's relation queries (methods_for_task, benchmarks_for_task, compared_with,
parts_and_kinds) on the real server, against the NetworkX answer on the same graph.

The graph is the builder's, made from hand-written extraction records that state a relation of every type
(the ICML example build's few typed edges, each sure enough for the graph, do not cover every type).
"""
from __future__ import annotations

from collections import Counter

import networkx as nx
import pytest
from neo4j_fixtures import empty_database, linked, run_query as run
from records import Link, Term, build, paper

from paperkg.cypher.writer import Neo4jTarget, push_graph

pytestmark = pytest.mark.neo4j

PARSING = "We propose AlphaNet for image parsing. AlphaNet is evaluated on CityPix. " \
          "CityPix is a benchmark for image parsing. AlphaNet outperforms BetaNet."
KINDS = "GammaNet is used for image parsing. GammaNet is a convolutional network. " \
        "The attention block is part of GammaNet. Scene labelling is a subtask of image parsing."
AGAIN = "AlphaNet is applied to image parsing and evaluated on DeltaSet. BetaNet is compared with AlphaNet."


@pytest.fixture(scope="module")
def stated(neo4j_target: Neo4jTarget) -> nx.MultiDiGraph:
    """The builder's graph of three papers stating relations of every type, pushed into an empty database (each
    USED_FOR task in a sentence that states it as a purpose, as USED_FOR edges need: role addresses)."""
    sure = 0.95
    graph = build([
        paper("a1a1a1a1a1a1a1a1", PARSING, [
            Term("AlphaNet", "Method", "proposes"), Term("image parsing", "Task", "addresses"),
            Term("AlphaNet", "Method", nth=1),
            Term("CityPix", "Dataset"), Term("CityPix", "Dataset", nth=1), Term("image parsing", "Task", nth=1),
            Term("AlphaNet", "Method", nth=2), Term("BetaNet", "Method")],
            [Link("USED_FOR", 0, 1, confidence=sure), Link("EVALUATED_ON", 2, 3, confidence=sure),
             Link("BENCHMARK_FOR", 4, 5, confidence=sure), Link("COMPARED_WITH", 6, 7, confidence=sure)]),
        paper("b2b2b2b2b2b2b2b2", KINDS, [
            Term("GammaNet", "Method", "proposes"), Term("image parsing", "Task", "addresses"),
            Term("GammaNet", "Method", nth=1),
            Term("convolutional network", "Method"), Term("attention block", "Method"),
            Term("GammaNet", "Method", nth=2), Term("Scene labelling", "Task"), Term("image parsing", "Task", nth=1)],
            [Link("USED_FOR", 0, 1, confidence=sure), Link("IS_A", 2, 3, confidence=sure),
             Link("PART_OF", 4, 5, confidence=sure), Link("SUBTASK_OF", 6, 7, confidence=sure)]),
        paper("c3c3c3c3c3c3c3c3", AGAIN, [
            Term("AlphaNet", "Method"), Term("image parsing", "Task", "addresses"), Term("DeltaSet", "Dataset"),
            Term("BetaNet", "Method"), Term("AlphaNet", "Method", nth=1)],
            [Link("USED_FOR", 0, 1, confidence=sure), Link("EVALUATED_ON", 0, 2, confidence=sure),
             Link("COMPARED_WITH", 3, 4, confidence=sure)]),
    ])
    empty_database(neo4j_target)
    push_graph(graph, neo4j_target)
    return graph


def test_the_graph_states_every_relation_type(stated):
    kinds = {"USED_FOR", "EVALUATED_ON", "BENCHMARK_FOR", "COMPARED_WITH", "IS_A", "PART_OF", "SUBTASK_OF"}
    assert kinds <= {key for _, _, key in stated.edges(keys=True)}


def _typed(graph: nx.MultiDiGraph, kind: str) -> list[tuple[str, str, dict]]:
    """(source, target, attributes) of the entity-entity edges of one type."""
    return [(u, v, d) for u, v, k, d in graph.edges(keys=True, data=True) if k == kind]


def _most_linked(graph: nx.MultiDiGraph, ends: list[str]) -> str:
    """The node at the most of these edge ends whose name no other node shares (so a lookup by name is exact)."""
    names = Counter(d["name"].lower() for _, d in graph.nodes(data=True))
    counts = Counter(n for n in ends if names[graph.nodes[n]["name"].lower()] == 1)
    assert counts, "the graph has no such relation"
    return max(sorted(counts), key=counts.__getitem__)


def test_methods_for_task(neo4j_target, stated):
    uses = [(m, t, d) for m, t, d in _typed(stated, "USED_FOR") if stated.nodes[t]["label"] == "Task"]
    task = _most_linked(stated, [t for _, t, _ in uses])
    expected = {(stated.nodes[m]["name"], d["papers"]) for m, t, d in uses if t == task}
    rows = run(neo4j_target, "methods_for_task", task=stated.nodes[task]["name"])
    assert {(row["method"], row["papers"]) for row in rows} == expected
    assert all(row["sentence"] and row["paper"] for row in rows)
    assert [row["papers"] for row in rows] == sorted((row["papers"] for row in rows), reverse=True)


def test_benchmarks_for_task(neo4j_target, stated):
    by_task: dict[str, set[str]] = {}
    for d, t, _ in _typed(stated, "BENCHMARK_FOR"):
        by_task.setdefault(t, set()).add(d)
    for m, t, _ in _typed(stated, "USED_FOR"):
        by_task.setdefault(t, set()).update(linked(stated, m, "EVALUATED_ON"))
    task = _most_linked(stated, [t for t, datasets in by_task.items() for _ in datasets
                               if stated.nodes[t]["label"] == "Task"])
    rows = run(neo4j_target, "benchmarks_for_task", task=stated.nodes[task]["name"])
    assert {row["dataset"] for row in rows} == {stated.nodes[d]["name"] for d in by_task[task]}
    assert all(row["via"] and row["sentence"] for row in rows)


def test_compared_with(neo4j_target, stated):
    pairs = _typed(stated, "COMPARED_WITH")
    method = _most_linked(stated, [n for u, v, _ in pairs for n in (u, v)])
    expected = {(stated.nodes[v if u == method else u]["name"], d["papers"]) for u, v, d in pairs if method in (u, v)}
    rows = run(neo4j_target, "compared_with", method=stated.nodes[method]["name"])
    assert {(row["compared_with"], row["papers"]) for row in rows} == expected


def test_parts_and_kinds(neo4j_target, stated):
    edges = [(u, v, k, d) for k in ("PART_OF", "IS_A", "SUBTASK_OF") for u, v, d in _typed(stated, k)]
    entity = _most_linked(stated, [n for u, v, _, _ in edges for n in (u, v)])
    expected = {(k, "out" if u == entity else "in", stated.nodes[v if u == entity else u]["name"])
                for u, v, k, _ in edges if entity in (u, v)}
    rows = run(neo4j_target, "parts_and_kinds", name=stated.nodes[entity]["name"])
    assert {(row["relation"], row["direction"], row["other"]) for row in rows} == expected
