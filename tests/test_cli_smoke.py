"""The one true subprocess test: the installed `paperkg` script, as a user runs it."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import CORPUS

from paperkg import __version__


def _paperkg() -> str:
    return shutil.which("paperkg") or str(Path(sys.executable).with_name("paperkg"))


@pytest.mark.slow
def test_installed_script_builds_a_file_and_answers_usage_mistakes(tmp_path):
    header, *abstracts = sorted(CORPUS.glob("*.txt"))[0].read_text(encoding="utf8").split("\n\n")
    source = tmp_path / "three.txt"
    source.write_text("\n\n".join([header, *abstracts[:3]]), encoding="utf8")
    out = tmp_path / "out"
    built = subprocess.run([_paperkg(), "build", str(source), "-o", str(out)], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    assert "3 papers" in built.stdout
    assert {p.name for p in out.iterdir()} >= {"graph.json", "graph.graphml", "graph.html", "extractions.jsonl"}
    version = subprocess.run([_paperkg(), "--version"], capture_output=True, text=True)
    assert version.stdout.strip() == f"paperkg {__version__}"
    mistake = subprocess.run([_paperkg(), "build"], capture_output=True, text=True)
    assert mistake.returncode == 2
    assert mistake.stderr.count("\n") == 1 and "Missing argument" in mistake.stderr
