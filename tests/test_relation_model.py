"""The trained relation component (extract/relation_model.py): its candidate pairs, the relations it
writes on a few sentences, their fit to the schema, and its round trip through a saved pipeline."""
from __future__ import annotations

import numpy
import pytest
import spacy
from spacy.tokens import Doc, Span

from paperkg.api import load_pipeline
from paperkg.core.schema import ENTITY_REL_TYPES, REL_ENDS, RelType, relation_allowed
from paperkg.extract.relation_model import (BETWEEN_BUCKETS, GAP_BUCKETS, LABELS, acronym_synonyms,
                                            candidate_pairs, dense_width, feature_width, hashed, one_direction,
                                            pair_features, sentence_starts)
from paperkg.extract.training.relations import judged_precision, lower_of, monotone_precision, wilson_lower

from records import read_extractions


SENTENCES = ("We train a convolutional neural network (CNN) for image classification and evaluate it on ImageNet. "
             "Our parser outperforms the Stanford parser on the Penn Treebank.")


@pytest.fixture(scope="module")
def nlp():
    return load_pipeline()


def _doc(words, sent_starts, spans):
    doc = Doc(spacy.blank("en").vocab, words=words, sent_starts=sent_starts)
    doc.spans["entities"] = [Span(doc, s, e, label=label) for s, e, label in spans]
    return doc


def test_candidates_are_ordered_pairs_in_one_sentence_that_some_type_allows():
    words = ["BERT", "for", "parsing", "on", "WSJ", ".", "CRF", "tagging", "F1"]
    doc = _doc(words, [True, False, False, False, False, False, True, False, False],
               [(0, 1, "Method"), (2, 3, "Task"), (4, 5, "Dataset"), (6, 7, "Method"), (7, 8, "Task"),
                (8, 9, "Metric")])
    pairs = set(candidate_pairs(doc, list(doc.spans["entities"]), max_gap=30))
    assert {(0, 1), (0, 2), (2, 1), (3, 4)} <= pairs          # M->T, M->D, D->T; the second sentence's own pair
    assert (1, 0) not in pairs and (0, 3) not in pairs       # no type joins Task->Method; not across sentences
    assert not any(5 in pair for pair in pairs)              # a Metric has no other Metric to be joined to
    assert set(candidate_pairs(doc, list(doc.spans["entities"]), max_gap=0)) == {(3, 4)}  # adjacent only


def test_the_pipeline_ships_the_component_with_a_threshold_per_type(nlp):
    component = nlp.get_pipe("relation_model")
    assert nlp.pipe_names[-2:] == ["relation_model", "paperkg_results"]  # the result finder runs last
    assert set(component.cfg["thresholds"]) == {kind.value for kind in REL_ENDS}
    assert all(0 < t < 1 for t in component.cfg["thresholds"].values()) and component.cfg["between_words"]


def test_an_acronym_definition_is_a_synonym_and_the_model_finds_typed_relations(nlp):
    doc = nlp(SENTENCES)
    entities = list(doc.spans["entities"])
    found = {(r.type, entities[r.head].text, entities[r.tail].text, r.source) for r in doc._.paperkg_relations}
    assert (RelType.SYNONYM_OF, "CNN", "convolutional neural network") in {f[:3] for f in found}
    assert [(r.type, entities[r.head].text, r.source) for r in acronym_synonyms(doc, entities, 0.9)] == [
        (RelType.SYNONYM_OF, "CNN", "acronym")]
    assert (RelType.USED_FOR, "convolutional neural network", "image classification", "model") in found
    assert all(0 <= r.confidence <= 1 for r in doc._.paperkg_relations)  # 0: below what the dev sets support


def test_every_relation_on_the_example_abstracts_fits_its_type_ends(built):
    relations = 0
    for record in read_extractions(built / "extractions.jsonl"):  # the shared build's, model included
        for r in record.relations:
            head, tail = record.entities[r.head], record.entities[r.tail]
            relations += 1
            assert relation_allowed(r.type, head.label or "", tail.label or ""), r
            assert head.sentence == tail.sentence == r.sentence
    assert relations > 0


def test_a_saved_pipeline_restores_the_component_and_its_relations(nlp, tmp_path):
    nlp.to_disk(tmp_path / "pipeline")
    loaded = spacy.load(tmp_path / "pipeline")
    assert loaded.get_pipe("relation_model").cfg == nlp.get_pipe("relation_model").cfg
    assert loaded(SENTENCES)._.paperkg_relations == nlp(SENTENCES)._.paperkg_relations


def test_pair_features_pool_the_tensor_and_mark_the_words_at_the_pairs_edges():
    words = ["BERT", "for", "parsing", "on", "WSJ", "."]
    doc = _doc(words, [True] + [False] * 5, [(0, 1, "Method"), (2, 3, "Task"), (4, 5, "Dataset")])
    doc.tensor = numpy.arange(len(doc) * 2, dtype="f").reshape(len(doc), 2)
    entities = list(doc.spans["entities"])
    vocab, heads = hashed(["for", "on"]), hashed(["bert"])
    rows = pair_features(doc, entities, [(0, 2)], vocab, sentence_starts(doc), heads).rows(
        feature_width(2, len(vocab), len(heads)))
    (row,) = rows
    assert list(row[:4]) == [0, 1, 8, 9]                      # head (BERT) and tail (WSJ) vectors
    assert list(row[4:8]) == [4, 5, 6, 7]                     # the words between: mean and max
    assert list(row[10:12]) == [10, 11]                       # the token after the pair (".")
    bag = row[dense_width(2) + len(GAP_BUCKETS) + len(BETWEEN_BUCKETS):]
    assert list(bag[:2]) == [1, 1]                            # "for" and "on" between
    assert list(bag[2:4]) == [1, 0] and list(bag[4:6]) == [0, 1]  # first word between "for", last "on"
    assert list(bag[-2:]) == [1, 0]                           # the head ends in "bert", the tail in no known word


def test_the_precision_table_is_cautious_and_never_falls_as_the_threshold_rises():
    scored = [(0.9, True), (0.8, True), (0.7, False), (0.6, True), (0.3, False), (0.2, False)]
    table = monotone_precision(scored, [0.1, 0.5, 0.85, 0.95])
    assert [t for t, _ in table] == [0.1, 0.5, 0.85, 0.95]
    values = [p for _, p in table]
    assert values == sorted(values) and values[0] == round(3 / 7, 4)  # 3 right of 6, one wrong more counted
    assert values[-1] == values[-2]                                    # nothing above 0.95: the precision below


def test_every_model_relation_of_the_example_would_fit_its_type_ends_as_an_edge(built):
    """The graph keeps what its operating point supports (this release: no typed edge); kept whatever their
    confidence, the model's relations still make only edges whose end labels their type allows."""
    from paperkg.admit.admission import admit_all
    from paperkg.graph.builder import GraphBuilder

    builder = GraphBuilder()
    builder.add_all(admit_all(read_extractions(built / "extractions.jsonl"), min_confidence=0.0))
    graph = builder.finalize()
    kinds = {kind.value for kind in ENTITY_REL_TYPES}
    typed = [(h, t, k) for h, t, k in graph.edges(keys=True) if k in kinds]
    assert len(typed) >= 20
    assert [e for e in typed if not relation_allowed(RelType(e[2]), graph.nodes[e[0]]["label"],
                                                     graph.nodes[e[1]]["label"])] == []


def test_the_hand_judged_table_is_a_lower_bound_and_knows_nothing_below_its_floor():
    judged = [("USED_FOR", 0.9, True)] * 18 + [("USED_FOR", 0.85, False)] * 2 + [("USED_FOR", 0.4, False)] * 10
    table = judged_precision(judged, [0.1, 0.3, 0.5, 0.8], floor=0.3)["USED_FOR"]
    assert table[0] == [0.1, 0.0]                                  # below the floor nothing was listed
    assert table[1][1] == round(wilson_lower(18, 30), 4) < 18 / 30  # the bound promises less than the share
    assert table[3][1] == round(wilson_lower(18, 20), 4) < 0.9 and table[3][1] > 0.75
    assert judged_precision(judged, [0.5], floor=0.3)["IS_A"] == [[0.5, 0.0]]  # a type never judged: no support
    assert wilson_lower(0, 0) == 0.0 and wilson_lower(5, 5) < 1.0


def test_the_hand_judged_bound_counts_each_relation_once():
    """Thresholds keep nested sets: two right relations stay two, however many thresholds keep them."""
    judged = [("PART_OF", 0.99, True), ("PART_OF", 0.85, True), ("PART_OF", 0.82, False)]
    table = judged_precision(judged, [0.8, 0.84, 0.9, 0.95], floor=0.5)["PART_OF"]
    assert [value for _, value in table] == sorted(value for _, value in table)  # non-decreasing
    assert max(value for _, value in table) == round(wilson_lower(2, 2), 4) < 0.6


def test_the_calibrated_table_is_the_lower_of_its_measures():
    a = {"USED_FOR": [[0.5, 0.8], [0.9, 0.9]]}
    b = {"USED_FOR": [[0.5, 0.6], [0.9, 0.95]]}
    assert lower_of(a, b) == {"USED_FOR": [[0.5, 0.6], [0.9, 0.9]]}


def test_confidence_reads_the_precision_table(nlp):
    component = nlp.get_pipe("relation_model")
    table = component.cfg["precision"]["USED_FOR"]
    assert component.confidence("USED_FOR", table[-1][0] + 1e-3) == table[-1][1]
    assert all(0 <= p <= 1 for t, p in table)


def test_scoring_from_the_set_columns_gives_what_the_model_gives_on_the_full_rows(nlp):
    component = nlp.get_pipe("relation_model")
    with nlp.select_pipes(disable=["relation_model"]):
        doc = nlp(SENTENCES)
    pairs, features = component.featurize(doc, list(doc.spans["entities"]))
    rows = features.rows(feature_width(doc.tensor.shape[1], len(component.cfg["between_words"]),
                                       len(component.cfg["head_words"]), len(component.cfg.get("end_tags", []))))
    given = rows if features.tokens is None else (rows, features.tokens)
    assert pairs and numpy.allclose(component.score(features), component.model.predict(given), atol=1e-5)


def test_a_type_holds_one_way_round_and_a_symmetric_one_with_the_mean_of_both_directions():
    used, compared = LABELS.index("USED_FOR"), LABELS.index("COMPARED_WITH")
    scores = numpy.zeros((3, len(LABELS)), dtype="f")
    scores[0, [used, compared]] = 0.9, 0.8      # (0, 1)
    scores[1, [used, compared]] = 0.6, 0.4      # (1, 0)
    scores[2, [used, compared]] = 0.7, 0.3      # (0, 2): its reverse is no candidate
    out = one_direction([(0, 1), (1, 0), (0, 2)], scores)
    assert out[0, used] == pytest.approx(0.9) and out[1, used] == 0          # the more probable direction only
    assert out[0, compared] == pytest.approx(0.6) and out[1, compared] == 0  # symmetric: the mean, written once
    assert list(out[2]) == list(scores[2])


def test_a_symmetric_gold_relation_is_a_positive_both_ways_round_in_training(nlp):
    from paperkg.extract.evaluate.benchmarks import Record
    from paperkg.extract.evaluate.relation_benchmarks import RelationRecord
    from paperkg.extract.training.relations import featurize

    words = ["BERT", "beats", "ELMo", "for", "parsing", "."]
    doc = nlp.get_pipe("tok2vec")(Doc(nlp.vocab, words=words, sent_starts=[True] + [False] * 5))
    doc.spans["entities"] = [Span(doc, 0, 1, label="Method"), Span(doc, 2, 3, label="Method"),
                             Span(doc, 4, 5, label="Task")]
    record = Record("scier", "k", words, [True] * 6, [True] + [False] * 5,
                    [(0, 1, "Method"), (2, 3, "Method"), (4, 5, "Task")])
    gold = [(0, 1, 2, 3, RelType.COMPARED_WITH), (0, 1, 4, 5, RelType.USED_FOR)]
    data = featurize(nlp.get_pipe("relation_model"), [doc], [RelationRecord(record, [], gold)])
    pairs = candidate_pairs(doc, list(doc.spans["entities"]), 30)
    compared, used = LABELS.index("COMPARED_WITH"), LABELS.index("USED_FOR")
    assert data.Y[pairs.index((0, 1)), compared] == 1 and data.Y[pairs.index((1, 0)), compared] == 1
    assert data.Y[pairs.index((0, 2)), used] == 1 and data.Y[:, used].sum() == 1
