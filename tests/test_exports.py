"""Exports that other tools parse: GraphML stays well-formed XML whatever the text holds, and the
CSV export never hands a spreadsheet a formula (OWASP CSV injection)."""
from __future__ import annotations

import csv
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import networkx as nx
import pytest
from records import Term, build, paper

from paperkg.graph.exports import FORMULA_LEADERS, read_graphml, write_csv, write_graphml


def proposing(name: str, title: str, abstract: str = "", paper_id: str = "p1") -> nx.MultiDiGraph:
    """The builder's graph of one paper titled `title` whose abstract (by default 'We propose NAME.') proposes
    the method `name`."""
    return build([paper(paper_id, abstract or f"We propose {name}.", [Term(name, "Method", "proposes")],
                        title=title)])


def formula_graph(formula: str) -> nx.MultiDiGraph:
    """The builder's graph of a paper whose title, venue and first author are `formula`, proposing a method named
    `formula` (also called 'm') in a sentence that is `formula`. The builder starts no name or sentence with
    whitespace, so with a tab or carriage-return leader those are set afterwards, as an edited graph.json may."""
    typed = formula.lstrip()
    graph = build([paper("p1", f"We call it m. {typed}", [
        Term(typed, "Method", "proposes", confidence=0.9), Term("m", "Method", name=typed, confidence=0.6),
    ], title=formula, venue=formula, authors=[formula, "B. Author"])])
    if typed != formula:
        method = next(node for node, label in graph.nodes(data="label") if label == "Method")
        graph.nodes[method].update(name=formula, aliases=[formula, "m"])
        evidence = graph.edges["paper:p1", method, "PROPOSES"]["evidence"]
        evidence[0] = {**evidence[0], "sentence": formula}
    return graph


def method_of(graph: nx.MultiDiGraph) -> dict:
    """The attributes of the graph's one Method node."""
    return next(data for _, data in graph.nodes(data=True) if data["label"] == "Method")


def test_graphml_is_well_formed_whatever_the_text_holds(tmp_path: Path) -> None:
    graph = proposing("Foo\x00Net", "A \x01title\x0b with \udc00 a lone surrogate \ufffe",
                      "We \x1b propose Foo\x00Net.", paper_id="p\x01q")
    path = tmp_path / "graph.graphml"
    write_graphml(graph, path)
    ElementTree.parse(path)  # raises on a character XML 1.0 forbids
    back = read_graphml(path)
    assert back.nodes["paper:p\ufffdq"]["title"] == "A \ufffdtitle\ufffd with \ufffd a lone surrogate \ufffd"
    assert method_of(back)["name"] == "Foo\ufffdNet"
    evidence = back.edges["paper:p\ufffdq", method_of(back)["key"], "PROPOSES"]["evidence"]
    assert evidence[0]["sentence"] == "We \x1b propose Foo\x00Net."  # list cells travel as JSON, escaped


def test_clean_graph_reads_back_identically(tmp_path: Path) -> None:
    graph = proposing("FooNet", "Sparse ε-Nets")
    write_graphml(graph, tmp_path / "graph.graphml")
    back = read_graphml(tmp_path / "graph.graphml")
    assert dict(back.nodes(data=True)) == dict(graph.nodes(data=True))
    assert list(back.edges(keys=True, data=True)) == list(graph.edges(keys=True, data=True))


@pytest.mark.parametrize("leader", FORMULA_LEADERS)
def test_csv_cells_that_start_like_a_formula_are_neutralised(tmp_path: Path, leader: str) -> None:
    formula = f"{leader}HYPERLINK(\"http://evil.example\",\"click\")"
    write_csv(formula_graph(formula), tmp_path)
    nodes = list(csv.DictReader((tmp_path / "nodes.csv").open(encoding="utf8", newline="")))
    edges = list(csv.DictReader((tmp_path / "edges.csv").open(encoding="utf8", newline="")))
    paper = next(row for row in nodes if row["node_type"] == "Paper")
    method = next(row for row in nodes if row["node_type"] == "Method")
    assert paper["title"] == paper["name"] == paper["venue"] == f"'{formula}"
    assert paper["authors"] == f"'{formula}|B. Author"
    assert method["name"] == f"'{formula}" and method["aliases"] == f"'{formula}|m"
    assert len(edges) == 1 and edges[0]["evidence_sentence"] == f"'{formula}"
    assert edges[0]["count"] == "2" and edges[0]["confidence"] == "0.9"  # numbers are left alone


def test_csv_keeps_ordinary_text_as_it_is(tmp_path: Path) -> None:
    write_csv(proposing("FooNet", "Sparse ε-Nets, a study"), tmp_path)
    nodes = list(csv.DictReader((tmp_path / "nodes.csv").open(encoding="utf8", newline="")))
    assert {row["name"] for row in nodes} == {"Sparse ε-Nets, a study", "FooNet"}


def test_graphml_keys_name_the_type_node_type_and_no_key_id_reads_as_a_property(tmp_path: Path) -> None:
    """Gephi matches a <key>'s id as well as its attr.name against `label`, `weight`, `x`...: ids
    are g0.., n0.., e0.., and `label` holds the name, `node_type` the type."""
    write_graphml(proposing("FooNet", "Sparse Nets"), tmp_path / "g.graphml")
    ns = {"g": "http://graphml.graphdrawing.org/xmlns"}
    root = ElementTree.parse(tmp_path / "g.graphml").getroot()
    keys = {key.get("id"): key.get("attr.name") for key in root.findall("g:key", ns)}
    assert all(key_id[0] in "gne" and key_id[1:].isdigit() for key_id in keys)
    label_key = next(key_id for key_id, name in keys.items() if name == "label")
    type_key = next(key_id for key_id, name in keys.items() if name == "node_type")
    method = root.find("g:graph/g:node[@id='method:foonet']", ns)
    assert method.find(f"g:data[@key='{label_key}']", ns).text == "FooNet"
    assert method.find(f"g:data[@key='{type_key}']", ns).text == "Method"
    edge = root.find("g:graph/g:edge", ns)
    assert edge.get("label") == "PROPOSES" and "id" not in keys.values()
