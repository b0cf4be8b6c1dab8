"""Streaming readers: files, directories and globs of abstracts in, PaperRecords out.

Formats (by extension, optionally gzipped as `.gz`): `.txt` paragraphs (one abstract per
blank-line-separated paragraph; a first paragraph that is one short line not ending like a
sentence, "ICML 2025 papers", is a header: skipped, and said once in the log), `.jsonl`/`.ndjson`,
`.json` (a list, an object holding a list under "papers"/"records"/"data"/..., a single record,
or JSON lines such as the arXiv metadata snapshot), `.csv`/`.tsv` with a header row, and `.bib`.
Every record names its source as "path:line".

Bad input is reported through `on_warning` and skipped (or raises PaperkgError with
`strict=True`): text is decoded record by record, so bytes that are not UTF-8 cost only the
record they are in; a gzip file is checked whole before any of its records is read, so a
corrupt one is skipped whole; an abstract longer than `max_abstract_chars` is skipped. A paper
read twice in one run is kept once.
"""
from __future__ import annotations

import codecs
import csv
import glob
import gzip
import json
import logging
import os
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from paperkg.core.characters import replace_invalid_characters
from paperkg.core.errors import ExitCode, PaperkgError
from paperkg.core.schema import PaperRecord
from paperkg.ingest.bibtex import read_bibtex
from paperkg.ingest.fields import (MAX_ABSTRACT_CHARS, RecordError, field_aliases, field_key, record_from_fields,
                                   text_paper_id, undecodable)
from paperkg.ingest.latex import NestingTooDeep

_LOG = logging.getLogger(__name__)

LIST_KEYS = ("papers", "records", "data", "items", "results", "entries", "documents")
HEADER_MAX_WORDS = 20
GZIP_CHUNK = 1 << 20
BINARY_SNIFF = 8000  # as git and grep decide that a file is binary: a NUL byte among its first 8,000


@dataclass(frozen=True)
class InputWarning:
    """A problem with the input that was skipped: where it is and what is wrong."""

    source: str  # "path:line", or "path" for a whole file
    message: str

    def __str__(self) -> str:
        return f"{self.source}: {self.message}"


WarningHandler = Callable[[InputWarning], None]


class WarningCollector:
    """An `on_warning` handler that keeps every warning, for counting and printing later."""

    def __init__(self) -> None:
        self.warnings: list[InputWarning] = []

    def __call__(self, warning: InputWarning) -> None:
        self.warnings.append(warning)

    def __len__(self) -> int:
        return len(self.warnings)

    def __iter__(self) -> Iterator[InputWarning]:
        return iter(self.warnings)


RawRecord = tuple[dict[str, Any], str]  # input fields, "path:line"
Report = Callable[[str, str], None]      # (source, message)


@dataclass
class _InputFile:
    """One input file as its reader sees it: how to name it, and where its problems go."""

    path: Path
    report: Report
    headers_noted: set[str]  # header lines already logged in this run
    name: str = ""
    warned: bool = False

    def __post_init__(self) -> None:
        self.name = display_name(self.path)

    def source(self, line: int) -> str:
        return f"{self.name}:{line}"

    def warn(self, line: int | None, message: str) -> None:
        self.warned = True
        self.report(self.name if line is None else self.source(line), message)


@dataclass
class _Run:
    """What one read_records call shares across its files."""

    report: Report
    headers_noted: set[str] = field(default_factory=set)

    def file(self, path: Path) -> _InputFile:
        return _InputFile(path, self.report, self.headers_noted)


def read_records(
    inputs: str | Path | Iterable[str | Path],
    *,
    strict: bool = False,
    on_warning: WarningHandler | None = None,
    max_abstract_chars: int = MAX_ABSTRACT_CHARS,
) -> Iterator[PaperRecord]:
    """Yield one PaperRecord per paper found in the inputs (files, directories, globs).

    Each problem is passed to `on_warning` (default: logged) and skipped; with strict=True
    the first one raises PaperkgError naming the file and line. Papers whose id or whose
    abstract was already read in this run are skipped with a warning, and so are abstracts
    longer than `max_abstract_chars` characters.
    """
    run = _Run(_reporter(strict, on_warning))
    first_seen: dict[str, str] = {}
    for path in input_files(inputs, run.report):
        for raw, source in read_raw_records(run.file(path)):
            try:
                record = record_from_fields(raw, source, max_abstract_chars=max_abstract_chars)
            except RecordError as error:
                run.report(source, f"{error}; skipped")
                continue
            except Exception as error:  # noqa: BLE001 - one record (nesting too deep for the LaTeX parser, a bug
                # in a reader or the normaliser) must not abort the other records
                run.report(source, f"cannot be read ({_problem(error)}); skipped")
                continue
            keys = {record.id, text_paper_id(record.abstract)}
            earlier = next((first_seen[key] for key in keys if key in first_seen), None)
            if earlier is not None:
                run.report(source, f"duplicate of the paper at {earlier} (id {record.id}); skipped")
                continue
            first_seen.update(dict.fromkeys(keys, source))
            yield record


def _problem(error: BaseException) -> str:
    """What went wrong with one record, for its warning."""
    if isinstance(error, (RecursionError, NestingTooDeep)):
        return "its markup is nested too deeply"
    return f"{type(error).__name__}: {error}"[:200]


def input_files(inputs: str | Path | Iterable[str | Path], report: Report) -> Iterator[Path]:
    """The files named by the inputs: files as given, directories recursively (sorted,
    supported extensions only, hidden files skipped), globs expanded and sorted."""
    for item in [inputs] if isinstance(inputs, (str, Path)) else inputs:
        path = Path(item)
        if path.is_dir():
            yield from sorted(
                file for file in path.rglob("*")
                if file.is_file() and file_format(file) and not _hidden(file.relative_to(path))
            )
        elif path.exists():
            yield path
        elif glob.has_magic(str(item)):
            matches = sorted(Path(match) for match in glob.glob(str(item), recursive=True))
            files = [match for match in matches if match.is_file() and file_format(match)]
            if not files:
                report(str(item), "no supported input file matches this pattern")
            yield from files
        else:
            report(display_name(path), "no such file or directory")


def file_format(path: Path) -> str | None:
    """The reader for a file, by extension (a trailing .gz is looked through), or None."""
    suffixes = [suffix.lower() for suffix in path.suffixes]
    if suffixes[-1:] == [".gz"]:
        suffixes.pop()
    return _FORMATS.get(suffixes[-1]) if suffixes else None


def read_raw_records(file: _InputFile) -> Iterator[RawRecord]:
    """The raw records of one file; an unknown format, a corrupt gzip file, a read error or a
    file without a single record is reported."""
    fmt = file_format(file.path)
    if fmt is None:
        file.warn(None, f"unknown file type {''.join(file.path.suffixes) or '(no extension)'!r}; "
                        f"supported: {', '.join(sorted(_FORMATS))}")
        return
    if _gzipped(file.path) and (problem := gzip_problem(file.path)):
        file.warn(None, f"corrupt gzip file ({problem}); file skipped, none of its records read")
        return
    if problem := _binary(file.path):
        file.warn(None, f"{problem}; file skipped, none of it read")
        return
    found = False
    try:
        for raw in _READERS[fmt](file):
            found = True
            yield raw
    except OSError as error:
        file.warn(None, f"cannot read the file ({error}); the rest of it skipped")
        return
    if not found and not file.warned:
        file.warn(None, "no abstract found in this file")


def gzip_problem(path: Path) -> str | None:
    """What is wrong with a gzip file (not gzip, CRC or length check failed, cut short), or
    None: the file is decompressed once to the end before its records are read."""
    try:
        with gzip.open(path, "rb") as handle:
            while handle.read(GZIP_CHUNK):
                pass
    except (OSError, EOFError, zlib.error) as error:
        return str(error) or type(error).__name__
    return None


def display_name(path: Path) -> str:
    """The path as text every output can hold: undecodable bytes as \\xNN, controls as '?'."""
    return replace_invalid_characters(os.fsencode(path).decode("utf8", "backslashreplace"), "?")


def _reporter(strict: bool, on_warning: WarningHandler | None) -> Report:
    def report(source: str, message: str) -> None:
        if strict:
            raise PaperkgError(f"{source}: {message}", ExitCode.USAGE)
        warning = InputWarning(source, message)
        if on_warning is None:
            _LOG.warning("%s", warning)
        else:
            on_warning(warning)
    return report


def _hidden(relative: Path) -> bool:
    return any(part.startswith(".") for part in relative.parts)


def _binary(path: Path) -> str | None:
    """Why a file is not text, or None: a NUL byte near the start (after decompression) marks an executable,
    image or archive (whose bytes the parsers would otherwise read as "records"), or UTF-16 text."""
    try:
        with gzip.open(path, "rb") if _gzipped(path) else path.open("rb") as handle:
            start = handle.read(BINARY_SNIFF)
    except OSError:
        return None  # the reader says what is wrong with it
    if b"\0" not in start:
        return None
    if start.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "UTF-16 text, and paperkg reads UTF-8: save it as UTF-8"
    return f"a binary file, not text (a NUL byte in its first {BINARY_SNIFF:,} bytes)"


def _gzipped(path: Path) -> bool:
    return path.suffix.lower() == ".gz"


def _open(path: Path) -> IO[str]:
    """A text handle: UTF-8 (a BOM is skipped), gunzipped when the name ends in .gz. Bytes that
    are not UTF-8 are kept as surrogate escapes, so they cost only the record they are in."""
    if _gzipped(path):
        return gzip.open(path, "rt", encoding="utf-8-sig", errors="surrogateescape", newline="")
    return path.open(encoding="utf-8-sig", errors="surrogateescape", newline="")


# --- paragraph text -----------------------------------------------------------------------

def _read_paragraphs(file: _InputFile) -> Iterator[RawRecord]:
    """One abstract per blank-line-separated paragraph; a header paragraph is skipped."""
    lines: list[str] = []
    start = 0
    first = True
    with _open(file.path) as handle:
        for number, line in enumerate(handle, start=1):
            text = line.strip()
            if text:
                start = start or number
                lines.append(text)
                continue
            if lines and not (first and _is_header(lines, file)):
                yield {"abstract": "\n".join(lines)}, file.source(start)
            first = first and not lines
            lines, start = [], 0
    if lines:
        yield {"abstract": "\n".join(lines)}, file.source(start)


def _is_header(paragraph: list[str], file: _InputFile) -> bool:
    """A corpus header ("ICML 2025 papers"): a first paragraph of one short line that does
    not end like a sentence. Each different header is logged once per run."""
    line = paragraph[0]
    if len(paragraph) > 1 or len(line.split()) > HEADER_MAX_WORDS or line.endswith((".", "!", "?")):
        return False
    if line not in file.headers_noted:
        file.headers_noted.add(line)
        _LOG.warning("%s: first line %r read as a header, not an abstract (said once per header)",
                     file.source(1), line)
    return True


# --- JSON ---------------------------------------------------------------------------------

def _read_json_lines(file: _InputFile) -> Iterator[RawRecord]:
    """One JSON object per line; blank lines ignored, bad lines reported."""
    with _open(file.path) as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            if problem := undecodable(line):
                file.warn(number, f"{problem}; line skipped")
                continue
            try:
                value = json.loads(line)
            except json.JSONDecodeError as error:
                file.warn(number, f"not valid JSON ({error.msg} at column {error.colno}); line skipped")
                continue
            except RecursionError:
                file.warn(number, "JSON nested too deeply to read; line skipped")
                continue
            if isinstance(value, dict):
                yield value, file.source(number)
            else:
                file.warn(number, f"expected a JSON object, found {type(value).__name__}; line skipped")


def _read_json(file: _InputFile) -> Iterator[RawRecord]:
    """A JSON document, or JSON lines under a .json name (as the arXiv snapshot is)."""
    if _holds_json_lines(file.path):
        yield from _read_json_lines(file)
        return
    with _open(file.path) as handle:
        text = handle.read()
    try:
        yield from _JsonDocument(text, file).records()
    except json.JSONDecodeError as error:
        file.warn(error.lineno, f"not valid JSON ({error.msg}); rest of the file skipped")
    except RecursionError:
        file.warn(None, "JSON nested too deeply to read; file skipped")


def _holds_json_lines(path: Path) -> bool:
    """True when the first non-blank line is a whole JSON object and more lines follow."""
    with _open(path) as handle:
        lines = (line for line in handle if line.strip())
        first, second = next(lines, ""), next(lines, "")
    try:
        return isinstance(json.loads(first), dict) and second.lstrip().startswith("{")
    except (json.JSONDecodeError, RecursionError):
        return False


class _JsonDocument:
    """Walks a JSON document element by element so every record knows its line."""

    def __init__(self, text: str, file: _InputFile) -> None:
        self.text, self.file = text, file
        self.decoder = json.JSONDecoder()
        self.pos = 0
        self.line, self.line_pos = 1, 0

    def records(self) -> Iterator[RawRecord]:
        self._skip_space()
        if self.text.startswith("[", self.pos):
            yield from self._array_items()
        elif self.text.startswith("{", self.pos):
            yield from self._object_records()
        else:
            self.decoder.decode(self.text)  # raises the JSONDecodeError that says what is wrong
            self.file.warn(None, "expected a JSON list or object of papers; file skipped")

    def _object_records(self) -> Iterator[RawRecord]:
        """Records under the first list-valued LIST_KEYS member, else the object itself."""
        source = self._source()
        self.pos += 1
        members: dict[str, Any] = {}
        while True:
            self._skip_space()
            if self.text.startswith("}", self.pos):
                break
            key, self.pos = self.decoder.raw_decode(self.text, self.pos)
            self._skip_space()
            self._expect(":")
            self._skip_space()
            if str(key).lower() in LIST_KEYS and self.text.startswith("[", self.pos):
                yield from self._array_items()
                return
            members[key], self.pos = self.decoder.raw_decode(self.text, self.pos)
            self._skip_space()
            if not self.text.startswith("}", self.pos):
                self._expect(",")
        yield members, source

    def _array_items(self) -> Iterator[RawRecord]:
        self.pos += 1
        while True:
            self._skip_space()
            if self.text.startswith("]", self.pos):
                return
            source = self._source()
            value, self.pos = self.decoder.raw_decode(self.text, self.pos)
            if isinstance(value, dict):
                yield value, source
            else:
                self.file.warn(self.line, f"expected a JSON object, found {type(value).__name__}; skipped")
            self._skip_space()
            if not self.text.startswith("]", self.pos):
                self._expect(",")

    def _skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in " \t\r\n":
            self.pos += 1

    def _expect(self, char: str) -> None:
        if not self.text.startswith(char, self.pos):
            raise json.JSONDecodeError(f"Expecting {char!r} delimiter", self.text, self.pos)
        self.pos += 1

    def _source(self) -> str:
        self.line += self.text.count("\n", self.line_pos, self.pos)
        self.line_pos = self.pos
        return self.file.source(self.line)


# --- CSV / TSV ----------------------------------------------------------------------------

def _read_delimited(file: _InputFile) -> Iterator[RawRecord]:
    """Rows of a CSV/TSV file with a header; field names as in the alias table."""
    csv.field_size_limit(2**31 - 1)
    delimiter = "\t" if file_format(file.path) == "tsv" else ","
    with _open(file.path) as handle:
        rows = csv.DictReader(handle, delimiter=delimiter)
        try:
            header = [field_key(name) for name in rows.fieldnames or []]
            if not _has_abstract_column(header):
                file.warn(1, f"no abstract column in the header ({', '.join(header) or 'empty'}); file skipped")
                return
            end = rows.line_num
            for row in rows:
                source = file.source(end + 1)
                end = rows.line_num
                yield {name: value for name, value in row.items() if name is not None}, source
        except csv.Error as error:
            file.warn(rows.line_num, f"not valid CSV ({error}); rest of the file skipped")


def _has_abstract_column(header: list[str]) -> bool:
    return any(field_aliases().get(name) == "abstract" for name in header)


# --- BibTeX -------------------------------------------------------------------------------

def _read_bibtex(file: _InputFile) -> Iterator[RawRecord]:
    """Entries of a .bib file; DOI or arXiv eprint is the id (citation keys are not stable)."""
    with _open(file.path) as handle:
        text = handle.read()
    for entry in read_bibtex(text):
        if entry.problem:
            file.warn(entry.line, f"malformed BibTeX entry ({entry.problem}); skipped")
        else:
            yield entry.fields, file.source(entry.line)


_READERS: dict[str, Callable[[_InputFile], Iterator[RawRecord]]] = {
    "txt": _read_paragraphs,
    "jsonl": _read_json_lines,
    "json": _read_json,
    "csv": _read_delimited,
    "tsv": _read_delimited,
    "bib": _read_bibtex,
}
_FORMATS = {".txt": "txt", ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "json",
            ".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".bib": "bib"}
