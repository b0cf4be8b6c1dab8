"""docs/CLI.md is every command's current `--help` (scripts/cli_reference.py makes it)."""
from __future__ import annotations

import sys

import pytest
from cli_helpers import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import cli_reference


def test_the_cli_reference_is_current() -> None:
    if cli_reference.RENDERED_WITH not in cli_reference.DOC.read_text(encoding="utf8"):
        pytest.skip("docs/CLI.md was rendered with other typer/rich versions (the lowest-versions job)")
    assert cli_reference.DOC.read_text(encoding="utf8") == cli_reference.reference(), \
        "docs/CLI.md is not current: run python scripts/cli_reference.py"


def test_the_reference_lists_every_command() -> None:
    paths = {" ".join(path) for path in cli_reference.command_paths(cli_reference.app)}
    assert {"build", "extract", "export", "view", "push", "query", "eval", "eval acronyms", "train"} <= paths
