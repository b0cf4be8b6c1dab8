"""Unit tests of the views (paperkg.viz), no browser: page data, filters, focus, folding, escaping, bytes."""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import networkx as nx
import pytest
from cli_helpers import run_cli
from graph_fixtures import FLERM_KEY, GT_KEY, LLM_KEY, MAGEP_KEY, PARAPHRASING_KEY, SIRA_KEY, sample_graph
from view_fixtures import (HOSTILE_ALIAS, HOSTILE_KEY, HOSTILE_NAME, HOSTILE_SENTENCE, dated_graph, hostile_graph,
                           synthetic_field)

from paperkg.core.errors import PaperkgError
from paperkg.core.schema import NodeLabel, RelType
from paperkg.graph.exports import write_json
from paperkg.viz import map_page, papers_page
from paperkg.viz.entity_map import index_entities, link_graph
from paperkg.viz.labels import DRAW_THRESHOLD, label_fonts
from paperkg.viz.layout import force_layout
from paperkg.viz.selection import focus_entities, resolve_entity, select_entities, thin_links
from paperkg.viz.style import RELATION_STYLES, SHARED_PAPERS, year_colour
from paperkg.viz.options import ENTITY_TYPES, ViewOptions
from paperkg.viz.page_script import page_script
from paperkg.viz.views import DEFAULT_TYPES_NOTE, render_focus, render_views


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


def _data(page: str) -> dict:
    match = re.search(r'<script id="graph-data" type="application/json">(.*?)</script>', page, re.S)
    assert match, "the page carries its data as a JSON block"
    return json.loads(match.group(1))


def _views(tmp_path: Path, graph: nx.MultiDiGraph, **options) -> tuple[str, str]:
    written = render_views(graph, tmp_path, ViewOptions(**options))
    assert [path.name for path in written] == ["graph.html", "papers.html"]
    return tuple(path.read_text(encoding="utf-8") for path in written)


def _by_id(page: str) -> dict[str, tuple[dict, dict]]:
    data = _data(page)
    return {node["id"]: (node, panel) for node, panel in zip(data["nodes"], data["panels"])}


# ---- the pages are offline and safe --------------------------------------------------------

def test_pages_are_self_contained(tmp_path: Path) -> None:
    for page in _views(tmp_path, dated_graph()):
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


def test_text_from_the_corpus_is_escaped_and_kept_exact(tmp_path: Path) -> None:
    clean = [_parse(page) for page in _views(tmp_path / "clean", dated_graph(), title="<b>corpus</b>")]
    for page, reference in zip(_views(tmp_path / "hostile", hostile_graph(), title="<b>corpus</b>"), clean):
        for raw in (HOSTILE_NAME, HOSTILE_ALIAS, "</script><script>alert(3)", "<b>corpus</b>"):
            assert raw not in page
        assert "<title>&lt;b&gt;corpus&lt;/b&gt;" in page
        tags = _parse(page)
        assert [t for t, _ in tags.tags].count("script") == [t for t, _ in reference.tags].count("script")
        assert not any(t == "img" for t, _ in tags.tags)
        node, panel = _by_id(page)[HOSTILE_KEY]
        assert panel["name"] == HOSTILE_NAME and panel["long_form"] == HOSTILE_ALIAS
        assert panel["evidence"][0]["sentence"] == HOSTILE_SENTENCE
        assert node["text"] == HOSTILE_NAME


def test_only_web_links_become_links(tmp_path: Path) -> None:
    page, _ = _views(tmp_path, hostile_graph())
    data = _data(page)
    hostile = next(row for row in data["papers"] if row["title"] == HOSTILE_NAME)
    assert "links" not in hostile
    links = sorted([(link["name"], link["url"]) for link in row["links"]] for row in data["papers"] if row.get("links"))
    assert links == [[("arXiv", "https://arxiv.org/abs/2501.00001")], [("code", "https://github.com/example/flerm")]]


def _page_script() -> str:
    """The map's script as the page inlines it (its modules bundled)."""
    return page_script(Path(map_page.__file__).parent / "templates" / "page", "view.mjs", "startView")


def test_page_code_builds_dom_text_never_markup() -> None:
    script = _page_script()
    assert "textContent" in script
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"):
        assert sink not in script
    assert re.search(r"/\^https\?:", script), "links are checked for a web scheme before use"


# ---- the entity map ------------------------------------------------------------------------

def test_entity_map_links_entities_by_shared_papers_and_typed_relations() -> None:
    index = index_entities(sample_graph())
    links = link_graph(index, index.entities)
    assert all(not node.startswith("paper:") for node in links)
    shared = links.edges["dataset:cifar-10", FLERM_KEY]
    assert shared["papers"] == 1 and shared["kinds"] == ("SHARED_PAPERS",)
    typed = links.edges[FLERM_KEY, GT_KEY]
    assert typed["kinds"] == ("SHARED_PAPERS", "USED_FOR") and typed["papers"] == 1
    llms = links.edges["dataset:imagenet", LLM_KEY]
    assert llms["papers"] == 1
    assert index.paper_count(LLM_KEY) == 2


def test_the_page_takes_the_paper_label_from_the_schema_not_from_its_script(tmp_path: Path) -> None:
    _, papers = _views(tmp_path, dated_graph())
    data = _data(papers)
    assert data["paper_label"] == NodeLabel.PAPER.value
    assert {node["kind"] for node in data["nodes"]} >= {NodeLabel.PAPER.value}
    script = _page_script()
    assert f'"{NodeLabel.PAPER.value}"' not in script and "data.paper_label" in script


def test_map_page_sizes_by_papers_and_draws_entities_only(tmp_path: Path) -> None:
    page, _ = _views(tmp_path, dated_graph(), types=ENTITY_TYPES)
    data = _data(page)
    kinds = {node["kind"] for node in data["nodes"]}
    assert kinds == {"Method", "Task", "Dataset", "Metric"}
    sizes = {node["id"]: node["size"] for node in data["nodes"]}
    assert sizes[LLM_KEY] == max(sizes.values())
    assert all(node["shape"] == "dot" for node in data["nodes"])
    assert all(edge["arrows"] == {"to": {"enabled": False}} for edge in data["edges"])
    assert data["options"]["physics"]["enabled"] is False
    assert all(isinstance(node["x"], float) and isinstance(node["y"], float) for node in data["nodes"])
    assert "Circle size: papers mentioning the entity" in page


def test_panel_has_names_papers_and_marked_evidence(tmp_path: Path) -> None:
    page, _ = _views(tmp_path, dated_graph())
    data = _data(page)
    _, panel = _by_id(page)[FLERM_KEY]
    assert (panel["acronym"], panel["long_form"]) == ("FLeRM", "Function-space Learning Rate Matching")
    assert panel["type"] == "Method" and panel["papers"] == 1 and panel["mean_year"] == 2025
    paper = data["papers"][panel["paper_rows"][0]]
    assert paper == {"title": "Function-space Learning Rates", "year": "2025", "venue": "ICML",
                     "links": [{"name": "code", "url": "https://github.com/example/flerm"}]}
    quote = panel["evidence"][0]
    assert data["papers"][quote["paper"]]["title"] == "Function-space Learning Rates"
    [mark] = quote["marks"]
    assert quote["sentence"][mark["start"]:mark["end"]] in ("FLeRM", "Function-space Learning Rate Matching")
    _, llms = _by_id(page)[LLM_KEY]
    assert llms["aliases"] == ["large language models", "LLMs"]  # name, acronym (LLM) and long form aside
    assert [data["papers"][row]["year"] for row in llms["paper_rows"]] == ["2025", "2024"]
    related = {data["panels"][link["node"]]["name"]: link["papers"] for link in llms["related"]}
    assert related["ImageNet"] == 1


def test_relationship_types_have_distinct_names_and_colours() -> None:
    names = [style.name for style in RELATION_STYLES.values()]
    colours = [style.colour.upper() for style in RELATION_STYLES.values()]
    assert len(set(names)) == len(names) and len(set(colours)) == len(colours)
    assert RELATION_STYLES["EVALUATES_ON"].name == "paper evaluates on dataset"
    assert RELATION_STYLES["EVALUATED_ON"].name == "method evaluated on dataset"
    assert RELATION_STYLES["EVALUATED_ON"].dashed != RELATION_STYLES["EVALUATES_ON"].dashed


def test_every_edge_type_of_the_schema_has_a_style_and_nothing_else_does() -> None:
    drawn = {kind.value for kind in RelType if kind is not RelType.SYNONYM_OF}
    assert set(RELATION_STYLES) - {SHARED_PAPERS} == drawn


def test_year_overlay_colours_by_mean_year_with_a_scale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(map_page, "YEAR_MIN_PAPERS", 1)  # the sample's entities are in one or two papers
    page, _ = _views(tmp_path, dated_graph(), colour_by="year")
    data = _data(page)
    assert data["years"] == {"first": 2023, "last": 2025}
    colour = {node["id"]: node["color"] for node in data["nodes"]}
    assert colour[FLERM_KEY] == year_colour(2025, 2023, 2025) == "#FDE725"
    assert colour[MAGEP_KEY] == year_colour(2023, 2023, 2025) == "#440154"
    assert colour[LLM_KEY] == year_colour(2024.5, 2023, 2025)
    assert data["colours"]["year"] == [node["color"] for node in data["nodes"]]
    assert 'option value="year" selected' in page and 'id="year-scale" class="scale">' in page
    assert 'id="year-from"' in page


def test_without_years_there_is_no_year_overlay_or_filter(tmp_path: Path) -> None:
    graph = sample_graph()
    graph.nodes["paper:4a2f2e6da9f81cf7"].pop("year")
    page, _ = _views(tmp_path, graph)
    assert _data(page)["years"] is None
    assert 'value="year"' not in page and 'id="year-from"' not in page


def test_papers_view_keeps_papers_and_their_entities(tmp_path: Path) -> None:
    _, page = _views(tmp_path, dated_graph())
    data = _data(page)
    kinds = [node["kind"] for node in data["nodes"]]
    assert kinds.count("Paper") == 3
    edge = next(e for e in data["edges"] if e["id"] == "paper:022ade70781f4129|EVALUATES_ON|dataset:cifar-10")
    assert edge["kinds"] == ["EVALUATES_ON"] and edge["arrows"] == "to"
    evidence = data["edge_panels"][edge["id"]]["evidence"][0]
    [mark] = evidence["marks"]
    assert evidence["sentence"][mark["start"]:mark["end"]] == "CIFAR-10"


# ---- selection: filters, folding, focus ----------------------------------------------------

def test_type_and_paper_filters_say_what_they_left_out() -> None:
    index = index_entities(sample_graph())
    chosen = select_entities(index, types=["Dataset"], min_papers=1)
    assert chosen.nodes == ("dataset:cifar-10", "dataset:cifar-100", "dataset:imagenet")
    assert "of type Dataset" in chosen.notes[0]
    frequent = select_entities(index, min_papers=2)
    assert frequent.nodes == ("dataset:cifar-10", LLM_KEY)
    assert "in at least 2 papers" in frequent.notes[0] and "11 others left out" in frequent.notes[0]


def test_max_nodes_keeps_the_top_by_pagerank_and_says_what_was_folded() -> None:
    graph = sample_graph()
    index = index_entities(graph)
    chosen = select_entities(index, max_nodes=3)
    top = sorted(index.entities, key=lambda e: (-graph.nodes[e]["pagerank"], -index.paper_count(e), e))[:3]
    assert set(chosen.nodes) == set(top)
    assert len(chosen.left_out) == len(index.entities) - 3 == 10
    assert "Showing the 3 most important of 13 entities (by PageRank" in chosen.notes[0]
    assert "10 folded away" in chosen.notes[0]


def test_focus_goes_depth_links_out_and_keeps_the_focus_under_a_cap() -> None:
    index = index_entities(sample_graph())
    sira = resolve_entity(index, "sira")
    assert focus_entities(index, sira, depth=0).nodes == (SIRA_KEY,)
    near = focus_entities(index, sira, depth=1).nodes
    assert set(near) == {SIRA_KEY, PARAPHRASING_KEY, LLM_KEY, "task:watermark removal",
                         "dataset:imagenet", "metric:success rate"}
    far = focus_entities(index, sira, depth=2).nodes
    assert set(near) < set(far) and FLERM_KEY in far
    capped = focus_entities(index, sira, depth=2, max_nodes=2)
    assert SIRA_KEY in capped.nodes and len(capped.nodes) == 2
    assert "within 2 links of Self-Information Rewrite Attack" in capped.notes[0]


@pytest.mark.parametrize("name, key", [("LLM", LLM_KEY), ("llms", LLM_KEY),
                                       ("Large Language Model", LLM_KEY),
                                       ("Function-space Learning Rate Matching", FLERM_KEY),
                                       ("GTs", GT_KEY)])
def test_focus_names_are_names_aliases_or_acronyms_in_any_case(name: str, key: str) -> None:
    assert resolve_entity(index_entities(sample_graph()), name) == key


def test_unknown_focus_names_and_bad_numbers_are_usage_errors() -> None:
    index = index_entities(sample_graph())
    with pytest.raises(PaperkgError, match="no entity has that name.*Close matches: ImageNet"):
        resolve_entity(index, "ImageNett")
    for options, message in (({"depth": -1}, "--depth must be 0 or more"),
                             ({"max_nodes": 0}, "--max-nodes must be 1 or more"),
                             ({"min_papers": 0}, "--min-papers must be 1 or more"),
                             ({"hub_degree": -1}, "--hub-degree must be 0")):
        with pytest.raises(PaperkgError, match=message):
            ViewOptions(**options)


def test_view_options_are_spelled_canonically_once() -> None:
    options = ViewOptions(size_by="PageRank", colour_by="Community", types=("METHOD", "task"))
    assert (options.size_by, options.colour_by, options.types) == ("pagerank", "community", ("Method", "Task"))


@pytest.mark.parametrize("options, message", [({"size_by": "betweenness"}, "--size-by must be one of"),
                                              ({"colour_by": "rainbow"}, "--colour-by must be one of"),
                                              ({"types": ["Author"]}, "--type must be among")])
def test_unknown_choices_are_user_errors(tmp_path: Path, options: dict, message: str) -> None:
    with pytest.raises(PaperkgError, match=message):
        render_views(sample_graph(), tmp_path, ViewOptions(**options))
    assert list(tmp_path.iterdir()) == []


def test_focus_view_opens_on_its_entity(tmp_path: Path) -> None:
    key = render_focus(dated_graph(), tmp_path / "focus.html", "LLM", ViewOptions(depth=1))
    data = _data((tmp_path / "focus.html").read_text(encoding="utf-8"))
    assert key == data["focus"] == LLM_KEY
    assert LLM_KEY in {node["id"] for node in data["nodes"]}
    assert MAGEP_KEY not in {node["id"] for node in data["nodes"]}


def test_thinning_keeps_every_entitys_strongest_link_within_the_cap() -> None:
    graph = synthetic_field(300, 1500, seed=3)
    index = index_entities(graph)
    links = link_graph(index, index.entities)
    thinned, notes = thin_links(links, 600)
    assert thinned.number_of_edges() <= max(600, len(links))
    assert all(thinned.degree(node) >= 1 for node in links if links.degree(node))
    assert notes and f"of {links.number_of_edges():,} links" in notes[0]
    assert thin_links(links, 10**6) == (links, ())


def test_without_type_the_map_leaves_metrics_out_and_says_how_to_draw_them(tmp_path: Path) -> None:
    page, papers = _views(tmp_path, dated_graph())
    for data in (_data(page), _data(papers)):
        assert "Metric" not in {node["kind"] for node in data["nodes"]}
        assert "Metric" in {row["type"] for row in data["folded"]}  # search still finds them
        assert DEFAULT_TYPES_NOTE in data["notes"] and "--type Metric" in DEFAULT_TYPES_NOTE
    data = _data(_views(tmp_path, dated_graph(), types=("Metric",))[0])
    assert {node["kind"] for node in data["nodes"]} == {"Metric"} and DEFAULT_TYPES_NOTE not in data["notes"]


def test_big_fields_fold_the_long_tail_and_paper_nodes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(papers_page, "MAX_PAPERS", 50)
    monkeypatch.setattr(papers_page, "MAX_ENTITIES", 40)
    graph = synthetic_field(400, 1200, seed=1)
    page, papers = _views(tmp_path, graph, max_nodes=120, types=ENTITY_TYPES, min_papers=1)
    data = _data(page)
    assert len(data["nodes"]) == 120 and len(data["folded"]) == 280
    assert any("280 folded away" in note for note in data["notes"])
    assert "280 folded away" in page
    paper_data = _data(papers)
    assert sum(node["kind"] == "Paper" for node in paper_data["nodes"]) == 50
    assert any("Paper nodes folded" in note for note in paper_data["notes"])


# ---- layout, labels and bytes --------------------------------------------------------------

def test_layout_is_seeded_fits_the_box_and_separates_circles() -> None:
    index = index_entities(synthetic_field(300, 900, seed=2))
    links = link_graph(index, index.entities)
    radii = {node: 4.0 for node in links}
    first = force_layout(links, width=1000, height=600, radii=radii)
    assert first == force_layout(links, width=1000, height=600, radii=radii)
    xs = [x for x, _ in first.values()]
    ys = [y for _, y in first.values()]
    assert max(abs(v) for v in xs) < 560 and max(abs(v) for v in ys) < 360
    points = sorted(first.values())
    close = sum(1 for i, a in enumerate(points) for b in points[i + 1:i + 40]
                if (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 < 7.0 ** 2)
    assert close <= len(points) // 50


def test_labels_of_important_nodes_show_first_and_overlapping_ones_wait() -> None:
    positions = {"hub": (0.0, 0.0), "near": (5.0, 0.0), "far": (500.0, 0.0)}
    sizes = dict.fromkeys(positions, 5.0)
    texts = {"hub": "large language model", "near": "neural network", "far": "BLEU"}
    fonts = label_fonts(["hub", "near", "far"], positions, sizes, texts)
    assert fonts["hub"] > fonts["far"] > fonts["near"]
    assert fonts["hub"] >= DRAW_THRESHOLD, "the top name is drawn at the opening zoom"


def test_same_graph_gives_identical_bytes(tmp_path: Path) -> None:
    graph = dated_graph()
    reordered = nx.MultiDiGraph()
    reordered.add_nodes_from(sorted(graph.nodes(data=True), reverse=True))
    reordered.add_edges_from(sorted(graph.edges(keys=True, data=True), reverse=True))
    first = [path.read_bytes() for path in render_views(graph, tmp_path / "a")]
    assert first == [path.read_bytes() for path in render_views(dated_graph(), tmp_path / "b")]
    assert first == [path.read_bytes() for path in render_views(reordered, tmp_path / "c")]
    render_focus(graph, tmp_path / "f1.html", "LLM")
    render_focus(reordered, tmp_path / "f2.html", "LLM")
    assert (tmp_path / "f1.html").read_bytes() == (tmp_path / "f2.html").read_bytes()


def test_write_is_atomic_and_replaces_the_old_pages(tmp_path: Path) -> None:
    (tmp_path / "graph.html").write_text("old page")
    render_views(sample_graph(), tmp_path)
    assert (tmp_path / "graph.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["graph.html", "papers.html"]


# ---- paperkg view ----------------------------------------------------------------------------

@pytest.fixture()
def saved_graph(tmp_path: Path) -> Path:
    path = tmp_path / "out" / "graph.json"
    path.parent.mkdir()
    write_json(dated_graph(), path)
    return path


def test_paperkg_view_re_renders_and_draws_focus_views(saved_graph: Path) -> None:
    run_cli("view", str(saved_graph))
    pages = sorted(p.name for p in saved_graph.parent.glob("*.html"))
    assert pages == ["graph.html", "leaderboard.html", "papers.html"]
    run_cli("view", str(saved_graph), "--focus", "gts", "--depth", "1", "-o", str(saved_graph.parent / "gts.html"))
    assert _data((saved_graph.parent / "gts.html").read_text(encoding="utf-8"))["focus"] == GT_KEY


@pytest.mark.parametrize("args, message", [
    (["--depth", "-1", "--focus", "LLM"], "--depth must be 0 or more, not -1."),
    (["--max-nodes", "0"], "--max-nodes must be 1 or more, not 0."),
    (["--min-papers", "0"], "--min-papers must be 1 or more, not 0."),
    (["--focus", "ImageNett"],
     "--focus 'ImageNett': no entity has that name, alias or acronym. Close matches: ImageNet"),
    (["--type", "Author"], "--type must be among Method, Task, Dataset, Metric, not Author."),
    (["-o", "x.html"], "without --focus, -o names a folder"),
])
def test_paperkg_view_usage_errors_are_one_sentence_and_exit_2(saved_graph: Path, args: list[str],
                                                                message: str) -> None:
    result = run_cli("view", str(saved_graph), *args, check=False)
    assert result.returncode == 2
    assert message in " ".join(result.stderr.split()) and "Traceback" not in result.stderr
