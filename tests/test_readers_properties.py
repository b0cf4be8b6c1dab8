"""Properties of the readers on open-ended input: any bytes in any supported format give
records or warnings, never an unexpected error, and every record is clean, normalised text."""
from __future__ import annotations

import dataclasses
import gzip
import json
import re
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paperkg.ingest.normalize import normalize_text
from paperkg.ingest.readers import WarningCollector, read_records

NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
NAMES = ["a.txt", "a.jsonl", "a.json", "a.csv", "a.tsv", "a.bib", "a.jsonl.gz", "a.txt.gz", "a.bib.gz"]
PIECES = ["{", "}", "[", "]", '"', ",", ":", "\n", "\n\n", "\t", " ", "@article{k,", "abstract = ", "title", "id",
          '"abstract": ', "abstract,id\n", "\\u0000", "\\udc00", "\\", "$\\epsilon$", "&lt;b&gt;", "We propose X.",
          "a", "0", "é", "\x00", "\x01", "\ufeff"]
TEXT = st.lists(st.sampled_from(PIECES) | st.text(max_size=8), max_size=40).map("".join)
BYTES = st.one_of(
    st.binary(max_size=300),
    TEXT.map(lambda text: text.encode("utf8", "surrogatepass")),
    st.tuples(TEXT, st.binary(min_size=1, max_size=3), st.integers(0, 400)).map(
        lambda t: (b := t[0].encode("utf8", "surrogatepass"))[:t[2]] + t[1] + b[t[2]:]),
)
FAST = settings(deadline=3000,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def read_bytes(name: str, data: bytes, compress: bool) -> tuple[list, list]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(gzip.compress(data, mtime=0) if compress and name.endswith(".gz") else data)
        warnings = WarningCollector()
        return list(read_records(path, on_warning=warnings)), warnings.warnings


@FAST
@given(st.sampled_from(NAMES), BYTES, st.booleans())
def test_any_bytes_give_clean_records_or_warnings(name: str, data: bytes, compress: bool) -> None:
    records, warnings = read_bytes(name, data, compress)
    assert records or warnings
    for record in records:
        for value in dataclasses.asdict(record).values():
            for text in value if isinstance(value, list) else [value]:
                assert not (isinstance(text, str) and NOT_XML.search(text)), (name, text)
        assert normalize_text(record.abstract).text == record.abstract


@FAST
@given(st.lists(st.dictionaries(st.sampled_from(["id", "title", "abstract", "authors", "year"]),
                                st.text(max_size=30) | st.integers() | st.lists(st.text(max_size=5), max_size=3)),
                max_size=5))
def test_any_json_records_give_clean_records_or_warnings(rows: list[dict]) -> None:
    data = "".join(json.dumps(row) + "\n" for row in rows).encode("utf8")
    records, warnings = read_bytes("a.jsonl", data, compress=False)
    assert len(records) + len([w for w in warnings if w.source.count(":")]) >= len(rows) or not rows
    for record in records:
        assert not NOT_XML.search(record.id + record.abstract + (record.title or ""))
