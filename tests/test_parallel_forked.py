"""A build step in a forked copy of the build (orchestrate/forked.py): its result and its errors come back
as the build would raise them, and the copy never outlives the build or a failed block."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from paperkg.core.errors import ExitCode, PaperkgError
from paperkg.orchestrate.forked import run_forked

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork and the parent-death signal")


def _gone(pid: int) -> bool:
    """The process has ended (gone, or a zombie its new parent has not reaped yet)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def test_the_step_runs_in_another_process_and_its_result_comes_back():
    with run_forked(os.getpid, "reading its pid", fork=True) as pending:
        copy = pending.pid
        assert copy is not None and pending.result() == copy != os.getpid()
    assert _gone(copy)


def test_without_fork_the_step_runs_here_when_asked():
    with run_forked(os.getpid, "reading its pid", fork=False) as pending:
        assert pending.pid is None
        assert pending.result() == os.getpid()


def _refuse() -> None:
    raise PaperkgError("out/graph.graphml: no space left on the device.", ExitCode.FAILED)


def test_a_paperkg_error_in_the_copy_is_raised_with_its_message_and_exit_code():
    with pytest.raises(PaperkgError) as caught, run_forked(_refuse, "writing graph.graphml", fork=True) as pending:
        pending.result()
    assert str(caught.value) == "out/graph.graphml: no space left on the device."
    assert caught.value.code is ExitCode.FAILED


def _fail() -> None:
    raise ValueError("a bug in the writer")


def test_any_other_error_in_the_copy_is_raised_as_it_was():
    with pytest.raises(ValueError, match="a bug in the writer"), \
            run_forked(_fail, "writing graph.graphml", fork=True) as pending:
        pending.result()


def _killed() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_copy_killed_by_a_signal_is_one_sentence_naming_the_step():
    killed = r"^the process writing graph.graphml was killed by signal 9 .*--jobs 1\.$"
    with pytest.raises(PaperkgError, match=killed), \
            run_forked(_killed, "writing graph.graphml", fork=True) as pending:
        pending.result()


def test_leaving_the_block_by_an_error_kills_the_copy():
    with pytest.raises(RuntimeError), run_forked(lambda: time.sleep(600), "sleeping", fork=True) as pending:
        pid = pending.pid
        raise RuntimeError("the views failed")
    assert pid is not None and _gone(pid) and pending.pid is None


# A build process killed by SIGKILL while its copy runs: the copy dies with it.
PROBE = """
import time
from paperkg.orchestrate.forked import run_forked

with run_forked(lambda: time.sleep(600), "sleeping", fork=True) as pending:
    print(pending.pid, flush=True)
    time.sleep(600)
"""


def test_a_copy_dies_with_a_build_killed_by_sigkill():
    build = subprocess.Popen([sys.executable, "-c", PROBE], stdout=subprocess.PIPE, text=True)
    assert build.stdout is not None
    copy = int(build.stdout.readline())
    assert not _gone(copy)
    build.kill()
    build.wait(timeout=60)
    deadline = time.monotonic() + 30
    while not _gone(copy) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _gone(copy)
