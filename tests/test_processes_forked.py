"""A build step in a forked copy of the build (paperkg.processes.forked): its result and its errors come back
as the build would raise them, and the copy never outlives the build or a failed block.

Each case runs in a fresh interpreter: the copy is forked only while no other thread runs, and other
tests leave threads in this one."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from paperkg.processes.forked import how_it_ended, run_forked

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork and the parent-death signal")

PROBE = r'''
import os, signal, sys, time
from paperkg.core.errors import PaperkgError, ExitCode
from paperkg.processes.forked import in_parts, run_forked

def refuse():
    raise PaperkgError("out/graph.graphml: no space left on the device.", ExitCode.FAILED)

def fail():
    raise ValueError("a bug in the writer")

def full():
    raise OSError(28, "No space left on device", "out/.paperkg-staging/graph.graphml")

def killed():
    os.kill(os.getpid(), signal.SIGKILL)

def nap():
    time.sleep(600)

def report(step):
    try:
        with run_forked(step, "writing graph.graphml", fork=True) as pending:
            copy = pending.pid
            print("forked", copy is not None, flush=True)
            print("result", pending.result() == copy != os.getpid() if step is os.getpid else pending.result())
    except PaperkgError as error:
        print(f"PaperkgError {int(error.code)} {error}")
    except OSError as error:
        print(f"OSError {error.errno} {error.strerror} {error.filename}")
    except Exception as error:
        print(f"{type(error).__name__} {error}")

case = sys.argv[1]
if case == "left":
    try:
        with run_forked(nap, "sleeping", fork=True) as pending:
            copy = pending.pid
            raise RuntimeError("the views failed")
    except RuntimeError:
        print("copy", copy, pending.pid)
elif case == "parts":
    parent = os.getpid()
    results = in_parts(lambda part: (part, os.getpid()), 3, "counting", "count again")
    print([part for part, _ in results], results[0][1] == parent, len({pid for _, pid in results[1:]} - {parent}))
elif case == "parts-refuse":
    def step(part):
        if part == 2:
            raise PaperkgError("part 2 refused.", ExitCode.USAGE)
        return part
    try:
        in_parts(step, 3, "counting", "count again")
    except PaperkgError as error:
        print(f"PaperkgError {int(error.code)} {error}")
elif case == "build-killed":
    with run_forked(nap, "sleeping", fork=True) as pending:
        print("copy", pending.pid, flush=True)
        time.sleep(600)
else:
    report({"pid": os.getpid, "refuse": refuse, "fail": fail, "full": full, "killed": killed}[case])
'''


def _probe(case: str) -> list[str]:
    result = subprocess.run([sys.executable, "-c", PROBE, case], capture_output=True, text=True, timeout=300,
                            check=True)
    return result.stdout.splitlines()


def _gone(pid: int) -> bool:
    """The process has ended (gone, or a zombie its new parent has not reaped yet)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


@pytest.mark.slow
def test_the_step_runs_in_another_process_and_its_result_comes_back():
    assert _probe("pid") == ["forked True", "result True"]


def test_without_fork_the_step_runs_here_when_asked():
    with run_forked(os.getpid, "reading its pid", fork=False) as pending:
        assert pending.pid is None
        assert pending.result() == os.getpid()


@pytest.mark.slow
def test_a_paperkg_error_in_the_copy_is_raised_with_its_message_and_exit_code():
    assert _probe("refuse") == ["forked True", "PaperkgError 1 out/graph.graphml: no space left on the device."]


@pytest.mark.slow
def test_any_other_error_in_the_copy_is_raised_as_it_was():
    assert _probe("fail") == ["forked True", "ValueError a bug in the writer"]


@pytest.mark.slow
def test_an_os_error_in_the_copy_keeps_its_file_for_the_output_transactions_sentence():
    assert _probe("full") == ["forked True", "OSError 28 No space left on device out/.paperkg-staging/graph.graphml"]


@pytest.mark.slow
def test_a_copy_killed_by_a_signal_is_one_sentence_naming_the_step():
    assert _probe("killed") == ["forked True", "PaperkgError 1 the process writing graph.graphml was killed by "
                                               "signal 9 (SIGKILL, the signal of the out-of-memory killer); run "
                                               "again with --jobs 1."]


@pytest.mark.slow
def test_parts_run_here_and_in_one_copy_each_and_come_back_in_order():
    assert _probe("parts") == ["[0, 1, 2] True 2"]


@pytest.mark.slow
def test_an_error_in_one_part_is_raised_here():
    assert _probe("parts-refuse") == ["PaperkgError 2 part 2 refused."]


@pytest.mark.slow
def test_leaving_the_block_by_an_error_kills_and_reaps_the_copy():
    _, copy, left = _probe("left")[0].split()
    assert copy != "None" and left == "None" and _gone(int(copy))


@pytest.mark.slow
def test_a_copy_dies_with_a_build_killed_by_sigkill():
    build = subprocess.Popen([sys.executable, "-c", PROBE, "build-killed"], stdout=subprocess.PIPE, text=True)
    assert build.stdout is not None
    copy = int(build.stdout.readline().split()[1])
    assert not _gone(copy)
    build.kill()
    build.wait(timeout=60)
    deadline = time.monotonic() + 30
    while not _gone(copy) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _gone(copy)


def test_how_a_process_ended_names_the_signal_and_only_sigkill_names_memory():
    assert how_it_ended(3) == "exited with code 3"
    assert how_it_ended(-15) == "was killed by signal 15 (SIGTERM)"
    assert how_it_ended(-9) == "was killed by signal 9 (SIGKILL, the signal of the out-of-memory killer)"
    assert how_it_ended(-200) == "was killed by signal 200"
