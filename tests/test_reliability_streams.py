"""Inputs are read once, whatever they are (issue 33's second bad case): a named pipe, a process substitution
and standard input (`-`, gzipped too) build and extract without hanging, and the manifest records the size and
sha256 of the bytes that were read, also of a file that grows while it is read."""
from __future__ import annotations

import gzip
import hashlib
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from build_helpers import example_papers, write_papers
from cli_helpers import ROOT

from paperkg.core.manifest import FileEntry
from paperkg.ingest.readers import WarningCollector, read_records

TIMEOUT = 300  # a hang fails the test instead of stopping the suite


def _paperkg(*args: str, stdin: bytes | None = None, shell: str | None = None) -> subprocess.CompletedProcess:
    """`paperkg ARGS` in a subprocess (bash for `shell`, a command line with a process substitution)."""
    command = ["bash", "-c", shell] if shell else [sys.executable, "-m", "paperkg", *args]
    return subprocess.run(command, input=stdin, capture_output=True, cwd=ROOT, timeout=TIMEOUT)


def _inputs(manifest: Path) -> list[dict]:
    return json.loads(manifest.read_text())["inputs"]


@pytest.fixture(scope="module")
def papers(tmp_path_factory) -> Path:
    return write_papers(tmp_path_factory.mktemp("in") / "papers.jsonl", example_papers()[:5])


def _entry(data: bytes) -> dict:
    return {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()}


@pytest.mark.slow  # a build in a fresh process
def test_a_named_pipe_is_read_once_and_its_checksum_is_what_was_written(papers, tmp_path):
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    data = papers.read_bytes()

    def write() -> None:
        with open(fifo, "wb") as handle:  # blocks until the build opens the pipe, once
            handle.write(data)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    result = _paperkg("build", str(fifo), "-o", str(tmp_path / "out"), "--no-model")
    writer.join(timeout=5)
    assert result.returncode == 0, result.stderr
    assert _inputs(tmp_path / "out" / "manifest.json") == [{"path": str(fifo), **_entry(data)}]
    assert len((tmp_path / "out" / "extractions.jsonl").read_text().splitlines()) == 5


@pytest.mark.slow  # a build in a fresh process
def test_a_process_substitution_builds_and_extracts(papers, tmp_path):
    out, lines = tmp_path / "out", tmp_path / "lines.jsonl"
    result = _paperkg(shell=f"{sys.executable} -m paperkg build <(cat {papers}) -o {out} --no-model && "
                            f"{sys.executable} -m paperkg extract <(cat {papers}) -o {lines} --no-model && "
                            f"{sys.executable} -m paperkg build --from-extractions <(cat {lines}) -o {tmp_path}/again")
    assert result.returncode == 0, result.stderr
    [read] = _inputs(out / "manifest.json")
    assert read["path"].startswith("/dev/fd/") and {**read, "path": ""} == {"path": "", **_entry(papers.read_bytes())}
    assert len(lines.read_text().splitlines()) == 5
    [again] = _inputs(tmp_path / "again" / "manifest.json")
    assert {**again, "path": ""} == {"path": "", **_entry(lines.read_bytes())}
    assert (tmp_path / "again" / "graph.json").read_bytes() == (out / "graph.json").read_bytes()


@pytest.mark.slow  # a build in a fresh process
@pytest.mark.parametrize("compress", [False, True], ids=["plain", "gzipped"])
def test_standard_input_is_read_once(papers, tmp_path, compress):
    data = gzip.compress(papers.read_bytes(), mtime=0) if compress else papers.read_bytes()
    result = _paperkg("build", "-", "-o", str(tmp_path / "out"), "--no-model", stdin=data)
    assert result.returncode == 0, result.stderr
    assert _inputs(tmp_path / "out" / "manifest.json") == [{"path": "<stdin>", **_entry(data)}]
    assert len((tmp_path / "out" / "extractions.jsonl").read_text().splitlines()) == 5


@pytest.mark.parametrize("text, papers_read", [
    ("We propose FooNet for image classification.\n\nWe study BarNet on ImageNet.\n", 2),
    ("id,title,abstract\n1,A,We propose FooNet for image classification.\n", 1),
    ("id\tabstract\n1\tWe propose FooNet for image classification.\n", 1),
    ('[{"id": "1", "abstract": "We propose FooNet for image classification."}]', 1),
    ("@article{k, title={A}, abstract={We propose FooNet for image classification.}}\n", 1),
], ids=["txt", "csv", "tsv", "json", "bib"])
def test_standard_input_s_format_comes_from_its_first_bytes(text, papers_read):
    records = list(_read_stdin(text.encode()))
    assert len(records) == papers_read and records[0].source.startswith("<stdin>:")


def _read_stdin(data: bytes):
    read, write = os.pipe()
    with os.fdopen(write, "wb") as pipe:
        pipe.write(data)
    saved = os.dup(0)
    os.dup2(read, 0)
    try:
        stdin, sys.stdin = sys.stdin, open(0, closefd=False)  # noqa: SIM115 - the test's own stdin
        try:
            return list(read_records("-"))
        finally:
            sys.stdin.close()
            sys.stdin = stdin
    finally:
        os.dup2(saved, 0)
        os.close(saved)
        os.close(read)


def test_standard_input_named_twice_is_one_sentence(papers, tmp_path):
    result = _paperkg("build", "-", "-", "-o", str(tmp_path / "out"), "--no-model", stdin=b"")
    assert result.returncode == 2
    assert result.stderr.decode() == "error: - (standard input) is named more than once; it can be read only once.\n"


@pytest.mark.parametrize("compress", [False, True], ids=["plain", "gzipped"])
def test_records_appended_while_a_file_is_read_are_in_its_checksum_or_not_read(tmp_path, compress):
    """The size and sha256 recorded are those of the bytes read: either the appended records were read and are
    counted in, or neither."""
    path = tmp_path / ("grows.jsonl.gz" if compress else "grows.jsonl")
    first, more = example_papers()[:40], example_papers()[40:50]
    encode = (lambda text: gzip.compress(text.encode(), mtime=0)) if compress else str.encode
    path.write_bytes(encode("".join(json.dumps(paper) + "\n" for paper in first)))
    read: dict[Path, FileEntry] = {}
    records = []
    for record in read_records(path, on_file=read.__setitem__, on_warning=WarningCollector()):
        records.append(record)
        if len(records) == 1:
            with open(path, "ab") as handle:
                handle.write(encode("".join(json.dumps(paper) + "\n" for paper in more)))
    data = path.read_bytes()
    entry = read[path]
    assert hashlib.sha256(data[:entry.size]).hexdigest() == entry.sha256
    count = len(gzip.decompress(data[:entry.size]).splitlines() if compress else data[:entry.size].splitlines())
    assert len(records) == count
