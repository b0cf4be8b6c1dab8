"""An extraction worker killed by a signal is reported as killed by that signal, not as "out of memory?"
(issue 33): the test starts a --jobs 2 build and kills one of its workers (a grandchild: the fork server's
child) from outside, as a user or another program would."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from build_helpers import example_papers, write_papers
from cli_helpers import ROOT

pytestmark = pytest.mark.slow


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rpartition(")")[2].split()[1]) == pid:
                found.append(int(entry))
    return found


@pytest.mark.parametrize("sent, said", [(signal.SIGUSR1, "was killed by signal SIGUSR1"),
                                        (signal.SIGKILL, "was killed by signal SIGKILL (sent by the out-of-memory "
                                                         "killer, or by kill -9)")])
def test_a_worker_killed_by_a_signal_is_named_by_it(tmp_path, sent, said):
    papers = [{"id": f"v{n}-{paper['id']}", "abstract": f"{paper['abstract']} Variant {n}."}
              for n in range(8) for paper in example_papers()]
    source = write_papers(tmp_path / "in.jsonl", papers)
    with open(tmp_path / "err.txt", "w+") as err:
        build = subprocess.Popen([sys.executable, "-m", "paperkg", "build", str(source), "-o", str(tmp_path / "out"),
                                  "--no-model", "--jobs", "2"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=err)
        deadline = time.monotonic() + 120
        workers: list[int] = []
        while not workers and build.poll() is None and time.monotonic() < deadline:
            workers = [worker for child in _children(build.pid) for worker in _children(child)]
            time.sleep(0.05)
        assert workers, "no worker process appeared"
        os.kill(workers[0], sent)
        assert build.wait(timeout=300) == 1
        err.seek(0)
        stderr = err.read()
    assert stderr.endswith(f"error: an extraction worker process {said}; run again (with fewer --jobs if memory ran "
                           "out).\n"), stderr
    assert not (tmp_path / "out").exists()
