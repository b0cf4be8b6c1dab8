"""The streamed GraphML and node-link JSON read back to the graph that was written, markup in text included."""
from __future__ import annotations

import networkx as nx
from records import Term, build, every_relation, paper

from paperkg.core.schema import RESULT_REL_TYPES, RelType
from paperkg.graph.exports import read_graphml, read_json, write_graphml, write_json

HOSTILE = 'A&B <b>"quoted"</b>\n\tNet'  # markup, a line break and a tab; 'A & B' would be a coordination, no name


def _graph() -> nx.MultiDiGraph:
    """The builder's graph of a paper proposing a method named with markup, a line break and a tab (also called
    'A&B'), titled and written so too, beside a paper with an edge of every type."""
    markup = paper("1", f"We propose {HOSTILE}, or A&B.", [
        Term(HOSTILE, "Method", "proposes", source="name", confidence=0.9),
        Term("A&B", "Method", name=HOSTILE, source="name", confidence=0.9),
    ], title=HOSTILE, year=2025)
    return build([markup, every_relation(year=2024, authors=["B. Author"])])


def test_graphml_and_json_read_back_identical(tmp_path):
    graph = _graph()
    kinds = {kind for _, _, kind in graph.edges(keys=True)}
    assert kinds == set(RelType) - {RelType.SYNONYM_OF} - set(RESULT_REL_TYPES)
    write_graphml(graph, tmp_path / "g.graphml")
    write_json(graph, tmp_path / "g.json")
    for back in (read_graphml(tmp_path / "g.graphml"), read_json(tmp_path / "g.json")):
        assert sorted(back.nodes(data=True)) == sorted(graph.nodes(data=True))
        assert sorted(back.edges(keys=True, data=True)) == sorted(graph.edges(keys=True, data=True))
    plain = nx.read_graphml(tmp_path / "g.graphml")
    assert plain.nodes["paper:1"]["title"] == HOSTILE
    assert plain.nodes["paper:1"]["abstract"] == f"We propose {HOSTILE}, or A&B."
    method = next(node for node, aliases in graph.nodes(data="aliases") if aliases and "A&B" in aliases)
    assert plain.nodes[method]["name"] == graph.nodes[method]["name"] == " ".join(HOSTILE.split())


def test_same_graph_built_in_another_order_gives_the_same_bytes(tmp_path):
    graph = _graph()
    reordered = nx.MultiDiGraph(**graph.graph)  # the builder's graph, its nodes and edges inserted in another order
    reordered.add_nodes_from(reversed(list(graph.nodes(data=True))))
    reordered.add_edges_from(reversed(list(graph.edges(keys=True, data=True))))
    for name, write in (("g.graphml", write_graphml), ("g.json", write_json)):
        write(graph, tmp_path / f"1{name}")
        write(reordered, tmp_path / f"2{name}")
        assert (tmp_path / f"1{name}").read_bytes() == (tmp_path / f"2{name}").read_bytes()
