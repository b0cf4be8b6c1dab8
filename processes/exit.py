"""Ending the `paperkg` process without freeing its objects one by one: the graph of a 10,000-abstract
build (about a million Python objects) takes ~1.5 s to free at interpreter shutdown, time the user waits
for the prompt while the system would take the memory back at once.

It runs what a normal exit runs first through `atexit._run_exitfuncs`, a CPython private name (checked
on the versions paperkg.processes.CHECKED_ON lists); where it is missing the process exits as usual,
teardown included.
"""
from __future__ import annotations

import atexit
import os
import sys
from collections.abc import Callable
from typing import NoReturn


def run_and_exit(command: Callable[[], object]) -> NoReturn:
    """Run `command` (the CLI), then end the process with its exit code: the atexit handlers run and the
    output is flushed as at a normal exit, the interpreter's teardown is skipped. An exception other than
    SystemExit propagates as it would (the traceback --debug asks for)."""
    try:
        command()
        code: object = 0
    except SystemExit as end:
        code = end.code
    if not isinstance(code, int):  # sys.exit(None) is success; sys.exit("message") prints it and fails
        if code is not None:
            print(code, file=sys.stderr)
        code = 0 if code is None else 1
    run_exit_handlers = getattr(atexit, "_run_exitfuncs", None)
    if run_exit_handlers is None:  # not CPython, or a CPython that renamed it: exit with the teardown
        sys.exit(code)
    run_exit_handlers()  # what a normal exit runs first (multiprocessing's clean-up, coverage, logging)
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    os._exit(code)
