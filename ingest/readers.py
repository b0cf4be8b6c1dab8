"""Streaming readers: files, directories and globs of abstracts in, PaperRecords out.

Formats (by extension, optionally gzipped as `.gz`; a pipe or standard input without one by its first bytes):
`.txt` paragraphs (one abstract per blank-line-separated paragraph; a first paragraph that is one short line
not ending like a sentence, "ICML 2025 papers", is a header: skipped, and said once in the log),
`.jsonl`/`.ndjson`, `.json` (a list, an object holding a list under "papers"/"records"/"data"/..., a single
record, or JSON lines such as the arXiv metadata snapshot), `.csv`/`.tsv` with a header row, and `.bib`.
Every record names its source as "path:line".

Each input is opened once (ingest/source.py: the size and sha256 of what was read go to `on_file`). Bad input
is reported through `on_warning` and skipped (or raises PaperkgError with `strict=True`): text is decoded
record by record, so bytes that are not UTF-8 cost only the record they are in; a gzip file is checked whole
before any of its records is read, so a corrupt one is skipped whole; an abstract longer than
`max_abstract_chars` is skipped, and no reader holds more of one record than ten times that (a longer line,
paragraph, JSON element or BibTeX entry is read past and skipped), so a file that decompresses to gigabytes
costs time, not memory. A paper read twice in one run is kept once.
"""
from __future__ import annotations

import codecs
import csv
import json
import logging
import re
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import suppress
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path
from typing import IO, Any

from paperkg.core.errors import ExitCode, PaperkgError
from paperkg.core.manifest import FileEntry
from paperkg.core.schema import PaperRecord
from paperkg.ingest.bibtex import BibtexReader
from paperkg.ingest.fields import (MAX_ABSTRACT_CHARS, RecordError, field_aliases, field_key, record_from_fields,
                                   text_paper_id, undecodable)
from paperkg.ingest.input_files import FORMATS, Report, display_name, file_format, input_files
from paperkg.ingest.latex import NestingTooDeep
from paperkg.ingest.source import MAX_EXPANSION, LongLine, bounded_lines, is_stream, opened

_LOG = logging.getLogger(__name__)

LIST_KEYS = ("papers", "records", "data", "items", "results", "entries", "documents")
HEADER_MAX_WORDS = 20
BINARY_SNIFF = 8000  # as git and grep decide that a file is binary: a NUL byte among its first 8,000
RECORD_LIMIT_FACTOR = 10  # no reader holds more of one record than this many times max_abstract_chars
# A file is given up once it gave this many problems and fewer than one paper per PROBLEMS_PER_PAPER of them (a
# file of junk lines would otherwise cost a warning a line: 58 million of them for a 1 MB gzip).
MAX_PROBLEMS = 10_000
PROBLEMS_PER_PAPER = 100
JSON_CHUNK = 1 << 20      # characters of a JSON document read at a time
BIBTEX_CHUNK = 1 << 20    # characters of BibTeX parsed at a time (whole entries)


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
FileHandler = Callable[[Path, FileEntry], None]  # an input file read: its size and sha256 as read


@dataclass
class _InputFile:
    """One input file as its reader sees it: how to name it, and where its problems go."""

    path: Path
    report: Report
    headers_noted: set[str]  # header lines already logged in this run
    max_abstract_chars: int = MAX_ABSTRACT_CHARS
    format: str = ""
    name: str = ""
    warned: bool = False
    problems: int = 0  # warnings about this file
    papers: int = 0    # records of it that became papers

    def __post_init__(self) -> None:
        self.name = display_name(self.path)

    def source(self, line: int) -> str:
        return f"{self.name}:{line}"

    def warn(self, line: int | None, message: str) -> None:
        self.skip(self.name if line is None else self.source(line), message)

    def skip(self, source: str, message: str) -> None:
        """Report a problem; _Hopeless once the file gives little else (MAX_PROBLEMS, PROBLEMS_PER_PAPER)."""
        self.warned = True
        self.problems += 1
        self.report(source, message)
        if self.problems >= MAX_PROBLEMS and self.problems > PROBLEMS_PER_PAPER * self.papers:
            raise _Hopeless(source)

    def give_up(self, stop: _Hopeless) -> None:
        self.report(self.name, f"{self.problems:,} problems and {self.papers:,} papers up to {stop.source}: not a file "
                               "of abstracts paperkg can read; the rest of it skipped")

    @property
    def limit(self) -> int:
        """The most characters of one record a reader holds."""
        return RECORD_LIMIT_FACTOR * self.max_abstract_chars

    def long_line(self, line: int, long: LongLine, what: str = "line") -> None:
        self.warn(line, f"a line of {long.chars:,} characters, over the limit of {self.limit:,} for one record "
                        f"({RECORD_LIMIT_FACTOR} x max_abstract_chars); {what} skipped")


class _Hopeless(Exception):
    """A file that gave MAX_PROBLEMS problems and fewer than one paper per PROBLEMS_PER_PAPER of them."""

    def __init__(self, source: str) -> None:
        super().__init__(source)
        self.source = source


@dataclass
class _Run:
    """What one read_records call shares across its files."""

    report: Report
    max_abstract_chars: int
    headers_noted: set[str] = field(default_factory=set)

    def file(self, path: Path) -> _InputFile:
        return _InputFile(path, self.report, self.headers_noted, self.max_abstract_chars)


def read_records(
    inputs: str | Path | Iterable[str | Path],
    *,
    strict: bool = False,
    on_warning: WarningHandler | None = None,
    max_abstract_chars: int = MAX_ABSTRACT_CHARS,
    on_file: FileHandler | None = None,
    follow_links: bool = False,
) -> Iterator[PaperRecord]:
    """Yield one PaperRecord per paper found in the inputs (files, directories, globs; "-" is standard input).

    Each problem is passed to `on_warning` (default: logged) and skipped; with strict=True
    the first one raises PaperkgError naming the file and line. Papers whose id or whose
    abstract was already read in this run are skipped with a warning, and so are abstracts
    longer than `max_abstract_chars` characters. `on_file` gets each file read with the size and
    sha256 of what was read; `follow_links` reads a folder's links out of it (ingest/input_files.py).
    """
    run = _Run(_reporter(strict, on_warning), max_abstract_chars)
    first_seen: dict[str, str] = {}
    for path in input_files(inputs, run.report, follow_links=follow_links):
        file = run.file(path)
        raws = read_raw_records(file, on_file)
        for raw, source in raws:
            try:
                record = _paper(raw, source, file, first_seen, max_abstract_chars)
            except _Hopeless as stop:
                with suppress(StopIteration):
                    raws.throw(stop)  # the reader gives up the file where it is
                break
            if record is not None:
                file.papers += 1
                yield record


def _paper(raw: dict[str, Any], source: str, file: _InputFile, first_seen: dict[str, str],
           max_abstract_chars: int) -> PaperRecord | None:
    """The paper of one raw record, or None (reported) when it is bad or was read before in this run."""
    try:
        record = record_from_fields(raw, source, max_abstract_chars=max_abstract_chars)
    except RecordError as error:
        file.skip(source, f"{error}; skipped")
        return None
    except Exception as error:  # noqa: BLE001 - one record (nesting too deep for the LaTeX parser, a bug
        # in a reader or the normaliser) must not abort the other records
        file.skip(source, f"cannot be read ({_problem(error)}); skipped")
        return None
    keys = {record.id, text_paper_id(record.abstract)}
    earlier = next((first_seen[key] for key in keys if key in first_seen), None)
    if earlier is not None:
        file.skip(source, f"duplicate of the paper at {earlier} (id {record.id}); skipped")
        return None
    first_seen.update(dict.fromkeys(keys, source))
    return record


def _problem(error: BaseException) -> str:
    """What went wrong with one record, for its warning."""
    if isinstance(error, (RecursionError, NestingTooDeep)):
        return "its markup is nested too deeply"
    return f"{type(error).__name__}: {error}"[:200]


def read_raw_records(file: _InputFile, on_file: FileHandler | None = None) -> Generator[RawRecord, None, None]:
    """The raw records of one file, opened once; an unknown format, a corrupt gzip file, a binary file, a
    read error or a file without a single record is reported. `on_file` gets the file's size and sha256."""
    fmt = file_format(file.path)
    if fmt is None and not is_stream(file.path):  # a pipe's or device's format comes from its first bytes
        file.warn(None, f"unknown file type {''.join(file.path.suffixes) or '(no extension)'!r}; "
                        f"supported: {', '.join(sorted(FORMATS))}")
        return
    found = False
    try:
        with opened(file.path, file.path.suffix.lower() == ".gz" if fmt else None) as source:
            if source.gzip_problem:
                file.warn(None, f"corrupt gzip file ({source.gzip_problem}); file skipped, none of its records read")
            elif problem := _binary(source.head):
                file.warn(None, f"{problem}; file skipped, none of it read")
            else:
                if source.cut:
                    file.warn(None, f"decompresses to more than {MAX_EXPANSION} times its size (a decompression "
                                    f"bomb?): read up to its first {source.cut:,} bytes, the rest skipped")
                file.format = _text_kind(source.head) if fmt in (None, "txt") else fmt
                try:
                    for raw in _READERS[file.format](file, source.text):
                        found = True
                        yield raw
                except _Hopeless as stop:
                    file.give_up(stop)
    except OSError as error:
        file.warn(None, f"cannot read the file ({error.strerror or error}); the rest of it skipped")
        return
    if on_file is not None and source.entry is not None:
        on_file(file.path, source.entry)
    if not found and not file.warned:
        file.warn(None, "no abstract found in this file")


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


def _binary(start: bytes) -> str | None:
    """Why a file is not text, or None: a NUL byte near the start (after decompression) marks an executable,
    image or archive (whose bytes the parsers would otherwise read as "records"), or UTF-16 text."""
    if b"\0" not in start[:BINARY_SNIFF]:
        return None
    if start.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "UTF-16 text, and paperkg reads UTF-8: save it as UTF-8"
    return f"a binary file, not text (a NUL byte in its first {BINARY_SNIFF:,} bytes)"


def _text_kind(head: bytes) -> str:
    """The reader for a .txt file or an input without a known extension (a pipe, standard input), from its first
    bytes: JSON, BibTeX, a tagged export (Web of Science's plain text, PubMed's MEDLINE), CSV or TSV with an
    abstract column (Web of Science's tab-delimited export), else paragraphs of text."""
    text = head.decode("utf8", "replace").lstrip("\ufeff \t\r\n")
    if text.startswith(("{", "[")):
        return "json"
    if text.startswith("@"):
        return "bib"
    first = text.partition("\n")[0].rstrip("\r")
    if _WOS_START.fullmatch(first) or _MEDLINE_START.fullmatch(first):
        return "tagged"
    for delimiter, fmt in (("\t", "tsv"), (",", "csv")):
        if delimiter in first and _has_abstract_column([field_key(name) for name in
                                                        next(csv.reader([first], delimiter=delimiter))]):
            return fmt
    return "txt"


# --- paragraph text -----------------------------------------------------------------------

def _read_paragraphs(file: _InputFile, text: IO[str]) -> Iterator[RawRecord]:
    """One abstract per blank-line-separated paragraph; a header paragraph is skipped, and a paragraph over
    max_abstract_chars is read past (not held) and reported."""
    paragraph = _Paragraph(file.max_abstract_chars)
    first, number = True, 0
    for line in bounded_lines(text, file.max_abstract_chars):
        number += 1
        if paragraph.add(number, line):
            if paragraph.chars <= file.max_abstract_chars:
                continue
            lines, paragraph.chars = _rest_of_paragraph(text, paragraph.chars)  # read past, not held
            number += lines
        if paragraph.lines or paragraph.chars:
            yield from paragraph.record(file, first)
            first = False
        paragraph = _Paragraph(file.max_abstract_chars)
    yield from paragraph.record(file, first)


def _rest_of_paragraph(text: IO[str], chars: int) -> tuple[int, int]:
    """Read past the rest of a paragraph over the limit, its blank line included: (lines, characters in all)."""
    lines, whole = 0, True  # whole: the piece read starts a line
    while piece := text.readline(1 << 16):
        ends = piece.endswith(("\n", "\r"))
        lines += ends
        stripped = piece.strip()
        if whole and ends and not stripped:
            break
        chars += len(stripped) + (1 if whole else 0)
        whole = ends
    return lines, chars


class _Paragraph:
    """The lines of one paragraph, stripped; past `limit` characters only counted."""

    def __init__(self, limit: int) -> None:
        self.limit, self.lines, self.start, self.chars = limit, list[str](), 0, 0

    def add(self, number: int, line: str | LongLine) -> bool:
        """Add a line; False at a blank line (the paragraph's end)."""
        text = "" if isinstance(line, LongLine) else line.strip()
        if not text and not isinstance(line, LongLine):
            return False
        self.start = self.start or number
        self.chars += (1 if self.chars else 0) + (line.chars if isinstance(line, LongLine) else len(text))
        if self.chars <= self.limit:
            self.lines.append(text)
        else:
            self.lines = []
        return True

    def record(self, file: _InputFile, first: bool) -> Iterator[RawRecord]:
        if self.chars > self.limit:
            file.warn(self.start, f"abstract of {self.chars:,} characters is over the limit of {self.limit:,} "
                                  "(max_abstract_chars); skipped")
        elif self.lines and not (first and _is_header(self.lines, file)):
            yield {"abstract": "\n".join(self.lines)}, file.source(self.start)


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

def _read_json_lines(file: _InputFile, text: IO[str]) -> Iterator[RawRecord]:
    """One JSON object per line; blank lines ignored, bad lines reported."""
    yield from _json_lines(file, enumerate(bounded_lines(text, file.limit), start=1))


def _json_lines(file: _InputFile, lines: Iterable[tuple[int, str | LongLine]]) -> Iterator[RawRecord]:
    for number, line in lines:
        if isinstance(line, LongLine):
            file.long_line(number, line)
            continue
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


def _read_json(file: _InputFile, text: IO[str]) -> Iterator[RawRecord]:
    """A JSON document, or JSON lines under a .json name (as the arXiv snapshot is): JSON lines when the
    first non-blank line is a whole JSON object and the next one opens another."""
    read: list[tuple[int, str]] = []  # the lines looked at, each at most a record long
    number = 0
    while len([line for _, line in read if line.strip()]) < 2 and len(read) < MAX_BLANK_LINES:
        line = text.readline(file.limit + 1)
        number += 1
        if not line or (len(line) > file.limit and not line.endswith(("\n", "\r"))):
            if line:
                read.append((number, line))
            break
        if line.strip() or read:
            read.append((number, line))
    lines = [line for _, line in read if line.strip()]
    if len(lines) == 2 and _whole_object(lines[0]) and lines[1].lstrip().startswith("{"):
        yield from _json_lines(file, chain(read, enumerate(bounded_lines(text, file.limit), start=number + 1)))
        return
    first = read[0][0] if read else 1
    chunks = chain(["".join(line for _, line in read)], iter(lambda: text.read(JSON_CHUNK), ""))
    document = _JsonDocument(chunks, file, first)
    try:
        yield from document.records()
    except json.JSONDecodeError as error:
        file.warn(document.line_at(error.pos), f"not valid JSON ({error.msg}); rest of the file skipped")
    except _TooLong:
        file.warn(document.line_at(document.pos), f"a JSON value of more than {file.limit:,} characters, the limit "
                  f"for one record ({RECORD_LIMIT_FACTOR} x max_abstract_chars), or not valid JSON there; rest of "
                  "the file skipped")
    except RecursionError:
        file.warn(None, "JSON nested too deeply to read; file skipped")


MAX_BLANK_LINES = 1000  # blank lines looked through for a JSON file's first two lines


def _whole_object(line: str) -> bool:
    try:
        return isinstance(json.loads(line), dict)
    except (json.JSONDecodeError, RecursionError):
        return False


class _TooLong(Exception):
    """A JSON value longer than the record limit (or not valid JSON, which cannot be told apart there)."""


_SPACE = re.compile(r"[ \t\r\n]*")


class _JsonDocument:
    """Walks a JSON document element by element, read in chunks, so every record knows its line and no
    value of more than the file's record limit is held."""

    def __init__(self, chunks: Iterator[str], file: _InputFile, line: int) -> None:
        self.chunks, self.file = chunks, file
        self.decoder = json.JSONDecoder()
        self.text, self.pos, self.eof = "", 0, False
        self.line, self.line_pos = line, 0  # the line at text[line_pos]
        self.dropped = 0  # characters read and dropped before text[0]

    def records(self) -> Iterator[RawRecord]:
        self._skip_space()
        if self._at("["):
            yield from self._array_items()
        elif self._at("{"):
            yield from self._object_records()
        else:
            self._value()  # raises the JSONDecodeError that says what is wrong
            self.file.warn(None, "expected a JSON list or object of papers; file skipped")

    def line_at(self, pos: int) -> int:
        """The line of text[pos]."""
        return self.line + self.text.count("\n", self.line_pos, pos)

    def _object_records(self) -> Iterator[RawRecord]:
        """Records under the first list-valued LIST_KEYS member, else the object itself (one record: held
        only up to the limit)."""
        source = self._source()
        start = self.dropped + self.pos
        self.pos += 1
        members: dict[str, Any] = {}
        while True:
            self._skip_space()
            if self._at("}"):
                self.pos += 1
                break
            key = self._value()
            self._skip_space()
            self._expect(":")
            self._skip_space()
            if str(key).lower() in LIST_KEYS and self._at("["):
                yield from self._array_items()
                return
            members[key] = self._value()
            if self.dropped + self.pos - start > self.file.limit:
                raise _TooLong
            self._skip_space()
            if not self._at("}"):
                self._expect(",")
        yield members, source

    def _array_items(self) -> Iterator[RawRecord]:
        self.pos += 1
        while True:
            self._skip_space()
            if self._at("]"):
                self.pos += 1
                return
            source = self._source()
            value = self._value()
            if isinstance(value, dict):
                yield value, source
            else:
                self.file.warn(self.line, f"expected a JSON object, found {type(value).__name__}; skipped")
            self._skip_space()
            if not self._at("]"):
                self._expect(",")

    def _value(self) -> Any:
        """The JSON value at pos, reading on until it is whole (a number at the end of what was read may go on)."""
        while True:
            try:
                value, end = self.decoder.raw_decode(self.text, self.pos)
                if end < len(self.text) or self.eof:
                    self.pos = end
                    return value
            except json.JSONDecodeError:
                if self.eof:
                    raise
            if len(self.text) - self.pos > self.file.limit:
                raise _TooLong
            self._more()

    def _more(self) -> bool:
        """Read the next chunk, dropping what was walked past; False at the end."""
        chunk = next(self.chunks, "")
        if not chunk:
            self.eof = True
            return False
        self.line = self.line_at(self.pos)
        self.dropped += self.pos
        self.text, self.pos, self.line_pos = self.text[self.pos:] + chunk, 0, 0
        return True

    def _skip_space(self) -> None:
        while True:
            self.pos = _SPACE.match(self.text, self.pos).end()  # type: ignore[union-attr]  # always matches
            if self.pos < len(self.text) or not self._more():
                return

    def _at(self, char: str) -> bool:
        if self.pos >= len(self.text):
            self._more()
        return self.text.startswith(char, self.pos)

    def _expect(self, char: str) -> None:
        if not self._at(char):
            raise json.JSONDecodeError(f"Expecting {char!r} delimiter", self.text, self.pos)
        self.pos += 1

    def _source(self) -> str:
        self.line = self.line_at(self.pos)
        self.line_pos = self.pos
        return self.file.source(self.line)


# --- tagged exports: Web of Science plain text, PubMed MEDLINE ------------------------------

_WOS_START = re.compile(r"FN .*|PT [A-Z]")          # "FN Clarivate Analytics Web of Science", "PT J"
_MEDLINE_START = re.compile(r"PMID- *[0-9]+")
_WOS_LINE = re.compile(r"([A-Z][A-Z0-9]) (.*)")      # "AB The abstract ..."; continuation lines start with 3 spaces
_MEDLINE_LINE = re.compile(r"([A-Z][A-Z0-9]{1,3}) *- (.*)")  # "PMID- 12345", "AB  - The abstract ..."
_LIST_TAGS = frozenset({"AU", "AF", "FAU"})          # one author a value (a line, in Web of Science)
_FILE_TAGS = frozenset({"FN", "VR", "EF"})           # Web of Science's file header and end


def _read_tagged(file: _InputFile, text: IO[str]) -> Iterator[RawRecord]:
    """Records of a tagged export: Web of Science's plain text (two-letter tags, records ending with ER) or
    PubMed's MEDLINE format (`TAG - value`, records separated by blank lines); the tags are read through the
    field alias table (TI title, AB abstract, SO/JT venue, PY/DP year, DI/PMID/UT id, AF/FAU/AU authors)."""
    record: dict[str, list[str]] = {}
    start, tag, medline = 0, "", None
    for number, line in enumerate(bounded_lines(text, file.limit), start=1):
        if isinstance(line, LongLine):
            file.long_line(number, line)
            continue
        line = line.rstrip("\r\n").lstrip("\ufeff")
        if not line.strip() or line.strip() in ("ER", "EF"):
            if record:
                yield _tagged_fields(record), file.source(start)
            record, start = {}, 0
            continue
        if line.startswith("   ") and tag:
            if tag in _LIST_TAGS and not medline:
                record[tag].append(line.strip())
            else:
                record[tag][-1] += " " + line.strip()
            continue
        if medline is None:
            medline = _MEDLINE_LINE.fullmatch(line) is not None
        match = (_MEDLINE_LINE if medline else _WOS_LINE).fullmatch(line)
        if match is None or match[1] in _FILE_TAGS:
            tag = ""
            if match is None:
                file.warn(number, "not a tagged line of a Web of Science or MEDLINE export; line skipped")
            continue
        tag = match[1]
        record.setdefault(tag, []).append(match[2].strip())
        start = start or number
    if record:
        yield _tagged_fields(record), file.source(start)


def _tagged_fields(record: dict[str, list[str]]) -> dict[str, Any]:
    """A tagged record's fields: authors as a list of "First Last" (the exports write "Last, First"), the
    other tags' lines joined."""
    return {tag: [" ".join(reversed([part.strip() for part in name.split(",", 1)])) for name in values]
            if tag in _LIST_TAGS else " ".join(values) for tag, values in record.items()}


# --- CSV / TSV ----------------------------------------------------------------------------

def _read_delimited(file: _InputFile, text: IO[str]) -> Iterator[RawRecord]:
    """Rows of a CSV/TSV file with a header; field names as in the alias table. A line or field longer than
    the record limit is skipped."""
    csv.field_size_limit(file.limit)
    rows = csv.DictReader(_csv_lines(file, text), delimiter="\t" if file.format == "tsv" else ",")
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


def _csv_lines(file: _InputFile, text: IO[str]) -> Iterator[str]:
    """The lines for the CSV reader; a line over the record limit is reported and read as an empty line."""
    for number, line in enumerate(bounded_lines(text, file.limit), start=1):
        if isinstance(line, LongLine):
            file.long_line(number, line)
            yield "\n"
        else:
            yield line


def _has_abstract_column(header: list[str]) -> bool:
    return any(field_aliases().get(name) == "abstract" for name in header)


# --- BibTeX -------------------------------------------------------------------------------

def _read_bibtex(file: _InputFile, text: IO[str]) -> Iterator[RawRecord]:
    """Entries of a .bib file, parsed a chunk of whole entries at a time; DOI or arXiv eprint is the id
    (citation keys are not stable). An entry longer than the record limit is skipped."""
    reader = BibtexReader()
    for first_line, chunk in _bibtex_chunks(file, text):
        for entry in reader.entries(chunk, first_line):
            if entry.problem:
                file.warn(entry.line, f"malformed BibTeX entry ({entry.problem}); skipped")
            else:
                yield entry.fields, file.source(entry.line)


def _bibtex_chunks(file: _InputFile, text: IO[str]) -> Iterator[tuple[int, str]]:
    """(first line, text) of consecutive runs of whole entries, about BIBTEX_CHUNK characters each: a chunk
    ends before a line that opens an entry (`@`); an entry of more than the record limit is left out."""
    chunk: list[str] = []
    size = entry_size = entry_index = 0
    start = entry_start = 1
    skipping = False
    for number, line in enumerate(bounded_lines(text, file.limit), start=1):
        if not isinstance(line, LongLine) and line.lstrip().startswith("@"):
            if skipping or size >= BIBTEX_CHUNK:
                if chunk:
                    yield start, "".join(chunk)
                chunk, size, start, skipping = [], 0, number, False
            entry_size, entry_start, entry_index = 0, number, len(chunk)
        if skipping:
            continue
        entry_size += line.chars if isinstance(line, LongLine) else len(line)
        if isinstance(line, LongLine) or entry_size > file.limit:
            file.warn(entry_start, f"a BibTeX entry of more than {file.limit:,} characters, the limit for one "
                                   f"record ({RECORD_LIMIT_FACTOR} x max_abstract_chars); skipped")
            chunk, skipping = chunk[:entry_index], True
            size = sum(map(len, chunk))
            continue
        chunk.append(line)
        size += len(line)
    if chunk:
        yield start, "".join(chunk)


_READERS: dict[str, Callable[[_InputFile, IO[str]], Iterator[RawRecord]]] = {
    "txt": _read_paragraphs,
    "jsonl": _read_json_lines,
    "json": _read_json,
    "csv": _read_delimited,
    "tsv": _read_delimited,
    "bib": _read_bibtex,
    "tagged": _read_tagged,
}
