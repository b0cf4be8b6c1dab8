"""docs/reference/ is what scripts/references.py makes from the code: the CLI's help, the graph model, the extraction
record, the settings, the Python API and the Cypher library (as sqlite-utils checks its generated CLI reference)."""
from __future__ import annotations

import sys

import pytest
from cli_helpers import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import references


@pytest.mark.parametrize("name", sorted(references.PAGES))
def test_the_reference_is_current(name: str) -> None:
    page = references.REFERENCE / name
    if name == "cli.md" and references.RENDERED_WITH not in page.read_text(encoding="utf8"):
        pytest.skip("docs/reference/cli.md was rendered with other typer/rich versions (the lowest-versions job)")
    assert page.read_text(encoding="utf8") == references.PAGES[name](), \
        f"{page} is not current: run python scripts/references.py"


def test_the_cli_reference_lists_every_command() -> None:
    paths = {" ".join(path) for path in references.command_paths(references.app)}
    assert {"build", "extract", "export", "view", "push", "query", "eval", "eval acronyms", "train", "trends"} <= paths
