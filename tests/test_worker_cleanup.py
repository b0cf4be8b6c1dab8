"""A build killed while its workers extract leaves no process behind: the fork server, the workers and
the resource tracker go with it (SIGKILL, as the OOM killer sends, or SIGTERM, as timeout and job cancels do);
so do the forked copy writing GraphML and the map's layout worker when it is killed after the graph."""
from __future__ import annotations

import signal
import sys
import time
from pathlib import Path

import pytest

from build_helpers import example_papers, killed_build, write_papers

# Acceptance tier: each test starts a --jobs 2 build (a fork server, workers loading spaCy), kills it, waits for
# every process it started to end.
pytestmark = [pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal is Linux's"),
              pytest.mark.acceptance]

# In the killed build: once the first batch comes back from a worker, write the build's descendants
# (fork server, workers, resource tracker) to a file, then SIGKILL the build.
_PATCH = '''
from pathlib import Path
import paperkg.orchestrate.parallel as parallel

def descendants(root):
    children = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = [], [root]
    while todo:
        below = children.get(todo.pop(), [])
        found += below
        todo += below
    return sorted(found)

real_collect = parallel._collect
def collect(item):
    yield from real_collect(item)
    Path(PIDS).write_text(" ".join(map(str, descendants(os.getpid()))))
    die()
parallel._collect = collect
'''


def _alive(pid: int) -> bool:
    """A process that exists and is not a zombie (a zombie has ended; only its exit status is left)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _killed_build_pids(tmp_path, papers: int, options: list[str], patch: str, signal_name: str) -> list[int]:
    """Kill a `--jobs 2` build of the first example papers, patched by `patch` (which writes the pids of the
    build's descendants to PIDS), by the signal; check the signal ended it and return those pids."""
    source = write_papers(tmp_path / "papers.jsonl", example_papers()[:papers])
    pids_file = tmp_path / "pids"
    killed = killed_build(["build", str(source), "-o", str(tmp_path / "out"), "--no-model", "--jobs", "2", *options],
                          f"PIDS = {str(pids_file)!r}\n" + patch, signal_name)
    assert killed.returncode == -getattr(signal, signal_name), killed.stderr
    return [int(pid) for pid in pids_file.read_text().split()]


@pytest.mark.slow
@pytest.mark.parametrize("signal_name", ["SIGKILL", "SIGTERM"])
def test_a_kill_during_extraction_leaves_no_process_of_the_build(tmp_path, signal_name):
    pids = _killed_build_pids(tmp_path, 12, ["--batch-size", "2"], _PATCH, signal_name)
    assert len(pids) >= 3, pids  # the fork server, two workers (and the resource tracker)
    _assert_all_end(pids)


# In the killed build: the forked copy writing GraphML sleeps; once the views are planned (the map's layout
# worker forked too), write the build's descendants to a file, then kill the build.
_PATCH_AFTER_GRAPH = _PATCH.split("real_collect")[0] + '''
import time
import paperkg.graph.exports as exports
import paperkg.viz.views as views

exports.write_graphml = lambda graph, path: time.sleep(600)
def finish(self):
    Path(PIDS).write_text(" ".join(map(str, descendants(os.getpid()))))
    die()
views.PendingViews.finish = finish
'''


@pytest.mark.slow
@pytest.mark.parametrize("signal_name", ["SIGKILL", "SIGTERM"])
def test_a_kill_after_the_graph_leaves_no_process_of_the_build(tmp_path, signal_name):
    pids = _killed_build_pids(tmp_path, 6, [], _PATCH_AFTER_GRAPH, signal_name)
    assert len(pids) >= 2, pids  # the copy writing GraphML, the map's layout worker (and the resource tracker)
    _assert_all_end(pids)


def _assert_all_end(pids: list[int]) -> None:
    """Every one of `pids` ends within 30 s (parent-death signals and pipe watchdogs take a moment)."""
    deadline = time.monotonic() + 30
    while any(map(_alive, pids)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert [pid for pid in pids if _alive(pid)] == [], [_command(pid) for pid in pids if _alive(pid)]


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ")[:200]
    except OSError:
        return "?"
