"""Atomic file output: write to a temporary file beside the target, then rename over it.

The temporary file is named `.TARGET.paperkg-PID-HOST.XXXXXXXX.tmp`: paperkg's, with the process that
writes it and a tag of its host. A process killed while writing (SIGKILL, the OOM killer) leaves it
behind; the next write of the same target removes those of its host whose process is gone, and leaves
any other (a live writer's, another host's on a shared disk, a file that only looks like one).
"""
from __future__ import annotations

import errno
import hashlib
import os
import re
import socket
import tempfile
from contextlib import suppress
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO

from paperkg.core.errors import OutputWriteError
from paperkg.core.output_guard import refuse_replacing


def atomic_write(path: Path, write: Callable[[IO[bytes]], object]) -> None:
    """Call `write` with a binary file object; the target appears only once it is complete."""
    atomic_write_all({path: write})


def atomic_write_text(path: Path, text: str) -> None:
    """Write UTF-8 text atomically."""
    atomic_write(path, _writer(text.encode("utf8")))


def atomic_write_texts(texts: Mapping[Path, str]) -> None:
    """Write several UTF-8 texts, replacing all of the files or none (atomic_write_all)."""
    atomic_write_all({path: _writer(text.encode("utf8")) for path, text in texts.items()})


def _writer(data: bytes) -> Callable[[IO[bytes]], object]:
    return lambda handle: handle.write(data)


def atomic_write_all(writes: Mapping[Path, Callable[[IO[bytes]], object]]) -> None:
    """Write each file beside its target, then rename them all into place: a failure while writing any of them
    (a full disk) replaces none. A file a build lists is never replaced by other bytes (core/output_guard.py),
    and a file that cannot be written is one sentence naming it."""
    written: dict[Path, Path] = {}
    created = sorted({folder for path in writes for folder in (path.parent, *path.parent.parents)
                      if not folder.exists()}, key=lambda folder: len(folder.parts), reverse=True)
    try:
        for path, write in writes.items():
            written[path] = _written_beside(path, write)
        for path, tmp in written.items():
            refuse_replacing(path, tmp)
        for path, tmp in written.items():
            try:
                os.replace(tmp, path)
            except OSError as error:
                raise _cannot_write(path, error) from None
    except BaseException:
        for tmp in written.values():
            tmp.unlink(missing_ok=True)
        for folder in created:  # the folders made for the files (deepest first), when they stay empty
            with suppress(OSError):
                folder.rmdir()
        raise


def _written_beside(path: Path, write: Callable[[IO[bytes]], object]) -> Path:
    """The temporary file beside `path` that `write` filled; an error writing it (not one `write` met reading
    its own input) names `path`."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        remove_stale_temporaries(path)
        fd, name = tempfile.mkstemp(prefix=f".{path.name}.paperkg-{os.getpid()}-{_host_tag()}.", suffix=".tmp",
                                    dir=path.parent)
    except OSError as error:
        raise _cannot_write(path, error) from None
    tmp = Path(name)
    try:
        with os.fdopen(fd, "wb") as handle:
            write(handle)
        os.chmod(tmp, 0o666 & ~_umask())
    except BaseException as error:
        tmp.unlink(missing_ok=True)
        if isinstance(error, OSError) and error.errno in _FULL:
            raise _cannot_write(path, error) from None
        raise
    return tmp


_FULL = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})  # what writing a file meets; reading one never


def _cannot_write(path: Path, error: OSError) -> OutputWriteError:
    return OutputWriteError(f"{path}: cannot write it ({error.strerror or error}); nothing was replaced.")


def remove_stale_temporaries(path: Path) -> list[Path]:
    """Remove the temporary files a killed paperkg process left beside `path` (this host's, owner gone);
    returns those removed."""
    prefix = f".{path.name}.paperkg-"
    removed: list[Path] = []
    try:
        names = [entry.name for entry in os.scandir(path.parent) if entry.name.startswith(prefix)]
    except OSError:
        return removed
    for name in names:
        owner = _TEMPORARY.fullmatch(name[len(prefix):])
        if owner and owner["host"] == _host_tag() and not _alive(int(owner["pid"])):
            stale = path.parent / name
            stale.unlink(missing_ok=True)
            removed.append(stale)
    return removed


_TEMPORARY = re.compile(r"(?P<pid>[0-9]{1,10})-(?P<host>[0-9a-f]{8})\.[a-z0-9_]{8}\.tmp")


def _host_tag() -> str:
    """A short tag of this machine's name: a pid means nothing on another host sharing the folder."""
    return hashlib.sha256(socket.gethostname().encode("utf8", "surrogateescape")).hexdigest()[:8]


def _alive(pid: int) -> bool:
    """Whether a process with this id exists (ours, or another user's)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):  # another user's process (EPERM), or not a pid this system can have
        return True
    return True


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current
