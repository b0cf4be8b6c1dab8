"""A run's warnings: every one counted and kept in an anonymous temporary file (written out whole by
--warnings-file), the first KEPT in memory for the terminal, so a file of millions of bad lines costs disk,
not memory, and no warning is lost behind "... and N more warnings"."""
from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from paperkg.core.atomic import atomic_write
from paperkg.core.output_guard import check_output
from paperkg.ingest.readers import InputWarning

KEPT = 100  # warnings kept in memory; the terminal shows the first 20 (cli_output.MAX_WARNINGS_SHOWN)


class WarningLog:
    """An `on_warning` handler that counts every warning, keeps the first KEPT, and spools all to disk."""

    def __init__(self) -> None:
        self.first: list[InputWarning] = []
        self.count = 0
        self._spool: IO[str] | None = None

    def __call__(self, warning: InputWarning) -> None:
        self.count += 1
        if len(self.first) < KEPT:
            self.first.append(warning)
        if self._spool is None:
            self._spool = tempfile.TemporaryFile("w+", encoding="utf8", errors="surrogateescape")  # noqa: SIM115
        self._spool.write(" ".join(str(warning).splitlines()) + "\n")

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[InputWarning]:
        return iter(self.first)

    def write(self, path: Path) -> None:
        """Write every warning, one a line, to `path` (an empty file when there were none)."""
        check_output(path, "the warnings")

        def copy(handle: IO[bytes]) -> None:
            if self._spool is not None:
                self._spool.flush()
                with open(self._spool.fileno(), "rb", closefd=False) as spool:
                    spool.seek(0)
                    shutil.copyfileobj(spool, handle)

        atomic_write(path, copy)
