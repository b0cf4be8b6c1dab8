"""Extraction lines on disk: spooled as they are made, indexed by paper id, read back in id order.

The graph and extractions.jsonl are built from the lines in paper-id order, so they depend on
the set of papers, not on the order the inputs gave them; memory holds only the index.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from contextlib import nullcontext
from pathlib import Path
from typing import BinaryIO, NamedTuple

from paperkg.core.manifest import FileEntry
from paperkg.core.schema import SchemaError
from paperkg.ingest.input_files import display_name
from paperkg.ingest.source import Tally, open_bytes


class _Entry(NamedTuple):
    paper_id: str
    digest: bytes   # orders two different records of one paper the same way in every run
    file: int       # index into ExtractionStore.files
    offset: int
    length: int
    line: int


class ExtractionStore:
    """Lines from extraction files and from a spool of new lines, indexed by paper id."""

    def __init__(self, spool: Path) -> None:
        self.files: list[Path] = [spool]
        self.names: list[str] = ["new extraction"]  # how a file's lines are named in messages
        self._entries: list[_Entry] = []
        self._spool: BinaryIO = open(spool, "wb")  # noqa: SIM115 - closed by close()
        self._spool_lines = 0

    def __len__(self) -> int:
        return len(self._entries)

    def append(self, paper_id: str, line: str) -> None:
        """Spool one new extraction line."""
        data = line.encode("utf8") + b"\n"
        self._spool_lines += 1
        self._entries.append(_Entry(paper_id, _digest(data), 0, self._spool.tell(), len(data), self._spool_lines))
        self._spool.write(data)

    def add_file(self, path: Path) -> tuple[set[str], FileEntry]:
        """Index every line of a saved extraction file, read once (a pipe's lines are copied beside the spool,
        to be read again in id order); returns its paper ids and its size and sha256 as read. A line that is
        not an extraction record is an error naming the file and line."""
        index = len(self.files)
        ids: set[str] = set()
        offset = 0
        tally = Tally()
        with open_bytes(path) as (handle, regular), \
                nullcontext() if regular else open(self._copy(index), "wb") as copy:
            self.files.append(path if regular else self._copy(index))
            self.names.append(display_name(path))
            for number, data in enumerate(handle, start=1):
                tally.add(data)
                if copy is not None:
                    copy.write(data)
                if data.strip():
                    paper_id = _paper_id(data, f"{self.names[index]}:{number}")
                    ids.add(paper_id)
                    self._entries.append(_Entry(paper_id, _digest(data), index, offset, len(data), number))
                offset += len(data)
        return ids, tally.entry()

    def _copy(self, index: int) -> Path:
        return self.files[0].with_name(f".input-{index}.jsonl")

    def drop(self, paper_ids: set[str]) -> None:
        """Forget the lines of these papers (an --update re-extracts them from a changed input)."""
        if paper_ids:
            self._entries = [entry for entry in self._entries if entry.paper_id not in paper_ids]

    def close(self) -> None:
        """Close the spool (the lines stay readable through sorted_lines)."""
        self._spool.close()

    def sorted_lines(self, on_duplicate: Callable[[str, str], None]) -> Iterator[tuple[str, str]]:
        """(where, line) in paper-id order, after close(); a paper met again is skipped and reported as
        (where, message)."""
        handles = [open(path, "rb") for path in self.files]  # noqa: SIM115 - closed below
        try:
            previous: _Entry | None = None
            for entry in sorted(self._entries):
                if previous is not None and entry.paper_id == previous.paper_id:
                    on_duplicate(self._where(entry), f"paper {entry.paper_id} again (kept the record at "
                                                     f"{self._where(previous)}); skipped")
                    continue
                previous = entry
                handle = handles[entry.file]
                handle.seek(entry.offset)
                yield self._where(entry), handle.read(entry.length).decode("utf8").rstrip("\n")
        finally:
            for handle in handles:
                handle.close()

    def _where(self, entry: _Entry) -> str:
        return f"{self.names[entry.file]}:{entry.line}"


def _digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=8).digest()


def _paper_id(data: bytes, where: str) -> str:
    """The paper id of one extraction line."""
    try:
        return str(json.loads(data)["paper"]["id"])
    except (ValueError, KeyError, TypeError):
        raise SchemaError(f"{where}: not a paperkg extraction record.") from None
