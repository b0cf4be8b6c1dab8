"""An output folder someone else made (a cloned repository, an unpacked archive) is untrusted input: its
manifest and interrupted commit can name only paperkg's own output files, checked before anything moves
or is deleted; a folder that fails is refused with one sentence and nothing outside it is touched."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from build_helpers import example_papers, folder_bytes, write_papers
from cli_helpers import run_cli

from paperkg.orchestrate.build import OUTPUTS
from paperkg.core.manifest import OUTPUT_FILES, is_output_name

BAD_NAMES = ["../victim.txt", "{victim}", "sub/graph.json", "..", ".", "", "graph.json/..", "manifest.json",
             "part-00001.jsonl/../../victim.txt", "graph.json\x00"]


def _manifest(names: list[str]) -> str:
    files = {name: {"size": 1, "sha256": "0" * 64} for name in names}
    return json.dumps({"files": files, "inputs": [], "papers": 1, "build_id": "x", "paperkg_manifest": 1})


def _victim(tmp_path: Path) -> Path:
    victim = tmp_path / "victim.txt"
    victim.write_text("the user's own file\n")
    return victim


def _name(name: str, victim: Path) -> str:
    return name.replace("{victim}", str(victim))


def _refused(result, victim: Path) -> None:
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert victim.read_text() == "the user's own file\n"


def test_the_allow_list_holds_every_build_output():
    assert set(OUTPUTS) <= OUTPUT_FILES
    assert is_output_name("part-00000.jsonl") and not is_output_name("part-0.jsonl/../x")
    assert not any(is_output_name(name.replace("{victim}", "/etc/passwd")) for name in BAD_NAMES)


@pytest.mark.parametrize("name", BAD_NAMES)
def test_a_reader_refuses_an_interrupted_commit_naming_a_foreign_file(tmp_path, name):
    victim = _victim(tmp_path)
    out = tmp_path / "cloned" / "out"
    commit = out / ".paperkg-commit"
    commit.mkdir(parents=True)
    (out / "graph.json").write_text("{}")
    (commit / "manifest.json").write_text(_manifest([_name(name, victim)]))
    (commit / "victim.txt").write_text("written by the attacker\n")
    for command in (("stats", str(out / "graph.json")),
                    ("export", str(out / "graph.json"), "-o", str(tmp_path / "g.graphml")),
                    ("view", str(out / "graph.json"), "-o", str(tmp_path / "view")),
                    ("trends", str(out / "graph.json")),
                    ("push", str(out / "graph.json"), "--uri", "bolt://127.0.0.1:9", "--password", "x"),
                    ("thesaurus", str(out / "graph.json"), "-o", str(tmp_path / "t.tsv"))):
        result = run_cli(*command, check=False)
        _refused(result, victim)
        assert "not one of paperkg's output files" in result.stderr
    assert commit.is_dir()  # left for the user to look at


@pytest.mark.parametrize("name", BAD_NAMES)
def test_a_build_refuses_a_folder_whose_manifest_names_a_foreign_file(tmp_path, name):
    victim = _victim(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "manifest.json").write_text(_manifest([_name(name, victim), "graph.json"]))
    source = write_papers(tmp_path / "in.jsonl", example_papers()[:2])
    before = folder_bytes(out)
    result = run_cli("build", str(source), "-o", str(out), "--no-model", check=False)
    _refused(result, victim)
    assert folder_bytes(out) == before


def test_a_commit_that_is_a_symbolic_link_is_refused(tmp_path):
    victim = _victim(tmp_path)
    elsewhere = tmp_path / "home"
    elsewhere.mkdir()
    (elsewhere / "manifest.json").write_text(_manifest(["graph.json"]))
    (elsewhere / "graph.json").write_text("{}")
    out = tmp_path / "out"
    out.mkdir()
    (out / ".paperkg-commit").symlink_to(elsewhere)
    _refused(run_cli("stats", str(out / "graph.json"), check=False), victim)
    assert sorted(p.name for p in elsewhere.iterdir()) == ["graph.json", "manifest.json"]


def test_a_symbolic_link_in_a_commit_is_not_moved_into_the_folder(tmp_path):
    victim = _victim(tmp_path)
    out = tmp_path / "out"
    commit = out / ".paperkg-commit"
    commit.mkdir(parents=True)
    (commit / "manifest.json").write_text(_manifest(["graph.json"]))
    (commit / "graph.json").symlink_to(victim)
    result = run_cli("stats", str(out / "graph.json"), check=False)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert not (out / "graph.json").exists() and victim.read_text() == "the user's own file\n"


def test_extraction_shards_named_outside_their_folder_are_refused(tmp_path):
    secret = tmp_path / "secret.jsonl"
    secret.write_text('{"not": "an extraction"}\n')
    shards = tmp_path / "shards"
    shards.mkdir()
    (shards / "manifest.json").write_text(_manifest(["../secret.jsonl"]))
    result = run_cli("build", "--from-extractions", str(shards), "-o", str(tmp_path / "out"), check=False)
    _refused(result, _victim(tmp_path))
    assert "not one of paperkg's output files" in result.stderr


def test_from_extractions_refuses_a_file_its_folders_manifest_rejects(tmp_path):
    out = tmp_path / "out"
    run_cli("build", str(write_papers(tmp_path / "in.jsonl", example_papers()[:2])), "-o", str(out), "--no-model")
    extractions = out / "extractions.jsonl"
    lines = extractions.read_text().splitlines()
    record = json.loads(lines[0])
    record["paper"]["title"] = "Tampered"
    extractions.write_text("\n".join([json.dumps(record), *lines[1:]]) + "\n")
    result = run_cli("build", "--from-extractions", str(extractions), "-o", str(tmp_path / "again"), check=False)
    assert result.returncode == 2 and "differs from what the build wrote" in result.stderr
    assert not (tmp_path / "again").exists()


def test_the_root_folder_is_refused_as_an_output(tmp_path):
    source = write_papers(tmp_path / "in.jsonl", example_papers()[:1])
    result = run_cli("build", str(source), "-o", "/", "--no-model", check=False)
    assert result.returncode == 2 and "root of the file system" in result.stderr
