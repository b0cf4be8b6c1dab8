"""What a folder is, bounded reading and every warning listable (issue 33's weak cases): a link out of an input
folder is named and skipped unless --follow-links, a device file, pipe or socket in it is skipped with a warning,
an earlier build inside it is not read, no reader holds more of one record than its limit (a decompression bomb
is cut), and --warnings-file lists every warning of a run."""
from __future__ import annotations

import json
import os
import socket
import zlib
from pathlib import Path

import pytest

from build_helpers import example_papers, folder_bytes, write_papers
from cli_helpers import run_cli

from paperkg.ingest.readers import WarningCollector, read_records
from paperkg.ingest.source import EXPANSION_ALLOWANCE, MAX_EXPANSION

PRIVATE = "The private notes of the user mention the secret project Xylophagous Nebula."


def _warnings(result) -> list[str]:
    return [line.removeprefix("warning: ") for line in result.stderr.splitlines() if line.startswith("warning: ")]


def _published(out: Path) -> str:
    return "".join((out / name).read_text() for name in ("graph.json", "graph.html", "papers.html",
                                                          "extractions.jsonl"))


@pytest.fixture
def folder(tmp_path) -> Path:
    """An input folder of two abstracts, beside a private file outside it."""
    (tmp_path / "private.txt").write_text(PRIVATE + "\n")
    data = tmp_path / "data"
    write_papers(data / "papers.jsonl", example_papers()[:2])
    return data


def test_a_link_out_of_the_input_folder_is_named_and_skipped(folder, tmp_path):
    (folder / "notes.txt").symlink_to(tmp_path / "private.txt")
    result = run_cli("build", str(folder), "-o", str(tmp_path / "out"), "--no-model", check=False)
    assert result.returncode == 3, result.stderr
    assert _warnings(result) == [f"{folder / 'notes.txt'}: is a symbolic link out of the input folder {folder} (to "
                                 f"{tmp_path / 'private.txt'}); skipped (--follow-links reads it)"]
    assert "Xylophagous" not in _published(tmp_path / "out")
    run_cli("build", str(folder), "-o", str(tmp_path / "followed"), "--no-model", "--follow-links")
    assert "Xylophagous" in _published(tmp_path / "followed")


def test_links_inside_the_folder_are_read_and_broken_ones_named(folder, tmp_path):
    write_papers(tmp_path / "elsewhere" / "more.jsonl", example_papers()[2:3])
    (folder / "sub").mkdir()
    (folder / "sub" / "same.jsonl").symlink_to(folder / "papers.jsonl")
    (folder / "gone.txt").symlink_to(tmp_path / "nothing.txt")
    (folder / "loop.txt").symlink_to(folder / "loop.txt")
    (folder / "more").symlink_to(tmp_path / "elsewhere")
    result = run_cli("build", str(folder), "-o", str(tmp_path / "out"), "--no-model", check=False)
    assert result.returncode == 3
    said = _warnings(result)
    assert said[:3] == [
        f"{folder / 'gone.txt'}: is a symbolic link to {tmp_path / 'nothing.txt'}, which does not exist (or is a "
        "loop of links); skipped",
        f"{folder / 'loop.txt'}: is a symbolic link to {folder / 'loop.txt'}, which does not exist (or is a loop of "
        "links); skipped",
        f"{folder / 'more'}: is a symbolic link to the folder {tmp_path / 'elsewhere'}; skipped (--follow-links "
        "reads it)"]
    assert all("duplicate of the paper at" in line for line in said[3:])  # sub/same.jsonl: read, the same papers
    assert len((tmp_path / "out" / "extractions.jsonl").read_text().splitlines()) == 2
    run_cli("build", str(folder), "-o", str(tmp_path / "all"), "--no-model", "--follow-links", check=False)
    assert len((tmp_path / "all" / "extractions.jsonl").read_text().splitlines()) == 3


def test_pipes_sockets_and_devices_in_a_folder_are_skipped_not_opened(folder, tmp_path):
    os.mkfifo(folder / "pipe.jsonl")  # opening it would wait for ever for a writer
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(folder / "socket.txt"))
    try:
        result = run_cli("build", str(folder), "-o", str(tmp_path / "out"), "--no-model", check=False)
    finally:
        server.close()
    assert result.returncode == 3
    assert _warnings(result) == [
        f"{folder / 'pipe.jsonl'}: is a named pipe, not a regular file; skipped (name it on its own to read it)",
        f"{folder / 'socket.txt'}: is a socket, not a regular file; skipped (name it on its own to read it)"]


def test_a_device_file_in_a_folder_is_skipped(folder):
    try:
        os.mknod(folder / "zero.txt", 0o600 | 0o020000, os.makedev(1, 5))  # a character device: /dev/zero
    except PermissionError:
        pytest.skip("creating a device file needs CAP_MKNOD")
    warnings = WarningCollector()
    assert len(list(read_records(folder, on_warning=warnings))) == 2
    assert [str(w) for w in warnings] == [f"{folder / 'zero.txt'}: is a device file, not a regular file; skipped "
                                          "(name it on its own to read it)"]


def test_an_earlier_build_inside_the_input_folder_is_not_read(folder, tmp_path):
    run_cli("build", str(folder), "-o", str(folder / "old-out"), "--no-model")
    result = run_cli("build", str(folder), "-o", str(tmp_path / "out"), "--no-model", check=False)
    assert _warnings(result) == [f"{folder / 'old-out'}: is a paperkg output folder (it holds manifest.json), never "
                                 "an input; skipped"]
    assert len((tmp_path / "out" / "extractions.jsonl").read_text().splitlines()) == 2
    before = folder_bytes(folder)
    run_cli("build", str(folder), "-o", str(folder / "old-out"), "--no-model")  # its own output: not a word
    assert folder_bytes(folder) == before


# --- bounded reading ------------------------------------------------------------------------------------------

def _bomb(path: Path, unit: bytes, size: int) -> Path:
    """A gzip file of `unit` repeated to `size` bytes."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = unit * ((1 << 20) // len(unit))
    with open(path, "wb") as handle:
        for _ in range(size // len(block)):
            handle.write(compressor.compress(block))
        handle.write(compressor.flush())
    return path


@pytest.mark.parametrize("name, unit", [("a.txt.gz", b"a"), ("a.jsonl.gz", b'{"abstract": "'),
                                        ("a.json.gz", b"[[[[ "), ("a.csv.gz", b"abstract,"), ("a.bib.gz", b"@{{"),
                                        ("a.tsv.gz", b"a\n")])
def test_a_decompression_bomb_is_cut_and_gives_no_paper(tmp_path, name, unit):
    path = _bomb(tmp_path / name, unit, 64 << 20)
    warnings = WarningCollector()
    assert list(read_records(path, on_warning=warnings)) == []
    cap = MAX_EXPANSION * path.stat().st_size + EXPANSION_ALLOWANCE
    assert str(warnings.warnings[0]) == (f"{path}: decompresses to more than {MAX_EXPANSION} times its size (a "
                                         f"decompression bomb?): read up to its first {cap:,} bytes, the rest skipped")


LONG = 1_000_001  # one more than the record limit of the default max_abstract_chars


@pytest.mark.parametrize("name, long_record", [
    ("a.jsonl", json.dumps({"abstract": "x" * LONG}) + "\n"),
    ("a.json", "[" + json.dumps({"abstract": "x" * LONG}) + ",\n"),
    ("a.csv", "abstract\n" + "x" * LONG + "\n"),
    ("a.bib", "@article{long, abstract={" + "x" * LONG + "}}\n"),
    ("a.txt", "x " * (LONG // 2) + "\n\n"),
])
def test_a_record_over_the_limit_is_read_past_and_the_next_one_read(tmp_path, name, long_record):
    good = example_papers()[0]["abstract"]
    after = {"a.jsonl": json.dumps({"abstract": good}) + "\n", "a.json": json.dumps({"abstract": good}) + "]",
             "a.csv": json.dumps(good) + "\n", "a.bib": "@article{good, abstract={" + good + "}}\n",
             "a.txt": good + "\n"}[name]
    path = tmp_path / name
    path.write_text(long_record + after)
    warnings = WarningCollector()
    records = list(read_records(path, on_warning=warnings))
    assert [record.abstract[:40] for record in records] == [good[:40]]
    [warning] = warnings.warnings
    assert "over the limit" in warning.message or "of more than 1,000,000 characters" in warning.message, warning


# --- every warning listable -----------------------------------------------------------------------------------

def test_every_warning_of_a_run_is_in_the_warnings_file(tmp_path):
    lines = [json.dumps(paper) for paper in example_papers()[:2]] + [f"bad line {n}" for n in range(30)]
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(lines) + '\n{"abstract": "cut sho')
    result = run_cli("build", str(source), "-o", str(tmp_path / "out"), "--no-model", check=False)
    assert result.returncode == 3
    assert "... and 11 more warnings (--warnings-file FILE lists them all)" in result.stderr
    listed = tmp_path / "warnings.txt"
    result = run_cli("build", str(source), "-o", str(tmp_path / "out2"), "--no-model", "--warnings-file", str(listed),
                     check=False)
    assert result.stderr.endswith(f"31 warnings; all of them in {listed}\n")
    said = listed.read_text().splitlines()
    assert len(said) == 31 and said[-1] == (f"{source}:33: not valid JSON (Unterminated string starting at at column "
                                            "14); line skipped")


def test_a_file_of_junk_lines_is_given_up_and_a_file_with_papers_among_them_read_whole(tmp_path):
    good = [json.dumps(paper) for paper in example_papers()]
    junk = tmp_path / "junk.jsonl"
    junk.write_text("x\n" * 10_050 + good[0] + "\n")
    warnings = WarningCollector()
    assert list(read_records(junk, on_warning=warnings)) == []
    assert len(warnings.warnings) == 10_001
    assert str(warnings.warnings[-1]) == (f"{junk}: 10,000 problems and 0 papers up to {junk}:10000: not a file of "
                                          "abstracts paperkg can read; the rest of it skipped")
    papers = [json.dumps({"abstract": f"{paper['abstract']} Variant {n}."}) for n in range(4)
              for paper in example_papers()]
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text("".join("x\n" * 50 + line + "\n" for line in papers))  # 228 papers among 11,400 bad lines
    warnings = WarningCollector()
    assert len(list(read_records(mixed, on_warning=warnings))) == len(papers)
    assert not any("not a file of abstracts" in str(warning) for warning in warnings)
