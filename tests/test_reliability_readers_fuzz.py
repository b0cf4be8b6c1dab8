"""Every reader refuses junk with a warning (issue 33): one Hypothesis test per reader writes records whose
fields are text, numbers, lists, objects, placeholders of the bibliographic databases' exports or nothing, in
that reader's format, with bytes of damage spliced in, and asserts that reading gives no unexpected error and
no junk paper: every paper's abstract was text in the input, holds a word, is no placeholder, and no id,
title or abstract is a Python or JSON rendering of a list or object. The examples per test are few (CI)."""
from __future__ import annotations

import csv
import gzip
import io
import json
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paperkg.ingest.fields import abstract_placeholders, written_out
from paperkg.ingest.readers import WarningCollector, read_records

PLACEHOLDERS = ["[No abstract available]", "No abstract available.", "N/A", "NaN", "None", "null", "-", "12345",
                "Abstract not available", "[Abstract missing]", "na", ""]
WORDS = st.sampled_from(["We propose FooNet for parsing.", "A study of BarNet on ImageNet.", "x", "é",
                         "Our method $\\epsilon$-greedy works.", "&lt;b&gt;bold&lt;/b&gt; claims", "1 2 3"])
TEXT = st.one_of(WORDS, st.text(max_size=20), st.sampled_from(PLACEHOLDERS))
VALUE = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), TEXT),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                                max_size=3), max_leaves=5)
RECORD = st.fixed_dictionaries({}, optional={"id": VALUE, "title": VALUE, "abstract": VALUE, "year": VALUE,
                                             "authors": VALUE, "venue": VALUE})
DAMAGE = st.one_of(st.just(b""), st.binary(min_size=1, max_size=4), st.sampled_from([b"\n", b"\x00", b"\"", b"{",
                                                                                      b"\r", b"\xff", b"@"]))
FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
RENDERED = re.compile(r"^\s*[\[{]|\{'|\['|': |\", \"")  # a list or object written out as text


def _text(value: object) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def _jsonl(records: list[dict]) -> str:
    return "".join(json.dumps(record) + "\n" for record in records)


def _json(records: list[dict]) -> str:
    return json.dumps({"papers": records}, indent=1)


def _delimited(records: list[dict], delimiter: str) -> str:
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter)
    writer.writerow(["id", "title", "abstract", "year", "authors", "Source title"])
    for record in records:
        writer.writerow([_text(record.get(key, "")) for key in ("id", "title", "abstract", "year", "authors",
                                                                 "venue")])
    return out.getvalue()


def _bib(records: list[dict]) -> str:
    return "".join(f"@article{{k{n},\n" + "".join(f"  {key} = {{{_text(value)}}},\n" for key, value in record.items())
                   + "}\n\n" for n, record in enumerate(records))


def _txt(records: list[dict]) -> str:
    return "".join(_text(record.get("abstract", "")) + "\n\n" for record in records)


def _wos(records: list[dict]) -> str:
    tags = {"id": "UT", "title": "TI", "abstract": "AB", "year": "PY", "authors": "AU", "venue": "SO"}
    return "FN Clarivate Analytics Web of Science\nVR 1.0\n" + "".join(
        "PT J\n" + "".join(f"{tags[key]} {_text(value)}\n" for key, value in record.items()) + "ER\n\n"
        for record in records) + "EF\n"


def _medline(records: list[dict]) -> str:
    tags = {"id": "PMID", "title": "TI  ", "abstract": "AB  ", "year": "DP  ", "authors": "FAU ", "venue": "JT  "}
    return "".join("PMID- 1\n" + "".join(f"{tags[key]}- {_text(value)}\n" for key, value in record.items()) + "\n"
                   for record in records)


FORMATS = {"a.jsonl": _jsonl, "a.json": _json, "a.csv": lambda rs: _delimited(rs, ","),
           "a.tsv": lambda rs: _delimited(rs, "\t"), "a.bib": _bib, "a.txt": _txt, "wos.txt": _wos,
           "medline.txt": _medline, "a.jsonl.gz": _jsonl}


def _is_junk(record, name: str) -> str | None:
    """Why a paper read from the file `name` is junk, or None; an id or title is text the input wrote, except in
    JSON, where a reader could write a list or object out."""
    folded = re.sub(r"[\W_]+", " ", record.abstract.casefold()).strip()
    if not any(char.isalpha() for char in record.abstract):
        return "an abstract without a word"
    if folded in abstract_placeholders():
        return "a placeholder for an abstract"
    if written_out(record.abstract):
        return "an abstract that is a list or object written out"
    if ".json" in name and any(RENDERED.search(value) for value in (record.id, record.title or "", record.abstract)):
        return "a list or object of the JSON written out"
    return None


@pytest.mark.parametrize("name", list(FORMATS))
@FUZZ
@given(records=st.lists(RECORD, max_size=5), damage=DAMAGE, where=st.integers(0, 2000))
def test_a_reader_gives_no_unexpected_error_and_no_junk_paper(name, records, damage, where):
    text = FORMATS[name](records).encode("utf8", "surrogatepass")
    data = text[:where] + damage + text[where:]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(gzip.compress(data, mtime=0) if name.endswith(".gz") else data)
        warnings = WarningCollector()
        papers = list(read_records(path, on_warning=warnings))
    assert papers or warnings.warnings or not records
    for paper in papers:
        assert _is_junk(paper, name) is None, (_is_junk(paper, name), paper)


@pytest.mark.parametrize("name", list(FORMATS))
def test_each_reader_reads_a_good_record_and_refuses_the_junk_ones(name):
    records = [{"id": "2101.00001", "title": "FooNet", "abstract": "We propose FooNet for parsing trees.",
                "year": 2021, "venue": "ACL"},
               {"abstract": "[No abstract available]", "title": "Scopus placeholder"},
               {"abstract": "12345", "title": "a number as text"}]
    if name.endswith(("json", "jsonl", "jsonl.gz")):
        records += [{"abstract": 12345}, {"abstract": ["a", "b"]}, {"id": {"x": 1}, "abstract": "We study X."}]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        data = FORMATS[name](records).encode()
        path.write_bytes(gzip.compress(data, mtime=0) if name.endswith(".gz") else data)
        warnings = WarningCollector()
        papers = list(read_records(path, on_warning=warnings))
    assert [paper.abstract for paper in papers] == ["We propose FooNet for parsing trees."]
    assert len(warnings.warnings) == len(records) - 1, warnings.warnings
    if name not in ("a.txt",):
        assert papers[0].title == "FooNet" and papers[0].year == 2021


def test_a_folder_of_hostile_files_builds_with_warnings_and_no_unexpected_error(tmp_path):
    from cli_helpers import run_cli

    folder = tmp_path / "hostile"
    folder.mkdir()
    good = json.dumps({"id": "2101.00001", "abstract": "We propose FooNet for parsing trees."}) + "\n"
    files = {"empty.jsonl": b"", "cut.jsonl.gz": gzip.compress(good.encode() * 50)[:-9],
             "binary.txt": bytes(range(256)) * 4, "utf16.txt": "We propose X.".encode("utf-16"),
             "deep.json": b"[" * 100_000, "deep.jsonl": b"[" * 100_000 + b"\n", "objects.json": b'{"papers": 5}',
             "no-header.csv": b"\n\n", "nul.csv": b"abstract\nWe\x00 propose\n",
             "latin1.tsv": "abstract\ncaf\xe9\n".encode("latin-1"),
             "macro.bib": b"@string{a = 1}\n@article{k, abstract = a # a}\n",
             "wos.txt": b"FN Clarivate\nVR 1.0\nPT J\nAB\nER\nEF\n", "medline.txt": b"PMID- 1\nAB  - \n",
             "good.jsonl": good.encode(), "new\nline.txt": b"We propose NewlineNet for naming files.\n",
             "bad-\xff-bytes.txt".encode("latin-1").decode("utf8", "surrogateescape"): b"We propose ByteNet.\n"}
    for name, data in files.items():
        (folder / name).write_bytes(data)
    result = run_cli("build", str(folder), "-o", str(tmp_path / "out"), "--no-model", check=False)
    assert result.returncode == 3, result.stderr
    assert "unexpected" not in result.stderr and "Traceback" not in result.stderr
    assert len((tmp_path / "out" / "extractions.jsonl").read_text().splitlines()) == 3  # good, and the two named
