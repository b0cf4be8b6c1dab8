"""leaderboard.html in real headless Chromium: offline and without errors, the subjects listed with their boards,
a value opening its sentence, and a page cut for a large corpus saying how many subjects it left out.

Needs /usr/bin/chromium (scripts/install-chromium.sh); run alone with `pytest -m browser`.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from browser import assert_clean, open_page
from test_leaderboards import results_graph

from paperkg.graph.leaderboard import compute_leaderboards
from paperkg.viz.leaderboard_page import write_leaderboard_page

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext

pytestmark = pytest.mark.browser


def test_the_page_lists_its_subjects_and_says_what_a_large_corpus_left_out(context: BrowserContext,
                                                                          tmp_path: Path) -> None:
    [wmt] = compute_leaderboards(results_graph()).boards.values()
    smaller = replace(wmt, key="dataset:iwslt", name="IWSLT", boards=wmt.boards[-1:])
    whole, cut = tmp_path / "whole.html", tmp_path / "cut.html"
    write_leaderboard_page([wmt, smaller], whole, "t")
    write_leaderboard_page([wmt, smaller], cut, "t", max_rows=sum(len(board.rows) for board in wmt.boards))

    page, log = open_page(context, whole)
    assert page.locator("#subjects li").count() == 2
    assert page.inner_text("#subject") == "WMT14 (Dataset)"
    assert page.locator("#boards table").count() == len(wmt.boards)
    assert "more in leaderboards.json" not in page.inner_text("#summary")
    page.locator("#boards table td.value button").first.click()
    assert wmt.boards[0].sorted_rows("value")[0].sentence in page.inner_text("#panel")
    assert_clean(page, log)

    page, log = open_page(context, cut)
    assert page.locator("#subjects li").count() == 1
    assert page.inner_text("#summary").endswith(
        "(those with the most results; 1 more in leaderboards.json and paperkg leaderboard NAME)")
    assert_clean(page, log)
