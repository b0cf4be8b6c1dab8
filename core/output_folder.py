"""An output folder whose files are replaced together or not at all.

A build writes its files into `.paperkg-staging/` inside the output folder, then writes their
manifest there and renames the folder to `.paperkg-commit/`: that rename is the commit point.
The files then move into place one by one, the manifest last. A kill before the commit leaves
the old set (the stale staging folder is removed by the next run); a kill after it leaves a
commit that the next build or reader finishes. One build at a time holds the folder's lock.
"""
from __future__ import annotations

import errno
import fcntl
import os
import shutil
from pathlib import Path
from types import TracebackType

from paperkg.core.errors import OutputWriteError, PaperkgError
from paperkg.core.manifest import MANIFEST, Manifest, OutputMismatch, UnsafeManifest, read_manifest, verify

STAGING = ".paperkg-staging"
COMMIT = ".paperkg-commit"


def names_folder(path: Path) -> bool:
    """The rule every command reads -o by: it names a folder when it is one, ends with a separator or has
    no file extension; else a file."""
    return path.is_dir() or str(path).endswith(("/", "\\")) or not path.suffix


# The extensions of the files paperkg reads and writes: where -o can only name a folder (a build, the two
# views, Dask's shards, a CSV export), a name with one of these is a mistake said in one sentence, and any
# other name is the folder (`-o out.d`, `-o acl.2024`).
FILE_SUFFIXES = frozenset({".json", ".jsonl", ".graphml", ".gexf", ".html", ".htm", ".csv", ".tsv", ".txt", ".bib",
                           ".gz", ".xml", ".parquet"})


def names_file_only(path: Path) -> bool:
    """Whether an -o that can only be a folder names a file instead: it is not one already, does not end with
    a separator, and ends with the extension of a file type paperkg reads or writes."""
    return not names_folder(path) and path.suffix.lower() in FILE_SUFFIXES


def check_links(path: Path, option: str = "-o") -> None:
    """Refuse an output path that is, or lies under, a symbolic link leading nowhere or in a loop (one sentence,
    not "File exists" or a loop found half way through the work)."""
    for link in (path, *path.parents):
        if not link.is_symlink():
            continue
        try:
            link.resolve(strict=True)
        except RuntimeError:  # Python 3.11 and 3.12 say a loop so
            raise PaperkgError(f"{option} {path}: {link} is a symbolic link that leads in a loop; name another "
                               "path.") from None
        except OSError as error:
            if error.errno == errno.ELOOP:
                raise PaperkgError(f"{option} {path}: {link} is a symbolic link that leads in a loop; name another "
                                   "path.") from None
            raise PaperkgError(f"{option} {path}: {link} is a symbolic link to {os.readlink(link)}, which does not "
                               "exist; create it or name another path.") from None


def check_output_folder(folder: Path, option: str = "-o") -> None:
    """Refuse, before any work, an output path that is the file system's root, a file or under a file, or a
    broken symbolic link."""
    check_links(folder, option)
    if folder.resolve() == Path(folder.resolve().anchor):
        raise PaperkgError(f"{option} {folder} is the root of the file system; name a folder of its own for the "
                           "outputs.")
    for path in (folder, *folder.parents):
        if path.exists():
            if not path.is_dir():
                raise PaperkgError(f"{option} {folder}: {path} is a file, not a folder; name an output folder.")
            return


class OutputTransaction:
    """`with OutputTransaction(folder) as out:` write into `out.staging`, then `out.commit(manifest)`;
    leaving the block without a commit (an error, Ctrl-C) removes the staging folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.staging = folder / STAGING
        self._lock_fd: int | None = None
        self._created = False
        self._committed = False

    def __enter__(self) -> OutputTransaction:
        check_output_folder(self.folder)
        try:
            self._created = not self.folder.exists()
            self.folder.mkdir(parents=True, exist_ok=True)
            self._lock_fd = _lock(self.folder)
            recover(self.folder)
            self.staging.mkdir()
        except UnsafeManifest:
            self._release()
            raise
        except BlockingIOError:
            self._release()
            raise PaperkgError(f"-o {self.folder}: another paperkg build is writing to this folder; wait for it "
                               "or choose another output folder.") from None
        except OSError as error:
            self._release()
            raise OutputWriteError(f"-o {self.folder}: cannot write there ({error.strerror}).") from None
        return self

    def commit(self, manifest: Manifest) -> None:
        """Make the staged files (named by `manifest`) the folder's outputs, all together."""
        for name in manifest.files:
            _fsync(self.staging / name)
        (self.staging / MANIFEST).write_text(manifest.to_json(), encoding="utf8")
        _fsync(self.staging / MANIFEST)
        _fsync(self.staging)
        os.replace(self.staging, self.folder / COMMIT)
        _fsync(self.folder)
        self._committed = True
        _roll_forward(self.folder)

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        try:
            if not self._committed:
                _remove_own_folder(self.staging)
                if self._created and not any(self.folder.iterdir()):
                    self.folder.rmdir()
        finally:
            self._release()
        if isinstance(error, OSError):
            where = error.filename or self.staging
            raise OutputWriteError(f"{where}: {error.strerror or error}; nothing was replaced: the outputs in "
                                   f"{self.folder} are as they were.") from error

    def _release(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # closing drops the lock
            self._lock_fd = None


def recover(folder: Path) -> None:
    """Finish a commit that a kill interrupted and remove a staging folder no build is using
    (the caller holds the folder's lock)."""
    _previous_files(folder)  # a folder whose manifest names foreign files is refused before anything moves
    if (folder / COMMIT).is_dir() or (folder / COMMIT).is_symlink():
        _roll_forward(folder)
    _remove_own_folder(folder / STAGING)


def checked_output(path: Path) -> None:
    """Before reading a build's output file: finish an interrupted commit in its folder, then refuse
    the file if the folder's manifest lists it with another size or sha256."""
    folder = path.parent
    if (folder / COMMIT).is_dir() or (folder / COMMIT).is_symlink():
        try:
            fd = _lock(folder)
        except BlockingIOError:
            raise PaperkgError(f"a paperkg build is replacing the outputs in {folder} right now; try again "
                               "when it has finished.") from None
        try:
            _roll_forward(folder)
        except OSError as error:
            raise OutputMismatch(f"{folder} holds a build whose outputs were being replaced when it stopped, and "
                                 f"it cannot be finished from here ({error.strerror}); "
                                 "build the folder again.") from None
        finally:
            os.close(fd)
    manifest = read_manifest(folder)
    if manifest is not None:
        verify(folder, manifest, (path.name,))


def _roll_forward(folder: Path) -> None:
    """Move the committed files into place, the manifest last, remove files of the previous set that
    the new one lacks (shards), and remove the commit folder."""
    commit = folder / COMMIT
    if commit.is_symlink():
        raise UnsafeManifest(f"{commit} is a symbolic link, not a folder paperkg made, so the folder is refused and "
                             "nothing was moved; remove the link and build again.")
    manifest = read_manifest(commit) if _regular_file(commit / MANIFEST) else None
    if manifest is not None:
        previous = _previous_files(folder)
        for name in sorted(manifest.files):
            if _regular_file(commit / name):
                _own_parent(folder / name, folder)
                os.replace(commit / name, folder / name)
        os.replace(commit / MANIFEST, folder / MANIFEST)
        for name in sorted(previous - set(manifest.files)):
            (folder / name).unlink(missing_ok=True)
    shutil.rmtree(commit)
    _fsync(folder)


def _own_parent(path: Path, folder: Path) -> None:
    """The folder a Parquet part goes in (nodes/, edges/, evidence/), made when missing, never a link."""
    if path.parent != folder:
        if path.parent.is_symlink():
            raise UnsafeManifest(f"{path.parent} is a symbolic link, not a folder paperkg made, so the folder is "
                                 "refused; remove the link and build again.")
        path.parent.mkdir(exist_ok=True)


def _regular_file(path: Path) -> bool:
    """A file that is not a symbolic link (a link in a commit could bring in a file from anywhere)."""
    return path.is_file() and not path.is_symlink()


def _remove_own_folder(path: Path) -> None:
    """Remove a staging folder paperkg made; a symbolic link by that name is removed, never followed."""
    if path.is_symlink():
        path.unlink()
    else:
        shutil.rmtree(path, ignore_errors=True)


def _previous_files(folder: Path) -> set[str]:
    """The files the folder's current manifest lists (none when it is missing or unreadable)."""
    try:
        manifest = read_manifest(folder)
    except UnsafeManifest:
        raise
    except OutputMismatch:
        return set()
    return set(manifest.files) if manifest else set()


def _lock(folder: Path) -> int:
    """An exclusive, non-blocking lock on the folder (released when the process ends, even by kill -9)."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise
    return fd


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)

