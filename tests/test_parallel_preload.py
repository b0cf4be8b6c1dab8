"""--jobs workers fork from a fork server that loaded the pipeline: they start with it in extract/pipeline_cache.py's
cache (no load of their own), and the server is gone when extraction ends."""
from __future__ import annotations

import multiprocessing
import subprocess
import sys

import pytest

from paperkg.orchestrate import parallel

pytestmark = pytest.mark.skipif("forkserver" not in multiprocessing.get_all_start_methods(),
                                reason="no fork server on this platform")


# Run in a fresh interpreter: a fork server started earlier in this test process (Dask's, another
# test's) would be left as it is, without this build's pipeline.
PROBE = """
import json
from multiprocessing import forkserver
from paperkg.orchestrate import parallel
from paperkg.processes import preloaded_pool

def cached_pipelines():
    from paperkg.extract import pipeline_cache
    return pipeline_cache._pipeline.cache_info().currsize

if __name__ == "__main__":
    setting = {parallel.PIPELINE_VARIABLE: json.dumps([None, True])}
    with preloaded_pool(2, parallel.SERVER_PRELOAD, environment=setting) as pool:
        loaded = [pool.submit(cached_pipelines).result() for _ in range(2)]
        running = forkserver._forkserver._forkserver_pid is not None
    print(loaded, running, forkserver._forkserver._forkserver_pid is None)
"""


@pytest.mark.slow
def test_workers_start_with_the_pipeline_loaded_and_the_server_stops_after(tmp_path):
    script = tmp_path / "probe.py"
    script.write_text(PROBE, encoding="utf8")
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=600, check=True)
    assert result.stdout.split("\n")[0] == "[1, 1] True True"  # loaded in both, server up, then stopped


@pytest.mark.slow
def test_a_build_through_the_pool_gives_the_lines_of_one_process():
    from paperkg.core.schema import PaperRecord

    records = [PaperRecord(id=f"p{i}", title=f"Paper {i}",
                           abstract=f"We propose BERT-{i} for question answering on SQuAD {i}.")
               for i in range(6)]
    pooled = list(parallel.extract_lines(records, jobs=2, model=None, rules_only=True, batch_size=2))
    serial = list(parallel.extract_lines(records, jobs=1, model=None, rules_only=True, batch_size=2))
    assert pooled == serial and [paper for paper, _ in pooled] == [record.id for record in records]


# A build whose workers extract: spaCy's import (about 1 s of CPU) is the fork server's alone.
NO_SPACY_PROBE = """
import sys
from pathlib import Path
from rich.console import Console
from paperkg.orchestrate.build import BuildOptions, run_build
from paperkg.orchestrate.run import ExtractSettings

if __name__ == "__main__":
    folder = Path(sys.argv[1])
    for i in range(6):
        (folder / f"p{i}.txt").write_text(f"Paper {i}\\n\\nWe propose BERT-{i} for question answering on SQuAD.")
    summary = run_build(BuildOptions(inputs=[folder], output=folder / "out",
                                     extract=ExtractSettings(use_model=False, batch_size=2, jobs=2)), Console())
    print(summary.papers_new, "spacy" in sys.modules)
"""


@pytest.mark.slow
def test_a_build_with_workers_never_imports_spacy_in_its_own_process(tmp_path):
    script = tmp_path / "probe.py"
    script.write_text(NO_SPACY_PROBE, encoding="utf8")
    (tmp_path / "in").mkdir()
    result = subprocess.run([sys.executable, str(script), str(tmp_path / "in")], capture_output=True, text=True,
                            timeout=600, check=True)
    assert result.stdout.strip().split("\n")[-1] == "6 False"


def test_the_second_process_runs_as_jobs_asks_and_without_jobs_only_for_a_big_graph(monkeypatch):
    monkeypatch.setattr(parallel, "available_cores", lambda: 2)
    assert not parallel.second_process_pays(1, 10**6) and parallel.second_process_pays(2, 10)
    assert not parallel.second_process_pays(None, parallel.SECOND_PROCESS_NODES - 1)
    assert parallel.second_process_pays(None, parallel.SECOND_PROCESS_NODES)
    monkeypatch.setattr(parallel, "available_cores", lambda: 1)
    assert not parallel.second_process_pays(None, 10**6)


@pytest.mark.slow
def test_a_pool_runs_the_callers_idle_work_only_when_it_read_the_whole_input_ahead(monkeypatch):
    from paperkg.core.schema import PaperRecord
    from paperkg.processes import when_idle

    records = [PaperRecord(id=f"p{i}", title=f"Paper {i}", abstract=f"We propose BERT-{i} for question answering.")
               for i in range(6)]
    calls: list[int] = []
    with when_idle(lambda: calls.append(1)):
        assert len(list(parallel.extract_lines(records, jobs=2, model=None, rules_only=True, batch_size=2))) == 6
    assert calls == [1]
    monkeypatch.setattr(parallel, "READ_AHEAD", 2)  # one batch read ahead: this process reads on meanwhile
    with when_idle(lambda: calls.append(2)):
        assert len(list(parallel.extract_lines(records, jobs=2, model=None, rules_only=True, batch_size=2))) == 6
    assert calls == [1]


def test_without_jobs_a_pool_starts_from_auto_pool_abstracts_on_more_than_one_core(monkeypatch):
    from paperkg.core.schema import PaperRecord

    def recorder(kind):
        def run(records, *args):
            return iter([(kind, str(len([r for b in records for r in b])))])  # both get batches
        return run

    monkeypatch.setattr(parallel, "_serial", recorder("serial"))
    monkeypatch.setattr(parallel, "_pooled", recorder("pooled"))
    monkeypatch.setattr(parallel, "available_cores", lambda: 2)

    def chosen(count: int, jobs: int | None = None) -> list[tuple[str, str]]:
        records = [PaperRecord(id=f"p{i}", title="t", abstract="a") for i in range(count)]
        return list(parallel.extract_lines(records, jobs=jobs, model=None, rules_only=True, batch_size=32))

    fewer_batches = parallel.AUTO_POOL - 32  # counted in whole batches of 32: 3 batches, then 4
    assert chosen(fewer_batches) == [("serial", str(fewer_batches))]
    assert chosen(fewer_batches + 1) == [("pooled", str(fewer_batches + 1))]
    assert chosen(parallel.AUTO_POOL, jobs=1) == [("serial", str(parallel.AUTO_POOL))]
    assert chosen(64, jobs=2) == [("pooled", "64")]  # --jobs 2 pools from two batches
    monkeypatch.setattr(parallel, "available_cores", lambda: 1)
    assert chosen(10 * parallel.AUTO_POOL) == [("serial", str(10 * parallel.AUTO_POOL))]


# A worker killed by a signal while the build's records stream in: the pool breaks, and the error names the signal.
KILLED_WORKER_PROBE = """
import multiprocessing, os, signal
from paperkg.core.errors import PaperkgError
from paperkg.core.schema import PaperRecord
from paperkg.orchestrate import parallel

def records():
    for i in range(400):
        if i == 40:
            os.kill(multiprocessing.active_children()[0].pid, signal.SIGUSR1)
        yield PaperRecord(id=f"p{i}", abstract=f"We propose BERT-{i} for question answering on SQuAD {i}.")

if __name__ == "__main__":
    parallel.READ_AHEAD = 4  # submit from the fifth record on, so that the workers run when one is killed
    try:
        list(parallel.extract_lines(records(), jobs=2, model=None, rules_only=True, batch_size=2))
    except PaperkgError as error:
        print(int(error.code), error)
"""


@pytest.mark.slow
def test_a_worker_killed_by_a_signal_is_reported_with_that_signal(tmp_path):
    script = tmp_path / "probe.py"
    script.write_text(KILLED_WORKER_PROBE, encoding="utf8")
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=600, check=True)
    assert result.stdout.strip() == "1 an extraction worker process was killed by signal 10 (SIGUSR1); run again."
