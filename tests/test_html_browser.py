"""graph.html in a real headless Chromium: draws, settles, hovers, and never touches the network.

Needs /usr/bin/chromium (scripts/install-chromium.sh); run alone with `pytest -m browser`.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import networkx as nx
import pytest
from chromium import Chromium, Page
from graph_fixtures import sample_graph, synthetic_graph

from paperkg.viz.html import render_html

pytestmark = pytest.mark.browser

CORPUS = Path(__file__).resolve().parents[1] / "examples" / "icml2025"
HOSTILE_NAME = "<script>alert(1)</script>"
READY = "document.body && document.body.dataset.state === 'ready'"


@pytest.fixture(scope="module")
def browser() -> Iterator[Chromium]:
    with Chromium() as chromium:
        yield chromium


@pytest.fixture(scope="module")
def corpus_html(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """graph.html exactly as `paperkg build` writes it for the shipped ICML 2025 corpus."""
    out = tmp_path_factory.mktemp("corpus")
    command = shutil.which("paperkg") or str(Path(sys.executable).with_name("paperkg"))
    subprocess.run([command, "build", str(CORPUS), "-o", str(out)], check=True,
                   capture_output=True)
    return out / "graph.html"


def _hostile_graph() -> nx.MultiDiGraph:
    graph = sample_graph()
    key = "method:xss"
    graph.add_node(key, label="Method", key=key, name=HOSTILE_NAME,
                   aliases=[HOSTILE_NAME, "<img src=x onerror=alert(2)>"], mentions=1, papers=1,
                   degree=1, pagerank=0.2, community=0)
    evidence = {"paper": "4a2f2e6da9f81cf7", "sentence": "</script><script>alert(3)</script>",
                "start": 0, "end": 5, "extractor": "cue", "confidence": 0.9}
    graph.add_edge("paper:4a2f2e6da9f81cf7", key, key="MENTIONS", type="MENTIONS", count=1,
                   confidence=0.9, evidence=[evidence])
    return graph


def _open(browser: Chromium, graph: nx.MultiDiGraph, path: Path, **options) -> Page:
    render_html(graph, path, **options)
    page = browser.open_page(path)
    page.wait_for(READY)
    return page


def _assert_clean(page: Page) -> None:
    browser_log = page.idle()
    assert browser_log.errors() == []
    assert browser_log.requests_besides(page.url) == []
    assert browser_log.dialogs == []


def _hover_node(page: Page, node_id: str, expected: str) -> str:
    """Move the mouse onto a node; the text of the tooltip once it shows `expected`."""
    x, y = page.evaluate(f"""(() => {{
        const view = window.paperkgView.network;
        const at = view.canvasToDOM(view.getPositions([{json.dumps(node_id)}])[{json.dumps(node_id)}]);
        const box = document.getElementById('network').getBoundingClientRect();
        return [box.left + at.x, box.top + at.y];
    }})()""")
    page.hover(x + 40, y + 40)
    page.hover(x, y)
    return page.wait_for(f"""(() => {{ const tip = document.querySelector('div.vis-tooltip');
        return tip && tip.style.visibility === 'visible' && tip.textContent.includes({json.dumps(expected)})
            && tip.textContent; }})()""", timeout=10)


def test_the_harness_sees_requests_and_console_errors(browser: Chromium, tmp_path: Path) -> None:
    page_file = tmp_path / "leaky.html"
    page_file.write_text('<img src="http://192.0.2.1/pixel.png"><script>console.error("boom");'
                         'document.body.dataset.state = "ready";</script>')
    page = browser.open_page(page_file)
    page.wait_for(READY)
    deadline = time.monotonic() + 10
    while not page.idle(0.1).requests_besides(page.url) and time.monotonic() < deadline:
        pass
    assert "http://192.0.2.1/pixel.png" in page.log.requests_besides(page.url)
    assert "error: boom" in page.log.errors()


def test_page_draws_the_whole_graph_offline_without_errors(browser: Chromium, tmp_path: Path) -> None:
    graph = sample_graph()
    page = _open(browser, graph, tmp_path / "graph.html")
    drawn = page.evaluate("window.paperkgView.network.body.nodeIndices.length")
    assert drawn == sum(1 for _, label in graph.nodes(data="label") if label != "Concept")
    assert page.evaluate("document.body.dataset.drawn") == "true"
    assert page.evaluate("document.querySelector('#network canvas').width") > 0
    _assert_clean(page)


def test_hover_shows_the_card_as_text(browser: Chromium, tmp_path: Path) -> None:
    page = _open(browser, _hostile_graph(), tmp_path / "graph.html")
    flerm = _hover_node(page, "method:flerm", "FLeRM")
    assert "FLeRM = Function-space Learning Rate Matching" in flerm
    assert "We develop Function-space Learning Rate Matching (FLeRM)" in flerm
    hostile = _hover_node(page, "method:xss", HOSTILE_NAME)
    assert HOSTILE_NAME in hostile and "<img src=x onerror=alert(2)>" in hostile
    assert page.evaluate("document.querySelectorAll('div.vis-tooltip script, div.vis-tooltip img')"
                         ".length") == 0
    assert page.evaluate("document.querySelectorAll('script').length") == 3  # vis, data, page
    _assert_clean(page)


def test_legend_hides_and_shows_a_type(browser: Chromium, tmp_path: Path) -> None:
    page = _open(browser, sample_graph(), tmp_path / "graph.html")
    hidden = "window.paperkgView.nodes.get({filter: n => n.hidden}).map(n => n.kind)"
    page.evaluate("document.querySelector('#legend input[data-kind=Dataset]').click()")
    assert page.evaluate(hidden) == ["Dataset"] * 3
    page.evaluate("document.querySelector('#legend input[data-kind=Dataset]').click()")
    assert page.evaluate(hidden) == []
    _assert_clean(page)


def test_a_corpus_sized_graph_settles(browser: Chromium, tmp_path: Path) -> None:
    graph = synthetic_graph()
    assert graph.number_of_nodes() >= 400
    started = time.monotonic()
    page = _open(browser, graph, tmp_path / "graph.html", size_by="pagerank",
                 colour_by="community")
    assert time.monotonic() - started < 45
    assert page.evaluate("window.paperkgView.network.body.nodeIndices.length") == \
        graph.number_of_nodes()
    assert page.evaluate("window.paperkgView.network.physics.physicsEnabled") is False
    _assert_clean(page)


def test_the_corpus_view_from_paperkg_build_works_offline(browser: Chromium,
                                                          corpus_html: Path) -> None:
    page = browser.open_page(corpus_html)
    page.wait_for(READY)
    kinds = page.evaluate("window.paperkgView.nodes.get().map(n => n.kind)")
    assert kinds.count("Paper") == 57
    assert page.evaluate("window.paperkgView.network.body.nodeIndices.length") == len(kinds)
    hub = page.evaluate("""window.paperkgView.nodes.get({filter: n => n.kind !== 'Paper'})
        .sort((a, b) => b.value - a.value || (a.id < b.id ? -1 : 1))[0].id""")
    name = page.evaluate(f"window.paperkgView.nodes.get({json.dumps(hub)}).label")
    assert name in _hover_node(page, hub, name)
    _assert_clean(page)


def test_search_selects_the_named_node(browser: Chromium, tmp_path: Path) -> None:
    page = _open(browser, sample_graph(), tmp_path / "graph.html")
    assert page.evaluate("document.querySelectorAll('#node-names option').length") == 16
    page.evaluate("""(() => { const box = document.getElementById('search');
        box.value = 'FLeRM'; box.dispatchEvent(new Event('change')); })()""")
    assert page.evaluate("window.paperkgView.network.getSelectedNodes()") == ["method:flerm"]
    _assert_clean(page)
