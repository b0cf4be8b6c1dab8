"""The must-hold tools for typed edges (bench/): the sample of edges to judge by hand and its precision, the
edges per type at the default threshold with the end-label check, and the blind round's figures."""
from __future__ import annotations

import csv
import sys
from pathlib import Path

import pytest
from cli_helpers import ROOT
from records import Link, Term, build, paper

from paperkg.core.schema import DEFAULT_MIN_CONFIDENCE
from paperkg.graph.exports import read_graph, write_json

sys.path.insert(0, str(ROOT / "bench"))
from edges_judge import FIELDS, precision, sample, typed_edges
from queries_acl import parameters
from relation_ends import misfits
from relations_blind import report

TEXT = "AlphaNet is used for parsing. BetaNet is used for parsing. GammaNet is compared with AlphaNet."


@pytest.fixture(scope="module")
def graph_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three papers: AlphaNet USED_FOR parsing in all three (the most support), BetaNet in one, GammaNet compared
    with AlphaNet unsurely (above the floor, below the default threshold)."""
    terms = [Term("AlphaNet", "Method"), Term("parsing", "Task", "addresses"), Term("BetaNet", "Method"),
             Term("parsing", "Task", "addresses", nth=1), Term("GammaNet", "Method"), Term("AlphaNet", "Method", nth=1)]
    records = [paper(f"{n}{n}{n}{n}", TEXT, terms, [Link("USED_FOR", 0, 1, confidence=0.9)]
                     + ([Link("USED_FOR", 2, 3, confidence=0.9), Link("COMPARED_WITH", 4, 5, confidence=0.4)]
                        if n == "a" else []))
               for n in "abc"]
    path = tmp_path_factory.mktemp("edges") / "graph.json"
    write_json(build(records), path)
    return path


def test_the_sample_takes_the_most_supported_edges_then_a_seeded_draw_of_the_rest(graph_file: Path) -> None:
    rows = typed_edges(graph_file, DEFAULT_MIN_CONFIDENCE)
    assert sorted((row["head"], row["type"]) for row in rows) == [("AlphaNet", "USED_FOR"), ("BetaNet", "USED_FOR")]
    picked = sample(rows, 1, 5, seed=30)
    assert [(row["sample"], row["head"], row["papers"]) for row in picked] == [("top", "AlphaNet", 3),
                                                                                ("random", "BetaNet", 1)]
    assert sample(rows, 1, 5, seed=30) == picked and set(picked[0]) == set(FIELDS)
    assert len(typed_edges(graph_file, 0.0)) == 3  # the unsure comparison is in the graph, below the threshold


def test_the_precision_of_a_judged_sample_per_sample_and_type(tmp_path: Path, graph_file: Path) -> None:
    rows = sample(typed_edges(graph_file, DEFAULT_MIN_CONFIDENCE), 1, 5, seed=30)
    rows[0]["verdict"] = "y"
    path = tmp_path / "judged.tsv"
    with path.open("w", encoding="utf8", newline="") as handle:
        writer = csv.DictWriter(handle, FIELDS, delimiter="\t", lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    lines = precision(path)
    assert "top     all            right   1/1   1.00" in lines
    assert "random  all            right   0/0   -  (1 not judged)" in lines
    assert "all     USED_FOR       right   1/1   1.00  (1 not judged)" in lines


def test_edges_per_type_at_the_threshold_and_none_breaks_its_ends(graph_file: Path) -> None:
    every, wrong = misfits(graph_file)
    at, _ = misfits(graph_file, DEFAULT_MIN_CONFIDENCE)
    assert (every["USED_FOR"], every["COMPARED_WITH"], at["USED_FOR"], at["COMPARED_WITH"], wrong) == (2, 1, 2, 0, [])


def test_the_blind_round_report_per_type_and_field() -> None:
    rows = [{"field": "nlp", "abstract": 0, "head": "A", "type": "USED_FOR", "tail": "T", "confidence": 0.9},
            {"field": "other", "abstract": 1, "head": "B", "type": "IS_A", "tail": "C", "confidence": 0.3}]
    expected = [["0", "A", "USED_FOR", "T"], ["1", "B", "PART_OF", "C"]]
    lines = report(rows, ["nlp", "other"], expected, [True, False], {("0", "A", "USED_FOR", "T"): "y"}, 0.8)
    assert lines[0] == "at confidence 0.8: 1 typed edges in 2 papers, 0.50 a paper (from the floor: 2)"
    table = {line.split()[0] if not line.startswith("field") else " ".join(line.split()[:2]): line.split()
             for line in lines[2:]}
    assert table["all"][1:5] == ["1", "0.50", "1/1", "1.00"] and table["all"][5:] == ["1/2", "0.50"]
    assert table["PART_OF"][1:] == ["0", "0.00", "0/0", "-", "0/1", "0.00"]
    assert table["field other"][2:] == ["0", "0.00", "0/0", "-", "0/1", "0.00"]


def test_a_query_on_a_real_build_asks_for_what_its_relations_end_most_in(graph_file: Path) -> None:
    graph = read_graph(graph_file)
    assert parameters(graph, "methods_for_task", ["task", "min_confidence"], 0.8) == {
        "task": "parsing", "min_confidence": "0.8"}
    assert parameters(graph, "compared_with", ["method"], 0.0) == {"method": "AlphaNet"}
    assert parameters(graph, "compared_with", ["method"], 0.8)["method"] == "AlphaNet"  # none: the top method
