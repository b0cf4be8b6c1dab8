"""The Cypher library's leaderboard queries (leaderboard, best_reported, results_for_method) on the real server
answer the same rows, in the same order, as `paperkg leaderboard NAME OUT --json` on the same build.

The build is `paperkg build` of the 240 real abstracts of bench/data/results_dev (ACL and arXiv abstracts that
report results), so its boards hold ranked levels, changes and boards of several papers.
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import networkx as nx
import pytest
from cli_helpers import ROOT, run_cli
from neo4j_fixtures import empty_database, run_query as run

from paperkg.cypher.writer import Neo4jTarget, push_graph
from paperkg.graph.exports import read_json

pytestmark = pytest.mark.neo4j
SAMPLE = ROOT / "bench" / "data" / "results_dev" / "sample.jsonl"


@pytest.fixture(scope="module")
def results_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`paperkg build` of the dev set's abstracts; returns its output folder."""
    folder = tmp_path_factory.mktemp("results-build")
    corpus = folder / "abstracts.jsonl"
    rows = [json.loads(line) for line in SAMPLE.read_text(encoding="utf8").splitlines()]
    corpus.write_text("".join(json.dumps({key: row[key] for key in ("id", "title", "abstract", "year")}) + "\n"
                              for row in rows), encoding="utf8")
    run_cli("build", str(corpus), "-o", str(folder / "out"))
    return folder / "out"


@pytest.fixture(scope="module")
def pushed(neo4j_target: Neo4jTarget, results_build: Path) -> nx.MultiDiGraph:
    """The build's graph in an empty database."""
    graph = read_json(results_build / "graph.json")
    empty_database(neo4j_target)
    push_graph(graph, neo4j_target)
    return graph


def cli_report(build: Path, name: str, *options: str) -> dict:
    """`paperkg leaderboard NAME BUILD --json` as read back."""
    return json.loads(run_cli("leaderboard", name, str(build), "--json", *options).stdout)


def subjects(build: Path) -> list[str]:
    """The names of the build's tasks and data sets with results that no other subject answers to."""
    stored = json.loads((build / "leaderboards.json").read_text(encoding="utf8"))["subjects"]
    names = Counter(subject["name"].casefold() for subject in stored.values())
    return sorted(subject["name"] for subject in stored.values() if names[subject["name"].casefold()] == 1)


def test_the_build_has_boards_worth_comparing(results_build):
    stored = json.loads((results_build / "leaderboards.json").read_text(encoding="utf8"))["subjects"]
    boards = [board for subject in stored.values() for board in subject["boards"]]
    ranked = [board for board in boards if board["kind"] == "absolute" and board["better"] and board["dataset_key"]
              and board["metric_key"]]
    assert any(len(board["rows"]) > 1 for board in ranked)
    assert any(board["kind"] == "change" for board in boards)


def test_leaderboard(neo4j_target, results_build, pushed):
    names = subjects(results_build)
    assert len(names) > 20
    for name in names:
        report = cli_report(results_build, name)
        expected = [(board["dataset"], board["metric_key"], board["split"], board["kind"], board["unit"],
                     row["rank"], row["result"], row["paper"], row["year"]) for board in report["boards"]
                    for row in board["rows"]]
        rows = run(neo4j_target, "leaderboard", name=name)
        assert {row["subject"] for row in rows} == {report["subject"]["name"]}, name
        assert [(row["dataset"], row["metric_key"], row["split"], row["kind"], row["unit"], row["rank"],
                 row["result"], row["paper"], row["year"]) for row in rows] == expected, name
        assert all(row["sentence"] for row in rows)


def test_leaderboard_of_one_type(neo4j_target, results_build, pushed):
    name = subjects(results_build)[0]
    report = cli_report(results_build, name)
    other = "Task" if report["subject"]["type"] == "Dataset" else "Dataset"
    assert run(neo4j_target, "leaderboard", name=name, type=other) == []
    assert len(run(neo4j_target, "leaderboard", name=name, type=report["subject"]["type"])) == sum(
        len(board["rows"]) for board in report["boards"])


def test_best_reported(neo4j_target, results_build, pushed):
    compared = 0
    for name in subjects(results_build):
        report = cli_report(results_build, name, "--by-year")
        expected = sorted(((board["dataset_key"], board["metric_key"], board["split"], board["unit"], row["year"]),
                           row["result"]) for board in report["boards"] for row in board.get("best_by_year", []))
        rows = run(neo4j_target, "best_reported", name=name)
        assert [row["result"] for row in rows] == [result for _, result in expected], name
        compared += len(rows)
    assert compared


def test_changes_are_never_ranked(neo4j_target, results_build, pushed):
    for name in subjects(results_build):
        for row in run(neo4j_target, "leaderboard", name=name):
            if row["kind"] == "change":
                assert row["rank"] is None


def test_results_for_method(neo4j_target, pushed):
    reported = Counter(target for source, target, kind in pushed.edges(keys=True) if kind == "FOR_METHOD")
    names = Counter(d["name"].casefold() for _, d in pushed.nodes(data=True))
    method = max(sorted(m for m in reported if names[pushed.nodes[m]["name"].casefold()] == 1), key=reported.get)
    rows = run(neo4j_target, "results_for_method", method=pushed.nodes[method]["name"])
    assert sorted(row["result"] for row in rows) == sorted(
        source for source, target, kind in pushed.edges(keys=True)
        if kind == "FOR_METHOD" and target == method)
    assert all(row["sentence"] and row["paper"] for row in rows)
