"""paperkg.processes.exit: the CLI's process ends with its command's exit code, atexit handlers run and
output flushed, without the interpreter's teardown; other exceptions propagate."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


def _run(command: str, tmp_path: Path) -> subprocess.CompletedProcess:
    program = "\n".join([
        "import atexit, sys",
        "from pathlib import Path",
        "from paperkg.processes import run_and_exit",
        f"atexit.register(lambda: Path({str(tmp_path / 'atexit-ran')!r}).write_text('yes'))",
        "def command():",
        "    sys.stdout.write('unflushed output')",
        f"    {command}",
        "run_and_exit(command)",
    ])
    return subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize(("command", "code"), [("return None", 0), ("sys.exit(3)", 3), ("sys.exit(None)", 0)])
def test_exit_code_output_and_atexit_handlers_kept(tmp_path, command, code):
    finished = _run(command, tmp_path)
    assert finished.returncode == code, finished.stderr
    assert finished.stdout == "unflushed output"
    assert (tmp_path / "atexit-ran").read_text() == "yes"


def test_exit_with_a_message_prints_it_and_fails(tmp_path):
    finished = _run("sys.exit('no such thing')", tmp_path)
    assert (finished.returncode, finished.stderr) == (1, "no such thing\n")


def test_other_exceptions_propagate_with_their_traceback(tmp_path):
    finished = _run("raise KeyError('boom')", tmp_path)
    assert finished.returncode == 1
    assert "Traceback" in finished.stderr and "KeyError: 'boom'" in finished.stderr
    assert (tmp_path / "atexit-ran").read_text() == "yes"
