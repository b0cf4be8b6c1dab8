"""SciERC JSON lines -> Docs/DocBin: tokens, sentence starts and entity spans survive."""
from __future__ import annotations

import json

import pytest
from spacy.tokens import DocBin
from spacy.vocab import Vocab

from paperkg.extract.training.convert import convert, read_scierc, to_doc

RECORD = {
    "doc_key": "A01",
    "sentences": [["We", "propose", "graph", "transformers", "."],
                  ["They", "improve", "node", "classification", "accuracy", "-LRB-", "``", "NCA", "''", "-RRB-"]],
    "ner": [[[2, 3, "Method"]], [[7, 8, "Task"], [7, 9, "Metric"], [5, 5, "Generic"]]],
    "relations": [[], []],
    "clusters": [],
}


@pytest.fixture
def scierc_file(tmp_path):
    path = tmp_path / "mini.json"
    path.write_text(json.dumps(RECORD) + "\n\n", encoding="utf-8")
    return path


def test_read_scierc_makes_end_exclusive_document_spans(scierc_file):
    (doc,) = list(read_scierc(scierc_file))
    assert doc.key == "A01"
    assert doc.words[2:4] == ["graph", "transformers"]
    assert doc.sent_starts == [True, False, False, False, False, True] + [False] * 9
    assert doc.words[-5:] == ["(", '"', "NCA", '"', ")"]
    assert doc.entities == [(2, 4, "Method"), (7, 9, "Task"), (7, 10, "Metric"), (5, 6, "Generic")]


def test_to_doc_keeps_tokens_sentences_and_longest_of_overlapping_spans(scierc_file):
    doc = to_doc(Vocab(), next(read_scierc(scierc_file)))
    assert [t.text for t in doc][:9] == RECORD["sentences"][0] + RECORD["sentences"][1][:4]
    assert [s.text for s in doc.sents] == ["We propose graph transformers .",
                                           'They improve node classification accuracy ( " NCA " )']
    assert [(e.text, e.label_) for e in doc.ents] == [
        ("graph transformers", "Method"), ("They", "Generic"),
        ("node classification accuracy", "Metric")]


def test_to_doc_without_entities(scierc_file):
    doc = to_doc(Vocab(), next(read_scierc(scierc_file)), with_entities=False)
    assert doc.ents == ()
    assert len(list(doc.sents)) == 2


def test_convert_writes_a_docbin_spacy_reads_back(scierc_file, tmp_path):
    out = tmp_path / "out" / "mini.spacy"
    assert convert(scierc_file, out) == 1
    (doc,) = list(DocBin().from_disk(out).get_docs(Vocab()))
    assert len(list(doc.sents)) == 2
    assert [(e.start, e.end, e.label_) for e in doc.ents] == [
        (2, 4, "Method"), (5, 6, "Generic"), (7, 10, "Metric")]


@pytest.mark.parametrize("line", ['{"sentences": [["a"]], "ner": [[[0, 3, "Task"]]]}', "{not json"])
def test_bad_line_is_named(tmp_path, line):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(RECORD) + "\n" + line + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad\.json:2"):
        list(read_scierc(path))
