"""The blind entity round's tool (bench/entities_blind.py): each paper's entity nodes of a real build, recall of
the hand-written entities by loose name with the right type, and precision from the judge's verdicts."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from cli_helpers import ROOT
from records import Term, build, paper

from paperkg.graph.exports import write_json

sys.path.insert(0, str(ROOT / "bench"))
from entities_blind import nodes_by_paper, recall_rows, report


def test_nodes_recall_and_precision_of_a_round(tmp_path: Path) -> None:
    text = "Graph Attention Networks are used for node classification on Cora."
    terms = [Term("Graph Attention Networks", "Method"), Term("node classification", "Task", "addresses"),
             Term("Cora", "Method")]
    write_json(build([paper("aaaa", text, terms, [])]), tmp_path / "graph.json")
    found = nodes_by_paper(json.loads((tmp_path / "graph.json").read_text(encoding="utf8")))
    assert {(node.name, node.label) for node in found["aaaa"]} == {
        ("Graph Attention Network", "Method"), ("node classification", "Task"), ("Cora", "Method")}
    papers = [{"id": "aaaa", "field": "nlp"}]
    expected = [["0", "graph attention network (GAT)", "Method"], ["0", "Cora", "Dataset"],
                ["0", "link prediction", "Task"]]
    assert recall_rows(expected, papers, found) == [("nlp", "Method", "right"), ("nlp", "Dataset", "other-type"),
                                                    ("nlp", "Task", "missed")]
    listed = [{"field": "nlp", "abstract": "0", "name": node.name, "type": node.label} for node in found["aaaa"]]
    verdicts = {("0", "Graph Attention Network", "Method"): "y", ("0", "node classification", "Task"): "y",
                ("0", "Cora", "Method"): "t"}
    lines = report(listed, verdicts, recall_rows(expected, papers, found))
    assert lines[1].split()[:7] == ["all", "3", "2/3", "0.67", "3", "1", "0.33"]
    assert lines[2].split()[:4] == ["Method", "2", "1/2", "0.50"]
