"""Run the `paperkg` command in a subprocess, the way a user does."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "examples" / "icml2025"


def run_cli(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    """`python -m paperkg ARGS`; with check, a non-zero exit fails the test with the output."""
    result = subprocess.run([sys.executable, "-m", "paperkg", *args], capture_output=True, text=True)
    if check and result.returncode != 0:
        raise AssertionError(f"paperkg {' '.join(args)} exited {result.returncode}:\n{result.stdout}\n{result.stderr}")
    return result
