"""The views used in headless Chromium as a reader would: a typed relation's evidence panel opened by
clicking its link, the page's controls by keyboard alone, and a focus view that `paperkg view --focus` wrote."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from browser import assert_clean, open_page
from cli_helpers import run_cli
from graph_fixtures import FLERM_KEY, GT_KEY, SIRA_KEY
from view_fixtures import dated_graph

from paperkg.graph.exports import write_json
from paperkg.viz.options import ViewOptions
from paperkg.viz.style import relation_style
from paperkg.viz.views import render_views

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page

pytestmark = pytest.mark.browser

SELECTED = "window.paperkgView.network.getSelectedNodes()"
SHOWN_KINDS = "window.paperkgView.nodeView.get().map(n => n.kind)"
EDGE_MIDDLE = """(id) => {
    const view = window.paperkgView.network, edge = window.paperkgView.edges.get(id);
    const box = document.getElementById('network').getBoundingClientRect();
    const [a, b] = [edge.from, edge.to].map(node => view.canvasToDOM(view.getPositions([node])[node]));
    return [box.left + (a.x + b.x) / 2, box.top + (a.y + b.y) / 2];
}"""


@pytest.fixture(scope="module")
def views(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("views")
    render_views(dated_graph(), out, ViewOptions(colour_by="community"))
    return out


def _focused(page: Page) -> str:
    return page.evaluate("document.activeElement.id || document.activeElement.dataset.cluster || ''")


def test_clicking_a_typed_relation_shows_its_type_and_its_evidence_marked(context: BrowserContext, views: Path) -> None:
    page, log = open_page(context, views / "graph.html")
    link = f"{FLERM_KEY}|{GT_KEY}"
    page.evaluate(f"window.paperkgView.network.moveTo({{position: window.paperkgView.network.getPositions("
                  f"['{FLERM_KEY}', '{GT_KEY}'])['{FLERM_KEY}'], scale: 3}})")
    page.wait_for_timeout(100)
    x, y = page.evaluate(EDGE_MIDDLE, link)
    page.mouse.click(x, y)
    page.wait_for_selector("#panel:not([hidden])")
    assert page.inner_text("#panel h2") == "Function-space Learning Rate Matching — Graph Transformer"
    assert relation_style("USED_FOR").name in page.inner_text("#panel p.facts")
    quotes = page.locator("#panel blockquote").all_inner_texts()
    assert any(quote.startswith("FLeRM improves training of Graph Transformers (GTs)") for quote in quotes)
    assert "FLeRM improves training of Graph Transformers" in page.locator("#panel blockquote mark").all_inner_texts()
    assert page.evaluate("window.paperkgView.network.getSelectedEdges()") == [link]
    assert_clean(page, log)


def test_search_enter_and_escape_work_from_the_keyboard(context: BrowserContext, views: Path) -> None:
    page, log = open_page(context, views / "graph.html")
    page.keyboard.press("Tab")
    assert _focused(page) == "search"
    page.keyboard.type("sira")
    page.wait_for_selector("#results:not([hidden]) li")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    assert page.evaluate(SELECTED) == [SIRA_KEY]
    assert page.inner_text("#panel h2").startswith("Self-Information Rewrite Attack")
    page.keyboard.type(" ")  # the list opens again on input
    page.wait_for_selector("#results:not([hidden])")
    page.keyboard.press("Escape")  # first the result list closes, the panel stays
    assert page.is_hidden("#results") and page.is_visible("#panel")
    page.keyboard.press("Escape")  # then the panel
    assert page.is_hidden("#panel")
    page.keyboard.press("Tab")
    assert _focused(page) == "fit"
    page.keyboard.press("Enter")  # the whole map again
    assert_clean(page, log)


def test_the_legend_and_the_panel_work_from_the_keyboard(context: BrowserContext, views: Path) -> None:
    page, log = open_page(context, views / "graph.html")
    view = "(() => { const v = window.paperkgView.network; return [v.getScale(), v.getViewPosition()]; })()"
    before = page.evaluate(view)
    page.focus("#clusters li[data-cluster]")
    page.keyboard.press("Enter")  # a cluster row moves the view to its members
    page.wait_for_timeout(500)
    assert _focused(page) == "0" and page.evaluate(view) != before
    page.focus("input[data-type='Dataset']")
    page.keyboard.press("Space")
    assert "Dataset" not in page.evaluate(SHOWN_KINDS) and "Method" in page.evaluate(SHOWN_KINDS)
    page.keyboard.press("Space")
    assert "Dataset" in page.evaluate(SHOWN_KINDS)
    page.evaluate(f"window.paperkgView.open('{FLERM_KEY}')")
    related = page.locator("#panel-body button").first
    related.focus()
    page.keyboard.press("Enter")  # a related entity's button opens its panel
    assert page.evaluate(SELECTED) != [FLERM_KEY]
    page.focus("#close-panel")
    page.keyboard.press("Enter")
    assert page.is_hidden("#panel")
    assert_clean(page, log)


def test_a_focus_view_written_by_paperkg_view_opens_on_its_entity(context: BrowserContext, tmp_path: Path) -> None:
    write_json(dated_graph(), tmp_path / "graph.json")
    run_cli("view", str(tmp_path / "graph.json"), "--focus", "SIRA", "--depth", "1", "-o", str(tmp_path / "sira.html"))
    page, log = open_page(context, tmp_path / "sira.html")
    assert page.evaluate(SELECTED) == [SIRA_KEY]
    assert page.inner_text("#panel h2").startswith("Self-Information Rewrite Attack")
    x, y, width, height = page.evaluate(f"""(() => {{
        const view = window.paperkgView.network, at = view.canvasToDOM(view.getPositions(['{SIRA_KEY}'])['{SIRA_KEY}']);
        const box = document.getElementById('network');
        return [at.x, at.y, box.clientWidth, box.clientHeight];
    }})()""")
    assert abs(x - width / 2) < 3 and abs(y - height / 2) < 3
    shown = set(page.evaluate("window.paperkgView.nodeView.getIds()"))
    assert SIRA_KEY in shown and FLERM_KEY not in shown  # one link out: SIRA's paper, not FLeRM's
    assert_clean(page, log)


def test_the_legend_s_slider_moves_the_typed_relations_threshold(context: BrowserContext, tmp_path: Path) -> None:
    render_views(dated_graph(), tmp_path, ViewOptions(min_confidence=0.5))
    page, log = open_page(context, tmp_path / "graph.html")
    link = f"{FLERM_KEY}|{GT_KEY}"
    sure = page.evaluate(f"window.paperkgView.edges.get('{link}').confidence.USED_FOR")
    assert page.input_value("#min-confidence") == "0.5" and sure >= 0.5
    count = "document.querySelector('[data-relation-count=USED_FOR]').textContent"
    colour = f"window.paperkgView.edges.get('{link}').color.color"
    assert page.evaluate(count) != "0" and page.evaluate(colour) == relation_style("USED_FOR").colour
    page.fill("#min-confidence", "1")  # above every relation: the link is drawn for its shared papers only
    page.dispatch_event("#min-confidence", "input")
    assert page.evaluate(count) == "0" and page.inner_text("#min-confidence-value") == "1.00"
    assert page.evaluate(colour) == relation_style("SHARED_PAPERS").colour
    page.click("#reset")
    assert page.input_value("#min-confidence") == "0.5" and page.evaluate(colour) == relation_style("USED_FOR").colour
    assert_clean(page, log)
