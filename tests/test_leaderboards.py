"""graph/leaderboard.py's grouping rules on a graph the builder made of hand-written records with results: values
are compared only on one data set, metric, split, kind and scale; levels are ranked by the metric's direction
(TER goes down); a change is never ranked with, or as, a level reached."""
from __future__ import annotations

from dataclasses import replace

import networkx as nx
import pytest
from records import Term, build, paper

from paperkg.core.schema import Extraction, ResultKind, ResultPart, ResultStatement
from paperkg.graph.leaderboard import Leaderboards, best_by_year, compute_leaderboards, scale
from paperkg.viz.leaderboard_page import page_data

M, T, D = "Method", "Task", "Dataset"
ALPHA = ("We propose AlphaMT for machine translation. AlphaMT achieves 28.4 BLEU on WMT14. "
         "AlphaMT improves BLEU on WMT14 by 2.1 points. AlphaMT reaches 20.1 TER on WMT14.")
BETA = ("We propose BetaMT for machine translation. BetaMT achieves 29.0 BLEU on WMT14. "
        "On the WMT14 dev set BetaMT reaches 27.5 BLEU. The accuracy of BetaMT on WMT14 is 61%.")
GAMMA = ("We propose GammaMT for machine translation. GammaMT reaches 19.5 TER on WMT14. "
         "GammaMT achieves 30.2 BLEU on WMT14. GammaMT improves BLEU on WMT14 by 5.0 points.")


def with_results(record: Extraction, *results: tuple[str, str, str, ResultKind, str | None, str | None]
                 ) -> Extraction:
    """The record with results: (value as written, its metric, the data set mention's text, kind, unit, split);
    the data set is the record's Dataset mention in the value's sentence, the method its proposed one."""
    abstract, statements = record.paper.abstract, []
    for written, metric, dataset, kind, unit, split in results:
        start = abstract.index(written)
        sentence = next(i for i, (first, last) in enumerate(record.sentence_spans) if first <= start < last)
        entity = next(i for i, m in enumerate(record.entities) if m.text == dataset and m.sentence == sentence)
        method = next(i for i, m in enumerate(record.entities) if m.proposed)
        metric_start = abstract.index(metric, record.sentence_spans[sentence][0])
        mention = record.entities[entity]
        statements.append(ResultStatement(
            value=written.rstrip("%"), start=start, end=start + len(written), sentence=sentence, kind=kind,
            unit=unit, split=split, confidence=0.9,
            metric=ResultPart(metric, metric_start, metric_start + len(metric)),
            dataset=ResultPart(mention.text, mention.start, mention.end, entity),
            method=ResultPart(record.entities[method].text, record.entities[method].start,
                              record.entities[method].end, method)))
    return replace(record, results=statements)


def mt_paper(paper_id: str, abstract: str, method: str, year: int) -> Extraction:
    """A paper proposing `method` for machine translation, naming WMT14 in each later sentence."""
    terms = [Term(method, M, "proposes"), Term("machine translation", T, "addresses")]
    terms += [Term("WMT14", D, "evaluates_on", nth=n) for n in range(abstract.count("WMT14"))]
    return paper(paper_id, abstract, terms, year=year)


ABSOLUTE, CHANGE = ResultKind.ABSOLUTE, ResultKind.CHANGE


def results_graph() -> nx.MultiDiGraph:
    """Three MT papers' results on WMT14: BLEU and TER levels, BLEU changes, a dev split and an accuracy."""
    return build([
        with_results(mt_paper("a1a1a1a1a1a1a1a1", ALPHA, "AlphaMT", 2019),
                     ("28.4", "BLEU", "WMT14", ABSOLUTE, None, None), ("2.1", "BLEU", "WMT14", CHANGE, "points", None),
                     ("20.1", "TER", "WMT14", ABSOLUTE, None, None)),
        with_results(mt_paper("b2b2b2b2b2b2b2b2", BETA, "BetaMT", 2020),
                     ("29.0", "BLEU", "WMT14", ABSOLUTE, None, None), ("27.5", "BLEU", "WMT14", ABSOLUTE, None, "dev"),
                     ("61%", "accuracy", "WMT14", ABSOLUTE, "%", None)),
        with_results(mt_paper("c3c3c3c3c3c3c3c3", GAMMA, "GammaMT", 2021),
                     ("19.5", "TER", "WMT14", ABSOLUTE, None, None), ("30.2", "BLEU", "WMT14", ABSOLUTE, None, None),
                     ("5.0", "BLEU", "WMT14", CHANGE, "points", None)),
    ])


@pytest.fixture(scope="module")
def graph() -> nx.MultiDiGraph:
    return results_graph()


@pytest.fixture(scope="module")
def boards(graph) -> Leaderboards:
    return compute_leaderboards(graph)


def board_of(boards: Leaderboards, name: str, metric_key: str, kind: str = "absolute", split: str = ""):
    [leaderboard] = boards.named(name)
    [found] = [b for b in leaderboard.boards if b.metric_key == metric_key and b.kind == kind and b.split == split]
    return found


def test_every_result_is_a_node_on_its_data_set(graph, boards):
    results = [n for n, d in graph.nodes(data=True) if d["label"] == "Result"]
    assert len(results) == 9
    [leaderboard] = boards.named("WMT14")
    assert leaderboard.results == 9


def test_levels_of_one_metric_are_ranked_best_first(boards):
    bleu = board_of(boards, "WMT14", "bleu")
    assert bleu.ranked and bleu.better == "higher"
    assert [(row.value, row.method, row.year) for row in bleu.rows] == [
        ("30.2", "GammaMT", 2021), ("29.0", "BetaMT", 2020), ("28.4", "AlphaMT", 2019)]


def test_an_error_metric_is_ranked_lowest_first(boards):
    ter = board_of(boards, "WMT14", "ter")
    assert ter.ranked and ter.better == "lower"
    assert [row.value for row in ter.rows] == ["19.5", "20.1"]


def test_changes_are_never_ranked_nor_mixed_with_levels(boards):
    changes = board_of(boards, "WMT14", "bleu", kind="change")
    assert not changes.ranked
    assert [(row.value, row.year) for row in changes.rows] == [("2.1", 2019), ("5.0", 2021)]  # by year, not value
    levels = board_of(boards, "WMT14", "bleu")
    assert not {row.result for row in changes.rows} & {row.result for row in levels.rows}
    assert changes.sorted_rows("value") == list(changes.rows)


def test_no_comparison_across_metrics_splits_or_units(boards):
    [leaderboard] = boards.named("WMT14")
    keys = [(b.metric_key, b.split, b.kind, b.unit) for b in leaderboard.boards]
    assert len(keys) == len(set(keys))
    assert [row.value for row in board_of(boards, "WMT14", "bleu", split="dev").rows] == ["27.5"]
    accuracy = board_of(boards, "WMT14", "accuracy")
    assert accuracy.unit == "%" and [row.value for row in accuracy.rows] == ["61%"]
    for board in leaderboard.boards:
        assert len({(row.paper, row.start) for row in board.rows}) == len(board.rows)


@pytest.mark.parametrize("unit, number, kind, on", [
    ("", 80.27, "absolute", "%"), ("%", 85.82, "absolute", "%"), ("", 0.91, "absolute", ""),
    ("", 2.1, "change", ""), ("points", 2.1, "change", "points"), ("x", 2.5, "absolute", "x"),
])
def test_a_level_written_without_a_unit_above_1_is_on_the_percentage_points(unit, number, kind, on):
    assert scale(unit, number, kind) == on

def test_ranked_boards_come_first_larger_first(boards):
    [leaderboard] = boards.named("WMT14")
    ranked = [board.ranked for board in leaderboard.boards]
    assert ranked == sorted(ranked, reverse=True)
    assert (leaderboard.boards[0].metric_key, len(leaderboard.boards[0].rows)) == ("bleu", 3)


def test_best_by_year_keeps_each_years_best(boards):
    bleu = board_of(boards, "WMT14", "bleu")
    assert [(row.year, row.value) for row in best_by_year(bleu)] == [(2019, "28.4"), (2020, "29.0"), (2021, "30.2")]


def test_leaderboards_json_reads_back_the_same(boards):
    again = Leaderboards.from_json(boards.to_json(), "leaderboards.json")
    assert again.boards == boards.boards


def test_the_page_of_a_large_corpus_keeps_the_subjects_with_most_results_and_counts_the_rest(boards):
    [wmt] = boards.boards.values()
    smaller = replace(wmt, key="dataset:iwslt", name="IWSLT", boards=wmt.boards[-1:])
    subjects = [smaller, wmt]
    full = page_data(subjects, "t")
    assert "left_out" not in full and [s["key"] for s in full["subjects"]] == [wmt.key, smaller.key]
    rows = sum(len(board.rows) for board in wmt.boards)
    cut = page_data(subjects, "t", max_rows=rows)
    assert [s["key"] for s in cut["subjects"]] == [wmt.key] and cut["left_out"] == 1
    assert cut["results"] == wmt.results
    assert page_data(subjects, "t", max_rows=0)["subjects"] == cut["subjects"]  # never an empty page
