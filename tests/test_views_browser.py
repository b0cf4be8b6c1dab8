"""The views in real headless Chromium (Playwright): offline, no errors, search, panel, filters, safety.

Needs /usr/bin/chromium (scripts/install-chromium.sh); run alone with `pytest -m browser`.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from graph_fixtures import FLERM_KEY, LLM_KEY, MAGEP_KEY, SIRA_KEY
from browser import assert_clean, open_page
from view_fixtures import HOSTILE_ALIAS, HOSTILE_NAME, HOSTILE_SENTENCE, dated_graph, hostile_graph, synthetic_field

from paperkg.viz.options import ENTITY_TYPES, ViewOptions
from paperkg.viz.views import render_views

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page

pytestmark = pytest.mark.browser

SELECTED = "window.paperkgView.network.getSelectedNodes()"
SHOWN_KINDS = "window.paperkgView.nodeView.get().map(n => n.kind)"


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("hostile")
    render_views(hostile_graph(), out, ViewOptions(title="<b>corpus</b>"))
    return out


@pytest.fixture(scope="module")
def dated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dated")
    render_views(dated_graph(), out, ViewOptions(types=ENTITY_TYPES, colour_by="type"))  # every type, by type
    return out


def _search(page: Page, text: str) -> list[str]:
    """Type into search; the lines of the result list."""
    page.fill("#search", "")
    page.type("#search", text)
    page.wait_for_selector("#results li")
    return page.locator("#results li").all_inner_texts()


def _panel(page: Page) -> str:
    page.wait_for_selector("#panel:not([hidden])")
    return page.inner_text("#panel")


def test_the_harness_sees_requests_console_errors_and_dialogs(context: BrowserContext, tmp_path: Path) -> None:
    leaky = tmp_path / "leaky.html"
    leaky.write_text('<img src="http://192.0.2.1/pixel.png"><script>console.error("boom"); alert("hi");'
                     'document.body.dataset.state = "ready";</script>')
    page, log = open_page(context, leaky)
    page.wait_for_timeout(300)
    assert "http://192.0.2.1/pixel.png" in log.requests_besides(page.url)
    assert any("boom" in error for error in log.errors)
    assert log.dialogs == ["hi"]


@pytest.mark.parametrize("view", ["graph.html", "papers.html"])
def test_views_draw_offline_without_errors(context: BrowserContext, dated: Path, view: str) -> None:
    page, log = open_page(context, dated / view)
    data = json.loads((dated / view).read_text().split('<script id="graph-data" type="application/json">')[1]
                      .split("</script>")[0])
    assert page.evaluate("window.paperkgView.network.body.nodeIndices.length") == len(data["nodes"])
    assert page.evaluate("document.body.dataset.drawn") == "true"
    assert page.evaluate("document.querySelector('#network canvas').width") > 0
    assert page.evaluate("window.paperkgView.network.physics.physicsEnabled") is False
    assert page.inner_text("#summary").startswith("Showing ")
    assert_clean(page, log)


def test_search_by_acronym_focuses_the_node_and_the_panel_shows_evidence_and_papers(
        context: BrowserContext, dated: Path) -> None:
    page, log = open_page(context, dated / "graph.html")
    lines = _search(page, "flerm")
    assert lines[0].startswith("Function-space Learning Rate Matching (FLeRM)")
    page.keyboard.press("Enter")
    assert page.evaluate(SELECTED) == [FLERM_KEY]
    panel = _panel(page)
    assert "FLeRM = Function-space Learning Rate Matching" in panel
    assert "FLeRM improves training of Graph Transformers (GTs)" in panel  # of its sentences, the first by text
    assert "Function-space Learning Rates (2025 · ICML)" in panel
    assert page.inner_text("#panel mark") in ("FLeRM", "Function-space Learning Rate Matching")
    assert page.get_attribute("#panel a", "href") == "https://github.com/example/flerm"
    assert_clean(page, log)


def test_search_by_alias_and_prefix_and_says_when_nothing_matches(context: BrowserContext, dated: Path) -> None:
    page, log = open_page(context, dated / "graph.html")
    assert _search(page, "LLM")[0].startswith("large language model (LLM)")
    page.keyboard.press("Enter")
    assert page.evaluate(SELECTED) == [LLM_KEY]
    assert "2 papers" in _panel(page)
    assert any(line.startswith("Graph Transformer (GT)") for line in _search(page, "graph tr"))
    assert any(line.startswith("CIFAR-100") for line in _search(page, "cifar"))
    assert _search(page, "zzzz") == ["No match for “zzzz”"]
    page.locator("#results li").first.click()
    assert_clean(page, log)


def test_filters_hide_what_they_say_and_the_counts_follow(context: BrowserContext, dated: Path) -> None:
    page, log = open_page(context, dated / "graph.html")
    summary = page.inner_text("#summary")
    total = page.evaluate(SHOWN_KINDS)
    page.uncheck("input[data-type=Dataset]")
    kinds = page.evaluate(SHOWN_KINDS)
    assert "Dataset" not in kinds and len(kinds) == len(total) - total.count("Dataset")
    assert page.inner_text("[data-type-count=Dataset]") == "0"
    assert page.inner_text("#summary") != summary
    assert f"Showing {len(kinds)} of {len(total)} entities" in page.inner_text("#summary")
    page.click("#reset")
    page.uncheck("input[data-relation=SHARED_PAPERS]")
    kinds_left = page.evaluate("window.paperkgView.edgeView.get().map(e => e.kinds)")
    assert kinds_left and all(set(kinds) - {"SHARED_PAPERS"} for kinds in kinds_left)
    assert page.inner_text("[data-relation-count=SHARED_PAPERS]") == "0"
    page.click("#reset")
    page.fill("#min-papers", "2")
    assert sorted(page.evaluate("window.paperkgView.nodeView.getIds()")) == ["dataset:cifar-10", LLM_KEY]
    page.click("#reset")
    page.fill("#year-from", "2025")
    shown = page.evaluate("window.paperkgView.nodeView.getIds()")
    assert FLERM_KEY in shown and SIRA_KEY not in shown and MAGEP_KEY not in shown
    assert_clean(page, log)


def test_colour_by_year_recolours_and_shows_the_scale(context: BrowserContext, dated: Path) -> None:
    page, log = open_page(context, dated / "graph.html")
    assert page.is_hidden("#year-scale")
    page.select_option("#colour-by", "year")
    assert page.is_visible("#year-scale")
    # FLeRM is in one paper: too few for a mean year, so grey, as the scale's note says
    assert page.evaluate(f"window.paperkgView.nodes.get('{FLERM_KEY}').color") == "#D0D0D0"
    assert "fewer than 3 papers" in page.inner_text("#year-scale")
    assert_clean(page, log)


def test_text_from_the_corpus_never_runs(context: BrowserContext, hostile: Path) -> None:
    for view in ("graph.html", "papers.html"):
        page, log = open_page(context, hostile / view)
        assert page.title() == "<b>corpus</b>" + (" · papers" if view == "papers.html" else "")
        lines = _search(page, "xssnet")
        assert lines[0].startswith(HOSTILE_NAME)
        page.keyboard.press("Enter")
        panel = _panel(page)
        assert HOSTILE_NAME in panel and f"XSSNet = {HOSTILE_ALIAS}" in panel
        assert HOSTILE_SENTENCE in panel and page.inner_text("#panel mark") == "XSSNet"
        assert [href for href in page.eval_on_selector_all("#panel a", "as => as.map(a => a.href)")
                if not href.startswith("https://")] == []
        _search(page, "<img")
        page.uncheck("input[data-type=Method]")
        page.check("input[data-type=Method]")
        page.select_option("#colour-by", "community")
        for where in ("#panel", "#results", "#legend", "#summary", "header h1"):
            assert page.evaluate(
                f"document.querySelectorAll('{where} script, {where} img, {where} iframe').length") == 0
        assert page.evaluate("document.querySelectorAll('script').length") == 3  # vis, data, page
        assert_clean(page, log)


def test_papers_view_panel_on_click(context: BrowserContext, dated: Path) -> None:
    page, log = open_page(context, dated / "papers.html")
    node = "paper:4a2f2e6da9f81cf7"
    x, y = page.evaluate(f"""(() => {{
        const view = window.paperkgView.network;
        const at = view.canvasToDOM(view.getPositions([{json.dumps(node)}])[{json.dumps(node)}]);
        const box = document.getElementById('network').getBoundingClientRect();
        return [box.left + at.x, box.top + at.y];
    }})()""")
    page.mouse.click(x, y)
    panel = _panel(page)
    assert "Function-space Learning Rates" in panel and "ABSTRACT" in panel.upper()
    assert_clean(page, log)


def test_folded_entities_are_found_and_say_how_to_draw_them(context: BrowserContext, tmp_path: Path) -> None:
    options = ViewOptions(max_nodes=100, types=ENTITY_TYPES, min_papers=1)
    render_views(synthetic_field(300, 900, seed=4), tmp_path, options)
    page, log = open_page(context, tmp_path / "graph.html")
    assert "200 folded away" in page.inner_text("#legend")
    folded = json.loads((tmp_path / "graph.html").read_text().split('type="application/json">')[1]
                        .split("</script>")[0])["folded"][0]["name"]
    lines = _search(page, folded)
    assert "folded" in lines[0]
    page.keyboard.press("Enter")
    assert f'paperkg view graph.json --focus "{folded}"' in _panel(page)
    assert_clean(page, log)


def test_the_corpus_views_from_paperkg_build_work_offline(context: BrowserContext, built: Path) -> None:
    for view in ("graph.html", "papers.html"):
        page, log = open_page(context, built / view)
        lines = _search(page, "LLM")
        assert "large language model" in lines[0].lower()
        page.keyboard.press("Enter")
        assert "EVIDENCE" in _panel(page).upper()
        assert_clean(page, log)
