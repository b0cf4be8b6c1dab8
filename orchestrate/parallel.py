"""Extraction in worker processes: they fork from a fork server that loaded the pipeline once (so
they start at once and share its memory), send back JSON lines (not Docs, whose extensions hold
Python objects), and the lines come back in input order, so `--jobs N` writes the same bytes as
`--jobs 1`. Without --jobs, workers start only for inputs big enough to pay for their start-up.
The fork server and the workers die with the process that started them (Linux's parent-death
signal), so a build killed by SIGKILL, a timeout or the OOM killer leaves none. The process machinery
(the pre-loaded pool, its fallback to the standard library's) is paperkg.processes'; this module
decides what runs where.
"""
from __future__ import annotations

import json
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass
from itertools import chain, groupby, islice
from pathlib import Path

from paperkg.core.errors import ExitCode, PaperkgError
from paperkg.core.schema import PaperRecord
from paperkg.processes import WorkerDied, available_cores, how_it_ended, idle, one_worker_pool, preloaded_pool

PIPELINE_VARIABLE = "PAPERKG_PRELOAD_PIPELINE"  # the pipeline the fork server loads: JSON [model or null, rules_only]
# What the workers' fork server imports: spaCy and the pipeline code, this module (the workers' function),
# and the pipeline itself (paperkg.orchestrate.preloaded_pipeline loads the one PIPELINE_VARIABLE names).
SERVER_PRELOAD = ("paperkg.extract.pipeline", "paperkg.orchestrate.parallel", "paperkg.orchestrate.preloaded_pipeline")
# Abstracts queued per worker (in whole batches, at least one). Lines come back in input order, so a worker
# that finished its batches idles while the next one due (a batch of long abstracts) is still running
# elsewhere: 8 batches of 32 keep the workers busy through such batches, and 512 abstracts in flight hold
# ~3 MB of records and lines.
IN_FLIGHT_PER_JOB = 256
# Abstracts read (and normalised) while the fork server loads the pipeline, before the first submit waits
# for it: 3,072 real abstracts take this process ~2.3 s of CPU, the server ~2.7 s.
READ_AHEAD = 3072
# Without --jobs, an input of fewer abstracts (in whole batches) runs in this process. Workers fork with
# the pipeline loaded, and the fork server loads it while this process reads ahead (this process then
# imports no spaCy), so a pool costs little more start-up than extracting here: a new process and ~150 MB
# for its duration. 32 abstracts take ~0.4 s of CPU, and two workers save half of that: from 128 abstracts
# (4 batches of 32) the pool saves ~0.8 s (bench/bench_scale.py).
AUTO_POOL = 128
# Without --jobs, a forked copy of the build writes GraphML (and a forked worker lays the entity map out)
# while the build writes JSON and the views from this many graph nodes (papers and entities): at the
# example's 346 nodes all of it takes about 1 s, from 1,000 abstracts (5,557 nodes) about 5 s, and a
# fork of the build costs ~0.05 s.
SECOND_PROCESS_NODES = 2_000
# From this many graph nodes the map's layout worker is spawned, not forked: a forked process's Rss counts
# every page of the build it shares, and at 10,000 abstracts (41,807 nodes) the build holds ~320 MB, so with
# the forked copy writing GraphML and a forked layout worker the three summed 881 MB of Rss, over extraction's
# peak. A spawned worker holds only its imports (~0.9 s of CPU, beside views that take ~8 s at that size).
SPAWN_LAYOUT_NODES = 20_000


def extract_lines(records: Iterable[PaperRecord], *, jobs: int | None, model: Path | None, rules_only: bool,
                  batch_size: int, skip: Callable[[str, str], None] | None = None) -> Iterator[tuple[str, str]]:
    """(paper id, extraction JSON line) per record, in input order; `jobs` processes when the input
    holds more than one batch (jobs None: one per core, from AUTO_POOL abstracts and two batches), else this process.
    A record too long to be an abstract is extracted alone within a time and memory bound (orchestrate/alone.py);
    `skip` gets the warning when it goes past them (default: raised)."""
    batches = extraction_batches(iter(records), batch_size)
    enough = 2 if jobs else max(2, -(-AUTO_POOL // batch_size))
    first = list(islice(batches, enough))
    workers = jobs or available_cores()
    work = _Work(model, rules_only, batch_size, skip or _refuse)
    if workers == 1 or len(first) < enough:
        yield from _serial(chain(first, batches), work)
        return
    yield from _pooled(chain(first, batches), workers, work)


@dataclass(frozen=True)
class _Work:
    """What extracts: the pipeline, the batch size, and where an abstract extracted alone and skipped is said."""

    model: Path | None
    rules_only: bool
    batch_size: int
    skip: Callable[[str, str], None]

    def alone(self, record: PaperRecord) -> list[str]:
        from paperkg.orchestrate.alone import alone_lines

        return alone_lines(record, self.model, self.rules_only, self.batch_size, self.skip)


@dataclass(frozen=True)
class Alone:
    """A record too long to be an abstract (orchestrate/alone.py), in the stream of batches."""

    record: PaperRecord


def _refuse(source: str, message: str) -> None:
    raise PaperkgError(f"{source}: {message}", ExitCode.USAGE)


def extraction_batches(records: Iterator[PaperRecord], size: int) -> Iterator[list[PaperRecord] | Alone]:
    """Consecutive lists of at most `size` records, a record too long to be an abstract on its own (workers, a
    Dask cluster's too, never get one)."""
    from paperkg.orchestrate.alone import ALONE_CHARS

    for alone, group in groupby(records, key=lambda record: len(record.abstract) > ALONE_CHARS):
        if alone:
            yield from map(Alone, group)
        else:
            yield from batched(group, size)


def _serial(batches: Iterable[list[PaperRecord] | Alone], work: _Work) -> Iterator[tuple[str, str]]:
    from paperkg.extract.extraction import extract
    from paperkg.extract.pipeline_cache import cached_pipeline

    nlp = cached_pipeline(work.model, work.rules_only)
    for alone, group in groupby(batches, key=lambda item: isinstance(item, Alone)):
        if alone:
            for item in group:
                assert isinstance(item, Alone)
                yield from ((item.record.id, line) for line in work.alone(item.record))
            continue
        records = chain.from_iterable(batch for batch in group if not isinstance(batch, Alone))
        for extraction in extract(nlp, records, batch_size=work.batch_size):
            yield extraction.paper.id, extraction.to_json()


def _pooled(batches: Iterable[list[PaperRecord] | Alone], jobs: int, work: _Work) -> Iterator[tuple[str, str]]:
    """The lines from a pool of `jobs` workers forked from a server that loaded the pipeline. When the
    read-ahead took the whole input, this process has nothing to do while the server loads the pipeline
    (about 1.5 s, a core idle) and waits on the workers after: the work the caller declared for such a
    time (paperkg.processes.when_idle: the build's next imports) runs then. Not for a longer input: this
    process reads on meanwhile, and the imports would add their ~60 MB to extraction's memory peak."""
    model, rules_only, batch_size = work.model, work.rules_only, work.batch_size
    try:
        with preloaded_pool(jobs, SERVER_PRELOAD, environment=server_environment(model, rules_only),
                            initializer=load_worker_pipeline, initargs=(model, rules_only)) as pool:
            batches = iter(batches)
            in_flight, ahead = jobs * max(1, IN_FLIGHT_PER_JOB // batch_size), max(1, READ_AHEAD // batch_size)
            read = list(islice(batches, ahead))
            with idle() if len(read) < ahead else nullcontext():
                yield from _submitted(pool, chain(read, batches), in_flight, work)
    except WorkerDied as died:
        raise PaperkgError(_died(died.exitcode), ExitCode.FAILED) from None


def _died(exitcode: int | None) -> str:
    """The sentence for a pool broken by a worker that ended with `exitcode` (None: not known)."""
    if exitcode is None:
        return "an extraction worker process died; run again."
    advice = "run again with fewer --jobs" if exitcode == -signal.SIGKILL else "run again"
    return f"an extraction worker process {how_it_ended(exitcode)}; {advice}."


def _submitted(pool: ProcessPoolExecutor, batches: Iterable[list[PaperRecord] | Alone], in_flight: int,
               work: _Work) -> Iterator[tuple[str, str]]:
    """The batches' lines in input order, with at most `in_flight` batches submitted and not collected; a record
    extracted alone is done here, while the workers go on with the batches before it."""
    pending: deque[tuple[list[str], Future[list[str]]]] = deque()
    for batch in batches:
        if isinstance(batch, Alone):
            done: Future[list[str]] = Future()
            done.set_result(work.alone(batch.record))
            pending.append(([batch.record.id], done))
        else:
            pending.append(([record.id for record in batch], pool.submit(
                extraction_lines, batch, work.model, work.rules_only, work.batch_size)))
        if len(pending) >= in_flight:
            yield from _collect(pending.popleft())
    while pending:
        yield from _collect(pending.popleft())


def second_process_pays(jobs: int | None, graph_nodes: int) -> bool:
    """Whether the graph files and views are written by more than one process (orchestrate/build.py):
    with --jobs 2 or more; without --jobs when there is a core to spare and the graph is big enough to pay."""
    if jobs is not None:
        return jobs >= 2
    return available_cores() > 1 and graph_nodes >= SECOND_PROCESS_NODES


def layout_worker(graph_nodes: int) -> ProcessPoolExecutor:
    """The map's layout worker: forked while the graph has fewer than SPAWN_LAYOUT_NODES nodes, else spawned."""
    return one_worker_pool(fork=graph_nodes < SPAWN_LAYOUT_NODES)


def _collect(item: tuple[list[str], Future[list[str]]]) -> Iterator[tuple[str, str]]:
    ids, future = item
    yield from zip(ids, future.result())


def server_environment(model: Path | None, rules_only: bool) -> dict[str, str]:
    """The environment the workers' fork server starts with: the pipeline its preload loads."""
    return {PIPELINE_VARIABLE: json.dumps([str(model.resolve()) if model else None, rules_only])}


def load_worker_pipeline(model: Path | None, rules_only: bool) -> None:
    """Worker initializer: the pipeline, once per process (extract/pipeline_cache.py caches it; a worker
    forked from the pre-loaded server finds it there)."""
    from paperkg.extract.pipeline_cache import cached_pipeline

    cached_pipeline(model, rules_only)


def extraction_lines(records: list[PaperRecord], model: Path | None, rules_only: bool, batch_size: int) -> list[str]:
    """In a worker process (pool or Dask): the extraction lines of the records, with the pipeline
    loaded once per process."""
    from paperkg.extract.extraction import extract
    from paperkg.extract.pipeline_cache import cached_pipeline

    nlp = cached_pipeline(model, rules_only)
    return [extraction.to_json() for extraction in extract(nlp, records, batch_size=batch_size)]


def batched(records: Iterator[PaperRecord], size: int) -> Iterator[list[PaperRecord]]:
    """Consecutive lists of at most `size` records."""
    while batch := list(islice(records, size)):
        yield batch
