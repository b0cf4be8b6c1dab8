"""The README's Python API example, as the README writes it, and what it must print (tests/test_readme.py runs it
in this process, tests/test_install_layout.py from scripts outside the repository)."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

from cli_helpers import CORPUS, ROOT


def readme_example() -> str:
    """The code of the README's one ```python block."""
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf8"), re.DOTALL)
    assert len(blocks) == 1, "the README has one Python example"
    return blocks[0]


def script_in(folder: Path) -> Path:
    """The example as a script in `folder`, beside a copy of the example corpus it reads (examples/icml2025)."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copytree(CORPUS, folder / "examples" / CORPUS.name)
    script = folder / "example.py"
    script.write_text(readme_example(), encoding="utf8")
    return script


def check_output(printed: str) -> None:
    """Three papers with their first entities, then the graph's size."""
    lines = printed.splitlines()
    assert len(lines) == 3 + 1 and all(re.match(r"h\w+ \[\('", line) for line in lines[:3]), printed
    nodes, edges = re.match(r"(\d+) nodes, (\d+) edges", lines[3]).groups()
    assert int(nodes) > 300 and int(edges) > 300
