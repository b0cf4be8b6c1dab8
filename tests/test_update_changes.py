"""`build --update` compares each input's sha256 with the manifest: a changed file's papers are
re-extracted and their old versions removed, and a build's extraction mode is in its manifest so an
update never mixes rules-only and model extractions."""
from __future__ import annotations

import json
from pathlib import Path

from build_helpers import example_papers, folder_bytes, write_papers
from cli_helpers import run_cli


def _papers(folder: Path) -> dict[str, dict]:
    lines = (folder / "extractions.jsonl").read_text().splitlines()
    return {record["paper"]["id"]: record["paper"] for record in map(json.loads, lines)}


def _build(*args: str, check: bool = True):
    return run_cli("build", *args, "--no-model", check=check)


def test_a_typo_fixed_in_a_text_abstract_replaces_the_paragraph_it_was(tmp_path):
    inputs = tmp_path / "in"
    inputs.mkdir()
    abstracts = [paper["abstract"] for paper in example_papers()[:3]]
    (inputs / "a.txt").write_text("\n\n".join(abstracts) + "\n")
    (inputs / "b.jsonl").write_text(json.dumps(dict(example_papers()[3])) + "\n")
    out = tmp_path / "out"
    _build(str(inputs), "-o", str(out))
    assert len(_papers(out)) == 4
    abstracts[1] = abstracts[1].replace(" the ", " the the ", 1)  # a typo, then fixed: the text changed
    (inputs / "a.txt").write_text("\n\n".join(abstracts) + "\n")
    _build(str(inputs), "-o", str(out), "--update")
    _build(str(inputs), "-o", str(tmp_path / "clean"))
    assert len(_papers(out)) == 4
    assert folder_bytes(out) == folder_bytes(tmp_path / "clean")
    manifest = json.loads((out / "manifest.json").read_text())
    assert sorted(Path(item["path"]).name for item in manifest["inputs"]) == ["a.txt", "b.jsonl"]


def test_an_edited_record_with_a_known_id_is_extracted_again(tmp_path):
    papers = [dict(paper) for paper in example_papers()[:3]]
    source = write_papers(tmp_path / "a.jsonl", papers)
    out = tmp_path / "out"
    _build(str(source), "-o", str(out))
    papers[0]["title"] = "An Edited Title"
    write_papers(source, papers)
    result = _build(str(source), "-o", str(out), "--update")
    assert result.returncode == 0
    assert _papers(out)[papers[0]["id"]]["title"] == "An Edited Title"
    _build(str(source), "-o", str(tmp_path / "clean"))
    assert folder_bytes(out) == folder_bytes(tmp_path / "clean")


def test_update_no_model_refuses_a_model_build(tmp_path):
    """The issue's case: `--update --no-model` on a build the model extracted."""
    out = tmp_path / "out"
    run_cli("build", str(write_papers(tmp_path / "a.jsonl", example_papers()[:2])), "-o", str(out))
    assert json.loads((out / "manifest.json").read_text())["mode"].startswith("model ")
    before = folder_bytes(out)
    result = _build(str(write_papers(tmp_path / "b.jsonl", example_papers()[2:3])), "-o", str(out), "--update",
                    check=False)
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "this run extracts with the rules only (--no-model)" in result.stderr
    assert folder_bytes(out) == before


def test_update_refuses_to_mix_rules_only_and_model_extractions(tmp_path):
    out = tmp_path / "out"
    _build(str(write_papers(tmp_path / "a.jsonl", example_papers()[:2])), "-o", str(out))
    assert json.loads((out / "manifest.json").read_text())["mode"] == "rules"
    before = folder_bytes(out)
    result = run_cli("build", str(write_papers(tmp_path / "b.jsonl", example_papers()[2:3])), "-o", str(out),
                     "--update", check=False)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "extracted with the rules only (--no-model)" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert folder_bytes(out) == before
