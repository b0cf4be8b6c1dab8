"""Shared fixtures: the example corpus, and one CLI build of it reused by the end-to-end tests."""
from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import CORPUS, run_cli
from neo4j_fixtures import clean_neo4j, neo4j_target  # noqa: F401 - the Neo4j tests' fixtures


@pytest.fixture(scope="session")
def corpus() -> Path:
    return CORPUS


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Path:
    """`paperkg build examples/icml2025 -o OUT` once per test session; returns OUT."""
    out = tmp_path_factory.mktemp("build")
    run_cli("build", str(CORPUS), "-o", str(out))
    return out
