"""The SDU phrase-level scorer on hand-made cases, the reader, run(), and the baselines'
known failure modes next to the project's component."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import spacy
from spacy.tokens import Doc

from paperkg.extract.evaluate.acronym_baselines import (
    mostly_capitals,
    schwartz_hearst_capitals_labels,
    schwartz_hearst_labels,
)
from paperkg.core.errors import PaperkgError
from paperkg.extract.acronyms import bio_labels
from paperkg.extract.evaluate.acronyms import (
    format_report,
    is_held_out,
    paperkg_labeller,
    phrases,
    read_sdu,
    run,
    score,
)



# ---------------------------------------------------------------------- scorer


def test_phrases_are_maximal_runs_whatever_b_or_i():
    labels = ["B-long", "I-long", "O", "B-short", "B-short", "I-short", "O", "B-long"]
    assert phrases(labels, "long") == [(0, 1), (7, 7)]
    assert phrases(labels, "short") == [(3, 5)]


def test_perfect_prediction_scores_one():
    gold = [["B-long", "I-long", "O", "B-short", "O"], ["O", "B-short"]]
    result = score(gold, gold)
    assert result["short"]["f1"] == result["long"]["f1"] == result["macro"]["f1"] == 1.0


def test_macro_averages_precisions_and_recalls_then_takes_f1():
    gold = [["B-long", "I-long", "O", "B-short", "O", "B-short", "O"]]
    pred = [["B-long", "I-long", "I-long", "B-short", "O", "O", "B-short"]]
    result = score(gold, pred)
    assert (result["short"]["precision"], result["short"]["recall"]) == (0.5, 0.5)
    assert (result["long"]["precision"], result["long"]["recall"]) == (0.0, 0.0)  # runs too far
    assert result["macro"]["precision"] == pytest.approx(0.25)
    assert result["macro"]["recall"] == pytest.approx(0.25)
    assert result["macro"]["f1"] == pytest.approx(0.25)


def test_adjacent_short_tokens_form_one_phrase():
    gold = [["B-short", "O", "B-short"]]
    pred = [["B-short", "B-short", "B-short"]]
    assert score(gold, pred)["short"]["predicted"] == 1
    assert score(gold, pred)["short"]["correct"] == 0


def test_phrases_in_different_sentences_are_different():
    gold = [["B-short"], ["O"]]
    pred = [["O"], ["B-short"]]
    result = score(gold, pred)
    assert result["short"]["correct"] == 0 and result["short"]["predicted"] == 1


def test_nothing_predicted_scores_zero_without_dividing_by_zero():
    result = score([["B-short", "B-long"]], [["O", "O"]])
    assert result["macro"] == {"precision": 0.0, "recall": 0.0, "f1": 0.0}


def test_score_refuses_misaligned_input():
    with pytest.raises(ValueError):
        score([["O"]], [])


# ---------------------------------------------------------------------- reader


def write(tmp_path: Path, content: str) -> Path:
    path = tmp_path / "sdu.json"
    path.write_text(content, encoding="utf-8")
    return path


def test_reader_reads_items(tmp_path):
    items = [{"id": "X-1", "tokens": ["a", "(", "A", ")"], "labels": ["B-long", "O", "B-short", "O"]}]
    sentences = read_sdu(write(tmp_path, json.dumps(items)))
    assert sentences[0].id == "X-1" and sentences[0].tokens[2] == "A"


@pytest.mark.parametrize("content, message", [
    ("[{", "not valid JSON"),
    ('{"id": 1}', "expected a JSON list"),
    ('[{"id": "a", "tokens": ["x"], "labels": []}]', "item 0"),
])
def test_reader_names_the_problem(tmp_path, content, message):
    with pytest.raises(PaperkgError, match=message):
        read_sdu(write(tmp_path, content))


def test_reader_names_a_missing_file(tmp_path):
    with pytest.raises(PaperkgError, match="cannot read"):
        read_sdu(tmp_path / "missing.json")


def test_held_out_split_is_deterministic_and_about_thirty_percent():
    ids = [f"DEV-{n}" for n in range(2000)]
    share = sum(map(is_held_out, ids)) / len(ids)
    assert 0.25 < share < 0.35
    # Pinned: the held-out figures in docs/quality.md depend on exactly this split.
    assert [n for n in range(20) if is_held_out(f"DEV-{n}")] == [1, 3, 4, 8, 11, 12, 13]


# ------------------------------------------------------------------------- run


def test_run_scores_writes_predictions_and_reports(tmp_path):
    items = [
        {"id": "A", "tokens": "Graph Transformers ( GTs ) scale .".split(),
         "labels": ["B-long", "I-long", "O", "B-short", "O", "O", "O"]},
        {"id": "B", "tokens": "We use fMRI data .".split(), "labels": ["O", "O", "B-short", "O", "O"]},
    ]
    out = tmp_path / "pred.json"
    result = run(write(tmp_path, json.dumps(items)), predictions_out=out)
    assert result["scores"]["macro"]["f1"] == 1.0
    assert result["sentences"] == 2 and result["sentences_per_second"] > 0
    saved = json.loads(out.read_text(encoding="utf-8"))
    assert saved[1]["predicted"] == ["O", "O", "B-short", "O", "O"]
    report = format_report(result)
    assert "macro" in report and "sentences/s" in report


def test_run_refuses_an_unknown_system(tmp_path):
    with pytest.raises(PaperkgError, match="unknown acronym system"):
        run(write(tmp_path, "[]"), system="magic")


@pytest.fixture(scope="module")
def sdu_dev(shared):
    return shared / "benchmarks" / "sdu-acronyms" / "dev.json"


@pytest.mark.slow
def test_paperkg_beats_both_baselines_on_sdu_dev(sdu_dev):
    ours = run(sdu_dev)
    assert ours["scores"]["macro"]["f1"] >= 0.93
    assert ours["parts"]["held_out"]["scores"]["macro"]["f1"] >= 0.93
    for baseline in ("schwartz-hearst", "schwartz-hearst-capitals"):
        assert run(sdu_dev, system=baseline)["scores"]["macro"]["f1"] < ours["scores"]["macro"]["f1"]


def test_the_eval_vocab_without_lexical_attributes_labels_like_an_english_one(sdu_dev):
    nlp = spacy.blank("en")
    nlp.add_pipe("paperkg_acronyms")
    nlp.initialize()
    token_lists = [s.tokens for s in read_sdu(sdu_dev)][:500]  # a third of dev: enough shapes, a third of the time
    english = [bio_labels(nlp(Doc(nlp.vocab, words=tokens))) for tokens in token_lists]
    assert paperkg_labeller()(token_lists) == english


# ------------------------------------------------- baselines' known failure modes


@pytest.fixture(scope="module")
def ours():
    label = paperkg_labeller()
    return lambda tokens: label([tokens])[0]


def test_baselines_find_the_plain_bracket_form(ours):
    tokens = "Graph Transformers ( GTs ) scale .".split()
    expected = ["B-long", "I-long", "O", "B-short", "O", "O", "O"]
    assert schwartz_hearst_labels(tokens) == expected == ours(tokens)


def test_plain_baseline_misses_undefined_acronyms_with_lower_case_and_digits(ours):
    tokens = "We study fMRI with F1 from 3GPP .".split()
    assert schwartz_hearst_labels(tokens) == ["O"] * 8
    assert ours(tokens) == ["O", "O", "B-short", "O", "B-short", "O", "B-short", "O"]


def test_capitals_rule_misses_mixed_case_and_digit_acronyms(ours):
    assert mostly_capitals("fMRI") and mostly_capitals("3GPP")
    assert not mostly_capitals("F1") and not mostly_capitals("QMamba")
    tokens = "The QMamba and F1 .".split()
    assert schwartz_hearst_capitals_labels(tokens) == ["O"] * 5
    assert ours(tokens) == ["O", "B-short", "O", "B-short", "O"]


def test_baselines_split_a_short_form_that_spans_several_tokens(ours):
    tokens = "The RASTA - PLP features .".split()
    assert phrases(schwartz_hearst_capitals_labels(tokens), "short") == [(1, 1), (3, 3)]
    assert phrases(ours(tokens), "short") == [(1, 3)]


def test_baselines_miss_definitions_without_brackets(ours):
    for sentence, long_form in [("HU : Hounsfield Unit .", (2, 3)),
                                ("Here PV denotes paragraph vector .", (3, 4))]:
        tokens = sentence.split()
        assert phrases(schwartz_hearst_labels(tokens), "long") == []
        assert phrases(ours(tokens), "long") == [long_form]


def test_baselines_miss_definitions_with_words_inside_the_bracket(ours):
    for sentence, long_form in [("Latin hypercube sampling ( LHS , for short ) helps .", (0, 2)),
                                ("trusted nodes ( named relay parties , RP ) relay .", (4, 5))]:
        tokens = sentence.split()
        assert phrases(schwartz_hearst_labels(tokens), "long") == []
        assert phrases(ours(tokens), "long") == [long_form]


def test_baseline_long_form_runs_too_far(ours):
    tokens = "We use Markov Chain Monte Carlo methods ( MCMC ) here .".split()
    assert phrases(schwartz_hearst_labels(tokens), "long") == [(2, 6)]
    assert phrases(ours(tokens), "long") == [(2, 5)]


def test_baseline_window_crosses_into_another_bracket(ours):
    tokens = "It stacks convolutional layers ( CL ) and neural nets ( CNN ) .".split()
    assert (5, 9) in phrases(schwartz_hearst_labels(tokens), "long")
    assert phrases(ours(tokens), "long") == [(2, 3)]


def test_baseline_takes_a_bracketed_aside_for_a_definition(ours):
    tokens = "results on the Stanford Treebank ( ST ) and in Table 2 ( Tab ) .".split()
    assert (3, 4) in phrases(schwartz_hearst_labels(tokens), "long")
    assert phrases(ours(tokens), "long") == [(3, 4)]
    assert "Tab" not in [tokens[s] for s, _ in phrases(ours(tokens), "short")]


def test_schwartz_hearst_on_running_text_finds_both_orders():
    from paperkg.extract.evaluate.acronym_baselines import schwartz_hearst_text

    text = "We measured bone mineral density (BMD). Then HbA1c (haemoglobin A1c) was taken."
    found = {(text[a:b], text[c:d]) for a, b, c, d in schwartz_hearst_text(text)}
    assert found == {("BMD", "bone mineral density"), ("HbA1c", "haemoglobin A1c")}


def test_schwartz_hearst_does_not_reach_across_a_sentence_end():
    from paperkg.extract.evaluate.acronym_baselines import schwartz_hearst_text

    text = "Models were built. Some results (SR) hold."
    found = {(text[a:b], text[c:d]) for a, b, c, d in schwartz_hearst_text(text)}
    assert found == {("SR", "Some results")}


def test_the_fields_dev_set_reaches_its_bar_beside_schwartz_hearst():
    """Issue 31's bar on the hand-made fields set: recall >= 0.85 at precision >= 0.95, above Schwartz-Hearst."""
    from paperkg.api import load_pipeline
    from paperkg.extract.evaluate.acronym_definitions import run_definitions

    path = Path(__file__).parent.parent / "bench" / "data" / "acronyms_fields_dev" / "acronyms_fields_dev.jsonl"
    ours = run_definitions(path, load_pipeline(rules_only=True))["pairs"]
    baseline = run_definitions(path, None)["pairs"]
    assert ours["recall"] >= 0.85 and ours["precision"] >= 0.95
    assert ours["f1"] > baseline["f1"]
