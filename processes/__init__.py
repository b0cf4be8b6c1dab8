"""Process machinery, behind a small surface: fork a step (`run_forked`, `in_parts`), a pre-loaded worker pool
(`preloaded_pool`, one process forked from its server: `preloaded_process`, and `one_worker_pool`), exit without
teardown (`run_and_exit`), and work for the time this process only waits (`when_idle`, `idle`).

It sits just above core/ (it imports only paperkg.core.errors), so every package above may use it: the build's
extraction workers and forked steps (orchestrate/), the push's parts (cypher/), the CLI's exit (the shell). It
is the only package that uses CPython's private names of the standard library
(`multiprocessing.forkserver._forkserver`, its `_forkserver_pid` and `_stop()`, a pool's `_processes`,
`atexit._run_exitfuncs`, tests/test_processes.py checks that no other module does); where one is missing it
falls back to the standard library's pool, a dead worker reported without how it ended, or a normal exit. They were
checked on the CPython versions CHECKED_ON lists.

Each name is imported on first use, so that the CLI's exit does not import multiprocessing.
"""
from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from paperkg.processes.exit import run_and_exit
    from paperkg.processes.forked import (Pending, available_cores, die_with_parent, how_it_ended, in_parts,
                                          run_forked)
    from paperkg.processes.waiting import idle, when_idle
    from paperkg.processes.pool import (WorkerDied, one_worker_pool, preloaded_pool, preloaded_process,
                                        worker_start_method)

# CPython versions whose standard library has the private names used here and on which this package ran:
# a pre-loaded pool (preloads, their environment, workers forked from the server, the server stopped), forked
# steps and parts, the exit without teardown, on 3.10.13, 3.11.7, 3.12.1 and 3.13.0; whole --jobs builds
# and the test suite on 3.11.7. tests/test_processes.py fails on a listed version that lacks one.
CHECKED_ON = ("3.10", "3.11", "3.12", "3.13")

__all__ = ["CHECKED_ON", "Pending", "WorkerDied", "available_cores", "die_with_parent", "how_it_ended", "idle",
           "in_parts", "one_worker_pool", "preloaded_pool", "preloaded_process", "run_and_exit", "run_forked",
           "when_idle", "worker_start_method"]

_MODULES = {"run_and_exit": "exit", "Pending": "forked", "available_cores": "forked", "die_with_parent": "forked",
            "how_it_ended": "forked", "in_parts": "forked", "run_forked": "forked", "idle": "waiting",
            "when_idle": "waiting", "WorkerDied": "pool", "one_worker_pool": "pool", "preloaded_pool": "pool",
            "preloaded_process": "pool", "worker_start_method": "pool"}


def __getattr__(name: str) -> Any:
    if name in _MODULES:
        return getattr(import_module(f"paperkg.processes.{_MODULES[name]}"), name)
    raise AttributeError(f"module 'paperkg.processes' has no attribute {name!r}")
