"""Unit tests of the offline HTML view (paperkg.viz.html): self-contained, escaped, deterministic."""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import networkx as nx
import pytest
from graph_fixtures import sample_graph

from paperkg.core.errors import PaperkgError
from paperkg.viz.html import render_html

HOSTILE_NAME = "<script>alert(1)</script>"
HOSTILE_ALIAS = "<img src=x onerror=alert(2)>"
HOSTILE_SENTENCE = "We beat </script><script>alert(3)</script> & \"friends\" on 'it'."


class _Tags(HTMLParser):
    """Every start tag of a page with its attributes, and the text of <script> elements."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag == "script":
            self._in_script = True
            self.scripts.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts[-1] += data


def _parse(page: str) -> _Tags:
    parser = _Tags()
    parser.feed(page)
    return parser


def _page_data(page: str) -> dict:
    match = re.search(r'<script id="graph-data" type="application/json">(.*?)</script>', page, re.S)
    assert match, "the page carries its graph as a JSON block"
    return json.loads(match.group(1))


def _render(tmp_path: Path, graph: nx.MultiDiGraph, name: str = "graph.html", **options) -> str:
    path = tmp_path / name
    render_html(graph, path, **options)
    return path.read_text(encoding="utf-8")


def _hostile_graph() -> nx.MultiDiGraph:
    graph = sample_graph()
    key = "method:<script>alert(1)</script>"
    graph.add_node(key, label="Method", key=key, name=HOSTILE_NAME,
                   aliases=[HOSTILE_NAME, HOSTILE_ALIAS], acronym="XSS", long_form=HOSTILE_ALIAS,
                   mentions=1, papers=1, degree=1, pagerank=0.01, community=0)
    evidence = {"paper": "4a2f2e6da9f81cf7", "sentence": HOSTILE_SENTENCE, "start": 0, "end": 5,
                "extractor": "cue", "confidence": 0.9}
    graph.add_edge("paper:4a2f2e6da9f81cf7", key, key="MENTIONS", type="MENTIONS", count=1,
                   confidence=0.9, evidence=[evidence])
    return graph


def test_page_is_self_contained(tmp_path: Path) -> None:
    page = _render(tmp_path, sample_graph())
    tags = _parse(page)
    fetching = [(tag, attrs) for tag, attrs in tags.tags
                if tag in ("script", "link", "img", "iframe", "source", "embed", "object")
                and any(attrs.get(a) for a in ("src", "href", "data", "srcset"))]
    assert fetching == []
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "@import" not in page and "@font-face" not in page
    assert any("vis.Network" in script for script in tags.scripts)
    assert len(page) > 400_000, "vis-network is inlined, not linked"
    csp = [attrs["content"] for tag, attrs in tags.tags
           if tag == "meta" and attrs.get("http-equiv") == "Content-Security-Policy"]
    assert csp and csp[0].startswith("default-src 'none'")


def test_text_from_the_corpus_is_escaped(tmp_path: Path) -> None:
    page = _render(tmp_path, _hostile_graph(), title="<b>corpus</b>")
    for raw in (HOSTILE_NAME, HOSTILE_ALIAS, "</script><script>alert(3)", "<b>corpus</b>"):
        assert raw not in page
    assert "<title>&lt;b&gt;corpus&lt;/b&gt;</title>" in page
    clean = _parse(_render(tmp_path, sample_graph(), "clean.html", title="<b>corpus</b>"))
    hostile = _parse(page)
    assert [t for t, _ in hostile.tags].count("script") == [t for t, _ in clean.tags].count("script")
    assert not any(t == "img" for t, _ in hostile.tags)
    # Escaped, not mangled: the page's data still holds the exact text.
    node = next(n for n in _page_data(page)["nodes"] if n["id"] == "method:<script>alert(1)</script>")
    assert node["card"]["name"] == HOSTILE_NAME
    assert ["Acronym", f"XSS = {HOSTILE_ALIAS}"] in node["card"]["rows"]
    assert node["card"]["evidence"]["sentence"] == HOSTILE_SENTENCE


def test_hover_text_is_built_as_dom_text_not_html(tmp_path: Path) -> None:
    page = _render(tmp_path, sample_graph())
    page_script = _parse(page).scripts[-1]
    assert "textContent" in page_script
    assert "innerHTML" not in page_script and "insertAdjacentHTML" not in page_script
    assert all(isinstance(n["card"]["name"], str) and "title" not in n for n in _page_data(page)["nodes"])


def test_hover_card_shows_name_aliases_acronym_counts_and_evidence(tmp_path: Path) -> None:
    nodes = {n["id"]: n for n in _page_data(_render(tmp_path, sample_graph()))["nodes"]}
    card = nodes["method:flerm"]["card"]
    rows = dict(card["rows"])
    assert card["name"] == "FLeRM" and card["type"] == "Method"
    assert rows["Acronym"] == "FLeRM = Function-space Learning Rate Matching"
    assert rows["Aliases"] == "Function-space Learning Rate Matching"
    assert rows["Papers"] == "1" and rows["Degree"] == "2"
    assert "FLeRM" in card["evidence"]["sentence"]
    assert card["evidence"]["source"].startswith("PROPOSES")
    shared = dict(nodes["method:llms"]["card"]["rows"])
    assert shared["Papers"] == "2" and shared["Aliases"] == "large language model, LLM, LLMs"
    paper = dict(nodes["paper:4a2f2e6da9f81cf7"]["card"]["rows"])
    assert paper["Title"] == "Function-space Learning Rates"
    assert paper["Code"] == "https://github.com/example/flerm"


def test_edges_carry_type_and_evidence(tmp_path: Path) -> None:
    edges = {e["id"]: e for e in _page_data(_render(tmp_path, sample_graph()))["edges"]}
    edge = edges["method:flerm|USED_FOR|method:gts"]
    assert (edge["from"], edge["to"], edge["kind"]) == ("method:flerm", "method:gts", "USED_FOR")
    assert edge["card"]["name"] == "FLeRM → Graph Transformers"
    assert "Graph Transformers" in edge["card"]["evidence"]["sentence"]


def test_legend_lists_types_with_colours_shapes_and_counts(tmp_path: Path) -> None:
    page = _render(tmp_path, sample_graph())
    legend = page[page.index('<aside id="legend">'):page.index("</aside>")]
    for label, count in (("Paper", 3), ("Method", 7), ("Task", 1), ("Dataset", 3), ("Metric", 2)):
        assert re.search(rf'data-kind="{label}" checked><svg[^>]*fill="#[0-9A-F]{{6}}".*?'
                         rf'<span class="name">{label}</span><span class="count">{count}</span>',
                         legend), label
    assert 'data-kind="Concept"' not in legend
    assert "1 Concept nodes not shown" in legend
    assert '<span class="name">USED_FOR</span><span class="count">1</span>' in legend
    assert "Size: degree." in legend


def test_node_types_get_distinct_colours_and_shapes(tmp_path: Path) -> None:
    nodes = _page_data(_render(tmp_path, sample_graph(), show_concepts=True))["nodes"]
    looks = {n["kind"]: (n["color"], n["shape"]) for n in nodes}
    assert set(looks) == {"Paper", "Method", "Task", "Dataset", "Metric", "Concept"}
    assert len({colour for colour, _ in looks.values()}) == 6
    assert len({shape for _, shape in looks.values()}) == 6
    for node in nodes:
        assert looks[node["kind"]] == (node["color"], node["shape"])


def test_concepts_are_left_out_unless_asked_for(tmp_path: Path) -> None:
    hidden = _page_data(_render(tmp_path, sample_graph()))
    shown = _page_data(_render(tmp_path, sample_graph(), "concepts.html", show_concepts=True))
    assert "concept:learning rates" not in {n["id"] for n in hidden["nodes"]}
    assert not any("concept:" in e["to"] for e in hidden["edges"])
    assert "concept:learning rates" in {n["id"] for n in shown["nodes"]}
    assert len(shown["edges"]) == len(hidden["edges"]) + 1


def test_size_follows_the_chosen_metric(tmp_path: Path) -> None:
    graph = sample_graph()
    graph.nodes["dataset:imagenet"]["pagerank"] = 0.64
    by_degree = {n["id"]: n["value"] for n in _page_data(_render(tmp_path, graph))["nodes"]}
    by_rank = {n["id"]: n["value"] for n in _page_data(
        _render(tmp_path, graph, "rank.html", size_by="pagerank"))["nodes"]}
    assert by_degree["paper:4a2f2e6da9f81cf7"] == pytest.approx(7 ** 0.5)
    assert by_rank["dataset:imagenet"] == pytest.approx(0.8)
    assert max(by_rank, key=by_rank.get) == "dataset:imagenet"
    assert "Size: pagerank." in _render(tmp_path, graph, "rank.html", size_by="pagerank")


def test_community_colouring(tmp_path: Path) -> None:
    graph = sample_graph()
    page = _render(tmp_path, graph, colour_by="community")
    nodes = _page_data(page)["nodes"]
    by_community: dict[int, set[str]] = {}
    for node in nodes:
        by_community.setdefault(graph.nodes[node["id"]]["community"], set()).add(node["color"])
    assert all(len(colours) == 1 for colours in by_community.values())
    assert len({c for colours in by_community.values() for c in colours}) == len(by_community)
    assert "Colour: community" in page


@pytest.mark.parametrize("options", [{"size_by": "betweenness"}, {"colour_by": "rainbow"}])
def test_unknown_choices_are_user_errors(tmp_path: Path, options: dict) -> None:
    with pytest.raises(PaperkgError, match="must be one of"):
        render_html(sample_graph(), tmp_path / "graph.html", **options)
    assert not (tmp_path / "graph.html").exists()


def test_same_graph_gives_identical_bytes(tmp_path: Path) -> None:
    graph = sample_graph()
    reordered = nx.MultiDiGraph()
    reordered.add_nodes_from(sorted(graph.nodes(data=True), reverse=True))
    reordered.add_edges_from(sorted(graph.edges(keys=True, data=True), reverse=True))
    render_html(graph, tmp_path / "a.html")
    render_html(sample_graph(), tmp_path / "b.html")
    render_html(reordered, tmp_path / "c.html")
    first = (tmp_path / "a.html").read_bytes()
    assert first == (tmp_path / "b.html").read_bytes() == (tmp_path / "c.html").read_bytes()
    assert _page_data(first.decode())["options"]["layout"]["randomSeed"] == 20250


def test_write_is_atomic_and_replaces_the_old_page(tmp_path: Path) -> None:
    target = tmp_path / "out" / "graph.html"
    target.parent.mkdir()
    target.write_text("old page")
    render_html(sample_graph(), target)
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert sorted(p.name for p in target.parent.iterdir()) == ["graph.html"]
