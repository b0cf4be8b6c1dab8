"""The README's Python API example runs as written: in this process from the repository root, and as a script in a
folder outside it with the interpreter running the tests (an editable install under scripts/test.sh)."""
from __future__ import annotations

import subprocess
import sys

import pytest
from cli_helpers import ROOT
from readme_example import check_output, readme_example, script_in


@pytest.mark.slow
def test_python_api_example_runs(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    exec(compile(readme_example(), "README.md", "exec"), {})
    check_output(capsys.readouterr().out)


@pytest.mark.slow
def test_python_api_example_runs_from_a_script_outside_the_repository(tmp_path):
    script = script_in(tmp_path / "elsewhere")
    ran = subprocess.run([sys.executable, str(script)], cwd=script.parent, capture_output=True, text=True,
                         timeout=600)
    assert ran.returncode == 0, ran.stderr
    check_output(ran.stdout)
