"""An output that cannot be written is one sentence naming the path, exit 2, and nothing half written (issue 33):
a full disk and a read-only folder (a small tmpfs and a read-only bind mount, where the tests may mount; else
skipped) for every command that writes, a CSV export that fits one of its two files (neither is written), and
a symbolic link as -o that leads in a loop or nowhere."""
from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest

from build_helpers import example_papers, write_papers
from cli_helpers import run_cli


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """A rules-only build of abstracts with years (trends needs them)."""
    folder = tmp_path_factory.mktemp("built")
    papers = [{**paper, "year": 2015 + n % 8} for n, paper in enumerate(example_papers()[:20])]
    run_cli("build", str(write_papers(folder / "in.jsonl", papers)), "-o", str(folder / "out"), "--no-model")
    return folder / "out"


@contextmanager
def _mounted(target: Path, *options: str) -> Iterator[Path]:
    target.mkdir(exist_ok=True)
    if subprocess.run(["mount", *options, str(target)], capture_output=True).returncode != 0:
        pytest.skip("mounting a file system needs CAP_SYS_ADMIN")
    try:
        yield target
    finally:
        subprocess.run(["umount", str(target)], check=True)


@pytest.fixture
def full_disk(tmp_path) -> Iterator[Path]:
    """A 256 KiB tmpfs, filled."""
    with _mounted(tmp_path / "full", "-t", "tmpfs", "-o", "size=256k", "tmpfs") as disk:
        with open(disk / "filler", "wb", buffering=0) as filler, suppress(OSError):
            while True:
                filler.write(b"\0" * 4096)
        yield disk


@pytest.fixture
def read_only(tmp_path) -> Iterator[Path]:
    folder = tmp_path / "ro"
    folder.mkdir()
    with _mounted(folder, "-o", "bind,ro", str(folder)) as mounted:
        yield mounted


def _commands(out: Path, target: Path, source: Path) -> list[list[str]]:
    return [["export", str(out), "-o", f"{target}/x.gexf"],
            ["export", str(out), "--format", "csv", "-o", f"{target}/csv"],
            ["view", str(out), "-o", f"{target}/views"],
            ["view", str(out), "--focus", "flerm", "-o", f"{target}/f.html"],
            ["trends", str(out), "-o", f"{target}/t.html"], ["thesaurus", str(out), "-o", f"{target}/t.tsv"],
            ["extract", str(source), "--no-model", "-o", f"{target}/e.jsonl"],
            ["build", str(source), "--no-model", "-o", f"{target}/build"]]


@pytest.mark.parametrize("where, reason", [("full_disk", "No space left on device"),
                                           ("read_only", "Read-only file system")])
def test_an_output_that_cannot_be_written_is_one_sentence_naming_it(built, tmp_path, request, where, reason):
    target = request.getfixturevalue(where)
    source = write_papers(tmp_path / "in.jsonl", example_papers()[:2])
    before = sorted(path.name for path in target.iterdir())
    for command in _commands(built, target, source):
        result = run_cli(*command, check=False)
        assert result.returncode == 2, (command, result.stderr)
        lines = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
        assert len(lines) == 1 and f" {target}/" in lines[0] and reason in lines[0], (command, result.stderr)
        assert "unexpected" not in result.stderr
        assert sorted(path.name for path in target.iterdir()) == before, command  # nothing half written, no folder


def test_a_csv_export_on_a_disk_with_room_for_one_file_writes_neither(built, tmp_path):
    sizes = tmp_path / "sizes"
    run_cli("export", str(built), "--format", "csv", "-o", str(sizes))
    nodes, edges = (sizes / "nodes.csv").stat().st_size, (sizes / "edges.csv").stat().st_size
    assert nodes > 8192 and edges > 8192
    with _mounted(tmp_path / "disk", "-t", "tmpfs", "-o", f"size={nodes + edges // 2}", "tmpfs") as disk:
        result = run_cli("export", str(built), "--format", "csv", "-o", str(disk / "csv"), check=False)
        assert result.returncode == 2 and "No space left on device" in result.stderr
        assert not (disk / "csv").exists()


@pytest.fixture
def broken_links(tmp_path) -> Path:
    (tmp_path / "loop").symlink_to("loop")
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere" / "x")
    return tmp_path


@pytest.mark.parametrize("link, said", [("loop", "{link} is a symbolic link that leads in a loop; name another path."),
                                        ("dangling", "{link} is a symbolic link to {tmp}/nowhere/x, which does not "
                                                     "exist; create it or name another path.")])
@pytest.mark.parametrize("inside", ["", "/x.gexf"])
def test_a_broken_link_as_o_is_one_sentence_for_every_command(built, broken_links, link, said, inside):
    tmp = broken_links
    source = write_papers(tmp / "in.jsonl", example_papers()[:2])
    for command in [["export", str(built)], ["build", str(source), "--no-model"],
                    ["extract", str(source), "--no-model"], ["view", str(built)], ["thesaurus", str(built)],
                    ["trends", str(built)], ["view", str(built), "--focus", "flerm"]]:
        result = run_cli(*command, "-o", f"{tmp / link}{inside}", check=False)
        assert result.returncode == 2 and result.stderr.count("\n") == 1, (command, result.stderr)
        assert result.stderr.endswith(said.format(link=tmp / link, tmp=tmp) + "\n") or "-o names a folder" in \
            result.stderr or "a focus view is an HTML page" in result.stderr, (command, result.stderr)
    assert (tmp / link).is_symlink()
    shutil.rmtree(tmp / "nowhere", ignore_errors=True)
