"""Shared fixtures: the example corpus, one in-process build of it, and the public data beside the repository."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from cli_helpers import CORPUS, ROOT, run_cli
from neo4j_fixtures import clean_neo4j, neo4j_target  # noqa: F401 - the Neo4j tests' fixtures

SHARED = Path(os.environ.get("PAPERKG_SHARED", ROOT.parent / "shared"))


@pytest.fixture(scope="session")
def corpus() -> Path:
    return CORPUS


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Path:
    """`paperkg build examples/icml2025 -o OUT` once per test session; returns OUT."""
    out = tmp_path_factory.mktemp("build")
    run_cli("build", str(CORPUS), "-o", str(out))
    return out


@pytest.fixture(scope="session")
def shared() -> Path:
    """The public benchmarks and corpus beside the repository (../shared, or PAPERKG_SHARED).

    Missing data fails the tests that need it, loudly: CI has it. To run the suite without it,
    set PAPERKG_SKIP_SHARED=1 and those tests are skipped with this reason.
    """
    if not (SHARED / "benchmarks").is_dir():
        message = f"{SHARED}/benchmarks is missing (set PAPERKG_SHARED, or PAPERKG_SKIP_SHARED=1 to skip)"
        if os.environ.get("PAPERKG_SKIP_SHARED") == "1":
            pytest.skip(message)
        pytest.fail(message)
    return SHARED
