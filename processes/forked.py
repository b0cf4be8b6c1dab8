"""One step run in a forked copy of this process (a build, a push) while this one goes on with another,
so that the two use both cores: the copy shares this process's memory (the graph) copy-on-write, so
nothing is sent to it, and it sends back only the step's result or error.

The copy dies with this process (Linux's parent-death signal), is killed when this process fails before
waiting for it, and its error is raised here as it would be raised here: a PaperkgError with its message
and exit code, any other exception as it was, a copy killed by a signal as one sentence naming the step.
"""
from __future__ import annotations

import ctypes
import gc
import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from functools import cache, partial
from typing import Any, Generic, TypeVar

from paperkg.core.errors import ExitCode, PaperkgError

T = TypeVar("T")
_PR_SET_PDEATHSIG = 1  # prctl(2)


class Pending(Generic[T]):
    """The result of a step running in a forked copy (or, when none was forked, to be run here)."""

    def __init__(self, step: Callable[[], T], what: str, advice: str) -> None:
        self.step, self.what, self.advice = step, what, advice
        self.pid: int | None = None
        self._pipe: int | None = None
        self._killed = False

    def result(self) -> T:
        """Wait for the copy and return the step's result (or run the step here when nothing was forked);
        the step's error is raised here."""
        if self.pid is None:
            if self._killed:
                raise RuntimeError(f"the process {self.what} was killed when its block was left")
            return self.step()
        assert self._pipe is not None
        with os.fdopen(self._pipe, "rb") as pipe:
            self._pipe = None
            payload = pipe.read()
        _, status = os.waitpid(self.pid, 0)
        self.pid = None
        if not payload or os.waitstatus_to_exitcode(status) != 0:
            raise PaperkgError(f"the process {self.what} {how_it_ended(os.waitstatus_to_exitcode(status))}; "
                               f"{self.advice}.", ExitCode.FAILED)
        kind, value = pickle.loads(payload)
        if kind == "result":
            return value
        if kind == "paperkg":
            raise PaperkgError(value[0], ExitCode(value[1]))
        raise value

    def _kill(self) -> None:
        """Kill the copy, if still waited for, and reap it."""
        if self._pipe is not None:
            os.close(self._pipe)
            self._pipe = None
        if self.pid is not None:
            with suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
            self.pid, self._killed = None, True


def how_it_ended(code: int) -> str:
    """How a process that did not finish its work ended, from its exit code (negative: the signal that killed
    it), said the way an error sentence goes on: "was killed by signal 15 (SIGTERM)". SIGKILL names the
    out-of-memory killer, its usual sender."""
    if code >= 0:
        return f"exited with code {code}"
    try:
        name = signal.Signals(-code).name
    except ValueError:
        return f"was killed by signal {-code}"
    if -code == signal.SIGKILL:
        return f"was killed by signal {-code} ({name}, the signal of the out-of-memory killer)"
    return f"was killed by signal {-code} ({name})"


@contextmanager
def run_forked(step: Callable[[], T], what: str, fork: bool, advice: str = "run again with --jobs 1"
               ) -> Iterator[Pending[T]]:
    """Run `step` in a forked copy of this process while the with-block runs here; `what` names the
    step in an error ("writing graph.graphml"), `advice` what to do when the copy was killed. Without
    `fork`, or when this process runs another thread (a fork copies only the calling one), the step runs
    here when its result is asked for. Leaving the block by an error kills the copy."""
    pending = Pending(step, what, advice)
    forking = fork and threading.active_count() == 1 and hasattr(os, "fork")
    if forking:
        gc.freeze()  # neither process's collections then write to (and so copy) the objects both hold
        read, write = os.pipe()
        parent = os.getpid()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the forked copy (its coverage is not collected)
            os.close(read)
            _child(step, write, parent)
        os.close(write)
        pending.pid, pending._pipe = pid, read
    try:
        yield pending
    finally:
        pending._kill()
        if forking:
            gc.unfreeze()


def available_cores() -> int:
    """The cores this process may use (its CPU affinity): the build's worker count when --jobs is not given,
    and how many parts the push's CSV writers and digests take."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def in_parts(step: Callable[[int], T], parts: int, what: str, advice: str) -> list[T]:
    """`step(part)` for each of `parts` parts, in part order: part 0 here, the others each in a forked copy
    (see run_forked; `what` and `advice` go into its error when a copy is killed)."""
    with ExitStack() as stack:
        pending = [stack.enter_context(run_forked(partial(step, part), what, True, advice)) for part in range(1, parts)]
        mine = step(0)
        return [mine, *(copy.result() for copy in pending)]


def _child(step: Callable[[], Any], pipe: int, parent: int) -> None:  # pragma: no cover - runs in the copy
    """In the forked copy: die with the parent (at once if it died before the signal was asked for), run
    the step, send its result or error, and leave without running anything the parent registered
    (atexit, buffered output, its with-blocks)."""
    try:
        die_with_parent(parent)
        payload = pickle.dumps(("result", step()))
    except PaperkgError as error:
        payload = pickle.dumps(("paperkg", (str(error), int(error.code))))
    except BaseException as error:  # noqa: BLE001 - sent to the parent, which raises it
        try:
            payload = pickle.dumps(("error", error))
        except Exception:  # noqa: BLE001 - an exception that does not pickle: its words do
            payload = pickle.dumps(("error", RuntimeError(f"{type(error).__name__}: {error}")))
    try:
        with os.fdopen(pipe, "wb") as handle:
            handle.write(payload)
    finally:
        os._exit(0)


def die_with_parent(parent: int | None = None) -> None:
    """Have Linux SIGKILL this process when its parent dies (in worker processes, the fork server and forked
    copies; a no-op elsewhere): nothing else ends a worker blocked on its queue once the build is gone.
    `parent` is the pid of the process that forked this one, taken before the fork (without it, the parent
    at this call, which may already be the process that adopted this one)."""
    if not sys.platform.startswith("linux"):
        return
    parent = os.getppid() if parent is None else parent
    if libc().prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        return
    if os.getppid() != parent:  # the parent died before the signal was asked for
        os._exit(1)


@cache
def libc() -> ctypes.CDLL:
    """The C library this process runs on (prctl, malloc_trim)."""
    return ctypes.CDLL(None, use_errno=True)
