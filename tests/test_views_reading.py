"""What a survey writer reads in the views: named clusters, focus views that stay focused, link and paper
panels, counts that agree, the year overlay's threshold (the page data, without a browser)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from cli_helpers import run_cli
from view_fixtures import dated_graph, hub_graph, mention_field, synthetic_field

from paperkg.graph.exports import write_json
from paperkg.viz import papers_page
from paperkg.viz.clusters import MIN_CLUSTER, OTHER, louvain, named_clusters
from paperkg.viz.entity_map import index_entities, link_graph
from paperkg.viz.options import DEFAULT_MIN_PAPERS, ENTITY_TYPES, FOCUS_MAX_NODES, YEAR_MIN_PAPERS, ViewOptions
from paperkg.viz.papers_page import plan_papers
from paperkg.viz.selection import focus_entities, select_entities
from paperkg.viz.style import CLUSTER_PALETTE, NO_COMMUNITY_COLOUR
from paperkg.viz.views import map_min_papers, render_focus, render_views


def _data(path: Path) -> dict:
    match = re.search(r'<script id="graph-data" type="application/json">(.*?)</script>',
                      path.read_text(encoding="utf-8"), re.S)
    assert match
    return json.loads(match.group(1))


def _summary(path: Path) -> str:
    match = re.search(r'<span id="summary"[^>]*>(.*?)</span>', path.read_text(encoding="utf-8"))
    assert match
    return match.group(1)


def test_clusters_are_named_by_their_most_characteristic_methods_and_tasks_never_a_metric() -> None:
    groups = ("parsing", "translation")
    own = {group: [f"{group} model", f"{group} task", f"{group} corpus"] for group in groups}
    mentions = {f"{group}{number}": ["neural network", "accuracy", *own[group]]  # every paper: the field's generic
                for group in groups for number in range(6)}                       # method and its metric
    labels = {"accuracy": "Metric", **{f"{group} task": "Task" for group in groups},
              **{f"{group} corpus": "Dataset" for group in groups}}
    index = index_entities(mention_field(mentions, labels))
    clusters = named_clusters(louvain(link_graph(index, index.entities)), index)
    names = sorted(cluster.name for cluster in clusters)
    assert names == ["parsing task · parsing model", "translation task · translation model"]  # Tasks first
    assert all(len(cluster.members) >= MIN_CLUSTER for cluster in clusters)
    assert [cluster.colour for cluster in clusters] == list(CLUSTER_PALETTE[:2])
    assert clusters[0].short == " · ".join(clusters[0].name.split(" · ")[:2])


def test_a_cluster_of_metrics_only_is_not_named() -> None:
    metrics = ["accuracy", "F1 score", "BLEU"]
    index = index_entities(mention_field({f"p{n}": metrics for n in range(3)}, {name: "Metric" for name in metrics}))
    assert named_clusters(louvain(link_graph(index, index.entities)), index) == []


def test_many_clusters_get_distinct_colours_and_the_rest_is_other(tmp_path: Path) -> None:
    render_views(synthetic_field(400, 900, seed=2), tmp_path, ViewOptions(colour_by="community"))
    data = _data(tmp_path / "graph.html")
    named = [row for row in data["clusters"] if row["name"] != OTHER]
    assert 2 <= len(named) <= len(CLUSTER_PALETTE)
    colours = {row["colour"] for row in named}
    assert len(colours) == len(named) and NO_COMMUNITY_COLOUR not in colours
    assert sum(row["count"] for row in data["clusters"]) == len(data["nodes"])
    assert set(data["colours"]["community"]) == {row["colour"] for row in data["clusters"]}
    for row in named:  # each name is made of its own members' names
        members = {data["nodes"][i]["text"] for i in row["members"]}
        assert set(row["name"].split(" · ")) <= members


def test_focus_reaches_hubs_but_does_not_go_through_them() -> None:
    index = index_entities(hub_graph())
    capped = focus_entities(index, "method:focus", depth=3)
    assert capped.nodes == ("method:focus", "method:hub", "method:near")
    assert any("1 hub entity (more than 50 neighbours)" in note and "--hub-degree" in note for note in capped.notes)
    unlimited = focus_entities(index, "method:focus", depth=3, hub_degree=0, max_nodes=None)
    assert len(unlimited.nodes) == 63


def test_a_focus_keeps_what_is_closest_to_it_by_personalised_pagerank() -> None:
    index = index_entities(hub_graph())
    near = focus_entities(index, "method:near", depth=2, hub_degree=0, max_nodes=3)
    assert near.nodes == ("method:focus", "method:hub", "method:near")
    assert any("personalised PageRank" in note and "60 folded away" in note for note in near.notes)
    field = index_entities(synthetic_field(600, 3000, seed=5))
    assert len(focus_entities(field, field.entities[0], depth=2).nodes) <= FOCUS_MAX_NODES


def test_a_focus_view_is_centred_on_its_entity(tmp_path: Path) -> None:
    render_focus(hub_graph(), tmp_path / "focus.html", "near", ViewOptions(depth=2))
    data = _data(tmp_path / "focus.html")
    [node] = [node for node in data["nodes"] if node["id"] == data["focus"] == "method:near"]
    assert (node["x"], node["y"]) == (0.0, 0.0)


def test_the_view_command_takes_hub_degree_and_refuses_a_negative_one(tmp_path: Path) -> None:
    write_json(hub_graph(), tmp_path / "graph.json")
    run_cli("view", str(tmp_path / "graph.json"), "--focus", "focus", "--depth", "3", "--hub-degree", "0",
            "-o", str(tmp_path / "all.html"))
    assert len(_data(tmp_path / "all.html")["nodes"]) == 63
    wrong = run_cli("view", str(tmp_path / "graph.json"), "--focus", "focus", "--hub-degree", "-1", check=False)
    assert wrong.returncode == 2 and "--hub-degree must be 0 (no limit) or more, not -1." in wrong.stderr


def test_a_links_panel_lists_its_papers_and_the_sentences_naming_both(tmp_path: Path) -> None:
    render_views(mention_field({"p1": ["alpha", "beta", "gamma"], "p2": ["alpha", "beta"]}), tmp_path)
    data = _data(tmp_path / "graph.html")
    panel = data["edge_panels"]["method:alpha|method:beta"]
    assert panel["papers"] == 2 and len(panel["paper_rows"]) == 2
    for quote in panel["evidence"]:
        assert sorted(quote["sentence"][mark["start"]:mark["end"]] for mark in quote["marks"]) == ["alpha", "beta"]
        assert data["papers"][quote["paper"]]["title"] == "On alpha"


def test_a_papers_panel_lists_its_entities_by_role_marked_in_its_abstract(tmp_path: Path) -> None:
    render_views(dated_graph(), tmp_path)
    data = _data(tmp_path / "papers.html")
    at = [node["id"] for node in data["nodes"]].index("paper:4a2f2e6da9f81cf7")
    panel, node = data["panels"][at], data["nodes"][at]
    assert node["text"].startswith("Function-space Learning Rates")
    roles = {row["role"]: [entity["name"] for entity in row["entities"]] for row in panel["roles"]}
    assert list(roles)[0] == "proposes" and roles["proposes"] == ["Function-space Learning Rate Matching"]
    assert set(roles) <= {"proposes", "addresses", "evaluates on", "mentions"}
    listed = [name for names in roles.values() for name in names]
    assert len(listed) == len(set(listed))  # each entity under its first role only
    marked = {(panel["abstract"][mark["start"]:mark["end"]], mark["role"]) for mark in panel["marks"]}
    assert ("FLeRM", 0) in marked or ("Function-space Learning Rate Matching", 0) in marked
    assert all(a["end"] <= b["start"] for a, b in zip(panel["marks"], panel["marks"][1:]))


def test_a_papers_own_proposals_are_never_folded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(papers_page, "MAX_ENTITIES", 1)
    index = index_entities(dated_graph())
    plan = plan_papers(index, select_entities(index))
    proposed = {target for paper in plan.papers for _, target, kind in index.graph.out_edges(paper, keys=True)
                if kind == "PROPOSES"}
    assert proposed and proposed <= set(plan.entities)


def test_header_and_legend_counts_agree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(papers_page, "MAX_ENTITIES", 40)
    render_views(synthetic_field(120, 300, seed=1), tmp_path, ViewOptions(types=ENTITY_TYPES))
    data = _data(tmp_path / "papers.html")
    entities = sum(node["kind"] != "Paper" for node in data["nodes"])
    papers = sum(node["kind"] == "Paper" for node in data["nodes"])
    links = f"{len(data['edges']):,}"
    assert _summary(tmp_path / "papers.html") == (f"Showing {papers} of {data['paper_total']} papers · "
                                                  f"{entities} of 120 entities · {links} of {links} links")
    assert any("of the 120 entities graph.html maps" in note for note in data["notes"])
    assert _summary(tmp_path / "graph.html").startswith("Showing 120 of 120 entities")


def test_the_year_overlay_colours_only_entities_in_enough_papers(tmp_path: Path) -> None:
    render_views(synthetic_field(200, 600, seed=3), tmp_path)
    data = _data(tmp_path / "graph.html")
    grey = [colour == NO_COMMUNITY_COLOUR for colour in data["colours"]["year"]]
    assert grey == [node["papers"] < YEAR_MIN_PAPERS for node in data["nodes"]]
    assert any(grey) and not all(grey)
    assert f"fewer than {YEAR_MIN_PAPERS} papers" in (tmp_path / "graph.html").read_text(encoding="utf-8")


def test_papers_view_uses_the_maps_named_clusters_and_puts_each_paper_in_its_entities_cluster(tmp_path: Path) -> None:
    render_views(synthetic_field(300, 700, seed=2), tmp_path)
    data = _data(tmp_path / "papers.html")
    named = [row for row in data["clusters"] if row["name"] != OTHER]
    assert 2 <= len(named) <= len(CLUSTER_PALETTE) and len({row["colour"] for row in named}) == len(named)
    assert sum(row["count"] for row in data["clusters"]) == len(data["nodes"])
    ids = [node["id"] for node in data["nodes"]]
    row_of = {ids[i]: number for number, row in enumerate(named) for i in row["members"]}
    for number, row in enumerate(named):
        papers = [ids[i] for i in row["members"] if ids[i].startswith("paper:")]
        assert papers and all(data["colours"]["community"][ids.index(paper)] == row["colour"] for paper in papers)
        for paper in papers:  # the cluster most of the paper's clustered entities are in
            theirs = [row_of[edge["to"]] for edge in data["edges"] if edge["from"] == paper and edge["to"] in row_of]
            assert theirs.count(number) == max(theirs.count(other) for other in set(theirs))


def test_without_min_papers_a_big_map_keeps_entities_in_three_papers_and_a_small_one_all() -> None:
    big, small = index_entities(synthetic_field(400, 1200, seed=1)), index_entities(dated_graph())
    assert map_min_papers(big, ViewOptions()) == DEFAULT_MIN_PAPERS == 3
    assert map_min_papers(small, ViewOptions()) == 1  # fewer than FOLD_ABOVE // 2 entities in 3 papers
    assert map_min_papers(big, ViewOptions(min_papers=1)) == 1
