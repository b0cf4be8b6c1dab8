"""What the inputs name: each file as given (a named pipe, a process substitution, standard input `-`), each
glob's files, and each folder's regular files of a supported type, sorted.

A folder is its own regular files: hidden ones are left out, and so, each with a warning, are its symbolic
links that lead out of it or to a folder (unless `follow_links`), its device files, named pipes and sockets,
and a paperkg output folder inside it (one holding paperkg's manifest.json: an earlier build is never read as
input; the run's own output folder is left out without a word).
"""
from __future__ import annotations

import glob
import os
import stat
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from paperkg.core.characters import replace_invalid_characters
from paperkg.core.manifest import MANIFEST, MANIFEST_KEY
from paperkg.ingest.source import STDIN

Report = Callable[[str, str], None]      # (source, message)
FORMATS = {".txt": "txt", ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "json",
           ".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".bib": "bib"}
_SPECIAL = ((stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a device file"),
            (stat.S_ISBLK, "a device file"))


def input_files(inputs: str | Path | Iterable[str | Path], report: Report, *, follow_links: bool = False,
                output: Path | None = None) -> Iterator[Path]:
    """The files named by the inputs (see the module docstring); `output`, the run's own output, is never
    one of a folder's files."""
    for item in [inputs] if isinstance(inputs, (str, Path)) else inputs:
        path = Path(item)
        if str(item) == str(STDIN):
            yield STDIN
        elif path.is_dir():
            yield from sorted(_Folder(path, report, follow_links, output).files())
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
    return FORMATS.get(suffixes[-1]) if suffixes else None


def display_name(path: Path) -> str:
    """The path as text every output can hold: undecodable bytes as \\xNN, controls as '?'; standard input
    as <stdin>."""
    if path == STDIN:
        return "<stdin>"
    return replace_invalid_characters(os.fsencode(path).decode("utf8", "backslashreplace"), "?")


class _Folder:
    """One input folder walked: its files, and a warning for each thing in it that is not read."""

    def __init__(self, root: Path, report: Report, follow_links: bool, output: Path | None) -> None:
        self.root, self.report, self.follow_links = root, report, follow_links
        self.real_root = root.resolve()
        inside = output is not None and self.real_root in output.resolve().parents
        self.output = output.resolve() if inside and output is not None else None  # only one inside is met
        self.visited = {self.real_root}

    def files(self) -> Iterator[Path]:
        yield from self._walk(self.root)

    def _walk(self, folder: Path) -> Iterator[Path]:
        try:
            entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
        except OSError as error:
            self.report(display_name(folder), f"cannot be listed ({error.strerror}); skipped")
            return
        for entry in entries:
            path = Path(entry.path)
            if entry.name.startswith(".") or (self.output is not None and path.resolve() == self.output):
                continue
            if entry.is_symlink():
                yield from self._link(path)
            elif entry.is_dir(follow_symlinks=False):
                yield from self._subfolder(path)
            elif entry.is_file(follow_symlinks=False):
                if file_format(path):
                    yield path
            else:
                self._special(path)

    def _link(self, path: Path) -> Iterator[Path]:
        """A symbolic link: a file inside the folder is read; a link out of it or to a folder only with
        follow_links."""
        try:
            target = path.resolve(strict=True)
        except (OSError, RuntimeError):
            self.report(display_name(path), f"is a symbolic link to {display_name(Path(os.readlink(path)))}, which "
                                            "does not exist (or is a loop of links); skipped")
            return
        inside = target == self.real_root or self.real_root in target.parents
        if target.is_dir():
            if self.follow_links and target not in self.visited:
                yield from self._subfolder(path)
            elif not self.follow_links:
                self.report(display_name(path), f"is a symbolic link to the folder {display_name(target)}; skipped "
                                                "(--follow-links reads it)")
        elif inside or self.follow_links:
            if target.is_file() and file_format(path):
                yield path
            elif not target.is_file():
                self._special(path)
        elif file_format(path):
            self.report(display_name(path), f"is a symbolic link out of the input folder {display_name(self.root)} "
                                            f"(to {display_name(target)}); skipped (--follow-links reads it)")

    def _subfolder(self, path: Path) -> Iterator[Path]:
        if _is_output_folder(path):
            self.report(display_name(path), f"is a paperkg output folder (it holds {MANIFEST}), never an input; "
                                            "skipped")
            return
        self.visited.add(path.resolve())
        yield from self._walk(path)

    def _special(self, path: Path) -> None:
        mode = os.stat(path).st_mode if path.exists() else 0
        kind = next((name for test, name in _SPECIAL if test(mode)), "not a regular file")
        self.report(display_name(path), f"is {kind}, not a regular file; skipped (name it on its own to read it)")


def _is_output_folder(folder: Path) -> bool:
    """A folder holding paperkg's manifest (a build's outputs or extract --dask's shards)."""
    try:
        return f'"{MANIFEST_KEY}"' in (folder / MANIFEST).read_text(encoding="utf8")
    except (OSError, UnicodeDecodeError):
        return False
