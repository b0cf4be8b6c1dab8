"""Run the `paperkg` command in process with Typer's runner (one subprocess smoke test lives in test_cli_smoke.py)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

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


def run_cli(*args: str, check: bool = True, input: str | None = None) -> CliResult:
    """`paperkg ARGS` in this process; with check, a non-zero exit fails the test with the output."""
    result = CliRunner().invoke(app, list(args), input=input)
    outcome = CliResult(int(result.exit_code), result.stdout, result.stderr)
    if check and outcome.returncode != 0:
        raise AssertionError(f"paperkg {' '.join(args)} exited {outcome.returncode}:\n"
                             f"{outcome.stdout}\n{outcome.stderr}")
    return outcome
