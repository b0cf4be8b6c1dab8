"""A typed edge as a corpus-level fact (admit/edge_confidence.py): direction by the evidence, graded
confidence from its support, the calibration curves and their fit; and the builder applying them."""
from __future__ import annotations

import json

import pytest

from paperkg.admit.admission import admit_all
from paperkg.admit.edge_confidence import (GRID, Calibration, RelationMention, edge_fact, fit_calibration,
                                           fit_logistic, interpolate, noisy_or, shipped_calibration, support_score)
from paperkg.core.schema import Extraction, Mention, NodeLabel, PaperRecord, Relation, RelType, Role
from paperkg.graph.builder import GraphBuilder

NO_CURVE = Calibration()  # the confidence is the score


def _m(source: str, target: str, paper: str, confidence: float) -> RelationMention:
    return RelationMention(source, target, paper, confidence)


def test_noisy_or_adds_independent_witnesses_and_weights_temper_them() -> None:
    assert noisy_or([0.5, 0.5]) == pytest.approx(0.75)
    assert noisy_or([0.5, 0.5], [1.0, 0.0]) == pytest.approx(0.5)
    assert noisy_or([]) == 0.0


def test_a_paper_repeating_itself_is_one_witness_and_more_papers_are_surer() -> None:
    one = support_score([_m("a", "b", "p1", 0.6)], 1, 0.5)
    repeated = support_score([_m("a", "b", "p1", 0.6), _m("a", "b", "p1", 0.6)], 1, 0.5)
    two_papers = support_score([_m("a", "b", "p1", 0.6), _m("a", "b", "p2", 0.6)], 1, 0.5)
    assert one == repeated == pytest.approx(0.6)
    assert two_papers == pytest.approx(1 - 0.4 * 0.4 ** 0.5)
    assert support_score([_m("a", "b", "p1", 0.6), _m("a", "b", "p1", 0.6)], 2, 0.5) == pytest.approx(0.84)


def test_the_direction_is_the_one_the_evidence_sums_higher_not_the_first_mention() -> None:
    ann, task = "method:ann", "task:interpretability"
    mentions = [_m(ann, task, "p1", 0.5), _m(task, ann, "p2", 0.4), _m(task, ann, "p3", 0.4)]
    fact = edge_fact("USED_FOR", mentions, False, NO_CURVE)
    assert (fact.source, fact.target, fact.mentions, fact.papers, fact.against) == (
        "task:interpretability", "method:ann", 2, 2, 1)
    # the disputed direction is less sure than the same two papers undisputed
    undisputed = edge_fact("USED_FOR", mentions[1:], False, NO_CURVE)
    assert fact.confidence == pytest.approx(undisputed.confidence * 0.8 / 1.3, abs=1e-4)


def test_a_tie_is_read_in_key_order_and_a_symmetric_type_counts_both_ways() -> None:
    tie = [_m("b", "a", "p1", 0.6), _m("a", "b", "p2", 0.6)]
    assert edge_fact("IS_A", tie, False, NO_CURVE)[:2] == ("a", "b")
    both = edge_fact("COMPARED_WITH", tie, True, NO_CURVE)
    assert (both.source, both.target, both.mentions, both.papers, both.against) == ("a", "b", 2, 2, 0)
    with pytest.raises(ValueError):
        edge_fact("IS_A", [], False, NO_CURVE)


def test_edges_with_different_support_get_different_confidences() -> None:
    calibration = shipped_calibration()
    facts = [edge_fact("USED_FOR", [_m("a", "b", f"p{i}", 0.7) for i in range(papers)], False, calibration)
             for papers in (1, 2, 3, 5)]
    confidences = [fact.confidence for fact in facts]
    assert confidences == sorted(confidences) and len(set(confidences)) == 4


def test_a_curve_is_read_between_its_knots_and_flat_beyond_them() -> None:
    knots = ((0.2, 0.1), (0.6, 0.5), (1.0, 0.9))
    assert [interpolate(knots, x) for x in (0.0, 0.4, 0.8, 1.0)] == pytest.approx([0.1, 0.3, 0.7, 0.9])
    calibration = Calibration(curves={"all": knots, "IS_A": ((0.0, 0.0), (1.0, 0.5))})
    assert calibration.confidence("IS_A", 0.5) == 0.25
    assert calibration.confidence("USED_FOR", 0.4) == 0.3  # a type without its own curve takes `all`


def test_the_calibration_round_trips_and_a_bad_file_is_refused_with_its_name() -> None:
    calibration = Calibration(1, 0.5, {"all": ((0.0, 0.0), (1.0, 1.0))}, "test")
    assert Calibration.from_dict(json.loads(json.dumps(calibration.to_dict())), "x.json") == calibration
    with pytest.raises(ValueError, match="x.json"):
        Calibration.from_dict({"paperkg_edge_calibration": 99}, "x.json")
    with pytest.raises(ValueError, match="does not increase"):
        Calibration.from_dict({**calibration.to_dict(), "curves": {"all": [[0, 0.5], [1, 0.2]]}}, "x.json")
    with pytest.raises(ValueError, match="repeat_weight"):
        Calibration.from_dict({**calibration.to_dict(), "repeat_weight": 2}, "x.json")


def test_the_shipped_calibration_increases_for_every_type() -> None:
    calibration = shipped_calibration()
    assert "all" in calibration.curves and calibration.fitted_on
    for knots in calibration.curves.values():
        values = [y for _, y in knots]
        assert values == sorted(values) and values[0] < values[-1]


def test_a_logistic_fit_follows_the_verdicts_and_never_decreases() -> None:
    points = [(0.3, False), (0.4, False), (0.5, True), (0.6, False), (0.7, True), (0.8, True), (0.9, True)] * 5
    a, b = fit_logistic(points, (1.0, 0.0), 1.0)
    assert a > 1.0  # the verdicts separate better than the score says
    inverted = [(score, not right) for score, right in points]
    assert fit_logistic(inverted, (1.0, 0.0), 1.0)[0] == pytest.approx(0.1)  # kept increasing


def test_a_type_with_few_judged_edges_stays_near_the_pooled_curve() -> None:
    judged = [("USED_FOR", s / 10, s >= 6) for s in range(1, 10)] * 10 + [("IS_A", 0.9, False)]
    calibration = fit_calibration(judged, 1, 0.5, "test")
    assert set(calibration.curves) == {"all", "USED_FOR", "IS_A"}
    assert [x for x, _ in calibration.curves["all"]] == list(GRID)
    at = dict(calibration.curves["IS_A"])[0.9], dict(calibration.curves["all"])[0.9]
    assert at[0] < at[1] and at[1] - at[0] < 0.3
    with pytest.raises(ValueError):
        fit_calibration([], 1, 0.5, "test")


def _mention(text: str, label: NodeLabel, start: int) -> Mention:
    return Mention(text=text, name=text, label=label, start=start, end=start + len(text), sentence=0,
                   source="model", confidence=0.9, role=Role.ADDRESSES)


def _record(paper: str, text: str, relations: list[Relation]) -> Extraction:
    entities = [_mention("FooNet", NodeLabel.METHOD, 0), _mention("BarNet", NodeLabel.METHOD, text.index("BarNet"))]
    return Extraction(PaperRecord(id=paper, abstract=text), [text], entities, relations=relations,
                      sentence_spans=[(0, len(text))])


def test_the_builder_decides_an_edge_from_every_paper_whatever_their_order() -> None:
    text = "FooNet is a part of BarNet."
    records = [_record("p1", text, [Relation(RelType.PART_OF, 0, 1, 0, "model", 0.6)]),
               _record("p2", text, [Relation(RelType.PART_OF, 0, 1, 0, "model", 0.7)]),
               _record("p3", text, [Relation(RelType.PART_OF, 1, 0, 0, "model", 0.9)])]
    graphs = []
    for order in (records, records[::-1]):
        builder = GraphBuilder(calibration=NO_CURVE)
        builder.add_all(admit_all(order))
        graphs.append(builder.finalize())
    edges = [[(u, v, dict(d)) for u, v, k, d in g.edges(keys=True, data=True) if k == "PART_OF"] for g in graphs]
    assert [(u, v) for u, v, _ in edges[0]] == [("method:foonet", "method:barnet")]  # 0.6 + 0.7 > 0.9
    data = edges[0][0][2]
    assert (data["papers"], data["count"], data["against"]) == (2, 2, 1)
    assert [ev["paper"] for ev in data["evidence"]] == ["p2", "p1"]  # the surest first
    assert json.dumps(edges[0], default=dict, sort_keys=True) == json.dumps(edges[1], default=dict, sort_keys=True)
