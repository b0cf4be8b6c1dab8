"""Unit tests: the compact forms that keep a large graph small give what NetworkX and dicts gave.

Louvain on node numbers must find NetworkX's partition (same seed), and compact evidence must read,
compare and serialise like the evidence dict it replaces.
"""
from __future__ import annotations

import json

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from paperkg.graph.evidence import CompactEvidence, EvidenceFactory, json_default
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
    abstract = "First sentence here. We propose FooNet for parsing."
    factory = EvidenceFactory()
    spans = factory.spans(abstract, ["First sentence here.", "We propose FooNet for parsing.",
                                     "A sentence not in the abstract."])
    evidence = factory.make("p1", spans[1], 32, 38, "model", 0.912345)
    plain = {"paper": "p1", "sentence": "We propose FooNet for parsing.", "start": 32, "end": 38,
             "extractor": "model", "confidence": 0.9123}
    assert dict(evidence) == plain and evidence == plain and plain == evidence
    assert evidence == factory.make("p1", spans[1], 32, 38, "model", 0.9123)
    assert evidence != factory.make("p1", spans[0], 32, 38, "model", 0.9123)
    assert json.dumps([evidence], sort_keys=True, default=json_default) == json.dumps([plain], sort_keys=True)
    assert factory.make("p1", spans[2], 0, 1, "model", 1)["sentence"] == "A sentence not in the abstract."
    assert isinstance(factory.make("p1", spans[0], 0, 1, "model", 1).confidence, float)
    assert isinstance(evidence, CompactEvidence) and evidence.get("missing") is None
