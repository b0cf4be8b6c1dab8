"""Shared fixtures: the example corpus, one in-process build of it, and the public data beside the repository."""
from __future__ import annotations

import os
import sys

# Many containers (this machine too) set PYTHONDONTWRITEBYTECODE=1: then each of the suite's Python
# processes (two workers, ~20 subprocesses, fork servers, Dask workers) compiles paperkg's modules
# again and pytest rewrites every test module again: ~4 of the ~45 CPU seconds here. The suite
# writes the usual __pycache__ folders (git ignores them), before importing anything below.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

import fcntl  # noqa: E402 - imports after the two lines above, so that they are cached too
from collections import Counter  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402
from hypothesis import settings  # noqa: E402
from browser import _chromium, context  # noqa: E402, F401 - the browser tests' fixtures
from cli_helpers import CORPUS, ROOT, run_cli  # noqa: E402
from neo4j_fixtures import clean_neo4j, neo4j_server, neo4j_target, neo4j_turn  # noqa: E402, F401 - Neo4j fixtures

SHARED = Path(os.environ.get("PAPERKG_SHARED", ROOT.parent / "shared"))

# Property tests: the same 100 examples on every run (a failure in CI is one anyone can rerun, and no
# .hypothesis database is written); HYPOTHESIS_PROFILE=explore searches ten times wider, at random. Tests
# whose examples are slow (a build, a CLI run each) set a smaller max_examples of their own.
settings.register_profile("ci", max_examples=100, derandomize=True, database=None)
settings.register_profile("explore", max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(scope="session")
def corpus() -> Path:
    return CORPUS


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Path:
    """`paperkg build examples/icml2025 -o OUT` once per test run; returns OUT. pytest-xdist workers
    share it: the first to take the lock builds, the others wait and read (tests copy it to change it)."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    out = shared / "icml-build"
    with open(shared / "icml-build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (out / "manifest.json").is_file():
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


# Opt-in tiers: a test marked with one of these runs only with its option, or a -m expression naming the marker
# (scripts/test.sh, as CI, passes both). The help says why each is out of the default run.
OPT_IN = {"training": "also run the `paperkg train` smoke run (marker `training`, about 10 s)",
          "acceptance": "also run the acceptance tier (marker `acceptance`): the 1,000-abstract corpus build, the "
                        "builds killed to check no process outlives them, a real Dask cluster, a plain install into a "
                        "fresh environment building 2,000 abstracts, a test run beside a Neo4j on 7687; minutes"}


def _left_out(config: pytest.Config) -> list[str]:
    """The opt-in markers this run does not ask for."""
    return [marker for marker in OPT_IN if not _wanted(config, marker)]


def _wanted(config: pytest.Config, marker: str) -> bool:
    return bool(config.getoption(f"--{marker}")) or marker in (config.getoption("-m") or "")


def pytest_addoption(parser: pytest.Parser) -> None:
    for marker, help_text in OPT_IN.items():
        parser.addoption(f"--{marker}", action="store_true",
                         help=f"{help_text}; a -m expression that names `{marker}` selects it too")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The opt-in tiers only when asked for (scripts/test.sh asks); then the scopes with the most slow tests
    first (see `_slow_first`)."""
    left_out = _left_out(config)
    deselected = [item for item in items if any(item.get_closest_marker(marker) for marker in left_out)]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = [item for item in items if item not in deselected]
    _slow_first(items)


def _slow_first(items: list[pytest.Item]) -> None:
    """Modules in descending number of slow tests (those marked slow, neo4j or browser), then of tests:
    the workers start the long modules and fill in with short ones, so they finish together
    (pytest-xdist hands out whole modules, `--dist loadfile`, in this order, `--no-loadscope-reorder`)."""
    first_seen: dict[str, int] = {}
    slow: Counter[str] = Counter()
    tests: Counter[str] = Counter()
    for item in items:
        module = _module(item)
        first_seen.setdefault(module, len(first_seen))
        slow[module] += any(item.get_closest_marker(name) for name in ("slow", "neo4j", "browser"))
        tests[module] += 1

    def cost(item: pytest.Item) -> tuple[int, int, int]:
        module = _module(item)
        return -slow[module], -tests[module], first_seen[module]

    items.sort(key=cost)


def _module(item: pytest.Item) -> str:
    return item.nodeid.split("::", 1)[0]


def pytest_report_header(config: pytest.Config) -> str | None:
    left_out = _left_out(config)
    if not left_out:
        return None
    options = " and ".join(f"--{marker}" for marker in left_out)
    return f"deselected: the tests marked {', '.join(left_out)}; pass {options} to run them (scripts/test.sh does)"
