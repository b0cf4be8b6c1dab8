"""`paperkg eval entities`: the three benchmark layouts read on their own tokens, the scorer's
conventions, and the command on a small real file."""
from __future__ import annotations

import json

import pytest
from cli_helpers import run_cli
from hypothesis import given
from hypothesis import strategies as st

from paperkg.core.errors import PaperkgError
from paperkg.extract.evaluate.benchmarks import read_benchmark, tdmsci_split
from paperkg.extract.evaluate.entities import merge_acronym_pairs, score, split_acronym_pair


def test_tdmsci_conll_gives_sentences_with_spaces_from_offsets_and_bio_spans(tmp_path):
    path = tmp_path / "train.conll"
    path.write_text("We\t0\tO\nuse\t3\tO\nWMT\t7\tB-DATASET\n14\t11\tI-DATASET\n.\t13\tO\n\n"
                    "BLEU\t0\tB-METRIC\nrises\t5\tO\n", encoding="utf-8")
    first, second = read_benchmark("tdmsci", path)
    assert first.words == ["We", "use", "WMT", "14", "."] and first.spaces == [True, True, True, False, False]
    assert first.spans == [(2, 4, "Dataset")] and second.spans == [(0, 1, "Metric")]
    assert {r.key for r in read_benchmark("tdmsci", path, "dev")} | {
        r.key for r in read_benchmark("tdmsci", path, "train")} == {first.key, second.key}
    assert tdmsci_split(first.words) in {"dev", "train"}


def test_scier_reads_both_layouts_and_marks_ambiguous_strings_missing(tmp_path):
    path = tmp_path / "scier.jsonl"
    paper = {"doc_id": "p1", "doc_tokens": ["BERT", "on", "SQuAD", "."], "sentences": [["BERT", "on", "SQuAD", "."]],
             "ner": [[[0, 0, "Method"], [2, 2, "Dataset"]]]}
    sentence = {"doc_id": "p2", "sentence": "CNN beats CNN on MNIST", "ner": [["CNN", "Method"], ["MNIST", "Dataset"]]}
    path.write_text(json.dumps(paper) + "\n\n" + json.dumps(sentence) + "\n", encoding="utf-8")
    whole, one = read_benchmark("scier", path)
    assert whole.key == "p1" and whole.spans == [(0, 1, "Method"), (2, 3, "Dataset")]
    assert one.spans == [(4, 5, "Dataset")] and one.missing == [(0, 1), (2, 3)]


def test_scierc_undoes_ptb_escapes_and_makes_ends_exclusive(tmp_path):
    path = tmp_path / "dev.json"
    path.write_text(json.dumps({"doc_key": "A1", "sentences": [["-LRB-", "CRF", "-RRB-", "tagging"]],
                                "ner": [[[1, 1, "Method"], [0, 3, "Task"]]]}) + "\n", encoding="utf-8")
    (record,) = read_benchmark("scierc", path)
    assert record.words == ["(", "CRF", ")", "tagging"] and record.spans == [(1, 2, "Method"), (0, 4, "Task")]


@pytest.mark.parametrize("fmt, text", [("scierc", '{"doc_key": 1, "sentences": [["a"]]}\n'),
                                       ("scier", "{not json\n")])
def test_a_bad_json_line_is_named_by_its_number(tmp_path, fmt, text):
    path = tmp_path / "bad.jsonl"
    path.write_text("\n" + text, encoding="utf-8")
    with pytest.raises(PaperkgError, match="line 2"):
        read_benchmark(fmt, path)


def test_acronym_pairs_split_for_scierc_and_merge_for_tdmsci():
    words = ["named", "entity", "recognition", "(", "NER", ")", "works"]
    assert split_acronym_pair(0, 6, "Task", words) == [(0, 3, "Task"), (4, 5, "Task")]
    assert merge_acronym_pairs([(0, 3, "Task"), (4, 5, "Task")], words) == [(0, 6, "Task")]


def test_score_counts_only_the_labels_a_benchmark_annotates_and_overlaps_by_label():
    gold = [("d", 0, 2, "Task"), ("d", 5, 6, "Dataset")]
    predicted = [("d", 0, 2, "Task"), ("d", 5, 7, "Dataset"), ("d", 9, 10, "Method")]
    result = score(gold, predicted, ("Task", "Dataset", "Metric"))
    assert result["exact"]["tp"] == 1 and result["exact"]["predicted"] == 2 and result["exact"]["gold"] == 2
    assert result["overlap"]["p"] == 1.0 and result["overlap"]["r"] == 1.0
    assert result["per_label"]["Dataset"]["tp"] == 0


MENTIONS = st.sets(st.tuples(st.sampled_from(["d1", "d2"]), st.integers(0, 30), st.integers(1, 6),
                              st.sampled_from(["Method", "Task"])).map(lambda m: (m[0], m[1], m[1] + m[2], m[3])),
                    max_size=25)


@given(MENTIONS, MENTIONS)
def test_overlap_scores_are_the_share_of_mentions_overlapping_one_of_the_same_label(gold, predicted):
    def share(mentions, others):
        return sum(any(o[0] == m[0] and o[3] == m[3] and o[1] < m[2] and m[1] < o[2] for o in others)
                   for m in mentions) / len(mentions) if mentions else 0.0

    overlap = score(gold, predicted, ("Method", "Task"))["overlap"]
    assert overlap["p"] == share(predicted, gold) and overlap["r"] == share(gold, predicted)


@pytest.mark.slow
def test_eval_entities_command_on_three_scier_dev_papers(shared, tmp_path):
    """The first three of SciER dev's ten papers (docs/quality.md's figure is the whole file's, 0.749)."""
    papers = (shared / "benchmarks" / "scier" / "dev.jsonl").read_text(encoding="utf8").splitlines(keepends=True)
    (tmp_path / "dev3.jsonl").write_text("".join(papers[:3]), encoding="utf8")
    result = run_cli("eval", "entities", str(tmp_path / "dev3.jsonl"), "--format", "scier", "--json")
    figures = json.loads(result.stdout)
    assert figures["documents"] == 3 and figures["exact"]["gold"] == 685
    assert figures["exact"]["f1"] > 0.7 and figures["words_per_second"] > 0


def test_eval_entities_names_a_missing_file(tmp_path):
    result = run_cli("eval", "entities", str(tmp_path / "none.jsonl"), "--format", "scier", check=False)
    assert result.returncode == 2 and "none.jsonl" in result.stderr
