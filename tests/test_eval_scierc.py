"""SciERC exact-match scorer on hand-made cases, `run` end to end, and the shipped model."""
from __future__ import annotations

import json

import pytest
import spacy
from spacy.tokens import Doc, Span

from paperkg.core.errors import PaperkgError
from paperkg.extract.evaluate.scierc import format_report, load_model, predicted_entities, run, score

GOLD = [("d1", 0, 2, "Method"), ("d1", 5, 6, "Task"), ("d2", 1, 3, "Material"),
        ("d2", 4, 5, "Generic")]


def test_perfect_prediction_scores_one():
    scores = score(GOLD, GOLD)
    assert scores["overall"]["f1"] == 1.0
    assert scores["four_labels"]["f1"] == 1.0
    assert scores["per_label"]["Metric"] == {"p": 0.0, "r": 0.0, "f1": 0.0, "tp": 0,
                                             "predicted": 0, "gold": 0}


def test_exact_match_needs_same_document_start_end_and_label():
    predicted = [("d1", 0, 2, "Method"),    # hit
                 ("d1", 5, 7, "Task"),      # end off by one
                 ("d1", 1, 3, "Material"),  # wrong document
                 ("d2", 4, 5, "Method")]    # right span, wrong label
    scores = score(GOLD, predicted)
    assert scores["overall"]["tp"] == 1
    assert scores["overall"]["p"] == pytest.approx(1 / 4)
    assert scores["overall"]["r"] == pytest.approx(1 / 4)
    assert scores["overall"]["f1"] == pytest.approx(1 / 4)
    assert scores["per_label"]["Method"]["p"] == pytest.approx(1 / 2)
    assert scores["per_label"]["Method"]["r"] == 1.0
    assert scores["per_label"]["Generic"]["r"] == 0.0
    # Task/Method/Material/Metric: gold 3, predicted 4 with Generic's span as Method, 1 hit
    assert (scores["four_labels"]["tp"], scores["four_labels"]["predicted"],
            scores["four_labels"]["gold"]) == (1, 4, 3)
    assert scores["unlabelled"]["tp"] == 2


def test_duplicates_count_once_and_unknown_labels_cost_precision():
    scores = score(GOLD, [GOLD[0], GOLD[0], ("d1", 5, 6, "Dataset")])
    assert scores["overall"]["predicted"] == 2
    assert scores["overall"]["p"] == pytest.approx(1 / 2)
    assert scores["four_labels"]["predicted"] == 1


def test_nothing_predicted_gives_zero_not_an_error():
    assert score(GOLD, [])["overall"] == {"p": 0.0, "r": 0.0, "f1": 0.0, "tp": 0,
                                          "predicted": 0, "gold": 4}


@pytest.fixture
def scierc_file(tmp_path):
    record = {"doc_key": "X", "sentences": [["We", "use", "BERT", "for", "parsing", "."]],
              "ner": [[[2, 2, "Method"], [4, 4, "Task"]]]}
    path = tmp_path / "x.json"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    return path


def test_run_scores_a_pipeline_on_the_given_tokens(scierc_file, tmp_path):
    nlp = spacy.blank("en")
    nlp.add_pipe("entity_ruler").add_patterns([{"label": "Method", "pattern": "BERT"},
                                               {"label": "Task", "pattern": "use"}])
    out = tmp_path / "pred.jsonl"
    scores = run(scierc_file, nlp, predictions_out=out)
    assert scores["overall"]["tp"] == 1
    assert scores["overall"]["p"] == 0.5 and scores["overall"]["r"] == 0.5
    assert scores["words"] == 6 and scores["words_per_second"] > 0
    saved = json.loads(out.read_text(encoding="utf-8"))
    assert saved["predicted"] == [[1, 1, "Task"], [2, 2, "Method"]]
    assert saved["gold"] == [[2, 2, "Method"], [4, 4, "Task"]]
    report = format_report(scores)
    assert "overall (6 labels)" in report and "0.500" in report


def test_term_layer_keeps_model_spans_and_adds_rule_spans_in_scierc_labels():
    from paperkg.extract.terms import TermLayer

    nlp = spacy.blank("en")
    doc = Doc(nlp.vocab, words=["statistical", "machine", "translation", "on", "CIFAR-10", "with", "BLEU"])
    doc.ents = [Span(doc, 0, 3, label="Task")]
    doc.spans["lexicon"] = [Span(doc, 1, 3, label="Task"), Span(doc, 6, 7, label="Metric")]
    doc.spans["cue_datasets"] = [Span(doc, 4, 5, label="Dataset")]
    layer = TermLayer("terms", False, ("lexicon", "cue_datasets"), "head_nouns.tsv")
    layer.initialize()
    layer(doc)
    assert predicted_entities(doc) == [(0, 3, "Task"), (4, 5, "Material"), (6, 7, "Metric")]


def test_run_names_the_bad_file(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text("[1, 2]\n", encoding="utf-8")
    with pytest.raises(PaperkgError, match=r"broken\.json:1"):
        run(path, spacy.blank("en"))


def test_shipped_model_loads_from_the_package_and_finds_entities():
    nlp = load_model()
    assert "ner" in nlp.pipe_names
    doc = nlp("We propose a convolutional neural network for machine translation "
              "and evaluate it with BLEU score on the WMT corpus.")
    assert set(nlp.get_pipe("ner").labels) >= {"Task", "Method", "Material", "Metric"}
    assert any(ent.label_ == "Method" for ent in doc.ents), [(e.text, e.label_) for e in doc.ents]


def test_run_enables_the_term_layer_only_while_it_scores(scierc_file):
    from paperkg.api import load_pipeline

    nlp = load_pipeline()  # the cached pipeline every other caller in this process shares
    result = run(scierc_file, nlp)
    assert {"ner", "paperkg_terms"} <= set(result["pipeline"])
    assert {"ner", "paperkg_terms"} <= set(nlp.disabled)
