"""leaderboard.html: the leaderboards of tasks and data sets, one subject at a time, each value opening the
sentence that reports it; one offline file (a subject opens by its node key in the address: #task:machine%20
translation, which is how the entity map's panel links to it).

Like the other views: everything inlined, a Content-Security-Policy that forbids any fetch, and text from the
corpus reaching the page only as JSON, put into the DOM with `textContent`.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict
from importlib import resources
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape

from paperkg.core.atomic import atomic_write_text
from paperkg.graph.leaderboard import Board, Leaderboard
from paperkg.viz.page import inline_asset, inline_text
from paperkg.viz.page_script import page_script
from paperkg.viz.style import node_style

_TEMPLATES = resources.files("paperkg.viz") / "templates"
_ENV = Environment(loader=PackageLoader("paperkg.viz", "templates"),
                   autoescape=select_autoescape(default=True), keep_trailing_newline=True)


PAGE_ROWS = 10_000  # rows one page holds (about 1 KB each, with its sentence): the subjects with most results first


def page_data(leaderboards: Iterable[Leaderboard], title: str, sort: str = "value",
              max_rows: int = PAGE_ROWS) -> dict[str, Any]:
    """What the page shows, as plain data: the subjects, most results first, with their boards and rows; past
    `max_rows` rows the rest is left out (counted in `left_out`; leaderboards.json and `paperkg leaderboard` hold
    them), so a corpus of millions still gives a page a browser opens."""
    ordered = sorted(leaderboards, key=lambda board: (-board.results, board.name.casefold(), board.key))
    subjects: list[Leaderboard] = []
    rows = 0
    for subject in ordered:
        size = sum(len(board.rows) for board in subject.boards)
        if subjects and rows + size > max_rows:
            break
        subjects.append(subject)
        rows += size
    labels = sorted({subject.label for subject in subjects})
    results = len({row.result for s in subjects for b in s.boards for row in b.rows})
    data: dict[str, Any] = {"title": title, "results": results,
                            "colours": {label: node_style(label).colour for label in labels},
                            "subjects": [{"key": s.key, "name": s.name, "label": s.label, "results": s.results,
                                          "boards": [_board(board, sort) for board in s.boards]} for s in subjects]}
    if len(subjects) < len(ordered):
        data["left_out"] = len(ordered) - len(subjects)
    return data


def write_leaderboard_page(leaderboards: Iterable[Leaderboard], path: Path, title: str, sort: str = "value",
                           max_rows: int = PAGE_ROWS) -> None:
    """Write leaderboard.html at `path` atomically; the same leaderboards give the same bytes."""
    data = page_data(leaderboards, title, sort, max_rows)
    html = _ENV.get_template("leaderboard.html.j2").render(
        data=data, title=title,
        page_js=inline_text(page_script(_TEMPLATES / "leaderboard", "leaderboard.mjs", "startLeaderboard"), "script",
                            "leaderboard.mjs"),
        page_css=inline_asset(_TEMPLATES / "leaderboard.css", "style"))
    atomic_write_text(Path(path), html)


def _board(board: Board, sort: str) -> dict[str, Any]:
    """A board as the page reads it: its rows in the order asked for, each with its rank on a ranked board."""
    record = {key: value for key, value in asdict(board).items() if key != "rows"}
    record["ranked"] = board.ranked
    ranks = {row.result: rank for rank, row in enumerate(board.rows, start=1)} if board.ranked else {}
    record["rows"] = [{**asdict(row), "rank": ranks.get(row.result)} for row in board.sorted_rows(sort)]
    return record
