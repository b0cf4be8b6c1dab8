"""Run the `paperkg` command the way a user does: in a subprocess, or in this process (faster: the
pipeline stays loaded between calls)."""
from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "examples" / "icml2025"


def run_cli(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    """`python -m paperkg ARGS`; with check, a non-zero exit fails the test with the output."""
    result = subprocess.run([sys.executable, "-m", "paperkg", *args], capture_output=True, text=True)
    if check and result.returncode != 0:
        raise AssertionError(f"paperkg {' '.join(args)} exited {result.returncode}:\n{result.stdout}\n{result.stderr}")
    return result


@dataclass
class CliResult:
    """What an in-process run printed and its exit code."""

    returncode: int
    stdout: str
    stderr: str


def invoke_cli(*args: str, check: bool = True) -> CliResult:
    """`paperkg ARGS` through paperkg.cli.main in this process, with Typer's CliRunner streams."""
    from paperkg import cli

    with CliRunner().isolation() as (stdout, stderr, _):
        argv, sys.argv = sys.argv, ["paperkg", *args]
        try:
            cli.main()
            code = 0
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else int(done.code is not None)
        finally:
            sys.argv = argv
        result = CliResult(code, stdout.getvalue().decode(), stderr.getvalue().decode())
    if check and code != 0:
        raise AssertionError(f"paperkg {' '.join(args)} exited {code}:\n{result.stdout}\n{result.stderr}")
    return result
