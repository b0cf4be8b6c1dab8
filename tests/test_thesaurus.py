"""Thesaurus files: ones users write by hand (another encoding is one sentence naming it), and the one
`paperkg thesaurus` writes for review."""
from __future__ import annotations

from pathlib import Path

import pytest

from paperkg.core.errors import PaperkgError
from paperkg.admit.thesaurus import read_thesaurus


@pytest.mark.parametrize("encoding", ["latin-1", "utf-16"])
def test_thesaurus_in_another_encoding_names_the_file(tmp_path: Path, encoding: str) -> None:
    path = tmp_path / "thésaurus.tsv"
    path.write_bytes("label\treplace by\nréseaux de neurones\tneural network\n".encode(encoding))
    message = rf"^{path}: the thesaurus is not UTF-8 text \(byte \d+\); save it as UTF-8\.$"
    with pytest.raises(PaperkgError, match=message):
        read_thesaurus(path)


def test_utf8_thesaurus_with_accents_reads(tmp_path: Path) -> None:
    path = tmp_path / "thesaurus.tsv"
    path.write_text("label\treplace by\nréseau de neurones\tneural network\n", encoding="utf8")
    assert list(read_thesaurus(path).values()) == ["neural network"]


def _extraction(paper_id: str, names: list[str]):
    from paperkg.core.schema import SCHEMA_KEY, SCHEMA_VERSION, Extraction

    return Extraction.from_dict({
        SCHEMA_KEY: SCHEMA_VERSION, "paper": {"id": paper_id, "abstract": "S."}, "sentences": ["S."],
        "sentence_spans": [[0, 2]],
        "entities": [{"text": name, "name": name, "label": "Method", "start": 0, "end": 1, "sentence": 0,
                      "source": "model", "confidence": 0.8, "role": "mentions", "acronym": None} for name in names],
        "acronyms": [], "undefined_acronyms": [], "relations": []}, "test")


def test_paperkg_thesaurus_lists_merges_made_and_candidates_and_reads_back(tmp_path: Path) -> None:
    from cli_helpers import run_cli

    from paperkg.admit.admission import admit_all
    from paperkg.graph.builder import GraphBuilder
    from paperkg.graph.exports import write_json

    lines = [_extraction("a", ["off- the-shelf LLM", "graph neural network"]),
             _extraction("b", ["off-the-shelf LLM", "GNN", "contrastive learnings method"]),
             _extraction("c", ["contrastive learning method"])]
    builder = GraphBuilder()
    builder.add_all(admit_all(lines))
    write_json(builder.finalize(), tmp_path / "graph.json")
    run_cli("thesaurus", str(tmp_path / "graph.json"), "-o", str(tmp_path / "thesaurus.tsv"))
    text = (tmp_path / "thesaurus.tsv").read_text(encoding="utf8")
    assert "# hyphen-spacing: a\noff- the-shelf LLM\toff-the-shelf LLM\n" in text
    assert "# (shared acronym letters)\n# GNN\tgraph neural network\n" in text
    assert "contrastive learning method" in text and "similar names" in text
    assert read_thesaurus(tmp_path / "thesaurus.tsv") == {"off-the-shelf llm": "off-the-shelf LLM"}
    edited = tmp_path / "edited.tsv"
    edited.write_text(text.replace("# GNN\t", "GNN\t"), encoding="utf8")
    assert read_thesaurus(edited)["gnn"] == "graph neural network"


@pytest.mark.parametrize("args, message", [
    (["missing.json", "-o", "t.tsv"], "missing.json: no such file;"),
    (["t.tsv", "-o", "out.tsv"], "is not a paperkg graph"),
    (["graph.json", "-o", "."], "is a folder; name the thesaurus file"),
])
def test_paperkg_thesaurus_with_wrong_input_is_one_sentence(tmp_path: Path, monkeypatch, args, message) -> None:
    from cli_helpers import run_cli

    monkeypatch.chdir(tmp_path)
    (tmp_path / "t.tsv").write_text("label\treplace by\n", encoding="utf8")
    (tmp_path / "graph.json").write_text('{"directed": true}', encoding="utf8")
    result = run_cli("thesaurus", *args, check=False)
    assert result.returncode == 2 and message in result.stderr and "Traceback" not in result.stderr
