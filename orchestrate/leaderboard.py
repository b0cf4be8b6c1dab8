"""`paperkg leaderboard NAME`: the leaderboard of a task or a data set, found by any of its names (the resolution
the build made: its acronym, long form, aliases and the names merged into it), read from the build's
leaderboards.json (computed from the graph for a graph that is no build's), reported as terminal tables, JSON, CSV
or leaderboard.html."""
from __future__ import annotations

import csv
import io
import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from rich.markup import escape
from rich.table import Table

from paperkg.core.errors import ExitCode, PaperkgError
from paperkg.core.output_folder import names_folder
from paperkg.core.output_guard import check_output
from paperkg.graph.exports import spreadsheet_safe
from paperkg.graph.leaderboard import Board, Leaderboard, Leaderboards, Row, best_by_year
from paperkg.viz.options import LEADERBOARD_FILE

FORMATS = (".html", ".json", ".csv")
CSV_COLUMNS = ("subject", "subject_type", "dataset", "metric", "metric_key", "better", "split", "kind", "unit",
               "rank", "method", "proposed", "value", "number", "number_high", "year", "paper", "title",
               "comparison", "direction", "relative", "sentence")
MAX_TITLE = 60


def output_target(output: Path | None) -> Path | None:
    """The file -o names: an .html, .json or .csv file, or a folder for leaderboard.html; a usage error otherwise,
    or when it is a file a build lists (core/output_guard.py), before any work."""
    if output is None:
        return None
    target = output / LEADERBOARD_FILE if names_folder(output) else output
    if target.suffix.lower() not in FORMATS:
        raise PaperkgError(f"-o {output}: name an .html, .json or .csv file, or a folder for {LEADERBOARD_FILE}.",
                           ExitCode.USAGE)
    check_output(target, "a leaderboard")
    return target


def read_leaderboards(graph_file: Path) -> Leaderboards:
    """The build's leaderboards, or those computed from a graph that is no build's."""
    from paperkg.orchestrate.artifact import leaderboards_layer

    stored = leaderboards_layer(graph_file)
    if stored is not None:
        return stored
    from paperkg.graph.exports import read_graph
    from paperkg.graph.leaderboard import compute_leaderboards

    return compute_leaderboards(read_graph(graph_file))


def find_leaderboard(boards: Leaderboards, name: str, label: str | None, graph_file: Path) -> Leaderboard:
    """The leaderboard `name` names (the one with most results when it names several); one sentence when no
    task or data set of that name has results."""
    if not name.strip():
        raise PaperkgError("leaderboard: name a task or a data set, not an empty string.", ExitCode.USAGE)
    found = boards.named(name, label)
    if found:
        return found[0]
    kind = label.lower() if label else "task or data set"
    if not boards.boards:
        raise PaperkgError(f"{graph_file}: no result was read from its abstracts, so there is no leaderboard "
                           f"(results are reported values such as '28.4 BLEU on WMT14').", ExitCode.USAGE)
    close = sorted((board for board in boards.boards.values() if name.strip().casefold() in board.name.casefold()),
                   key=lambda board: -board.results)[:3]
    hint = f"; those with results whose names contain it: {', '.join(repr(b.name) for b in close)}" if close else ""
    raise PaperkgError(f"{graph_file}: no {kind} named {name!r} has results{hint} (paperkg why {name!r} "
                       f"{graph_file.parent} tells whether it is a node).", ExitCode.USAGE)


def report(board: Leaderboard, sort: str, by_year: bool) -> dict[str, Any]:
    """The JSON report: the task or data set, and its boards with their rows (ranked boards: ranks, and with
    `by_year` the best row of each year)."""
    boards = []
    for item in board.boards:
        record: dict[str, Any] = {k: v for k, v in asdict(item).items() if k != "rows"}
        record["ranked"] = item.ranked
        ranks = _ranks(item)
        record["rows"] = [{**asdict(row), "rank": ranks.get(row.result)} for row in item.sorted_rows(sort)]
        if by_year and item.ranked:
            record["best_by_year"] = [asdict(row) for row in best_by_year(item)]
        boards.append(record)
    return {"subject": {"key": board.key, "name": board.name, "type": board.label, "results": board.results},
            "boards": boards}


def csv_text(board: Leaderboard, sort: str) -> str:
    """One CSV row per result, with its board's columns."""
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=CSV_COLUMNS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for item in board.boards:
        ranks = _ranks(item)
        for row in item.sorted_rows(sort):
            writer.writerow(spreadsheet_safe({
                **asdict(row), "subject": board.name, "subject_type": board.label, "dataset": item.dataset,
                "metric": item.metric, "metric_key": item.metric_key, "better": item.better, "split": item.split,
                "kind": item.kind, "unit": item.unit, "rank": ranks.get(row.result, "")}))
    return text.getvalue()


def write_output(board: Leaderboard, target: Path, sort: str, by_year: bool, title: str) -> None:
    """The leaderboard into `target` (checked by output_target) by its extension: .html, .json or .csv."""
    from paperkg.core.atomic import atomic_write_text

    target.parent.mkdir(parents=True, exist_ok=True)
    suffix = target.suffix.lower()
    if suffix == ".html":
        from paperkg.viz.leaderboard_page import write_leaderboard_page

        write_leaderboard_page([board], target, title, sort)
    elif suffix == ".json":
        atomic_write_text(target, json.dumps(report(board, sort, by_year), ensure_ascii=False, indent=1) + "\n")
    else:
        atomic_write_text(target, csv_text(board, sort))


def tables(board: Leaderboard, sort: str, by_year: bool) -> list[Table]:
    """One terminal table per board: rank (ranked boards), method, value, year, paper; with `by_year`, a ranked
    board's best value of each year after it."""
    found = []
    for item in board.boards:
        table = Table("#", "method", "value", "year", "paper", title=escape(f"{board_title(item)}\n{board_note(item)}"),
                      title_justify="left")
        ranks = _ranks(item)
        for row in item.sorted_rows(sort):
            table.add_row(str(ranks.get(row.result, "")), escape(_method(row)), escape(row.value),
                          str(row.year or ""), escape(_paper(row)))
        found.append(table)
        if by_year and item.ranked:
            years = Table("year", "best", "method", "paper", title=f"best reported each year: {escape(item.metric)}",
                          title_justify="left")
            for row in best_by_year(item):
                years.add_row(str(row.year), escape(row.value), escape(_method(row)), escape(_paper(row)))
            found.append(years)
    return found


def summary(board: Leaderboard, graph_file: Path, others: int) -> str:
    """One line: which task or data set, how many results and boards."""
    also = f" ({others} other tasks or data sets answer to the name: --type, or a fuller name)" if others else ""
    return (f"{graph_file}: {board.name} ({board.label}, {board.key}): {board.results} results in "
            f"{len(board.boards)} boards{also}.")


def board_title(board: Board) -> str:
    """'WMT14 · BLEU · test split · levels reached · %'."""
    parts = [board.dataset or "no data set named", board.metric or "no metric named"]
    parts += [f"{board.split} split"] if board.split else []
    parts.append("changes" if board.kind == "change" else "levels reached")
    parts += [board.unit] if board.unit else []
    return " · ".join(parts)


def board_note(board: Board) -> str:
    """Why a board is ranked or not."""
    if board.ranked:
        return f"ranked, best first: {board.better} is better"
    if board.kind == "change":
        return "changes against each paper's own baseline: by year, never ranked"
    if not board.dataset:
        return "no data set named: by year, not compared"
    if not board.metric:
        return "no metric named: by year, not compared"
    return "which way the metric is better is not known: by year"


def _ranks(board: Board) -> dict[str, int]:
    return {row.result: rank for rank, row in enumerate(board.rows, start=1)} if board.ranked else {}


def _method(row: Row) -> str:
    return row.method or ("(the paper's method)" if row.proposed else "(not named)")


def _paper(row: Row) -> str:
    title = row.title if len(row.title) <= MAX_TITLE else row.title[:MAX_TITLE - 1] + "…"
    return f"{title} [{row.paper}]"

