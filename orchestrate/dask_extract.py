"""`paperkg extract --dask`: the input records in partitions, extracted on a Dask cluster, one shard each.

The client reads the inputs and sends each partition's records to a worker, which loads the
pipeline once (cached per worker process) and sends back JSON lines; the client writes them as
shards (part-00000.jsonl, ...) into a staging folder and commits them with their manifest. The
workers need paperkg installed (`pip install 'paperkg[dask]'`), not the inputs or a shared file
system. `paperkg build --from-extractions SHARDS` then builds the graph, byte-identical to a
single-process build.
"""
from __future__ import annotations

import concurrent.futures
import logging
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console

from paperkg.core.errors import PaperkgError
from paperkg.core.manifest import Manifest, describe_files
from paperkg.core.output_guard import check_folder_kind
from paperkg.orchestrate.inputs import input_set
from paperkg.orchestrate.parallel import Alone, extraction_batches, extraction_lines
from paperkg.processes import available_cores, worker_start_method
from paperkg.orchestrate.run import ExtractSettings, Run
from paperkg.orchestrate.warnings_log import WarningLog

if TYPE_CHECKING:
    from distributed import Client, Future

PARTITIONS_PER_WORKER = 2  # partitions in flight per worker: keeps workers busy, bounds client memory


def run_dask_extract(inputs: list[Path], output: Path, settings: ExtractSettings, address: str, partition_size: int,
                     console: Console) -> tuple[int, WarningLog]:
    """Extract on the cluster at `address` ('local': a LocalCluster of settings.jobs workers) into a
    folder of shards; returns (papers, warnings). Nothing is replaced when no paper was read."""
    run = Run.start(inputs, output, settings, console)
    check_folder_kind(output, shards=True)
    with dask_client(address, settings.jobs or available_cores()) as client, run.transaction() as out:
        names, written = extract_shards(client, run, run.files(), out.staging, partition_size,
                                        f"extracting on {address}")
        if written:
            out.commit(Manifest(files=describe_files(out.staging, names), inputs=input_set(run.read), papers=written))
    return written, run.warnings


def extract_shards(client: Client, run: Run, files: list[Path], folder: Path, partition_size: int,
                   what: str) -> tuple[list[str], int]:
    """The records of the run's input `files` in partitions of `partition_size`, extracted on the cluster of
    `client`, one shard each (part-00000.jsonl, ...) written into `folder`; returns the shards' names and the
    papers."""
    written = 0
    window = PARTITIONS_PER_WORKER * max(1, len(client.scheduler_info()["workers"]))
    pending: deque[tuple[str, Future | concurrent.futures.Future[list[str]]]] = deque()
    names: list[str] = []
    settings = run.settings
    parts = enumerate(extraction_batches(run.records(files), partition_size))
    for index, part in run.progress(parts, f"{what} (partitions)"):
        pending.append((f"part-{index:05d}.jsonl", _alone(part, settings, run) if isinstance(part, Alone) else
                        client.submit(extraction_lines, part, settings.model, not settings.use_model,
                                      settings.batch_size, pure=False)))
        while len(pending) >= window or (pending and pending[0][1].done()):
            written += _write_shard(folder, *pending.popleft(), names)
    while pending:
        written += _write_shard(folder, *pending.popleft(), names)
    return names, written


def _alone(part: Alone, settings: ExtractSettings, run: Run) -> concurrent.futures.Future[list[str]]:
    """A record too long to be an abstract, extracted alone here within the bound (orchestrate/alone.py), as a
    shard of its own."""
    from paperkg.orchestrate.alone import alone_lines

    done: concurrent.futures.Future[list[str]] = concurrent.futures.Future()
    done.set_result(alone_lines(part.record, settings.model, not settings.use_model, settings.batch_size, run.report))
    return done


def _write_shard(folder: Path, name: str, future: Future | concurrent.futures.Future[list[str]],
                 names: list[str]) -> int:
    lines = future.result()
    if not lines:  # a record extracted alone and skipped
        return 0
    (folder / name).write_text("".join(line + "\n" for line in lines), encoding="utf8")
    names.append(name)
    return len(lines)


@contextmanager
def dask_client(address: str, workers: int, memory_limit: str | None = None) -> Iterator[Client]:
    """A client of the scheduler at `address`, or of a LocalCluster of `workers` single-threaded processes
    (started like --jobs workers: from a fork server where there is one, a second or so sooner each), each
    with `memory_limit` ('4GB'; Dask's default: the machine's memory shared among them)."""
    try:
        import dask
        from distributed import Client, LocalCluster
    except ImportError:
        raise PaperkgError("--dask needs Dask: pip install 'paperkg[dask]'.") from None
    if address == "local":
        with dask.config.set({"distributed.worker.multiprocessing-method": worker_start_method()}), \
                LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                             silence_logs=logging.ERROR, memory_limit=memory_limit or "auto") as cluster, \
                Client(cluster) as client:
            yield client
        return
    try:
        client = Client(address, timeout="20s")
    except (OSError, TimeoutError, ValueError) as error:
        raise PaperkgError(f"--dask {address}: no Dask scheduler answers there ({error}).") from None
    with client:
        yield client
