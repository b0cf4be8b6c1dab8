"""Files written under another schema version are refused, by every command that reads them, with one
sentence naming the file and both versions (exit 2), never misread."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import run_cli
from graph_fixtures import sample_graph, sample_records

from paperkg.core.schema import SCHEMA_KEY, SCHEMA_VERSION
from paperkg.graph.exports import write_json

OLD = SCHEMA_VERSION - 1


def _one_sentence(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    return lines[0]


@pytest.fixture
def old_graph(tmp_path: Path) -> Path:
    """A graph.json whose schema version is the one before this paperkg's."""
    path = tmp_path / "graph.json"
    write_json(sample_graph(), path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["graph"][SCHEMA_KEY] = OLD
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize("command", [["stats"], ["view", "-o", "out"], ["trends", "-o", "out.html"],
                                     ["thesaurus", "-o", "out.tsv"], ["export", "-o", "out.gexf"]])
def test_an_old_graph_json_is_refused_in_one_sentence(old_graph: Path, command: list[str], tmp_path: Path) -> None:
    args = [command[0], str(old_graph), *(str(tmp_path / arg) if arg.startswith("out") else arg for arg in command[1:])]
    result = run_cli(*args, check=False)
    assert result.returncode == 2
    assert _one_sentence(result.stderr) == (
        f"error: {old_graph} was written with paperkg graph schema {OLD}; this paperkg reads schema "
        f"{SCHEMA_VERSION}: build it again (paperkg build, or build --from-extractions).")


def test_an_old_extractions_file_is_refused_in_one_sentence_naming_it_and_its_version(tmp_path: Path) -> None:
    old = tmp_path / "old.jsonl"
    lines = [record.to_dict() for record in sample_records()]
    lines[1] = {**lines[1], SCHEMA_KEY: OLD}
    lines[1].pop("sentence_spans")  # what schema 3 wrote: sentences without their places
    old.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    result = run_cli("build", "--from-extractions", str(old), "-o", str(tmp_path / "out"), check=False)
    assert result.returncode == 2 and not (tmp_path / "out" / "graph.json").exists()
    assert _one_sentence(result.stderr) == (
        f"error: {old}:2: extraction record of schema {OLD}, this paperkg reads schema {SCHEMA_VERSION}; "
        "extract it again with this version.")


def test_a_record_of_this_schema_without_sentence_spans_is_refused(tmp_path: Path) -> None:
    broken = tmp_path / "broken.jsonl"
    line = sample_records()[0].to_dict()
    line["sentence_spans"] = line["sentence_spans"][1:]
    broken.write_text(json.dumps(line) + "\n", encoding="utf-8")
    result = run_cli("build", "--from-extractions", str(broken), "-o", str(tmp_path / "out"), check=False)
    assert result.returncode == 2
    assert _one_sentence(result.stderr).startswith(f"error: {broken}:1: not a paperkg extraction record (")
