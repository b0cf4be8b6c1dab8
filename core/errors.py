"""User-facing errors: one sentence a user can act on, and the exit code it maps to."""
from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """Exit codes of the `paperkg` command; documented in `paperkg --help`."""

    OK = 0
    FAILED = 1          # unexpected failure (a bug): rerun with --debug for the traceback
    USAGE = 2           # bad command line, missing or unreadable input, bad setting
    INPUT_WARNINGS = 3  # finished, but some input records were skipped (see warnings)
    SERVER = 4          # Neo4j unreachable, refused the credentials, or the database is wrong
    MISMATCH = 5        # a push finished but the server's counts differ from the graph sent


class PaperkgError(Exception):
    """An error whose message is meant for the user, with the exit code to leave with."""

    def __init__(self, message: str, code: ExitCode = ExitCode.USAGE) -> None:
        super().__init__(message)
        self.code = code


class OutputWriteError(PaperkgError):
    """The outputs could not be written (full disk, no permission): nothing was replaced."""

    def __init__(self, message: str) -> None:
        super().__init__(message, ExitCode.USAGE)
