"""A record too long to be an abstract is extracted alone, in a process of its own, within a time and memory bound.

The longest of the 126,678 abstracts of the shared corpus has 12,694 characters; a text over ALONE_CHARS is no
abstract (a paper pasted whole, or text made to be costly: 99,000 characters of acronyms took the pipeline 64 s
and 4 GB, most of it the relation model's pairs). Its extraction runs in a process forked from the workers'
fork server (the pipeline loaded), and is stopped past ALONE_SECONDS or ALONE_MEGABYTES: the paper is then
skipped with a warning naming it. Below ALONE_CHARS the cost of any text grows with its length, so it is bounded
by it (README "Performance").
"""
from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path

from paperkg.core.schema import PaperRecord
from paperkg.orchestrate.parallel import SERVER_PRELOAD, load_worker_pipeline, server_environment
from paperkg.processes import how_it_ended, preloaded_process

ALONE_CHARS = 20_000
ALONE_SECONDS = 30.0
ALONE_MEGABYTES = 1_500
POLL_SECONDS = 0.05
Skip = Callable[[str, str], None]  # (source, message): the run's warning


def alone_lines(record: PaperRecord, model: Path | None, rules_only: bool, batch_size: int, skip: Skip) -> list[str]:
    """The record's extraction line, extracted in a process of its own; [] (and a warning through `skip`) when it
    took more than ALONE_SECONDS or ALONE_MEGABYTES, or its process died."""
    receiver, sender = multiprocessing.Pipe(duplex=False)
    with receiver, preloaded_process(_extract_alone, (record, model, rules_only, batch_size, sender), SERVER_PRELOAD,
                                     environment=server_environment(model, rules_only),
                                     name="paperkg-alone") as process:
        sender.close()
        try:
            problem = _watch(process.pid or 0, receiver, process.is_alive)
            if problem is None:
                return [receiver.recv()]
        except EOFError:
            process.join()
            problem = f"its extraction process {how_it_ended(process.exitcode or 0)}"
    skip(record.source or record.id, f"paper {record.id}: an abstract of {len(record.abstract):,} characters "
                                     f"(more than {ALONE_CHARS:,}, so extracted alone) {problem}; skipped")
    return []


def _watch(pid: int, receiver: Connection, alive: Callable[[], bool]) -> str | None:
    """Wait for the line; what went past the bound, or None once the line is there. The clock starts when the
    process has its pipeline (its "ready")."""
    while not receiver.poll(POLL_SECONDS):
        if not alive():
            raise EOFError
    receiver.recv()  # ready
    began = time.monotonic()
    while not receiver.poll(POLL_SECONDS):
        if not alive():
            raise EOFError
        if time.monotonic() - began > ALONE_SECONDS:
            return f"took more than {ALONE_SECONDS:g} s to extract"
        if _resident_megabytes(pid) > ALONE_MEGABYTES:
            return f"took more than {ALONE_MEGABYTES:,} MB of memory to extract"
    return None


def _resident_megabytes(pid: int) -> float:
    """A process's resident memory (Linux's /proc; 0 elsewhere: then only the time is bounded)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return 0.0


def _extract_alone(record: PaperRecord, model: Path | None, rules_only: bool, batch_size: int,
                   sender: Connection) -> None:
    """In the process of its own: load the pipeline (the fork server's, already loaded), say so, send the line."""
    from paperkg.orchestrate.parallel import extraction_lines

    load_worker_pipeline(model, rules_only)
    sender.send("ready")
    sender.send(extraction_lines([record], model, rules_only, batch_size)[0])
    sender.close()
    os._exit(0)  # no teardown of the pipeline the process shares with the fork server
