"""Exports that other tools parse: GraphML stays well-formed XML whatever the text holds, and the
CSV export never hands a spreadsheet a formula (OWASP CSV injection)."""
from __future__ import annotations

import csv
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import networkx as nx
import pytest

from paperkg.core.schema import SCHEMA_KEY, SCHEMA_VERSION
from paperkg.graph.exports import read_graphml, write_csv, write_graphml


def graph_with(title: str, name: str, sentence: str, paper: str = "paper:p1") -> nx.MultiDiGraph:
    graph = nx.MultiDiGraph()
    graph.graph[SCHEMA_KEY] = SCHEMA_VERSION
    graph.add_node(paper, label="Paper", key=paper, name=title, title=title, aliases=[title])
    graph.add_node("method:m", label="Method", key="method:m", name=name, aliases=[name, "m"])
    graph.add_edge(paper, "method:m", key="PROPOSES", type="PROPOSES", count=1, confidence=0.9,
                   evidence=[{"paper": paper, "sentence": sentence, "start": 0, "end": 1, "extractor": "rule",
                              "confidence": 0.9}])
    return graph


def test_graphml_is_well_formed_whatever_the_text_holds(tmp_path: Path) -> None:
    graph = graph_with("A \x01title\x0b with \udc00 a lone surrogate \ufffe", "Foo\x00Net", "We \x1b propose.",
                       paper="paper:p\x01q")
    path = tmp_path / "graph.graphml"
    write_graphml(graph, path)
    ElementTree.parse(path)  # raises on a character XML 1.0 forbids
    back = read_graphml(path)
    assert back.nodes["paper:p\ufffdq"]["title"] == "A \ufffdtitle\ufffd with \ufffd a lone surrogate \ufffd"
    assert back.nodes["method:m"]["name"] == "Foo\ufffdNet"


def test_clean_graph_reads_back_identically(tmp_path: Path) -> None:
    graph = graph_with("Sparse ε-Nets", "FooNet", "We propose FooNet.")
    write_graphml(graph, tmp_path / "graph.graphml")
    back = read_graphml(tmp_path / "graph.graphml")
    assert dict(back.nodes(data=True)) == dict(graph.nodes(data=True))


@pytest.mark.parametrize("leader", ["=", "+", "-", "@", "\t", "\r"])
def test_csv_cells_that_start_like_a_formula_are_neutralised(tmp_path: Path, leader: str) -> None:
    formula = f"{leader}HYPERLINK(\"http://evil.example\",\"click\")"
    write_csv(graph_with(formula, formula, formula), tmp_path)
    nodes = list(csv.DictReader((tmp_path / "nodes.csv").open(encoding="utf8", newline="")))
    edges = list(csv.DictReader((tmp_path / "edges.csv").open(encoding="utf8", newline="")))
    paper = next(row for row in nodes if row["node_type"] == "Paper")
    method = next(row for row in nodes if row["node_type"] == "Method")
    assert paper["title"] == paper["name"] == paper["aliases"] == f"'{formula}"
    assert method["name"] == f"'{formula}" and method["aliases"] == f"'{formula}|m"
    assert edges[0]["evidence_sentence"] == f"'{formula}"
    assert edges[0]["count"] == "1" and edges[0]["confidence"] == "0.9"  # numbers are left alone


def test_csv_keeps_ordinary_text_as_it_is(tmp_path: Path) -> None:
    write_csv(graph_with("Sparse ε-Nets, a study", "FooNet", "We propose FooNet."), tmp_path)
    nodes = list(csv.DictReader((tmp_path / "nodes.csv").open(encoding="utf8", newline="")))
    assert {row["name"] for row in nodes} == {"Sparse ε-Nets, a study", "FooNet"}


def test_graphml_keys_name_the_type_node_type_and_no_key_id_reads_as_a_property(tmp_path: Path) -> None:
    """Gephi matches a <key>'s id as well as its attr.name against `label`, `weight`, `x`...: ids
    are g0.., n0.., e0.., and `label` holds the name, `node_type` the type."""
    write_graphml(graph_with("Sparse Nets", "FooNet", "We propose FooNet."), tmp_path / "g.graphml")
    ns = {"g": "http://graphml.graphdrawing.org/xmlns"}
    root = ElementTree.parse(tmp_path / "g.graphml").getroot()
    keys = {key.get("id"): key.get("attr.name") for key in root.findall("g:key", ns)}
    assert all(key_id[0] in "gne" and key_id[1:].isdigit() for key_id in keys)
    label_key = next(key_id for key_id, name in keys.items() if name == "label")
    type_key = next(key_id for key_id, name in keys.items() if name == "node_type")
    method = root.find("g:graph/g:node[@id='method:m']", ns)
    assert method.find(f"g:data[@key='{label_key}']", ns).text == "FooNet"
    assert method.find(f"g:data[@key='{type_key}']", ns).text == "Method"
    edge = root.find("g:graph/g:edge", ns)
    assert edge.get("label") == "PROPOSES" and "id" not in keys.values()
