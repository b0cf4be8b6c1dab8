"""Streaming readers: files, directories and globs of abstracts in, PaperRecords out.

Formats (by extension, optionally gzipped as `.gz`): `.txt` paragraphs (one abstract per
blank-line-separated paragraph; a short first line without a full stop is a header and
skipped), `.jsonl`/`.ndjson`, `.json` (a list, an object holding a list under
"papers"/"records"/"data"/..., a single record, or JSON lines such as the arXiv metadata
snapshot), `.csv`/`.tsv` with a header row, and `.bib`. Every record names its source as
"path:line". Bad input is reported through `on_warning` and skipped (or raises
PaperkgError with `strict=True`); a paper read twice in one run is kept once.
"""
from __future__ import annotations

import csv
import glob
import gzip
import json
import logging
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from paperkg.ingest.bibtex import BibtexSyntaxError, iter_bibtex
from paperkg.core.errors import ExitCode, PaperkgError
from paperkg.ingest.fields import RecordError, field_aliases, field_key, record_from_fields, text_paper_id
from paperkg.core.schema import PaperRecord

_LOG = logging.getLogger(__name__)

LIST_KEYS = ("papers", "records", "data", "items", "results", "entries", "documents")
HEADER_MAX_WORDS = 20


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


def read_records(
    inputs: str | Path | Iterable[str | Path],
    *,
    strict: bool = False,
    on_warning: WarningHandler | None = None,
) -> Iterator[PaperRecord]:
    """Yield one PaperRecord per paper found in the inputs (files, directories, globs).

    Each problem is passed to `on_warning` (default: logged) and skipped; with strict=True
    the first one raises PaperkgError naming the file and line. Papers whose id or whose
    abstract was already read in this run are skipped with a warning.
    """
    report = _reporter(strict, on_warning)
    first_seen: dict[str, str] = {}
    for path in input_files(inputs, report):
        for raw, source in read_raw_records(path, report):
            try:
                record = record_from_fields(raw, source)
            except RecordError as error:
                report(source, f"{error}; skipped")
                continue
            keys = {record.id, text_paper_id(record.abstract)}
            earlier = next((first_seen[key] for key in keys if key in first_seen), None)
            if earlier is not None:
                report(source, f"duplicate of the paper at {earlier} (id {record.id}); skipped")
                continue
            first_seen.update(dict.fromkeys(keys, source))
            yield record


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
            report(str(item), "no such file or directory")


def file_format(path: Path) -> str | None:
    """The reader for a file, by extension (a trailing .gz is looked through), or None."""
    suffixes = [suffix.lower() for suffix in path.suffixes]
    if suffixes[-1:] == [".gz"]:
        suffixes.pop()
    return _FORMATS.get(suffixes[-1]) if suffixes else None


def read_raw_records(path: Path, report: Report) -> Iterator[RawRecord]:
    """The raw records of one file; an unreadable file or unknown format is reported."""
    fmt = file_format(path)
    if fmt is None:
        report(str(path), f"unknown file type {''.join(path.suffixes) or '(no extension)'!r}; "
                          f"supported: {', '.join(sorted(_FORMATS))}")
        return
    try:
        yield from _READERS[fmt](path, report)
    except (OSError, UnicodeDecodeError, EOFError) as error:
        report(str(path), f"cannot read the file: {error}")


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


def _open(path: Path) -> IO[str]:
    """A text handle: UTF-8 (a BOM is skipped), gunzipped when the name ends in .gz."""
    if path.suffix.lower() == ".gz":
        return gzip.open(path, "rt", encoding="utf-8-sig", newline="")
    return path.open(encoding="utf-8-sig", newline="")


# --- paragraph text -----------------------------------------------------------------------

def _read_paragraphs(path: Path, report: Report) -> Iterator[RawRecord]:
    """One abstract per blank-line-separated paragraph; a title-like first line is skipped."""
    lines: list[str] = []
    start = 0
    with _open(path) as handle:
        for number, line in enumerate(handle, start=1):
            text = line.strip()
            if number == 1 and _is_header(text):
                continue
            if text:
                start = start or number
                lines.append(text)
            elif lines:
                yield {"abstract": "\n".join(lines)}, f"{path}:{start}"
                lines, start = [], 0
    if lines:
        yield {"abstract": "\n".join(lines)}, f"{path}:{start}"


def _is_header(line: str) -> bool:
    """A corpus header ("ICML 2025 papers"): short and not ending like a sentence."""
    return len(line.split()) <= HEADER_MAX_WORDS and not line.endswith((".", "!", "?"))


# --- JSON ---------------------------------------------------------------------------------

def _read_json_lines(path: Path, report: Report) -> Iterator[RawRecord]:
    """One JSON object per line; blank lines ignored, bad lines reported."""
    with _open(path) as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            source = f"{path}:{number}"
            try:
                value = json.loads(line)
            except json.JSONDecodeError as error:
                report(source, f"not valid JSON ({error.msg} at column {error.colno}); line skipped")
                continue
            if isinstance(value, dict):
                yield value, source
            else:
                report(source, f"expected a JSON object, found {type(value).__name__}; line skipped")


def _read_json(path: Path, report: Report) -> Iterator[RawRecord]:
    """A JSON document, or JSON lines under a .json name (as the arXiv snapshot is)."""
    if _holds_json_lines(path):
        yield from _read_json_lines(path, report)
        return
    with _open(path) as handle:
        text = handle.read()
    try:
        yield from _JsonDocument(text, str(path), report).records()
    except json.JSONDecodeError as error:
        report(f"{path}:{error.lineno}", f"not valid JSON ({error.msg}); rest of the file skipped")


def _holds_json_lines(path: Path) -> bool:
    """True when the first non-blank line is a whole JSON object and more lines follow."""
    with _open(path) as handle:
        lines = (line for line in handle if line.strip())
        first, second = next(lines, ""), next(lines, "")
    try:
        return isinstance(json.loads(first), dict) and second.lstrip().startswith("{")
    except json.JSONDecodeError:
        return False


class _JsonDocument:
    """Walks a JSON document element by element so every record knows its line."""

    def __init__(self, text: str, name: str, report: Report) -> None:
        self.text, self.name, self.report = text, name, report
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
            self.report(self.name, "expected a JSON list or object of papers; file skipped")

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
                self.report(source, f"expected a JSON object, found {type(value).__name__}; skipped")
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
        return f"{self.name}:{self.line}"


# --- CSV / TSV ----------------------------------------------------------------------------

def _read_delimited(path: Path, report: Report) -> Iterator[RawRecord]:
    """Rows of a CSV/TSV file with a header; field names as in the alias table."""
    csv.field_size_limit(2**31 - 1)
    delimiter = "\t" if file_format(path) == "tsv" else ","
    with _open(path) as handle:
        rows = csv.DictReader(handle, delimiter=delimiter)
        header = [field_key(name) for name in rows.fieldnames or []]
        if not _has_abstract_column(header):
            report(f"{path}:1", f"no abstract column in the header ({', '.join(header) or 'empty'}); file skipped")
            return
        end = rows.line_num
        for row in rows:
            source = f"{path}:{end + 1}"
            end = rows.line_num
            yield {name: value for name, value in row.items() if name is not None}, source


def _has_abstract_column(header: list[str]) -> bool:
    return any(field_aliases().get(name) == "abstract" for name in header)


# --- BibTeX -------------------------------------------------------------------------------

def _read_bibtex(path: Path, report: Report) -> Iterator[RawRecord]:
    """Entries of a .bib file; DOI or arXiv eprint is the id (citation keys are not stable)."""
    with _open(path) as handle:
        text = handle.read()
    for entry in iter_bibtex(text):
        if isinstance(entry, BibtexSyntaxError):
            report(f"{path}:{entry.line}", f"malformed BibTeX entry ({entry}); skipped")
        else:
            yield entry.as_record_fields(), f"{path}:{entry.line}"


_READERS: dict[str, Callable[[Path, Report], Iterator[RawRecord]]] = {
    "txt": _read_paragraphs,
    "jsonl": _read_json_lines,
    "json": _read_json,
    "csv": _read_delimited,
    "tsv": _read_delimited,
    "bib": _read_bibtex,
}
_FORMATS = {".txt": "txt", ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "json",
            ".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".bib": "bib"}
