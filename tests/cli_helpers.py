"""Run the `paperkg` command in process with Typer's runner (one subprocess smoke test lives in test_cli_smoke.py)."""
from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import typer
from typer.testing import CliRunner

from paperkg.cli import app

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "examples" / "icml2025"


@dataclass(frozen=True)
class CliResult:
    """What a command printed and how it exited."""

    returncode: int
    stdout: str
    stderr: str


@cache
def click_command() -> typer.core.TyperGroup:
    """The click command Typer makes of the app, made once: `CliRunner.invoke(app)` makes it again on every
    call (reading every command's signature and type hints), which was most of a short command's time."""
    return typer.main.get_command(app)


def run_cli(*args: str, check: bool = True, input: str | None = None) -> CliResult:
    """`paperkg ARGS` in this process; with check, a non-zero exit fails the test with the output."""
    with CliRunner().isolation(input=input) as (stdout, stderr, _):
        try:
            code = click_command().main(args=list(args), prog_name="paperkg")
        except SystemExit as exit_:
            code = exit_.code
        sys.stdout.flush()
        sys.stderr.flush()
        returncode = code if isinstance(code, int) else 0 if code is None else 1
        outcome = CliResult(returncode, stdout.getvalue().decode(), stderr.getvalue().decode())
    if check and outcome.returncode != 0:
        raise AssertionError(f"paperkg {' '.join(args)} exited {outcome.returncode}:\n"
                             f"{outcome.stdout}\n{outcome.stderr}")
    return outcome
