"""The streamed GraphML and node-link JSON read back to the graph that was written, markup in text included."""
from __future__ import annotations

import networkx as nx

from paperkg.core.schema import SCHEMA_VERSION
from paperkg.graph.exports import read_graphml, read_json, write_graphml, write_json

HOSTILE = 'A & B <b>"quoted"</b>\n\tnext line'


def _graph() -> nx.MultiDiGraph:
    graph = nx.MultiDiGraph(paperkg_schema=SCHEMA_VERSION)
    graph.add_node("method:a & b", label="Method", key="method:a & b", name=HOSTILE, aliases=[HOSTILE, "A&B"],
                   mentions=2, pagerank=0.125, community=0)
    graph.add_node("paper:1", label="Paper", key="paper:1", name="x", year=2025, abstract=HOSTILE, authors=[])
    graph.add_edge("paper:1", "method:a & b", key="PROPOSES", type="PROPOSES", count=1, confidence=0.9,
                   evidence=[{"paper": "1", "sentence": HOSTILE, "start": 0, "end": 5, "extractor": "name",
                              "confidence": 0.9}])
    return graph


def test_graphml_and_json_read_back_identical(tmp_path):
    graph = _graph()
    write_graphml(graph, tmp_path / "g.graphml")
    write_json(graph, tmp_path / "g.json")
    for back in (read_graphml(tmp_path / "g.graphml"), read_json(tmp_path / "g.json")):
        assert sorted(back.nodes(data=True)) == sorted(graph.nodes(data=True))
        assert sorted(back.edges(keys=True, data=True)) == sorted(graph.edges(keys=True, data=True))
    plain = nx.read_graphml(tmp_path / "g.graphml")
    assert plain.nodes["method:a & b"]["name"] == HOSTILE


def test_same_graph_built_in_another_order_gives_the_same_bytes(tmp_path):
    graph = _graph()
    reordered = nx.MultiDiGraph(**graph.graph)
    reordered.add_nodes_from(reversed(list(graph.nodes(data=True))))
    reordered.add_edges_from(graph.edges(keys=True, data=True))
    for name, write in (("g.graphml", write_graphml), ("g.json", write_json)):
        write(graph, tmp_path / f"1{name}")
        write(reordered, tmp_path / f"2{name}")
        assert (tmp_path / f"1{name}").read_bytes() == (tmp_path / f"2{name}").read_bytes()
