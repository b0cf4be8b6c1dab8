"""The relation component's pair encoder (extract/pair_encoder.py) and end features: what each pair reads, the
gradient it learns from, and the one-hot of how good each end is as an entity."""
from __future__ import annotations

import numpy
import spacy
from spacy.tokens import Doc, Span
from thinc.api import fix_random_seed

from paperkg.extract.pair_encoder import pair_encoder, pair_tokens, select_pairs
from paperkg.extract.relation_model import (BETWEEN_BUCKETS, GAP_BUCKETS, end_tags, feature_width, hashed,
                                            pair_features, relation_ensemble, sentence_starts)

# two sentences (tokens 0-6 and 7-11), three pairs as (start, end) of head and tail
STARTS, ENDS = numpy.array([0] * 7 + [7] * 5), numpy.array([7] * 7 + [12] * 5)
HEADS, TAILS = numpy.array([[0, 1], [4, 6], [7, 8]]), numpy.array([[3, 4], [1, 2], [10, 12]])


def _tokens(max_position=3):
    fix_random_seed(0)
    tensor = numpy.random.standard_normal((12, 5)).astype("f")
    return pair_tokens(tensor, STARTS, ENDS, HEADS, TAILS, max_position)


def test_a_pair_reads_its_sentence_in_three_segments_with_its_distances_to_both_ends():
    tokens = _tokens()
    first = tokens.group < 3
    assert list(tokens.token[first]) == [0, 1, 2, 3, 4, 5, 6]        # the sentence up to 5 tokens past the tail
    assert list(tokens.group[first] % 3) == [0, 1, 1, 2, 2, 2, 2]    # to the head's end, between, from the tail
    assert list(tokens.head_position[first] - 3) == [0, 1, 2, 3, 3, 3, 3]  # clipped at 3
    assert list(tokens.tail_position[first] - 3) == [-3, -2, -1, 0, 1, 2, 3]
    third = tokens.group >= 6
    assert list(tokens.token[third]) == [7, 8, 9, 10, 11]            # never past its sentence
    assert tokens.before[7] == 12 and tokens.after[6] == 12          # the padding row at a sentence's edge


def test_the_encoder_pools_per_segment_and_its_gradient_is_the_numeric_one():
    tokens = _tokens()
    model = pair_encoder(4, 3)
    model.initialize(X=tokens)
    Y, backprop = model.begin_update(tokens)
    assert Y.shape == (3, 12)
    d_out = numpy.random.default_rng(1).standard_normal(Y.shape).astype("f")
    backprop(d_out)
    for name, index in (("W", (3, 1)), ("E_head", (3, 2)), ("E_tail", (1, 0)), ("b", (2,))):
        param, grad = model.get_param(name).copy(), model.get_grad(name)
        values = []
        for step in (1e-2, -1e-2):
            moved = param.copy()
            moved[index] += step
            model.set_param(name, moved)
            values.append(float((model.predict(tokens) * d_out).sum()))
        model.set_param(name, param)
        assert abs((values[0] - values[1]) / 2e-2 - grad[index]) < 1e-2, name


def test_a_batch_of_pairs_reads_what_the_whole_set_reads():
    tokens = _tokens()
    model = pair_encoder(4, 3)
    model.initialize(X=tokens)
    assert numpy.allclose(model.predict(select_pairs(tokens, numpy.array([2, 0]))), model.predict(tokens)[[2, 0]])


def test_the_encoder_classifier_is_sized_by_the_component_and_scores_as_on_the_full_rows():
    nlp = spacy.blank("en")
    component = nlp.add_pipe("paperkg_relation_model", config={"model": {
        "@architectures": "paperkg.RelationEnsemble.v1", "members": 2, "hidden_width": 8, "dropout": 0.0,
        "encoder_width": 4, "max_position": 3}})
    component.initialize(lambda: [], between_words=["for"], head_words=["bert"], tags=["source:model"],
                         tensor_width=2)
    doc = Doc(nlp.vocab, words=["BERT", "for", "parsing", "on", "WSJ", "."])
    doc.tensor = numpy.random.default_rng(0).standard_normal((6, 2)).astype("f")
    doc.spans["entities"] = [Span(doc, 0, 1, label="Method"), Span(doc, 2, 3, label="Task"),
                             Span(doc, 4, 5, label="Dataset")]
    pairs, features = component.featurize(doc, list(doc.spans["entities"]))
    rows = features.rows(feature_width(2, 1, 1, 1))
    assert pairs and numpy.allclose(component.score(features), component.model.predict((rows, features.tokens)),
                                    atol=1e-5)
    assert relation_ensemble(1, 8, 0.0).layers[0].name != "encoded_classifier"  # no encoder: the features alone


def test_each_end_carries_what_the_pipeline_knows_of_it_as_an_entity():
    doc = Doc(spacy.blank("en").vocab, words=["BERT", "for", "the", "parsing", "task"])
    bert, task = Span(doc, 0, 1, label="Method"), Span(doc, 3, 5, label="Task")
    bert._.paperkg_source, bert._.paperkg_node, bert._.paperkg_termhood = "lexicon", True, "lexicon"
    bert._.paperkg_acronym = "BERT"
    assert set(end_tags(bert)) == {"source:lexicon", "termhood:lexicon", "role:mentions", "length:1", "node",
                                   "acronym"}
    assert set(end_tags(task)) == {"source:None", "termhood:", "role:mentions", "length:2"}
    doc.spans["entities"] = [bert, task]
    doc.tensor = numpy.zeros((5, 2), dtype="f")
    tags = {"source:lexicon": 0, "length:2": 1}
    (row,) = pair_features(doc, [bert, task], [(0, 1)], hashed([]), sentence_starts(doc), {}, tags).rows(
        feature_width(2, 0, 0, 2))
    assert list(row[-4:]) == [1, 0, 0, 1]  # the head from the lexicon, the tail two tokens long
    assert row[-4:].sum() == 2 and len(row) == feature_width(2, 0, 0, 2) == 2 * 9 + 9 + len(GAP_BUCKETS) + len(
        BETWEEN_BUCKETS) + 4
