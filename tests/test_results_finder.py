"""The result finder (extract/results.py, component paperkg_results) in the shipped pipeline: what a sentence reports,
with its metric, data set, method, kind and unit; numbers that are no result are none."""
from __future__ import annotations

import pytest

from paperkg.core.schema import PaperRecord, ResultStatement
from paperkg.extract.extraction import extract
from paperkg.extract.pipeline import load_pipeline
from paperkg.extract.result_datasets import benchmark_name, language_pair, model_name, title_dataset
from paperkg.extract.result_values import find_values


@pytest.fixture(scope="module")
def read():
    nlp = load_pipeline()

    def results(abstract: str) -> list[ResultStatement]:
        [extraction] = extract(nlp, [PaperRecord(id="0000aaaa0000aaaa", abstract=abstract)])
        return extraction.results
    return results


def text(part) -> str | None:
    return part.text if part is not None else None


def test_a_level_reached_with_its_metric_data_set_and_method(read):
    abstract = "We propose FooMT for machine translation. FooMT achieves 28.4 BLEU on WMT14."
    [result] = read(abstract)
    assert (result.value, result.kind.value, result.unit) == ("28.4", "absolute", None)
    assert (text(result.metric), text(result.dataset), text(result.method)) == ("BLEU", "WMT14", "FooMT")
    assert result.proposed and abstract[result.start:result.end] == "28.4"


def test_a_change_in_points(read):
    [result] = read("We propose FooNet for image classification. FooNet improves accuracy on ImageNet by 2.1 points.")
    assert (result.value, result.kind.value, result.unit, result.direction) == ("2.1", "change", "points", "up")
    assert (text(result.metric), text(result.dataset)) == ("accuracy", "ImageNet")


def test_a_relative_fall(read):
    [result] = read("We propose FooMT. FooMT reduces WER by 15% relative to the baseline.")
    assert (result.value, result.kind.value, result.unit, result.direction, result.relative) == (
        "15", "change", "%", "down", True)


def test_sample_sizes_years_model_sizes_and_settings_are_no_results(read):
    assert read("We collect 1,233 images from 2019 and fine-tune a 7B model for 3 epochs with a threshold of "
                "0.85.") == []


def test_a_language_pair_is_no_data_set(read):
    [result] = read("We propose FooMT for machine translation. FooMT achieves 28.4 BLEU on German-English.")
    assert text(result.metric) == "BLEU" and result.dataset is None


def test_respectively_gives_the_metrics_in_order(read):
    found = read("We propose FooASR for speech recognition. FooASR reaches a WER and a CER of 12.5 and 4.3, "
                 "respectively.")
    assert [(r.value, text(r.metric)) for r in found] == [("12.5", "WER"), ("4.3", "CER")]


def test_a_metric_name_holding_the_value_is_cut_before_it(read):
    [result] = read("We propose FooMT. The system records BLEU 20.9 with the test set.")
    assert (result.value, text(result.metric), result.split) == ("20.9", "BLEU", "test")


@pytest.mark.parametrize("name, expected", [("German-English", True), ("En-De", True), ("English", True),
                                            ("Russian to Chinese", True), ("WMT14 En-De", False),
                                            ("IWSLT14", False), ("", False)])
def test_language_pair(name, expected):
    languages = frozenset({"english", "german", "russian", "chinese", "en", "de"})
    assert language_pair(name, languages) is expected


@pytest.mark.parametrize("sentence, values", [
    ("rises from 37% to 95%", [("37%", True), ("95%", False)]),
    ("gains of 9%-19% on GPT-4 and ROUGE-2", [("9%-19%", False)]),
    ("a 7B model and CIFAR-10 at 2nd place", []),
    ("scores between 0.13 and 0.73", [("0.13 and 0.73", False)]),
    ("a sample complexity of $O(\\epsilon^{-2})$, O(ε^(-2)) and x_{10}", []),
])
def test_values_in_the_characters(sentence, values):
    assert [(value.text, value.start_of_move) for value in find_values(sentence)] == values


def test_the_data_set_of_an_earlier_sentence(read):
    [result] = read("We propose FooNet for sentiment analysis. We evaluate FooNet on the IMDB dataset. "
                    "FooNet reaches an accuracy of 91.2%.")
    assert (text(result.metric), text(result.dataset)) == ("accuracy", "IMDB")


def test_no_data_set_when_the_earlier_sentence_names_two(read):
    [result] = read("We propose FooNet for sentiment analysis. We evaluate FooNet on the IMDB and Yelp datasets. "
                    "FooNet reaches an accuracy of 91.2%.")
    assert text(result.metric) == "accuracy" and result.dataset is None


@pytest.mark.parametrize("name, expected", [("Flan-T5", True), ("GPT-4o", True), ("Qwen2.5-VL", True),
                                            ("BART", True), ("BERTScore", False), ("GPQA", False),
                                            ("SAMSum", False), ("ImageNet", False)])
def test_model_name(name, expected):
    families = frozenset({"flan-t5", "gpt", "qwen", "bart", "bert", "sam"})
    assert model_name(name, families) is expected


@pytest.mark.parametrize("name, expected", [("LiveCodeBench", True), ("IFEval", True), ("SHADE-Arena", True),
                                            ("ChartQA", True), ("AlpacaEval2", True), ("Workbench", False),
                                            ("QA", False), ("multi-hop QA", False), ("retrieval", False)])
def test_benchmark_name(name, expected):
    assert benchmark_name(name, frozenset({"bench", "eval", "arena", "qa"})) is expected


def test_a_list_of_benchmark_names_after_on(read):
    found = read("We propose FooDet for open-world detection. FooDet improves the known-class accuracy by 2.83% and "
                 "2.05% on M-OWODB and S-OWODB, respectively.")
    assert [(r.value, text(r.dataset)) for r in found] == [("2.83", "M-OWODB"), ("2.05", "S-OWODB")]


def test_each_list_of_as_many_values_as_the_data_sets_before_pairs_in_order(read):
    found = read("We propose Pyramid for nested NER. Pyramid achieves F1 scores on ACE-2004, ACE-2005, GENIA, and NNE, "
                 "which are 80.27, 79.42, 77.78, and 93.70 with conventional embeddings, and 87.74, 86.34, 79.31, "
                 "and 94.68 with pre-trained contextualized embeddings.")
    assert [text(r.dataset) for r in found] == ["ACE-2004", "ACE-2005", "GENIA", "NNE"] * 2

def test_a_benchmark_with_its_variant(read):
    [result] = read("We propose FooCoder for code generation. FooCoder reaches a Pass@1 of 48.5% on LiveCodeBench Pro.")
    assert (text(result.metric), text(result.dataset)) == ("Pass@1", "LiveCodeBench Pro")


def test_a_compared_method_named_with_its_value(read):
    found = read("We propose FooNet for segmentation. FooNet achieves an IoU of 89.8%, outperforming the deterministic "
                 "U-Net (85.3%). FooNet reaches 93.0% accuracy against 61.4% for Mem0.")
    assert [(r.value, text(r.method), r.proposed) for r in found] == [
        ("89.8", "FooNet", True), ("85.3", "deterministic U-Net", False), ("93.0", "FooNet", True),
        ("61.4", "Mem0", False)]


def test_a_list_of_values_shares_the_metric_and_data_set_after_it(read):
    found = read("We propose FooNet for intent detection. FooNet improves by 2.8% and 3.1% in macro F1 on the "
                 "Banking77 dataset.")
    assert [(r.value, text(r.metric), text(r.dataset)) for r in found] == [
        ("2.8", "macro F1", "Banking77 dataset"), ("3.1", "macro F1", "Banking77 dataset")]


def test_a_list_of_metrics_pairs_with_a_list_of_values(read):
    found = read("We propose FooMT for translation. FooMT achieves chrF++ and TER scores of 87.91 and 0.05 from Farsi "
                 "to Tajik and 92.28 and 0.04 from Tajik to Farsi.")
    assert [(r.value, text(r.metric)) for r in found] == [
        ("87.91", "chrF++"), ("0.05", "TER scores"), ("92.28", "chrF++"), ("0.04", "TER scores")]


def test_a_list_of_values_is_of_one_kind(read):
    found = read("We propose FooMT for translation. FooMT improves the baseline by 7.6 and 8.4 BLEU points for the two "
                 "directions, respectively.")
    assert [(r.value, r.kind.value) for r in found] == [("7.6", "change"), ("8.4", "change")]


@pytest.mark.parametrize("sentence", [
    "Labelling the five training sets costs US$28.31 to US$40.88 and under 15 USD in total.",
    "Inter-annotator agreement scores of 88%, 82%, and 89% are achieved for the three types of annotation.",
    "Authors reject the fixes at the same rate (gap -5.1 pp, 95% CI [-12.9, +2.7], p < 0.05).",
    "Our primary submission gets into the top 50%.",
    "FooNet fine-tunes a mere 0.32% of parameters while using 11.1% of the tokens and 40% labeled data.",
])
def test_money_intervals_agreement_ranks_and_shares_are_no_results(read, sentence):
    assert [r.value for r in read("We propose FooNet for text classification. " + sentence)
            if r.value not in ("-5.1",)] == []


def test_a_number_in_latex_math_is_no_money(read):
    [result] = read("We propose FooNet for defect detection. FooNet reaches $93.8\\%$ accuracy on defective samples.")
    assert (result.value, text(result.metric)) == ("93.8", "accuracy")


@pytest.mark.parametrize("title, expected", [
    ("Emotion Detection on Code-switched RHS Dataset.", "Code-switched RHS Dataset"),
    ("The Multilingual Microblog Translation Corpus: Improving Translation of User-Generated Text",
     "Multilingual Microblog Translation Corpus"),
    ("Chase: A Large-Scale and Pragmatic Chinese Dataset for Text-to-SQL", "Chase"),
    ("A New Corpus of Named Entities in Late Medieval Texts", ""),
    ("FooNet: Faster Image Classification", ""),
    (None, ""),
])
def test_title_dataset(title, expected):
    assert title_dataset(title) == expected


def test_a_bracketed_value_is_the_metric_before_it(read):
    found = read("We propose FooNet for sentiment analysis. FooNet achieves the highest accuracy (69.2%) and F1 score "
                 "(66.1%).")
    assert [(r.value, text(r.metric)) for r in found] == [("69.2", "accuracy"), ("66.1", "F1 score")]
