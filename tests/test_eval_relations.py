"""Relations in paperkg's schema from SciER and SciERC (the converter), the scorer on hand-made gold and
predictions, and `paperkg eval relations` on real SciER dev papers."""
from __future__ import annotations

import json

import pytest
from cli_helpers import run_cli

from paperkg.core.errors import PaperkgError
from paperkg.core.schema import RelType
from paperkg.extract.evaluate.relation_benchmarks import read_relations
from paperkg.extract.evaluate.relations import score


def test_scier_train_mentions_are_found_in_the_sentence_and_labels_mapped(tmp_path):
    path = tmp_path / "train.jsonl"
    lines = [{"doc_id": "d", "sentence": "We use BERT ( a transformer ) for question answering on SQuAD .",
              "ner": [["BERT", "Method"], ["transformer", "Method"], ["question answering", "Task"],
                      ["SQuAD", "Dataset"]],
              "rel": [["BERT", "Used-For", "question answering"], ["BERT", "Evaluated-With", "SQuAD"],
                      ["BERT", "SubClass-Of", "transformer"]]},
             {"doc_id": "d", "sentence": "CNN beats CNN on MNIST", "ner": [["CNN", "Method"], ["MNIST", "Dataset"]],
              "rel": [["CNN", "Evaluated-With", "MNIST"]]}]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    first, second = read_relations("scier", path)
    assert first.relations == [(2, 3, 8, 10, RelType.USED_FOR), (2, 3, 11, 12, RelType.EVALUATED_ON),
                               (2, 3, 5, 6, RelType.IS_A)]
    assert second.relations == []  # "CNN" is found twice: its place is not certain


def test_scier_dev_offsets_are_inclusive_and_synonyms_keep_their_direction(tmp_path):
    path = tmp_path / "dev.jsonl"
    paper = {"doc_id": "p", "doc_tokens": ["convolutional", "networks", "(", "CNNs", ")", "."],
             "sentences": [["convolutional", "networks", "(", "CNNs", ")", "."]],
             "ner": [[[0, 1, "Method"], [3, 3, "Method"]]], "relations": [[[3, 3, 0, 1, "Synonym-Of"]]]}
    path.write_text(json.dumps(paper) + "\n", encoding="utf-8")
    (record,) = read_relations("scier", path)
    assert record.entities == [(0, 2, "Method"), (3, 4, "Method")]
    assert record.relations == [(3, 4, 0, 2, RelType.SYNONYM_OF)]


def test_scierc_evaluate_for_is_turned_round_and_unmapped_labels_and_ends_are_dropped(tmp_path):
    path = tmp_path / "train.json"
    words = ["We", "evaluate", "CRF", "on", "Penn", "Treebank", "and", "parsing", "accuracy", "."]
    item = {"doc_key": "A", "sentences": [words],
            "ner": [[[2, 2, "Method"], [4, 5, "Material"], [7, 7, "Task"], [8, 8, "Metric"]]],
            "relations": [[[4, 5, 2, 2, "EVALUATE-FOR"], [8, 8, 2, 2, "EVALUATE-FOR"], [2, 2, 7, 7, "USED-FOR"],
                           [2, 2, 7, 7, "CONJUNCTION"]]]}
    path.write_text(json.dumps(item) + "\n", encoding="utf-8")
    (record,) = read_relations("scierc", path)
    assert (4, 6, "Dataset") in record.entities
    # the metric EVALUATE-FOR the method has no paperkg type (EVALUATED_ON joins a method and a data set)
    assert record.relations == [(2, 3, 4, 6, RelType.EVALUATED_ON), (2, 3, 7, 8, RelType.USED_FOR)]


def test_a_relation_file_in_the_wrong_layout_is_one_sentence(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"doc_id": "x", "sentence": "a b", "ner": []}\n', encoding="utf-8")
    with pytest.raises(PaperkgError, match="is not a scier relation file"):
        read_relations("scier", path)
    with pytest.raises(PaperkgError, match="--format must be one of"):
        read_relations("tdmsci", path)


def test_scorer_exact_overlap_and_symmetric_types():
    labels = [RelType.USED_FOR, RelType.COMPARED_WITH, RelType.PART_OF]
    gold = [("d", (0, 2, 5, 6, RelType.USED_FOR)), ("d", (0, 2, 8, 9, RelType.COMPARED_WITH)),
            ("d", (10, 11, 12, 13, RelType.PART_OF)), ("e", (0, 1, 2, 3, RelType.USED_FOR))]
    predicted = [("d", (0, 2, 5, 6, RelType.USED_FOR)),          # exact
                 ("d", (8, 9, 0, 2, RelType.COMPARED_WITH)),     # symmetric, other direction: exact
                 ("d", (10, 12, 12, 13, RelType.PART_OF)),       # head overlaps only
                 ("e", (0, 1, 2, 3, RelType.PART_OF))]           # right arguments, wrong type
    result = score(gold, predicted, labels)
    assert (result["exact"]["tp"], result["exact"]["predicted"], result["exact"]["gold"]) == (2, 4, 4)
    assert result["per_label"]["USED_FOR"]["r"] == 0.5 and result["per_label"]["COMPARED_WITH"]["f1"] == 1.0
    assert result["overlap"]["p"] == 0.75 and result["overlap"]["r"] == 0.75


def test_eval_relations_on_real_scier_dev_papers(shared, tmp_path):
    lines = (shared / "benchmarks" / "scier" / "dev.jsonl").read_text(encoding="utf-8").splitlines()[:2]
    path = tmp_path / "dev.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    end_to_end = json.loads(run_cli("eval", "relations", str(path), "--format", "scier", "--json").stdout)
    gold = json.loads(run_cli("eval", "relations", str(path), "--format", "scier", "--gold-entities", "--json").stdout)
    assert end_to_end["documents"] == 2 and end_to_end["entities"] == "pipeline" and gold["entities"] == "gold"
    assert len(end_to_end["per_label"]) == 9 and end_to_end["exact"]["gold"] > 50
    assert gold["exact"]["tp"] > 0 and gold["exact"]["f1"] > end_to_end["exact"]["f1"] > 0
    table = run_cli("eval", "relations", str(path), "--format", "scier").stdout
    assert "exact micro" in table and "SYNONYM_OF" in table and "words/s" in table


def test_eval_relations_wrong_input_is_one_sentence(tmp_path):
    missing = run_cli("eval", "relations", str(tmp_path / "none.jsonl"), "--format", "scier", check=False)
    assert missing.returncode != 0 and "no such file" in missing.stderr + missing.stdout
    bad = tmp_path / "bad.json"
    bad.write_text("{not json\n", encoding="utf-8")
    wrong = run_cli("eval", "relations", str(bad), "--format", "scierc", check=False)
    assert wrong.returncode != 0 and "line 1" in wrong.stderr + wrong.stdout and "Traceback" not in wrong.stdout
    unknown = run_cli("eval", "relations", str(bad), "--format", "tdmsci", check=False)
    assert unknown.returncode == 2
