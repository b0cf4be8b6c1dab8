"""One input opened once: a file, a named pipe, a process substitution or standard input (`-`).

Every byte read from the input is counted and hashed as it passes (`Opened.entry`: the size and sha256 the
manifest records are those of what was read, even when the file grows meanwhile), so nothing opens it a
second time. A gzip input is decompressed to its end before any record is read (a corrupt one costs the
whole file, not half of it), then decompressed again from the same open file, up to where the first pass
ended; a pipe's compressed bytes are kept in an anonymous temporary file for that second pass. A gzip input
is cut where it has decompressed to MAX_EXPANSION times its size (a decompression bomb), and text is read in
lines of bounded length (`bounded_lines`), so no line, however long, is held whole.
"""
from __future__ import annotations

import gzip
import hashlib
import io
import os
import stat
import sys
import tempfile
import zlib
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from paperkg.core.manifest import FileEntry

STDIN = Path("-")
GZIP_MAGIC = b"\x1f\x8b"
HEAD = 8000  # bytes of content looked at before reading: binary or text (as git and grep decide), which format
CHUNK = 1 << 20
# A gzip input is cut where it has decompressed to this many times its size (plus the allowance, for small
# files): the shared corpus decompresses to 3.5 times its size (a file of one abstract repeated 2,000 times: 180);
# a decompression bomb (1 MB to 1 GiB) to 1,000.
MAX_EXPANSION = 50
EXPANSION_ALLOWANCE = 16 << 20


@dataclass
class Tally:
    """The size and sha256 of the bytes read so far."""

    size: int = 0
    sha256: Any = field(default_factory=hashlib.sha256)

    def add(self, data: memoryview | bytes) -> None:
        self.size += len(data)
        self.sha256.update(data)

    def entry(self) -> FileEntry:
        return FileEntry(self.size, self.sha256.hexdigest())


class _Counted(io.RawIOBase):
    """A stream whose every byte read is added to a tally."""

    def __init__(self, raw: IO[bytes], tally: Tally) -> None:
        self._raw, self._tally = raw, tally

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self._raw.read(len(buffer))
        buffer[:len(data)] = data
        self._tally.add(memoryview(data))
        return len(data)


class _Limited(io.RawIOBase):
    """At most `size` bytes of a stream (a gzip file's second pass stops where its first one ended)."""

    def __init__(self, raw: IO[bytes] | gzip.GzipFile, size: int) -> None:
        self._raw, self._left = raw, size

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self._raw.read(min(len(buffer), self._left))
        buffer[:len(data)] = data
        self._left -= len(data)
        return len(data)


class _Replay(io.RawIOBase):
    """The bytes already read from the start of a stream (to look at them), then the rest of it."""

    def __init__(self, head: bytes, rest: IO[bytes]) -> None:
        self._head, self._rest = memoryview(head), rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self._head:
            count = min(len(buffer), len(self._head))
            buffer[:count] = self._head[:count]
            self._head = self._head[count:]
            return count
        data = self._rest.read(len(buffer))
        buffer[:len(data)] = data
        return len(data)


@dataclass
class Opened:
    """An input as its reader sees it: the decoded text, the first bytes of its content, and after the
    with-block the size and sha256 of every byte read from it."""

    text: IO[str]
    head: bytes
    gzip_problem: str | None = None  # a gzip input that is corrupt: nothing of it is read
    cut: int | None = None  # a gzip input that decompresses to more than MAX_EXPANSION times its size: read up to this
    entry: FileEntry | None = None


@contextmanager
def opened(path: Path, gzipped: bool | None) -> Iterator[Opened]:
    """Open `path` once (STDIN: standard input). `gzipped` None: decided by the first bytes. Leaving the block
    normally reads the rest of the input (not decoded) so that `entry` is the whole input as read."""
    tally = Tally()
    with ExitStack() as stack:
        raw, regular = stack.enter_context(open_bytes(path))
        counted = io.BufferedReader(_Counted(raw, tally), CHUNK)
        start = _read_fully(counted, HEAD)
        source: IO[bytes] = io.BufferedReader(_Replay(start, counted), CHUNK)
        problem, cut = None, None
        gzipped = gzipped or (gzipped is None and start.startswith(GZIP_MAGIC))
        if gzipped:
            if not regular:  # a pipe: its compressed bytes kept for the second pass
                raw = stack.enter_context(tempfile.TemporaryFile())
                while chunk := source.read(CHUNK):
                    raw.write(chunk)
                raw.seek(0)
                source = raw
            cap = MAX_EXPANSION * os.fstat(raw.fileno()).st_size + EXPANSION_ALLOWANCE
            problem, cut = _gzip_problem(source, cap)
            raw.seek(0)
            decompressed = gzip.GzipFile(fileobj=io.BufferedReader(_Limited(raw, tally.size), CHUNK))
            source = io.BufferedReader(_Limited(decompressed, cap), CHUNK)
        head = b"" if problem else _read_fully(source, HEAD)
        text = io.TextIOWrapper(io.BufferedReader(_Replay(head, source), CHUNK), encoding="utf-8-sig",
                                errors="surrogateescape", newline="")
        result = Opened(text, head, problem, cut)
        yield result
        while not gzipped and counted.read(CHUNK):  # the rest its reader left (a gzip file's first pass read all)
            pass
        result.entry = tally.entry()


def is_stream(path: Path) -> bool:
    """Standard input, a pipe or a device: read once as it comes, not a regular file."""
    return path == STDIN or not path.is_file()


@contextmanager
def open_bytes(path: Path) -> Iterator[tuple[IO[bytes], bool]]:
    """The input's bytes (STDIN: standard input, left open), and whether it is a regular file (read again from
    its start), not a pipe or device."""
    if path == STDIN:
        yield sys.stdin.buffer, _regular(sys.stdin.buffer)
        return
    with open(path, "rb") as handle:
        yield handle, _regular(handle)


def _regular(stream: IO[bytes]) -> bool:
    """Whether a stream is a regular file (seekable, read again from its start), not a pipe or device."""
    try:
        return stat.S_ISREG(os.fstat(stream.fileno()).st_mode)
    except (OSError, ValueError, io.UnsupportedOperation):
        return False


def _read_fully(stream: IO[bytes], size: int) -> bytes:
    """Up to `size` bytes, fewer only at the end of the stream (a pipe gives what has been written so far)."""
    parts, left = [], size
    while left and (data := stream.read(left)):
        parts.append(data)
        left -= len(data)
    return b"".join(parts)


def _gzip_problem(stream: IO[bytes], cap: int) -> tuple[str | None, int | None]:
    """What is wrong with a gzip stream (not gzip, CRC or length check failed, cut short), or None: it is
    decompressed to its end in chunks; and where it is cut (None: it is not), when it decompresses to more
    than `cap` bytes (there the first pass stops, with the integrity of the rest unchecked)."""
    size = 0
    try:
        with gzip.GzipFile(fileobj=stream) as handle:
            while data := handle.read(CHUNK):
                size += len(data)
                if size > cap:
                    return None, cap
    except (OSError, EOFError, zlib.error) as error:
        return str(error) or type(error).__name__, None
    return None, None


@dataclass(frozen=True)
class LongLine:
    """A line longer than the limit, skipped as it was read: how many characters it had."""

    chars: int


def bounded_lines(text: IO[str], limit: int) -> Iterator[str | LongLine]:
    """The lines of `text`, each with its line ending; a line of more than `limit` characters is read past in
    pieces and given as a LongLine instead."""
    while line := text.readline(limit + 1):
        if len(line) <= limit or line.endswith(("\n", "\r")):
            yield line
            continue
        chars = len(line)
        while (piece := text.readline(CHUNK)) and not piece.endswith(("\n", "\r")):
            chars += len(piece)
        yield LongLine(chars + len(piece))
