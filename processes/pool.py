"""Worker pools: a pre-loaded pool whose workers fork from a fork server that imported (and so loaded)
what they share, one process forked from that server, and a pool of one worker forked or spawned beside this
process.

The pre-loaded pool uses three CPython private names of `multiprocessing.forkserver`: the module's
instance `_forkserver`, its `_forkserver_pid` (whether a server runs, and the workers' parent) and its
`_stop()` (there is no public way to stop the server, whose copy of what it loaded would otherwise stay
in memory). Where any is missing (or there is no fork server) the pool is the standard library's: each
worker imports and loads what it needs itself, slower to start, the same results. A pool broken by a dead
worker says how that worker ended from the pool's `_processes` (typeshed declares it); without it, that
it died.
"""
from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.process import BaseProcess
from contextlib import contextmanager
from typing import Any

from paperkg.processes.forked import die_with_parent

SERVER_GUARD = "paperkg.processes.server_guard"    # imported first in the server: it dies with this process
SERVER_FROZEN = "paperkg.processes.server_frozen"  # imported last: what the preloads loaded is frozen, the heap trimmed


@contextmanager
def preloaded_pool(workers: int, preload: Sequence[str], *, environment: Mapping[str, str] | None = None,
                   initializer: Callable[..., object] | None = None,
                   initargs: tuple[Any, ...] = ()) -> Iterator[ProcessPoolExecutor]:
    """`workers` processes forked from a fork server that imported the modules `preload` names (an import
    may load data, reading `environment`, which the server is started with), so that they start at once
    and share the server's pages; the server is stopped when the block ends. A fork server this process
    started before is used as it is. Each worker dies with its parent, then runs `initializer(*initargs)`.
    A worker's death that breaks the pool raises WorkerDied once the pool has ended."""
    context = multiprocessing.get_context(worker_start_method())
    server = private_fork_server() if context.get_start_method() == "forkserver" else None
    processes: Mapping[int, BaseProcess] = {}
    try:
        with _started(context, server, preload, environment or {}) as parent, \
                ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker,
                                    initargs=(parent, initializer, initargs)) as pool:
            processes = getattr(pool, "_processes", processes)  # filled by the pool as its workers start
            yield pool
    except BrokenProcessPool:
        raise WorkerDied(_breaking_exit_code(processes)) from None


@contextmanager
def preloaded_process(target: Callable[..., object], args: tuple[Any, ...], preload: Sequence[str], *,
                      environment: Mapping[str, str] | None = None, name: str | None = None) -> Iterator[BaseProcess]:
    """One process forked from the fork server of preloaded_pool (the one running, else one started with
    `preload` and `environment` and stopped after the block), dying with its parent and running
    `target(*args)`; started, and killed if it still runs when the block ends."""
    context = multiprocessing.get_context(worker_start_method())
    server = private_fork_server() if context.get_start_method() == "forkserver" else None
    with _started(context, server, preload, environment or {}) as parent:
        process = context.Process(  # type: ignore[attr-defined]  # every start method's context has Process
            target=_start_process, args=(parent, target, args), daemon=True, name=name)
        process.start()
        try:
            yield process
        finally:
            if process.is_alive():
                process.kill()
            process.join()


def _start_process(parent: int | None, target: Callable[..., object], args: tuple[Any, ...]) -> None:
    """preloaded_process's start: die with the parent (as _start_worker), then the target."""
    die_with_parent(parent)
    target(*args)


class WorkerDied(BrokenProcessPool):
    """A pool broken by a worker process that died; `exitcode` is how it ended (negative: the signal that
    killed it), None where that is not known."""

    def __init__(self, exitcode: int | None) -> None:
        super().__init__(f"a worker process died (exit code {exitcode})")
        self.exitcode = exitcode


def _breaking_exit_code(processes: Mapping[int, BaseProcess]) -> int | None:
    """The exit code of the worker whose death broke the pool: the pool ends the others with SIGTERM, so
    another code is the one that broke it."""
    codes = [code for code in (process.exitcode for process in processes.values()) if code]
    return next((code for code in codes if code != -signal.SIGTERM), codes[0] if codes else None)


def private_fork_server() -> Any | None:
    """CPython's fork server instance when it has the private names this module uses, else None (the
    standard library's pool is used instead)."""
    from multiprocessing import forkserver

    server = getattr(forkserver, "_forkserver", None)
    if not hasattr(server, "_forkserver_pid") or not callable(getattr(server, "_stop", None)):
        return None
    return server


@contextmanager
def _started(context: multiprocessing.context.BaseContext, server: Any | None, preload: Sequence[str],
             environment: Mapping[str, str]) -> Iterator[int | None]:
    """The fork server started with the preloads, yielding its pid (None without the private names: each
    worker then dies with whichever process it was started from); stopped after the block."""
    if server is None:
        yield None
        return
    if server._forkserver_pid is not None:  # started before, with whatever it preloaded: left as it is
        yield server._forkserver_pid
        return
    context.set_forkserver_preload([SERVER_GUARD, *preload, SERVER_FROZEN])
    previous = {name: os.environ.get(name) for name in environment}
    os.environ.update(environment)
    try:
        from multiprocessing import forkserver

        forkserver.ensure_running()
    finally:
        for name, value in previous.items():
            if value is None:
                del os.environ[name]
            else:
                os.environ[name] = value
    try:
        yield server._forkserver_pid
    finally:
        server._stop()


def _start_worker(parent: int | None, initializer: Callable[..., object] | None, initargs: tuple[Any, ...]) -> None:
    """Worker initializer: die with the parent (`parent`: the fork server's pid, see die_with_parent), then the
    caller's initializer."""
    die_with_parent(parent)
    if initializer is not None:
        initializer(*initargs)


def one_worker_pool(fork: bool) -> ProcessPoolExecutor:
    """A pool of one worker process dying with this one: forked (it starts at once, sharing this process's
    pages, imports included) when `fork` and this process runs no other thread, else spawned."""
    forking = fork and threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods()
    return ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork" if forking else "spawn"),
                               initializer=die_with_parent, initargs=(os.getpid(),))


def worker_start_method() -> str:
    """How worker processes start: forked from a fork server, which imports what they share once (not a
    fork of this process, which may run threads); spawned where there is none (Windows)."""
    return "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
