"""The README's Python API example runs as written, from the repository root."""
from __future__ import annotations

import re

import pytest
from cli_helpers import ROOT


@pytest.mark.slow
def test_python_api_example_runs(monkeypatch, capsys):
    readme = (ROOT / "README.md").read_text(encoding="utf8")
    section = readme[readme.index("**Python API**"):]
    code = re.search(r"```python\n(.*?)```", section, re.DOTALL).group(1)
    monkeypatch.chdir(ROOT)
    exec(compile(code, "README.md", "exec"), {})
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3 + 1 and all(re.match(r"h\w+ \[\('", line) for line in lines[:3])
    nodes, edges = re.match(r"(\d+) nodes, (\d+) edges", lines[3]).groups()
    assert int(nodes) > 300 and int(edges) > 300
