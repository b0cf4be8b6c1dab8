"""`paperkg eval acronyms --format defs|scier`: definition pairs by character offsets, SciER's
Synonym-Of recall, the shipped non-CS dev set and the mistakes a user can make."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import ROOT, run_cli

from paperkg.core.errors import PaperkgError
from paperkg.extract.evaluate.acronym_definitions import read_definitions, run_definitions, run_scier_synonyms

DEV = ROOT / "tests" / "data" / "acronyms_noncs_dev.jsonl"
TEXT = "We use graph neural networks (GNNs) and the word frequency (WF) of words (W)."


def _defs_line(text: str, *pairs: tuple[str, str]) -> str:
    defs = []
    for short, long in pairs:
        long_start = text.index(long)
        short_start = text.index(f"({short})") + 1
        defs.append({"short_start": short_start, "short_end": short_start + len(short),
                     "long_start": long_start, "long_end": long_start + len(long)})
    return json.dumps({"id": "t1", "text": text, "definitions": defs})


@pytest.fixture(scope="module")
def nlp():
    from paperkg.api import load_pipeline

    return load_pipeline(rules_only=True)


def test_pairs_need_both_offsets_and_short_forms_only_their_own(tmp_path, nlp):
    path = tmp_path / "defs.jsonl"
    # Gold: GNNs with a long form the pipeline does not give (one word short), and TF.
    line = json.loads(_defs_line(TEXT, ("GNNs", "graph neural networks"), ("WF", "word frequency")))
    line["definitions"][0]["long_start"] += len("graph ")
    path.write_text(json.dumps(line) + "\n\n", encoding="utf-8")
    errors = tmp_path / "errors.jsonl"
    result = run_definitions(path, nlp, predictions_out=errors)
    assert result["pairs"]["correct"] == 1 and result["pairs"]["gold"] == 2
    assert result["short_forms"]["correct"] == 2
    row = json.loads(errors.read_text(encoding="utf-8"))
    assert row == {"id": "t1", "missed": ["GNNs = neural networks"], "spurious": ["GNNs = graph neural networks"]}


@pytest.mark.parametrize("content, message", [
    ("not json\n", ":1: not valid JSON"),
    ("[1, 2]\n", ":1: expected a JSON object"),
    ('{"text": "abc", "definitions": [{"short_start": 0}]}\n', ":1: needs 'text' and 'definitions'"),
    ('{"text": "abc", "definitions": [{"short_start": 0, "short_end": 9, "long_start": 0, "long_end": 1}]}\n',
     "inside the text"),
])
def test_reader_names_the_line_and_the_problem(tmp_path, content, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(PaperkgError, match=message):
        read_definitions(path)


def test_the_shipped_dev_set_is_well_formed_and_redistributable():
    items = read_definitions(DEV)
    rows = [json.loads(line) for line in DEV.read_text(encoding="utf-8").splitlines()]
    assert len(items) >= 100 and sum(len(i.definitions) for i in items) >= 150
    assert all(r["license"].startswith("CC0") for r in rows)
    for row in rows:
        for d in row["definitions"]:
            assert row["text"][d["short_start"]:d["short_end"]] == d["short"]
            assert row["text"][d["long_start"]:d["long_end"]] == d["long"]


def test_scier_synonyms_found_either_way_round(tmp_path, nlp):
    path = tmp_path / "scier.jsonl"
    rows = [
        {"sentence": "We train convolutional neural networks ( CNNs ) here .",
         "rel": [["CNNs", "Synonym-Of", "convolutional neural networks"]]},
        {"sentence": "BERT , also known as a transformer encoder , is used .",
         "rel": [["BERT", "Synonym-Of", "transformer encoder"]]},
        {"sentence": "No pair here .", "rel": [["A", "Used-For", "B"]]},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    result = run_scier_synonyms(path, nlp)
    assert result["synonym_pairs"] == {"gold": 2, "found": 1, "recall": 0.5}
    assert result["bracketed_pairs"] == {"gold": 1, "found": 1, "recall": 1.0}


def test_cli_scores_the_dev_set_and_names_wrong_input(tmp_path):
    out = run_cli("eval", "acronyms", str(DEV), "--format", "defs", "--json")
    result = json.loads(out.stdout)
    assert result["pairs"]["precision"] >= 0.95 and result["pairs"]["recall"] >= 0.85
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{}\n", encoding="utf-8")
    failed = run_cli("eval", "acronyms", str(bad), "--format", "defs", check=False)
    assert failed.returncode != 0 and "bad.jsonl:1:" in failed.stderr + failed.stdout
    missing = run_cli("eval", "acronyms", str(tmp_path / "none.jsonl"), "--format", "defs", check=False)
    assert missing.returncode != 0 and "no such file" in missing.stderr + missing.stdout
    wrong = run_cli("eval", "acronyms", str(DEV), "--format", "defs", "--system", "schwartz-hearst-capitals",
                    check=False)
    assert wrong.returncode != 0 and "defs files only" in wrong.stderr + wrong.stdout
    scier = tmp_path / "scier.jsonl"
    scier.write_text('{"sentence": 3}\n', encoding="utf-8")
    failed = run_cli("eval", "acronyms", str(scier), "--format", "scier", check=False)
    assert failed.returncode != 0 and "scier.jsonl:1:" in failed.stderr + failed.stdout


def test_dev_set_rows_come_from_the_sampler_description():
    """docs/quality.md's recipe: arXiv rows cross-listed outside CS (the sampler's own filter)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("sampler", ROOT / "bench" / "acronym_dev_sample.py")
    sampler = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(sampler)
    for line in Path(DEV).read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        assert sampler.non_cs({"source": "arxiv", "categories": row["categories"]})
