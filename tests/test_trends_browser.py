"""trends.html in real headless Chromium: offline, no errors, the bursts chart and small multiples, the
panel on click, and hostile names, titles and sentences shown as text, never run.

Needs /usr/bin/chromium (scripts/install-chromium.sh); run alone with `pytest -m browser`.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import networkx as nx
import pytest
from browser import assert_clean, open_page
from records import Term, build, paper
from view_fixtures import HOSTILE_ALIAS, HOSTILE_KEY, HOSTILE_NAME, HOSTILE_SENTENCE, dated_records, hostile_record

import paperkg
from paperkg.viz.trends_page import write_trends_page
from paperkg.viz.views import render_views

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext

pytestmark = pytest.mark.browser


def bursting_hostile_graph() -> nx.MultiDiGraph:
    """The hostile graph plus papers 2015-2025 (hostile titles) in which the hostile entity rises and bursts from 2022
    and ImageNet is steady, so the hostile name is in the bursts chart, the multiples and the panel."""
    records = [*dated_records(), hostile_record()]
    for year in range(2015, 2026):
        for number in range(6):
            terms = [Term("We", "Dataset", name="ImageNet", source="cue", confidence=0.9)]
            if year >= 2022 or number == 0 and year > 2019:
                terms.append(Term("XSSNet", "Method", name=HOSTILE_NAME, source="cue", confidence=0.9))
            records.append(paper(f"{year}{number:012d}", HOSTILE_SENTENCE, terms,
                                 title=f"{HOSTILE_ALIAS} {year}-{number}",
                                 year=year))
    return build(records)


@pytest.fixture(scope="module")
def page_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("trends") / "trends.html"
    write_trends_page(paperkg.trends(bursting_hostile_graph(), window=4), path, title="<b>trends</b>")
    return path


def test_trends_page_draws_offline_and_the_panel_shows_first_and_burst_papers(
        context: BrowserContext, page_file: Path) -> None:
    page, log = open_page(context, page_file)
    rows = page.locator("#bursts tbody tr")
    assert rows.count() >= 1
    assert page.locator(f"#bursts tbody tr[data-key='{HOSTILE_KEY}'] rect.burst").count() == 4  # 2022-2025
    assert page.locator(f".tile[data-key='{HOSTILE_KEY}']").count() == 1  # a small multiple, rising or fading
    page.click(f"#bursts tbody tr[data-key='{HOSTILE_KEY}']")
    panel = page.inner_text("#panel")
    assert "first seen 2020" in panel and "First seen in 2020" in panel
    assert "Burst 2022–2025" in panel and "papers of 2022" in panel
    assert page.locator("#panel svg.sparkline").count() == 1
    assert page.locator(f"#bursts tbody tr.selected[data-key='{HOSTILE_KEY}']").count() == 1
    page.locator(".tile").first.click()
    assert page.inner_text("#panel h2")
    assert_clean(page, log)


def test_hostile_text_is_shown_as_text_and_never_runs(context: BrowserContext, page_file: Path) -> None:
    page, log = open_page(context, page_file)
    assert page.title() == "<b>trends</b>"
    assert page.inner_text(f"#bursts tbody tr[data-key='{HOSTILE_KEY}'] td.name") == HOSTILE_NAME
    page.click(f"#bursts tbody tr[data-key='{HOSTILE_KEY}']")
    assert page.inner_text("#panel h2") == HOSTILE_NAME
    panel = page.inner_text("#panel")
    assert HOSTILE_SENTENCE in panel and HOSTILE_ALIAS in panel  # titles and sentences, as text
    for tile in page.locator(".tile").all():
        tile.click()
    for where in ("#panel", "#bursts", "#rising", "#fading", "header"):
        assert page.evaluate(f"document.querySelectorAll('{where} script, {where} img, {where} iframe').length") == 0
    assert page.evaluate("document.querySelectorAll('script').length") == 2  # data, page
    assert_clean(page, log)


def test_graph_html_entity_panel_has_papers_per_year_and_first_year(context: BrowserContext, tmp_path: Path) -> None:
    render_views(bursting_hostile_graph(), tmp_path)
    page, log = open_page(context, tmp_path / "graph.html")
    page.fill("#search", "xssnet")
    page.wait_for_selector("#results li")
    page.keyboard.press("Enter")
    page.wait_for_selector("#panel:not([hidden])")
    assert "Papers per year 2015–2025 · first seen 2020" in page.inner_text("#panel")
    bars = page.eval_on_selector_all("#panel svg.sparkline rect", "rs => rs.map(r => r.textContent)")
    assert len(bars) == 11 and bars[0] == "2015: 0 papers" and bars[7] == "2022: 6 papers"
    assert_clean(page, log)
