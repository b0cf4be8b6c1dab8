"""Every query of the Cypher library, run on the real server loaded with the ICML 2025 graph.

Expected rows come from the same graph.json, computed with NetworkX, plus literal anchors
from the abstracts (FLeRM, ResGen) that any correct build keeps.
"""
from __future__ import annotations

from itertools import combinations

import networkx as nx
import pytest
import test_neo4j_leaderboard_queries
import test_neo4j_relation_queries
from neo4j_fixtures import empty_database, linked, run_query as run, without_paper

from paperkg.cypher.library import list_queries
from paperkg.graph.exports import read_json
from paperkg.cypher.writer import Neo4jTarget, push_graph

pytestmark = pytest.mark.neo4j
ENTITY_LABELS = {"Method", "Task", "Dataset", "Metric"}


@pytest.fixture(scope="module")
def icml(neo4j_target: Neo4jTarget, built) -> nx.MultiDiGraph:
    """The ICML 2025 graph, pushed in two steps: without the FLeRM paper, then whole."""
    graph = read_json(built / "graph.json")
    empty_database(neo4j_target)
    push_graph(without_paper(graph, paper_with(graph, "FLeRM")), neo4j_target)
    push_graph(graph, neo4j_target)
    return graph


def paper_with(graph: nx.MultiDiGraph, text: str) -> str:
    """The node id of the one paper whose abstract contains `text`."""
    [paper] = [n for n, d in graph.nodes(data=True) if d["label"] == "Paper" and text in d["abstract"]]
    return paper


def entity(graph: nx.MultiDiGraph, label: str, text: str) -> str:
    """The node id of the entity named, abbreviated or aliased `text`."""
    [node] = [n for n, d in graph.nodes(data=True) if d["label"] == label and
              text.lower() in {s.lower() for s in [d["name"], d.get("acronym", ""), *d.get("aliases", [])]}]
    return node


def test_every_query_has_a_test_here():
    tests = set(globals()) | set(vars(test_neo4j_relation_queries)) | set(vars(test_neo4j_leaderboard_queries))
    assert {f"test_{query.name}" for query in list_queries()} <= tests


def test_acronym(neo4j_target, icml):
    [row] = run(neo4j_target, "acronym", acronym="flerm")
    assert row["acronym"] == "FLeRM"
    assert row["stands_for"] == "Function-space Learning Rate Matching"
    assert row["paper_ids"] == [icml.nodes[paper_with(icml, "FLeRM")]["paper_id"]]


def test_acronym_glossary(neo4j_target, icml):
    rows = run(neo4j_target, "acronym_glossary", limit=1000)
    with_acronym = [d for _, d in icml.nodes(data=True) if d["label"] in ENTITY_LABELS and d.get("acronym")]
    assert len(rows) == len(with_acronym)
    assert {"acronym": "FLeRM", "stands_for": "Function-space Learning Rate Matching",
            "label": "Method", "papers": 1} in rows


def test_central_entities(neo4j_target, icml):
    rows = run(neo4j_target, "central_entities", limit=5)
    top = max((d for _, d in icml.nodes(data=True) if d["label"] in ENTITY_LABELS), key=lambda d: d["pagerank"])
    assert len(rows) == 5 and rows[0]["name"] == top["name"]
    assert [row["pagerank"] for row in rows] == sorted((row["pagerank"] for row in rows), reverse=True)
    assert {row["label"] for row in run(neo4j_target, "central_entities", label="Dataset")} == {"Dataset"}


def test_co_occurring_tasks(neo4j_target, icml):
    rows = run(neo4j_target, "co_occurring_tasks", limit=10000)
    expected: dict[tuple[str, str], int] = {}
    for paper, data in icml.nodes(data=True):
        if data["label"] == "Paper":
            tasks = sorted(t for t in linked(icml, paper, "ADDRESSES", "MENTIONS") if icml.nodes[t]["label"] == "Task")
            for pair in combinations(tasks, 2):
                expected[pair] = expected.get(pair, 0) + 1
    names = {(icml.nodes[a]["name"], icml.nodes[b]["name"]): n for (a, b), n in expected.items()}
    assert rows and {(row["task"], row["other_task"]): row["papers"] for row in rows} == names


def test_communities(neo4j_target, icml):
    rows = run(neo4j_target, "communities", limit=1000, members=3)
    entities = [d for _, d in icml.nodes(data=True) if d["label"] in ENTITY_LABELS and "community" in d]
    assert sum(row["size"] for row in rows) == len(entities)
    assert all(len(row["members"]) == min(3, row["size"]) for row in rows)
    flerm = icml.nodes[entity(icml, "Method", "FLeRM")]
    [own] = run(neo4j_target, "communities", community=flerm["community"], members=1000)
    assert f"Method: {flerm['name']}" in own["members"]


def test_datasets_for_task(neo4j_target, icml):
    # the query's contract: Task and Dataset nodes (a paper's ADDRESSES edge can end at an entity
    # whose node took another type from its other mentions)
    pairs = sorted((icml.nodes[t]["name"], icml.nodes[d]["name"]) for p, data in icml.nodes(data=True)
                   if data["label"] == "Paper" for t in linked(icml, p, "ADDRESSES")
                   for d in linked(icml, p, "EVALUATES_ON")
                   if icml.nodes[t]["label"] == "Task" and icml.nodes[d]["label"] == "Dataset")
    task, dataset = pairs[0]
    rows = run(neo4j_target, "datasets_for_task", task=task)
    assert dataset in {row["dataset"] for row in rows}
    assert all(row["task"] == task and row["via"] for row in rows)


def test_entity_evidence(neo4j_target, icml):
    rows = run(neo4j_target, "entity_evidence", name="FLeRM")
    paper_id = icml.nodes[paper_with(icml, "FLeRM")]["paper_id"]
    assert rows and {row["paper"] for row in rows} == {paper_id}
    assert any("FLeRM" in row["sentence"] for row in rows)
    assert {"PROPOSES"} <= {row["relationship"] for row in rows}


def test_method_neighbourhood(neo4j_target, icml):
    rows = run(neo4j_target, "method_neighbourhood", method="ResGen")
    resgen = entity(icml, "Method", "ResGen")
    expected = {icml.nodes[n]["name"] for n in nx.all_neighbors(icml, resgen)}
    assert {row["neighbour"] for row in rows} == expected
    assert icml.nodes[paper_with(icml, "ResGen")]["name"] in expected  # the paper that proposes it


def test_methods_sharing_datasets(neo4j_target, icml):
    evaluated: dict[str, set[str]] = {}
    for source, target, key in icml.edges(keys=True):
        if key == "EVALUATED_ON":
            evaluated.setdefault(source, set()).add(target)
        if key == "PROPOSES" and icml.nodes[target]["label"] == "Method":
            evaluated.setdefault(target, set()).update(linked(icml, source, "EVALUATES_ON"))
    expected = {(icml.nodes[a]["name"], icml.nodes[b]["name"]): len(evaluated[a] & evaluated[b])
                for a, b in combinations(sorted(evaluated), 2) if evaluated[a] & evaluated[b]}
    rows = run(neo4j_target, "methods_sharing_datasets", limit=10000)
    assert rows and {(row["method"], row["other_method"]): row["shared"] for row in rows} == expected


def test_new_entities(neo4j_target, icml):
    rows = run(neo4j_target, "new_entities")
    flerm_paper = paper_with(icml, "FLeRM")
    expected = set(icml) - set(without_paper(icml, flerm_paper))
    assert {row["key"] for row in rows} == expected
    assert {flerm_paper, entity(icml, "Method", "FLeRM")} <= expected


def test_paper_entities(neo4j_target, icml):
    rows = run(neo4j_target, "paper_entities", paper="ResGen")
    paper = paper_with(icml, "We introduce ResGen")
    assert {row["paper"] for row in rows} == {icml.nodes[paper]["paper_id"]}
    assert {row["entity"] for row in rows} == {icml.nodes[n]["name"] for n in icml.successors(paper)}


def test_papers_with_code(neo4j_target, icml):
    rows = run(neo4j_target, "papers_with_code")
    with_code = {d["paper_id"]: d["code_url"] for _, d in icml.nodes(data=True) if d.get("code_url")}
    assert {row["paper"]: row["code_url"] for row in rows} == with_code
    naiad = run(neo4j_target, "papers_with_code", text="naiad")
    assert [row["code_url"] for row in naiad] == ["https://github.com/NeptuneBio/NAIAD"]


def test_search(neo4j_target, icml):
    rows = run(neo4j_target, "search", text="learning rate matching", limit=3)
    assert rows[0]["acronym"] == "FLeRM"


def test_shortest_path(neo4j_target, icml):
    [row] = run(neo4j_target, "shortest_path", **{"from": "ResGen", "to": "CIFAR-10"})
    undirected = nx.Graph(icml)
    expected = nx.shortest_path_length(undirected, entity(icml, "Method", "ResGen"),
                                       entity(icml, "Dataset", "CIFAR-10"))
    assert row["hops"] == expected == len(row["relationships"])
    assert row["nodes"][0] == "Method: ResGen" and row["nodes"][-1] == "Dataset: CIFAR-10"


def test_top_methods(neo4j_target, icml):
    rows = run(neo4j_target, "top_methods", limit=5)
    papers = {icml.nodes[m]["name"]: len({p for p, _, k in icml.in_edges(m, keys=True)
                                          if k in ("PROPOSES", "MENTIONS")})
              for m, d in icml.nodes(data=True) if d["label"] == "Method"}
    assert len(rows) == 5
    assert all(row["papers"] == papers[row["method"]] for row in rows)
    assert rows[0]["papers"] == max(papers.values())


def test_cli_query_says_its_defaults_and_names_close_names_on_no_rows(icml, neo4j_target, monkeypatch):
    from cli_helpers import run_cli

    monkeypatch.setenv("NEO4J_PASSWORD", neo4j_target.password)
    where = ("--uri", neo4j_target.uri, "--database", neo4j_target.database)
    result = run_cli("query", "Acronym_Glossary", *where)
    assert "acronym_glossary: defaults used: limit=200 (set one with --param name=value)" in result.stderr
    result = run_cli("query", "methods_for_task", "-p", "task=image quality assesment", *where)
    assert "methods_for_task: no rows" in result.stdout
    assert "task 'image quality assesment': close names: image quality assessment." in result.stderr


@pytest.fixture(scope="module")
def dated(neo4j_target: Neo4jTarget, tmp_path_factory) -> nx.MultiDiGraph:
    """A real build of the dated corpus of known history (tests/trends_fixtures.py), pushed alone. The trend
    queries' tests come last in this module, as this replaces the ICML graph on the server."""
    from cli_helpers import run_cli
    from trends_fixtures import write_dated_corpus

    folder = tmp_path_factory.mktemp("dated")
    run_cli("build", str(write_dated_corpus(folder / "dated.jsonl")), "-o", str(folder / "out"), "--no-model")
    graph = read_json(folder / "out" / "graph.json")
    empty_database(neo4j_target)
    push_graph(graph, neo4j_target)
    return graph


def test_rising(neo4j_target, dated):
    from paperkg.graph.trends import trends

    over_time = trends(dated)
    for since, until, kind in ((2014, 2020, None), (2016, 2021, "Task"), (2018, 2019, "Method")):
        rows = run(neo4j_target, "rising", since=since, until=until, type=kind or "null", limit=5)
        changes = {key: over_time.share_change(e, since, until) for key, e in over_time.entities.items()
                   if kind in (None, e.type)}
        expected = sorted((key for key, change in changes.items() if change > 0), key=lambda k: (-changes[k], k))[:5]
        assert [row["key"] for row in rows] == expected and expected
        assert [row["change"] for row in rows] == pytest.approx([changes[key] for key in expected])
    [top] = run(neo4j_target, "rising", since=2015, until=2021, limit=1)
    assert top["key"] == "task:neural machine translation" and (top["before"], top["after"]) == (2, 8)


def test_entered_in(neo4j_target, dated):
    from paperkg.graph.trends import trends

    over_time = trends(dated)
    for year in (2012, 2014, 2019):
        rows = run(neo4j_target, "entered_in", year=year)
        expected = over_time.entered_in(year)
        assert [row["key"] for row in rows] == [e.key for e in expected] and rows
        assert [row["papers"] for row in rows] == [e.papers for e in expected]
    [bert] = run(neo4j_target, "entered_in", year=2019, type="Method")
    burst = over_time.entities["method:bert"].strongest_burst
    assert (bert["key"], bert["burst_start"], bert["burst_end"]) == ("method:bert", 2019, 2020)
    assert bert["burst_strength"] == pytest.approx(burst.strength)
