"""Unit tests: the compact forms that keep a large graph small give what NetworkX and dicts gave.

Louvain on node numbers must find NetworkX's partition (same seed), PageRank on a sparse matrix
NetworkX's PageRank, and compact evidence must read, compare and serialise like the evidence dict
it replaces.
"""
from __future__ import annotations

import json

import networkx as nx
import pytest
from graph_fixtures import sample_graph
from hypothesis import given, settings
from hypothesis import strategies as st
from view_fixtures import synthetic_field

from paperkg.graph.evidence import CompactEvidence, EvidenceFactory, json_default
from paperkg.graph.exports import read_json
from paperkg.graph.louvain import louvain_communities

_edges = st.lists(st.tuples(st.integers(0, 39), st.integers(0, 39), st.integers(1, 5)), max_size=120)


@settings(max_examples=60, deadline=None)
@given(edges=_edges, seed=st.integers(0, 1000))
def test_louvain_finds_networkx_partition(edges, seed):
    weights: dict[tuple[int, int], int] = {}
    for u, v, weight in edges:
        pair = (min(u, v), max(u, v))
        weights[pair] = weights.get(pair, 0) + weight
    graph = nx.Graph()
    graph.add_nodes_from(range(40))
    graph.add_weighted_edges_from((u, v, w) for (u, v), w in sorted(weights.items()))
    expected = nx.community.louvain_communities(graph, weight="weight", seed=seed)
    found = louvain_communities(40, ((u, v, w) for (u, v), w in sorted(weights.items())), seed)
    assert sorted(map(sorted, found)) == sorted(map(sorted, expected))


def test_compact_evidence_reads_compares_and_serialises_as_its_dict():
    abstract = "First sentence here. We propose FooNet for parsing. First sentence here."
    factory = EvidenceFactory()
    spans = factory.spans(abstract, [(0, 20), (21, 51), (52, 72)])
    evidence = factory.make("p1", spans[1], 32, 38, "model", 0.912345)
    plain = {"paper": "p1", "sentence": "We propose FooNet for parsing.", "sentence_start": 21, "start": 32, "end": 38,
             "extractor": "model", "confidence": 0.9123}
    assert dict(evidence) == plain and evidence == plain and plain == evidence
    assert evidence == factory.make("p1", spans[1], 32, 38, "model", 0.9123)
    assert evidence != factory.make("p1", spans[0], 32, 38, "model", 0.9123)
    assert json.dumps([evidence], sort_keys=True, default=json_default) == json.dumps([plain], sort_keys=True)
    first, again = factory.make("p1", spans[0], 0, 5, "model", 1), factory.make("p1", spans[2], 52, 57, "model", 1)
    assert first["sentence"] == again["sentence"] and first != again  # one sentence twice: two places
    assert again["sentence_start"] == 52
    assert isinstance(first.confidence, float)
    assert isinstance(evidence, CompactEvidence) and evidence.get("missing") is None


def _without_results(graph: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """The graph the metrics are of: result nodes and their edges left out (graph/metrics.py)."""
    return graph.subgraph(node for node, label in graph.nodes(data="label") if label != "Result")


@pytest.mark.parametrize("graph", [sample_graph, lambda: synthetic_field(300, 1500, seed=3)], ids=["sample", "field"])
def test_pagerank_is_networkx_pagerank_of_the_graph_weighted_by_evidence_count(graph):
    made = _without_results(graph())
    expected = nx.pagerank(made, weight="count")  # a multigraph's parallel edges summed, as add_metrics does
    found = dict(made.nodes(data="pagerank"))
    assert set(found) == set(expected)
    assert max(abs(found[node] - expected[node]) for node in made) < 1e-6
    def top(ranks: dict) -> list:
        return sorted(made, key=lambda node: (-ranks[node], node))[:5]
    assert top(found) == top(expected)


def test_pagerank_of_the_corpus_build_is_networkx_pagerank(built):
    made = _without_results(read_json(built / "graph.json"))
    assert made.number_of_nodes() < read_json(built / "graph.json").number_of_nodes()  # the build reads results
    expected = nx.pagerank(made, weight="count")
    assert max(abs(made.nodes[node]["pagerank"] - expected[node]) for node in made) < 1e-6
