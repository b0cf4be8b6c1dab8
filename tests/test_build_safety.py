"""A build never loses or mixes data: the cases of the scale issue, each as a test, on a few abstracts
with the rules-only pipeline (--no-model) so each build takes a moment."""
from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from build_helpers import OUTPUT_NAMES, example_papers, folder_bytes, killed_build, write_papers
from cli_helpers import CORPUS, run_cli


@pytest.fixture
def good_build(tmp_path: Path) -> Path:
    """An output folder holding a good build of four abstracts."""
    out = tmp_path / "out"
    run_cli("build", str(write_papers(tmp_path / "in" / "a.jsonl", example_papers()[:4])), "-o", str(out),
               "--no-model")
    return out


def _build(*args: str, check: bool = True):
    return run_cli("build", *args, "--no-model", check=check)


@pytest.mark.parametrize("kind", ["empty folder", "empty file", "glob matching nothing"])
def test_no_papers_read_leaves_previous_outputs(good_build, tmp_path, kind):
    before = folder_bytes(good_build)
    empty = {"empty folder": tmp_path / "nothing", "empty file": tmp_path / "empty.jsonl",
             "glob matching nothing": tmp_path / "none-*.jsonl"}[kind]
    if kind == "empty folder":
        empty.mkdir()
    elif kind == "empty file":
        empty.write_text("")
    result = _build(str(empty), "-o", str(good_build), check=False)
    assert result.returncode == 3
    assert "no papers read" in result.stderr
    assert folder_bytes(good_build) == before


def test_abstract_over_the_size_limit_is_skipped_and_the_rest_built(tmp_path):
    papers = list(example_papers()[:2])
    huge = {"id": "huge", "abstract": "We propose HugeNet for parsing. " * 40_000}  # 1.28 M characters
    source = write_papers(tmp_path / "papers.jsonl", [papers[0], huge, papers[1]])
    result = _build(str(source), "-o", str(tmp_path / "out"), check=False)
    assert result.returncode == 3, result.stderr
    assert f"{source}:2" in result.stderr and "Traceback" not in result.stderr
    lines = (tmp_path / "out" / "extractions.jsonl").read_text().splitlines()
    assert sorted(json.loads(line)["paper"]["id"] for line in lines) == sorted(p["id"] for p in papers)


def test_output_naming_a_file_is_refused_before_any_work(tmp_path, monkeypatch):
    monkeypatch.setattr("paperkg.orchestrate.parallel.extract_lines", _no_extraction)
    target = tmp_path / "graph.json"
    target.write_text("{}")
    result = _build(str(CORPUS), "-o", str(target), check=False)
    assert result.returncode == 2
    assert str(target) in result.stderr and "is a file" in result.stderr
    assert target.read_text() == "{}"


def test_read_only_output_folder_is_refused_before_any_work():
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "out"
        out.mkdir()
        out.chmod(0o555)
        Path(scratch).chmod(0o755)
        command = [sys.executable, "-m", "paperkg", "build", str(CORPUS), "-o", str(out), "--no-model"]
        if os.geteuid() == 0:  # root writes anywhere: run as nobody, for whom the folder is read-only
            if not shutil.which("setpriv"):
                pytest.skip("running as root without setpriv")
            command = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *command]
        result = subprocess.run(command, capture_output=True, text=True, timeout=120,
                                env={**os.environ, "HOME": scratch})
        assert result.returncode == 2, result.stderr
        assert f"-o {out}: cannot write there" in result.stderr
        assert "extracting" not in result.stderr
        assert list(out.iterdir()) == []


def test_output_folder_is_never_an_input(tmp_path):
    write_papers(tmp_path / "a.jsonl", example_papers()[:3])
    out = tmp_path / "out"
    _build(str(tmp_path), "-o", str(out))
    first = folder_bytes(out)
    second = _build(str(tmp_path), "-o", str(out))
    assert "warning" not in second.stderr
    assert folder_bytes(out) == first
    named = _build(str(out / "extractions.jsonl"), str(tmp_path / "a.jsonl"), "-o", str(out), check=False)
    assert named.returncode == 3 and "never an input" in named.stderr
    for name in ("extractions.jsonl", "graph.json", "graph.graphml"):  # graph.html's title names the inputs
        assert (out / name).read_bytes() == first[name]


@pytest.mark.parametrize("with_manifest", [True, False])
def test_corrupt_graph_json_given_to_update_is_named(good_build, tmp_path, with_manifest):
    if not with_manifest:  # a folder written before manifests existed
        (good_build / "manifest.json").unlink()
    graph = good_build / "graph.json"
    graph.write_text(graph.read_text()[:500])
    result = _build(str(write_papers(tmp_path / "b.jsonl", example_papers()[4:5])), "-o", str(good_build),
                    "--update", check=False)
    assert result.returncode == 2
    assert str(graph) in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_reader_commands_refuse_a_graph_from_another_run(good_build, tmp_path):
    other = tmp_path / "other"
    _build(str(write_papers(tmp_path / "b.jsonl", example_papers()[4:6])), "-o", str(other))
    shutil.copy(other / "graph.json", good_build / "graph.json")
    for command in (("stats", str(good_build / "graph.json")), ("export", str(good_build / "graph.json"), "-o",
                                                                 str(tmp_path / "g.graphml"))):
        result = run_cli(*command, check=False)
        assert result.returncode == 2
        assert f"{good_build / 'graph.json'} differs from what the build wrote" in result.stderr


def test_same_inputs_in_any_order_give_the_same_bytes(tmp_path):
    papers = example_papers()
    files = [write_papers(tmp_path / "in" / f"{name}.jsonl", papers[start:start + 5])
             for name, start in (("x", 0), ("y", 5), ("z", 10))]
    _build(*map(str, files), "-o", str(tmp_path / "one"))
    _build(*map(str, files[::-1]), "-o", str(tmp_path / "two"))
    assert folder_bytes(tmp_path / "one") == folder_bytes(tmp_path / "two")


@pytest.mark.slow
def test_kill_during_update_then_update_again_gives_a_clean_build(good_build, tmp_path):
    before = folder_bytes(good_build)
    new = write_papers(tmp_path / "in" / "b.jsonl", example_papers()[4:7])
    extracted = tmp_path / "b-extractions.jsonl"  # the killed update builds from these: no spaCy in the subprocess
    run_cli("extract", str(new), "-o", str(extracted), "--no-model")
    args = ["build", "--from-extractions", str(extracted), "-o", str(good_build), "--update"]
    killed = killed_build(args, "import paperkg.graph.exports as exports\nexports.write_json = die")
    assert killed.returncode == -9, killed.stderr
    assert (good_build / ".paperkg-staging").is_dir()  # what the kill left
    assert {k: v for k, v in folder_bytes(good_build).items() if not k.startswith(".")} == before
    _build(str(new), "-o", str(good_build), "--update")
    _build(str(tmp_path / "in"), "-o", str(tmp_path / "clean"))
    assert folder_bytes(good_build) == folder_bytes(tmp_path / "clean")
    ids = [json.loads(line)["paper"]["id"] for line in (good_build / "extractions.jsonl").read_text().splitlines()]
    assert len(ids) == len(set(ids)) == 7


@pytest.mark.slow
def test_kill_while_outputs_are_replaced_is_finished_by_the_next_reader(good_build, tmp_path):
    """Killed between two renames of the commit (a build from saved extractions: the same commit, no spaCy)."""
    source = tmp_path / "five.jsonl"
    run_cli("extract", str(write_papers(tmp_path / "in" / "a.jsonl", example_papers()[:5])), "-o", str(source),
            "--no-model")
    patch = ("real_replace = os.replace\n"
             "def replace(src, dst):\n"
             "    real_replace(src, dst)\n"
             "    if '.paperkg-commit/' in str(src):\n"
             "        die()\n"
             "os.replace = replace")
    killed = killed_build(["build", "--from-extractions", str(source), "-o", str(good_build)], patch)
    assert killed.returncode == -9, killed.stderr
    assert run_cli("stats", str(good_build / "graph.json"), "--json").returncode == 0
    run_cli("build", "--from-extractions", str(source), "-o", str(tmp_path / "clean"))
    assert folder_bytes(good_build) == folder_bytes(tmp_path / "clean")
    assert sorted(folder_bytes(good_build)) == sorted(OUTPUT_NAMES)


def test_full_disk_leaves_previous_outputs_and_no_temporary_files(good_build, tmp_path, monkeypatch):
    before = folder_bytes(good_build)

    def disk_full(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr("paperkg.graph.exports.write_json", disk_full)
    new = write_papers(tmp_path / "b.jsonl", example_papers()[4:6])
    result = _build(str(new), "-o", str(good_build), "--update", check=False)
    assert result.returncode == 2
    assert "No space left on device" in result.stderr and "Traceback" not in result.stderr
    assert folder_bytes(good_build) == before


def test_a_second_build_into_the_same_folder_is_refused(good_build, tmp_path):
    from paperkg.core.output_folder import OutputTransaction

    with OutputTransaction(good_build):
        result = _build(str(write_papers(tmp_path / "b.jsonl", example_papers()[4:5])), "-o", str(good_build),
                        check=False)
    assert result.returncode == 2 and "another paperkg build" in result.stderr


@pytest.mark.parametrize("jobs", ["0", "-2"])
def test_jobs_must_be_positive(tmp_path, jobs):
    result = _build(str(CORPUS), "-o", str(tmp_path / "out"), "--jobs", jobs, check=False)
    assert result.returncode == 2 and "--jobs" in result.stderr


def _no_extraction(*args, **kwargs):
    raise AssertionError("extraction started although the command was refused")
