"""Leaderboards read off the graph's Result nodes: for a task or a data set, its results in boards of values that
may be compared, each row with its method, paper, year and the sentence that reports it.

A board holds the results on one data set (the node the corpus resolved its names to, else the name as written),
with one metric (its key: aliases folded, graph/metric_names.py), one split, one kind and one scale: values are
never compared across metrics, splits or scales ('91%' and '0.91'; a level written without a unit above 1 is on
the percentage points of '%', as '80.27 F1' and '85.82% F1' are), and a change ('by 2.1 points') is never ranked
with the levels reached. A board of levels whose metric has a known direction is ranked, best first (error rates,
perplexity and WER go down); the others list their rows by year. A build computes every task's and data set's
leaderboard once and saves them beside the graph (leaderboards.json: `Leaderboards.to_json`, read back with
`Leaderboards.from_json`).
"""
from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, fields, replace
from typing import TYPE_CHECKING, Any

from paperkg.core import graph_model as model
from paperkg.core.graph_model import PAPER_KEY_PREFIX, ResultNode
from paperkg.core.schema import NodeLabel, RelType, ResultKind, read_versioned

from .metric_names import HIGHER

if TYPE_CHECKING:  # `paperkg leaderboard` reads a build's leaderboards.json without NetworkX
    import networkx as nx

LEADERBOARDS_KEY = "paperkg_leaderboards"  # the version field of leaderboards.json
LEADERBOARDS_VERSION = 1
SUBJECT_LABELS = (NodeLabel.TASK.value, NodeLabel.DATASET.value)
SORTS = ("value", "year", "method", "paper")


@dataclass(frozen=True)
class Row:
    """One result as a leaderboard shows it."""

    result: str           # the Result node's key
    paper: str            # the paper's id
    title: str
    year: int | None
    method: str           # the method node's name, else the method as written, else '' (the paper's unnamed method)
    proposed: bool        # the paper's own method
    value: str            # the value as written, with its sign and unit ('+2.1', '91%', '9%-19%')
    number: float
    number_high: float | None
    comparison: str
    direction: str        # a change's direction: 'up', 'down' or ''
    relative: bool
    sentence: str
    sentence_start: int
    start: int            # the value's place in the abstract
    end: int
    confidence: float


@dataclass(frozen=True)
class Board:
    """The results that may be compared: one data set, metric, split, kind and unit."""

    dataset: str          # the data set's name ('' when the sentences name none)
    dataset_key: str      # its node's key, else 'text:' and the name folded ('' when none)
    metric: str           # the metric as most of its results write it ('' when none is named)
    metric_key: str
    better: str           # 'higher', 'lower' or '' (not known)
    split: str
    kind: str             # 'absolute' or 'change'
    unit: str
    rows: tuple[Row, ...]  # best first when ranked, else by year

    @property
    def ranked(self) -> bool:
        """Levels reached on a named data set with a named metric whose direction is known: best first."""
        return self.kind == "absolute" and bool(self.better) and bool(self.dataset_key) and bool(self.metric_key)

    @property
    def papers(self) -> int:
        """How many papers report the board's results."""
        return len({row.paper for row in self.rows})

    def sorted_rows(self, by: str = "value") -> list[Row]:
        """The rows sorted by value (the board's order), year, method or paper."""
        if by == "value":
            return list(self.rows)
        keys = {"year": lambda row: (row.year or 0, row.paper, row.start),
                "method": lambda row: (row.method.casefold(), row.paper, row.start),
                "paper": lambda row: (row.title.casefold(), row.paper, row.start)}
        return sorted(self.rows, key=keys[by])


@dataclass(frozen=True)
class Leaderboard:
    """A task's or a data set's boards, the ranked first, larger first, and the names it answers to."""

    key: str
    name: str
    label: str
    boards: tuple[Board, ...]
    forms: tuple[str, ...] = ()  # core.graph_model.name_forms of its node

    def answers_to(self, name: str) -> bool:
        """Whether `name` names this task or data set (any of its names, any case, or its canonical form)."""
        return model.answers_to(frozenset(self.forms), self.label, name)

    @property
    def results(self) -> int:
        """How many results the boards hold."""
        return sum(len(board.rows) for board in self.boards)


@dataclass
class Leaderboards:
    """The leaderboard of every task and data set with a result, by node key."""

    boards: dict[str, Leaderboard]

    def named(self, name: str, label: str | None = None) -> list[Leaderboard]:
        """The leaderboards of the tasks and data sets `name` names (of `label` only, when given), most results
        first."""
        found = [board for board in self.boards.values() if (label is None or board.label == label)
                 and board.answers_to(name)]
        return sorted(found, key=lambda board: (-board.results, board.key))

    def json_pieces(self) -> Iterator[str]:
        """leaderboards.json in pieces (a build at scale streams them to the file): the version, then one subject
        a line, its rows written in full."""
        yield json.dumps({LEADERBOARDS_KEY: LEADERBOARDS_VERSION})[:-1] + ',\n"subjects": {\n'
        for at, key in enumerate(sorted(self.boards)):
            yield (",\n" if at else "") + json.dumps(key, ensure_ascii=False) + ": " + json.dumps(
                asdict(self.boards[key]), ensure_ascii=False, sort_keys=True)
        yield "\n}}\n"

    def to_json(self) -> str:
        """leaderboards.json as one text (json_pieces joined)."""
        return "".join(self.json_pieces())

    @classmethod
    def from_json(cls, text: str, where: str) -> Leaderboards:
        """The leaderboards of a leaderboards.json; SchemaError naming `where` when it is not one of this version."""
        def make(data: dict[str, Any]) -> Leaderboards:
            return cls({key: _leaderboard(item) for key, item in data["subjects"].items()})
        return read_versioned(text, LEADERBOARDS_KEY, LEADERBOARDS_VERSION, where, "leaderboards file", make)


def compute_leaderboards(graph: nx.MultiDiGraph) -> Leaderboards:
    """The leaderboard of every task and data set that has results."""
    return leaderboards_of(*result_rows(graph))


Subject = tuple[str, str, tuple[str, ...]]  # a task's or data set's name, label and name_forms, sorted


def leaderboards_of(rows: dict[str, Row], groups: dict[str, ResultGroup], subjects: dict[str, Subject]
                    ) -> Leaderboards:
    """The leaderboards of results' rows and groups (in the graph's order of their result nodes), with the
    subjects they name (result_rows): what compute_leaderboards reads off a graph, or a build at scale off the
    rows its workers read from each part (graph/parquet_graph.py: part_results)."""
    members_of: dict[str, list[tuple[tuple[str, ...], Row]]] = defaultdict(list)
    for result, row in rows.items():
        group = groups[result]
        for subject in (group.dataset_node, group.task_node):
            if subject:
                members_of[subject].append((group.board_key(), row))
    found = {}
    for subject, members in members_of.items():
        name, label, forms = subjects[subject]
        found[subject] = Leaderboard(subject, name, label, _boards(members, {result: groups[result] for result in
                                                                             (row.result for _, row in members)}),
                                     forms)
    return Leaderboards(found)


@dataclass(frozen=True)
class ResultGroup:
    """What a result is compared by, read from its node and edges."""

    dataset: str
    dataset_key: str
    dataset_node: str
    task_node: str
    metric: str
    metric_key: str
    better: str
    split: str
    kind: str
    unit: str
    scale: str   # what the value is on: its unit, or for a level written without one above 1, percentage points

    def board_key(self) -> tuple[str, ...]:
        return (self.dataset_key, self.metric_key, self.split, self.kind, self.scale)


def result_rows(graph: nx.MultiDiGraph) -> tuple[dict[str, Row], dict[str, ResultGroup], dict[str, Subject]]:
    """Every result's row and group, in the graph's order, and the tasks and data sets they are on (leaderboards_of):
    what a graph's results give its leaderboards. The graph needs the result nodes, their edges, their papers and
    the entities those edges reach."""
    rows, groups = {}, {}
    for key, attrs in model.results(graph):
        ends = {kind: target for _, target, kind, _ in model.out_edges(graph, key)}
        paper = model.paper_attrs(graph, PAPER_KEY_PREFIX + attrs["paper"])
        method = ends.get(RelType.FOR_METHOD.value)
        dataset = ends.get(RelType.ON_DATASET.value)
        written = paper["abstract"][attrs["start"]:attrs["end"]]
        rows[key] = Row(key, attrs["paper"], str(paper.get("title") or paper["name"]), _year(paper.get("year")),
                        model.entity_attrs(graph, method)["name"] if method else attrs.get("method", ""),
                        attrs["proposed"], written, attrs["number"], attrs.get("number_high"),
                        attrs.get("comparison", ""), attrs.get("direction", ""), attrs["relative"],
                        attrs["sentence"], attrs["sentence_start"], attrs["start"], attrs["end"], attrs["confidence"])
        groups[key] = _group(graph, attrs, dataset, ends.get(RelType.ON_TASK.value))
    subjects = {}
    for group in groups.values():
        for subject in (group.dataset_node, group.task_node):
            if subject and subject not in subjects:
                entity = model.entity_attrs(graph, subject)
                subjects[subject] = (entity["name"], entity["label"], tuple(sorted(model.name_forms(entity))))
    return rows, groups, subjects


def _group(graph: nx.MultiDiGraph, attrs: ResultNode, dataset: str | None, task: str | None) -> ResultGroup:
    name = model.entity_attrs(graph, dataset)["name"] if dataset else attrs.get("dataset", "")
    unit = attrs.get("unit", "")
    return ResultGroup(name, attrs.get("dataset_key", ""), dataset or "", task or "", attrs.get("metric", ""),
                       attrs.get("metric_key", ""), attrs.get("better", ""), attrs.get("split", ""), attrs["kind"],
                       unit, scale(unit, attrs["number"], attrs["kind"]))


def scale(unit: str, number: float, kind: str) -> str:
    """What a value is measured on, which a board shares: its unit; a level written without one and above 1 is
    on the percentage points a '%' writes ('80.27' F1 and '85.82%' F1 compare; '0.91' is a fraction, apart), a
    change keeps its unit ('by 2.1 points' is not 'by 2.1%')."""
    return "%" if not unit and number > 1 and kind == ResultKind.ABSOLUTE.value else unit


def _boards(members: list[tuple[tuple[str, ...], Row]], groups: dict[str, ResultGroup]) -> tuple[Board, ...]:
    """The boards of one subject's results: ranked ones first, then those of more papers (six values of one
    paper are its own table, not a leaderboard), then larger ones, then by their keys."""
    by_key: dict[tuple[str, ...], list[Row]] = defaultdict(list)
    for board_key, row in members:
        by_key[board_key].append(row)
    boards = []
    for rows in by_key.values():
        group = groups[rows[0].result]
        metric = _most_written([groups[row.result].metric for row in rows])
        unit = max(groups[row.result].unit for row in rows)  # one unit, or '%' beside levels written without one
        board = Board(group.dataset, group.dataset_key, metric, group.metric_key, group.better, group.split,
                      group.kind, unit, ())
        boards.append(replace(board, rows=tuple(_ordered(rows, board))))
    return tuple(sorted(boards, key=lambda b: (not b.ranked, -b.papers, -len(b.rows), b.dataset_key, b.metric_key,
                                               b.split, b.kind, b.unit)))


def _ordered(rows: list[Row], board: Board) -> list[Row]:
    """A ranked board's rows best first (ties: earlier year, paper, place); another's by year."""
    if board.ranked:
        sign = -1.0 if board.better == HIGHER else 1.0
        return sorted(rows, key=lambda row: (sign * row.number, row.year or 0, row.paper, row.start))
    return sorted(rows, key=lambda row: (row.year or 0, row.paper, row.start))


def _most_written(names: Iterable[str]) -> str:
    """The name written most often (ties: the first in sorted order)."""
    counts: dict[str, int] = defaultdict(int)
    for name in names:
        counts[name] += 1
    return min(counts, key=lambda name: (-counts[name], name)) if counts else ""


def _year(value: Any) -> int | None:
    try:
        return int(str(value)[:4]) if value not in (None, "") else None
    except ValueError:
        return None


def _leaderboard(data: dict[str, Any]) -> Leaderboard:
    row_fields = {f.name for f in fields(Row)}
    boards = tuple(Board(**{**{k: v for k, v in board.items() if k != "rows"},
                            "rows": tuple(Row(**{k: row[k] for k in row_fields}) for row in board["rows"])})
                   for board in data["boards"])
    return Leaderboard(data["key"], data["name"], data["label"], boards, tuple(data["forms"]))


def best_by_year(board: Board) -> list[Row]:
    """A ranked board's best row of each year, in year order (rows without a year left out)."""
    best: dict[int, Row] = {}
    for row in board.rows:  # best first: the first seen of a year is its best
        if row.year is not None and row.year not in best:
            best[row.year] = row
    return [best[year] for year in sorted(best)]

