"""Readers: every input format, stable ids, duplicates, bad input and strict mode."""
from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from paperkg.core.errors import PaperkgError
from paperkg.ingest.fields import find_year, normalize_paper_id, parse_authors, text_paper_id
from paperkg.ingest.normalize import normalize_text
from paperkg.ingest.readers import InputWarning, WarningCollector, read_records
from paperkg.core.schema import PaperRecord

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "examples" / "icml2025"
ARXIV_SNAPSHOT = Path(__file__).resolve().parent / "data" / "arxiv_snapshot.json"

ABSTRACT_A = "We propose FooNet, a network for image classification. It beats ResNet on ImageNet."
ABSTRACT_B = "Large language models (LLMs) are evaluated on the GSM8K benchmark with our method."


def read(paths: object, **options: object) -> tuple[list[PaperRecord], list[InputWarning]]:
    collector = WarningCollector()
    records = list(read_records(paths, on_warning=collector, **options))  # type: ignore[arg-type]
    return records, collector.warnings


# --- the real corpus ----------------------------------------------------------------------

def test_icml_corpus_gives_57_papers_with_unique_stable_ids() -> None:
    records, warnings = read(CORPUS)
    assert warnings == []
    assert len(records) == 57
    assert len({record.id for record in records}) == 57
    assert all(record.id.startswith("h") and len(record.id) == 17 for record in records)
    again, _ = read(CORPUS)
    assert [record.id for record in again] == [record.id for record in records]


def test_icml_corpus_sources_point_at_paragraph_lines() -> None:
    records, _ = read(CORPUS)
    first = records[0]
    assert first.source == f"{sorted(CORPUS.glob('*.txt'))[0]}:3"
    path, line = first.source.rsplit(":", 1)
    lines = Path(path).read_text(encoding="utf8").splitlines()
    assert lines[int(line) - 1].startswith("A neural functional network (NFN)")
    assert "Monomial mAtrix Group Equivariant Polynomial NFN" in first.abstract
    assert not any("论文" in record.abstract for record in records)  # the header line is skipped


def test_icml_corpus_code_urls() -> None:
    records, _ = read(CORPUS)
    code_urls = {record.code_url for record in records if record.code_url}
    assert "https://github.com/emlaufer/ExpProof" in code_urls
    assert "https://github.com/aiming-lab/MMedPO" in code_urls
    assert "https://ottervla.github.io/" in code_urls
    assert len(code_urls) == 7
    assert not any("http" in record.abstract for record in records)


def test_glob_and_directory_and_file_list_agree() -> None:
    by_directory, _ = read(CORPUS)
    by_glob, _ = read(str(CORPUS / "*.txt"))
    by_list, _ = read(sorted(CORPUS.glob("*.txt")))
    assert [r.id for r in by_glob] == [r.id for r in by_directory] == [r.id for r in by_list]


def test_reading_the_same_input_twice_in_one_run_keeps_each_paper_once() -> None:
    records, warnings = read([CORPUS, CORPUS / "000_022ade70781f4129.txt"])
    assert len(records) == 57
    assert len(warnings) == 19
    assert all("duplicate of the paper at" in warning.message for warning in warnings)


# --- paragraph text -----------------------------------------------------------------------

def wrapped(text: str, words_per_line: int = 5) -> str:
    words = text.split()
    return "\n".join(" ".join(words[i:i + words_per_line]) for i in range(0, len(words), words_per_line))


def test_text_without_header_and_with_wrapped_lines(tmp_path: Path) -> None:
    file = tmp_path / "plain.txt"
    file.write_text(f"{ABSTRACT_A}\n\n\n{wrapped(ABSTRACT_B)}\n", encoding="utf8")
    records, warnings = read(file)
    assert warnings == []
    assert [r.abstract for r in records] == [ABSTRACT_A, ABSTRACT_B]
    assert [r.source for r in records] == [f"{file}:1", f"{file}:4"]


def test_same_abstract_in_two_files_is_one_paper(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(f"Header\n\n{ABSTRACT_A}\n", encoding="utf8")
    (tmp_path / "b.jsonl").write_text(json.dumps({"abstract": f"  {ABSTRACT_A} "}) + "\n", encoding="utf8")
    records, warnings = read(tmp_path)
    assert len(records) == 1
    assert records[0].id == text_paper_id(ABSTRACT_A)
    assert len(warnings) == 1 and warnings[0].source == f"{tmp_path / 'b.jsonl'}:1"


def test_paragraph_emptied_by_normalisation_is_reported(tmp_path: Path) -> None:
    file = tmp_path / "a.txt"
    file.write_text(f"Header\n\n{ABSTRACT_A}\n\n**  **\n", encoding="utf8")
    records, warnings = read(file)
    assert len(records) == 1
    assert warnings == [InputWarning(f"{file}:5", "abstract is empty once markup and links are removed; skipped")]


# --- JSON lines and JSON ------------------------------------------------------------------

def test_jsonl_with_malformed_lines_goes_on(tmp_path: Path) -> None:
    file = tmp_path / "papers.jsonl"
    file.write_text(
        "\n".join([
            json.dumps({"id": "p1", "title": "Foo", "abstract": ABSTRACT_A, "year": 2024,
                        "venue": "ICML", "authors": ["Ann Lee", "Bo Chen"], "url": "https://x.org/p1"}),
            '{"id": "p2", "abstract": "broken',
            "",
            json.dumps(["not", "an", "object"]),
            json.dumps({"id": "p3", "title": "No abstract here"}),
            json.dumps({"id": "p4", "abstract": ABSTRACT_B, "authors": "Ann Lee and Bo Chen"}),
        ]) + "\n",
        encoding="utf8",
    )
    records, warnings = read(file)
    assert [r.id for r in records] == ["p1", "p4"]
    assert records[0] == PaperRecord(
        id="p1", abstract=ABSTRACT_A, title="Foo", year=2024, venue="ICML",
        authors=["Ann Lee", "Bo Chen"], url="https://x.org/p1", source=f"{file}:1",
    )
    assert records[1].authors == ["Ann Lee", "Bo Chen"]
    assert [w.source for w in warnings] == [f"{file}:2", f"{file}:4", f"{file}:5"]
    assert "not valid JSON" in warnings[0].message
    assert "expected a JSON object" in warnings[1].message
    assert "no abstract" in warnings[2].message


@pytest.mark.parametrize("layout", ["list", "papers", "records", "data"])
def test_json_document_layouts_with_line_numbers(tmp_path: Path, layout: str) -> None:
    papers = [{"id": "a", "abstract": ABSTRACT_A}, {"id": "b", "summary": ABSTRACT_B}]
    document = papers if layout == "list" else {"meta": {"n": 2}, layout: papers}
    file = tmp_path / "papers.json"
    file.write_text(json.dumps(document, indent=2), encoding="utf8")
    records, warnings = read(file)
    assert warnings == []
    assert [r.id for r in records] == ["a", "b"]
    text_lines = file.read_text(encoding="utf8").splitlines()
    for record in records:
        line = int(record.source.rsplit(":", 1)[1])
        assert text_lines[line - 1].strip() == "{"
        assert f'"id": "{record.id}"' in text_lines[line]


def test_json_single_record_and_broken_document(tmp_path: Path) -> None:
    single = tmp_path / "one.json"
    single.write_text(json.dumps({"title": "T", "abstract": ABSTRACT_A}, indent=1), encoding="utf8")
    broken = tmp_path / "two.json"
    broken.write_text('[\n {"id": "x", "abstract": "Fine abstract."},\n {"id": "y", "abstract": oops}\n]',
                      encoding="utf8")
    records, warnings = read([single, broken])
    assert [r.title for r in records] == ["T", None]
    assert [r.id for r in records][1] == "x"
    assert warnings[0].source == f"{broken}:3" and "not valid JSON" in warnings[0].message


def test_arxiv_metadata_snapshot_just_works() -> None:
    records, warnings = read(ARXIV_SNAPSHOT)
    assert [r.id for r in records] == ["0704.0001", "2101.00001", "hep-th/9901001"]
    first, second, third = records
    assert first.title == "Calculation of prompt diphoton production cross sections at Tevatron and LHC energies"
    assert first.year == 2007  # versions[0].created, not update_date
    assert first.authors == ["C. Balázs", "E. L. Berger", "P. M. Nadolsky", "C.-P. Yuan"]
    assert first.venue == "Phys.Rev.D76:013009,2007"
    assert first.url == "https://arxiv.org/abs/0704.0001"
    assert first.abstract.startswith("A fully differential calculation in perturbative quantum chromodynamics is")
    assert second.title == "Sparse ε-Nets for Robust Transformers"
    assert second.code_url == "https://github.com/example/sparsenet"
    assert "2%" in second.abstract and "http" not in second.abstract
    assert third.year == 1999  # no versions: update_date
    assert warnings == [
        InputWarning(f"{ARXIV_SNAPSHOT}:4", "record has no abstract; skipped")
    ]


def test_gzipped_jsonl(tmp_path: Path) -> None:
    file = tmp_path / "papers.jsonl.gz"
    with gzip.open(file, "wt", encoding="utf8") as handle:
        handle.write(json.dumps({"id": "arXiv:2101.00001v3", "abstract": ABSTRACT_A}) + "\n")
    records, _ = read(file)
    assert records[0].id == "2101.00001"


# --- CSV / TSV ----------------------------------------------------------------------------

def test_csv_with_aliases_quotes_and_multiline_fields(tmp_path: Path) -> None:
    file = tmp_path / "papers.csv"
    file.write_text(
        'Paper_ID,Title,Summary,Publication Year,Authors\n'
        f'1,"Foo, a study","{wrapped(ABSTRACT_A)}",2023,"Ann Lee, Bo Chen"\n'
        '2,Empty,,2023,\n'
        f'3,Bar,"{ABSTRACT_B}",May 2022,Ann Lee; Bo Chen\n',
        encoding="utf8",
    )
    records, warnings = read(file)
    assert [r.id for r in records] == ["1", "3"]
    assert records[0].title == "Foo, a study"
    assert records[0].abstract == ABSTRACT_A
    assert records[0].year == 2023 and records[1].year == 2022
    assert records[0].authors == ["Ann Lee", "Bo Chen"] == records[1].authors
    assert [r.source for r in records] == [f"{file}:2", f"{file}:6"]  # row 1 spans lines 2-4
    assert warnings == [InputWarning(f"{file}:5", "record has no abstract; skipped")]


def test_tsv_and_a_file_without_an_abstract_column(tmp_path: Path) -> None:
    good = tmp_path / "a.tsv"
    good.write_text(f"id\tabstract\tvenue\nx1\t{ABSTRACT_A}\tNeurIPS\n", encoding="utf8")
    bad = tmp_path / "b.csv"
    bad.write_text("id,name\n1,foo\n", encoding="utf8")
    records, warnings = read(tmp_path)
    assert [(r.id, r.venue) for r in records] == [("x1", "NeurIPS")]
    assert warnings[0].source == f"{bad}:1" and "no abstract column" in warnings[0].message


# --- BibTeX -------------------------------------------------------------------------------

def test_bibtex_entries(tmp_path: Path) -> None:
    file = tmp_path / "refs.bib"
    file.write_text(
        "@string{icml = {Proc. ICML}}\n"
        "@inproceedings{doe2024,\n"
        "  title = {A {BERT} Study},\n"
        "  author = {Doe, John and M{\\\"u}ller, Anna},\n"
        "  booktitle = icml,\n"
        "  year = 2024,\n"
        "  doi = {10.1000/ABC.1},\n"
        f"  abstract = {{{ABSTRACT_A}}}\n"
        "}\n"
        "@article{broken, title = {oops\n",
        encoding="utf8",
    )
    records, warnings = read(file)
    assert len(records) == 1
    record = records[0]
    assert (record.id, record.title, record.venue, record.year) == ("10.1000/abc.1", "A BERT Study", "Proc. ICML", 2024)
    assert record.authors == ["John Doe", "Anna Müller"]
    assert record.url == "https://doi.org/10.1000/abc.1"
    assert record.source == f"{file}:2"
    assert warnings[0].source == f"{file}:10" and "malformed BibTeX" in warnings[0].message


def test_bibtex_names_concatenation_and_repeated_keys(tmp_path: Path) -> None:
    file = tmp_path / "refs.bib"
    file.write_text(
        "@String{Conf = {Proc. ICML}}\n"
        "@article{a,\n"
        "  author = {{Johnson and Johnson} and van der Berg, Jr., Piet and Lee, Ann},\n"
        "  booktitle = conf # \" 2024\",\n"
        f"  abstract = {{{ABSTRACT_A}}}\n"
        "}\n"
        f"@article{{a, title = {{Same key}}, abstract = {{{ABSTRACT_B}}}}}\n",
        encoding="utf8",
    )
    records, warnings = read(file)
    assert [(r.authors, r.venue, r.source) for r in records] == [
        (["Johnson and Johnson", "Piet van der Berg Jr.", "Ann Lee"], "Proc. ICML 2024", f"{file}:2")]
    assert warnings == [InputWarning(f"{file}:7", "malformed BibTeX entry (citation key 'a' is used by an earlier "
                                                  "entry); skipped")]


# --- paths, warnings and strict mode -----------------------------------------------------

def test_missing_paths_unknown_types_and_empty_globs_are_reported(tmp_path: Path) -> None:
    notes = tmp_path / "notes.md"
    notes.write_text("# notes\n", encoding="utf8")
    (tmp_path / "skip.md").write_text("ignored inside a directory\n", encoding="utf8")
    records, warnings = read([tmp_path / "missing.txt", notes, str(tmp_path / "*.jsonl"), tmp_path])
    assert records == []
    assert [w.source for w in warnings] == [str(tmp_path / "missing.txt"), str(notes), str(tmp_path / "*.jsonl")]
    assert "unknown file type '.md'" in warnings[1].message


def test_strict_mode_raises_naming_file_and_line(tmp_path: Path) -> None:
    file = tmp_path / "papers.jsonl"
    file.write_text(json.dumps({"abstract": ABSTRACT_A}) + "\n{bad json\n", encoding="utf8")
    with pytest.raises(PaperkgError, match=f"^{file}:2: not valid JSON"):
        list(read_records(file, strict=True))
    assert len(list(read_records(file, on_warning=lambda warning: None))) == 1


def test_warnings_default_to_logging(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    file = tmp_path / "papers.jsonl"
    file.write_text("{bad\n", encoding="utf8")
    assert list(read_records(file)) == []
    assert f"{file}:1: not valid JSON" in caplog.text


# --- ids, years, authors ------------------------------------------------------------------

@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("arXiv:2101.00001v2", "2101.00001"),
        ("https://arxiv.org/abs/2101.00001v1", "2101.00001"),
        ("2101.12345", "2101.12345"),
        ("hep-th/9901001v3", "hep-th/9901001"),
        ("https://doi.org/10.1000/ABC.1", "10.1000/abc.1"),
        ("  W123  456 ", "W123 456"),
        ("", ""),
    ],
)
def test_paper_ids_are_normalised(raw: str, expected: str) -> None:
    assert normalize_paper_id(raw) == expected


def test_hash_id_ignores_case_and_whitespace() -> None:
    assert text_paper_id("A  b\nC") == text_paper_id("a b c")
    assert text_paper_id("a b c") != text_paper_id("a b d")


@pytest.mark.parametrize(
    ("value", "year"),
    [(2024, 2024), ("2024-05-01", 2024), ([{"created": "Mon, 2 Apr 2007 19:18:42 GMT"}], 2007),
     ({"date-parts": [[2019, 3]]}, 2019), ("n.d.", None), (None, None), (12, None)],
)
def test_find_year(value: object, year: int | None) -> None:
    assert find_year(value) == year


@pytest.mark.parametrize(
    ("value", "names"),
    [
        ("Ann Lee and Bo Chen", ["Ann Lee", "Bo Chen"]),
        ("Ann Lee, Bo Chen, and Cy Dee", ["Ann Lee", "Bo Chen", "Cy Dee"]),
        ("Lee, Ann and Chen, Bo", ["Ann Lee", "Bo Chen"]),
        ([["Lee", "Ann", ""], ["Chen", "Bo", "Jr"]], ["Ann Lee", "Bo Chen Jr"]),
        ([{"name": "Ann Lee"}, {"given": "Bo", "family": "Chen"}], ["Ann Lee", "Bo Chen"]),
        ("", []),
    ],
)
def test_parse_authors(value: object, names: list[str]) -> None:
    assert parse_authors(value) == names


# --- bytes that are not UTF-8, lone surrogates, control characters -------------------------

def icml_abstracts(count: int) -> list[str]:
    """`count` distinct real abstracts, normalised: the ICML 2025 ones, numbered when they run out."""
    paragraphs = [normalize_text(p).text for file in sorted(CORPUS.glob("*.txt"))
                  for p in file.read_text(encoding="utf8").split("\n\n")[1:] if p.strip()]
    return [f"{paragraphs[i % len(paragraphs)]} (copy {i // len(paragraphs)})" for i in range(count)]


def test_invalid_utf8_byte_in_paragraph_200_costs_only_that_abstract(tmp_path: Path) -> None:
    abstracts = icml_abstracts(300)
    paragraphs = [wrapped(text).encode("utf8") for text in abstracts]
    paragraphs[199] = paragraphs[199].replace(b" ", b" caf\xe9 ", 1)  # Latin-1 "café"
    file = tmp_path / "icml.txt"
    file.write_bytes(b"ICML 2025 papers\n\n" + b"\n\n".join(paragraphs) + b"\n")
    records, warnings = read(file)
    assert len(records) == 299
    assert [r.abstract for r in records] == abstracts[:199] + abstracts[200:]
    start = 3 + sum(p.count(b"\n") + 2 for p in paragraphs[:199])
    assert len(warnings) == 1 and warnings[0].source == f"{file}:{start}"
    assert warnings[0].message.startswith("the abstract is not valid UTF-8 (byte 0xE9 at character ")


def write_format(path: Path, abstracts: list[str]) -> None:
    """The abstracts as a file of the format its name says (gzipped for .gz), one record each."""
    fmt = path.name.removesuffix(".gz").rsplit(".", 1)[1]
    if fmt == "jsonl":
        text = "".join(json.dumps({"id": f"p{i}", "abstract": a}, ensure_ascii=False) + "\n"
                       for i, a in enumerate(abstracts))
    elif fmt == "csv":
        text = "id,abstract\n" + "".join(f'p{i},"{a}"\n' for i, a in enumerate(abstracts))
    else:
        text = "".join(f"@article{{k{i},\n  title = {{Paper {i}}},\n  abstract = {{{a}}}\n}}\n"
                       for i, a in enumerate(abstracts))
    data = text.encode("utf8").replace("BROKEN".encode("utf8"), b"\xe9t\xe9")
    path.write_bytes(gzip.compress(data, mtime=0) if path.suffix == ".gz" else data)


@pytest.mark.parametrize(("name", "line"), [("papers.jsonl", 4), ("papers.jsonl.gz", 4), ("papers.csv", 5),
                                            ("refs.bib", 13), ("refs.bib.gz", 13)])
def test_invalid_utf8_costs_only_its_record_in_every_format(tmp_path: Path, name: str, line: int) -> None:
    abstracts = icml_abstracts(6)
    abstracts[3] = abstracts[3].replace(" ", " BROKEN ", 1)
    write_format(tmp_path / name, abstracts)
    records, warnings = read(tmp_path / name)
    assert [r.abstract for r in records] == abstracts[:3] + abstracts[4:]
    assert len(warnings) == 1 and warnings[0].source == f"{tmp_path / name}:{line}"
    assert "not valid UTF-8 (byte 0xE9" in warnings[0].message


def test_lone_surrogate_escape_in_json_skips_the_record_with_a_warning(tmp_path: Path) -> None:
    file = tmp_path / "papers.jsonl"
    file.write_text('{"id": "a", "abstract": "Broken \\udc00 text about graphs."}\n'
                    '{"id": "b", "title": "T\\ud83d", "abstract": "A fine abstract about graphs."}\n'
                    f'{json.dumps({"id": "c", "abstract": ABSTRACT_A})}\n', encoding="utf8")
    records, warnings = read(file)
    assert [r.id for r in records] == ["c"]
    assert warnings == [
        InputWarning(f"{file}:1",
                     "the abstract is not valid Unicode (a lone surrogate U+DC00 at character 8); skipped"),
        InputWarning(f"{file}:2", "the title is not valid Unicode (a lone surrogate U+D83D at character 2); skipped"),
    ]


def test_control_characters_are_taken_out_of_ids_and_every_field(tmp_path: Path) -> None:
    file = tmp_path / "papers.jsonl"
    file.write_text(json.dumps({"id": "arXiv:2101.00001\u0000", "title": "A\u0001 title\u000b", "venue": "IC\u001fML",
                                "authors": ["Ann\u0008 Lee"], "url": "https://x.org/\u0007p",
                                "abstract": f"{ABSTRACT_A}\u001b"}) + "\n"
                    + json.dumps({"id": "p\u0001q", "abstract": ABSTRACT_B}) + "\n", encoding="utf8")
    records, warnings = read(file)
    assert warnings == []
    first, second = records
    assert (first.id, first.title, first.venue, first.authors, first.url, first.abstract) == \
        ("2101.00001", "A title", "IC ML", ["Ann Lee"], "https://x.org/ p", ABSTRACT_A)
    assert second.id == "p q"


# --- gzip ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("damage", "problem"), [
    (lambda data: data[:-8] + bytes([data[-8] ^ 0xFF]) + data[-7:], "CRC check failed"),
    (lambda data: data[: len(data) * 2 // 3], "Compressed file ended before the end-of-stream marker was reached"),
    (lambda data: b"not gzip at all" + data, "Not a gzipped file"),
])
def test_corrupt_gzip_is_skipped_whole_before_any_record(tmp_path: Path, damage, problem: str) -> None:
    corrupt = tmp_path / "a.jsonl.gz"
    write_format(corrupt, icml_abstracts(200))
    corrupt.write_bytes(damage(corrupt.read_bytes()))
    good = tmp_path / "b.jsonl"
    good.write_text(json.dumps({"id": "x", "abstract": ABSTRACT_A}) + "\n", encoding="utf8")
    records, warnings = read(tmp_path)
    assert [r.id for r in records] == ["x"]
    assert len(warnings) == 1 and warnings[0].source == str(corrupt)
    assert warnings[0].message.startswith("corrupt gzip file (")
    assert problem in warnings[0].message and warnings[0].message.endswith("file skipped, none of its records read")


def test_corrupt_gzip_in_strict_mode_stops_naming_the_file(tmp_path: Path) -> None:
    corrupt = tmp_path / "a.jsonl.gz"
    write_format(corrupt, icml_abstracts(3))
    corrupt.write_bytes(corrupt.read_bytes()[:-4])
    with pytest.raises(PaperkgError, match=f"^{corrupt}: corrupt gzip file"):
        list(read_records(corrupt, strict=True))


# --- size limit, headers, empty files ------------------------------------------------------

def test_over_long_abstract_is_skipped_naming_the_limit(tmp_path: Path) -> None:
    file = tmp_path / "papers.jsonl"
    huge = (ABSTRACT_A + " ") * 1200  # 100,800 characters
    file.write_text("\n".join(json.dumps({"id": i, "abstract": text}) for i, text in
                              enumerate([ABSTRACT_A, huge, ABSTRACT_B])) + "\n", encoding="utf8")
    records, warnings = read(file)
    assert [r.id for r in records] == ["0", "2"]
    assert warnings == [InputWarning(f"{file}:2", f"abstract of {len(huge.strip()):,} characters is over the limit "
                                                  "of 100,000 (max_abstract_chars); skipped")]
    records, warnings = read(file, max_abstract_chars=len(ABSTRACT_B))
    assert [r.id for r in records] == ["2"] and [w.source for w in warnings] == [f"{file}:1", f"{file}:2"]


def test_wrapped_first_abstract_line_is_not_a_header(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    file = tmp_path / "plain.txt"
    file.write_text(f"{wrapped(ABSTRACT_B, 4)}\n\n{ABSTRACT_A}\n", encoding="utf8")
    records, warnings = read(file)
    assert [r.abstract for r in records] == [ABSTRACT_B, ABSTRACT_A] and warnings == []
    assert "header" not in caplog.text


def test_header_line_is_skipped_and_logged_once_per_header(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    for name in ("a.txt", "b.txt"):
        (tmp_path / name).write_text(f"ICML 2025 papers\n\n{ABSTRACT_A if name == 'a.txt' else ABSTRACT_B}\n",
                                     encoding="utf8")
    records, warnings = read(tmp_path)
    assert [r.abstract for r in records] == [ABSTRACT_A, ABSTRACT_B] and warnings == []
    assert caplog.messages == [f"{tmp_path / 'a.txt'}:1: first line 'ICML 2025 papers' read as a header, "
                               "not an abstract (said once per header)"]


def test_file_without_any_abstract_is_reported(tmp_path: Path) -> None:
    (tmp_path / "empty.jsonl").write_bytes(b"")
    (tmp_path / "blank.txt").write_text("\n\n  \n", encoding="utf8")
    records, warnings = read(tmp_path)
    assert records == []
    assert warnings == [InputWarning(str(tmp_path / name), "no abstract found in this file")
                        for name in ("blank.txt", "empty.jsonl")]
