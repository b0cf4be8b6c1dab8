"""The routes to a bigger build give the same graph: --jobs N, --from-extractions, --update, the Python
API, and Dask shards from a LocalCluster of two workers (a few abstracts, rules-only pipeline)."""
from __future__ import annotations

import subprocess
import sys

import pytest

from build_helpers import example_papers, folder_bytes, write_papers
from cli_helpers import run_cli

GRAPH_FILES = ("graph.json", "graph.graphml", "extractions.jsonl")


@pytest.fixture(scope="module")
def papers(tmp_path_factory):
    return write_papers(tmp_path_factory.mktemp("in") / "papers.jsonl", example_papers()[:6])


@pytest.fixture(scope="module")
def one_job(papers, tmp_path_factory):
    """The reference, built once for the module and only read: a --jobs 1 build of the six abstracts."""
    out = tmp_path_factory.mktemp("jobs1") / "out"
    run_cli("build", str(papers), "-o", str(out), "--no-model", "--jobs", "1")
    return out


def _same_graph(one, other):
    for name in GRAPH_FILES:
        assert (one / name).read_bytes() == (other / name).read_bytes(), name


@pytest.mark.slow
def test_jobs_2_writes_the_same_bytes_as_jobs_1(papers, one_job, tmp_path):
    out = tmp_path / "jobs2"
    run_cli("build", str(papers), "-o", str(out), "--no-model", "--jobs", "2", "--batch-size", "2")
    assert folder_bytes(out) == folder_bytes(one_job)


@pytest.mark.slow
def test_jobs_2_as_a_command_writes_the_same_bytes_as_jobs_1(papers, one_job, tmp_path):
    """In a fresh process (no thread of other tests running) the build forks to write GraphML and JSON
    beside the views."""
    out = tmp_path / "jobs2"
    subprocess.run([sys.executable, "-m", "paperkg", "build", str(papers), "-o", str(out), "--no-model", "--jobs", "2",
                    "--batch-size", "2"], check=True, capture_output=True, timeout=600)
    assert folder_bytes(out) == folder_bytes(one_job)


def test_from_extractions_builds_the_same_graph_without_extracting(one_job, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "spacy", None)  # any import of spaCy now fails
    saved = tmp_path / "saved" / "extractions.jsonl"
    saved.parent.mkdir()
    saved.write_bytes((one_job / "extractions.jsonl").read_bytes())
    run_cli("build", "--from-extractions", str(saved), "-o", str(tmp_path / "rebuilt"))
    _same_graph(one_job, tmp_path / "rebuilt")


def test_the_graph_is_built_with_the_collector_paused(one_job, tmp_path, monkeypatch):
    """The builder's objects live until the graph is written: full collections would only scan them again."""
    import gc

    from paperkg.graph.builder import GraphBuilder

    seen = []
    finalize = GraphBuilder.finalize

    def noting_finalize(builder):
        seen.append(gc.isenabled())
        return finalize(builder)

    monkeypatch.setattr(GraphBuilder, "finalize", noting_finalize)
    (tmp_path / "saved.jsonl").write_bytes((one_job / "extractions.jsonl").read_bytes())
    run_cli("build", "--from-extractions", str(tmp_path / "saved.jsonl"), "-o", str(tmp_path / "out"))
    assert seen == [False] and gc.isenabled()
    _same_graph(one_job, tmp_path / "out")


def test_api_build_graph_writes_the_bytes_of_paperkg_build(papers, one_job, tmp_path):
    """paperkg.build_graph, given the papers in another order, decides every node as the CLI does."""
    import paperkg
    from paperkg.graph.exports import write_json

    records = list(paperkg.read_records(papers))[::-1]
    write_json(paperkg.build_graph(records, nlp=paperkg.load_pipeline(rules_only=True)), tmp_path / "graph.json")
    assert (tmp_path / "graph.json").read_bytes() == (one_job / "graph.json").read_bytes()


def test_update_writes_the_bytes_of_a_full_build(papers, one_job, tmp_path):
    """A first build of the last three papers (from their extraction lines), updated with all six."""
    lines = (one_job / "extractions.jsonl").read_text().splitlines(keepends=True)
    (tmp_path / "last.jsonl").write_text("".join(lines[3:]))
    out = tmp_path / "out"
    run_cli("build", "--from-extractions", str(tmp_path / "last.jsonl"), "-o", str(out))
    run_cli("build", str(papers), "-o", str(out), "--no-model", "--update")
    for name in ("graph.json", "graph.graphml"):
        assert (out / name).read_bytes() == (one_job / name).read_bytes(), name


def test_from_extractions_reports_a_paper_given_twice(one_job, tmp_path):
    lines = (one_job / "extractions.jsonl").read_text().splitlines(keepends=True)
    (tmp_path / "a.jsonl").write_text("".join(lines[:4]))
    (tmp_path / "b.jsonl").write_text("".join(lines[3:]))
    result = run_cli("build", "--from-extractions", str(tmp_path / "b.jsonl"), str(tmp_path / "a.jsonl"),
                        "-o", str(tmp_path / "out"), check=False)
    assert result.returncode == 3
    assert "again" in result.stderr and result.stderr.count("warning:") == 1
    _same_graph(one_job, tmp_path / "out")


@pytest.mark.slow
@pytest.mark.acceptance  # a real LocalCluster: a scheduler and two worker processes, each importing spaCy
def test_dask_local_cluster_of_two_workers_gives_the_same_graph_as_jobs_1(papers, one_job, tmp_path):
    pytest.importorskip("distributed")
    shards = tmp_path / "shards"
    run_cli("extract", str(papers), "--dask", "local", "--jobs", "2", "--partition-size", "2", "--no-model",
               "-o", str(shards))
    assert sorted(path.name for path in shards.iterdir()) == [
        "manifest.json", "part-00000.jsonl", "part-00001.jsonl", "part-00002.jsonl"]
    run_cli("build", "--from-extractions", str(shards), "-o", str(tmp_path / "out"))
    _same_graph(one_job, tmp_path / "out")


def test_dask_missing_is_one_clear_sentence(papers, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    result = run_cli("extract", str(papers), "--dask", "local", "-o", str(tmp_path / "shards"), check=False)
    assert result.returncode == 2
    assert "pip install 'paperkg[dask]'" in result.stderr


@pytest.mark.slow
def test_the_models_lines_do_not_depend_on_the_spacy_batch_size(papers):
    """A smaller --batch-size (a worker's batch activations are most of its peak memory) writes the same
    lines, model included: each abstract is scored on its own, whatever shares its batch."""
    import paperkg
    from paperkg.extract.extraction import extract
    from paperkg.extract.pipeline_cache import cached_pipeline

    records = list(paperkg.read_records(papers))
    nlp = cached_pipeline()
    lines = {size: [line.to_json() for line in extract(nlp, records, batch_size=size)] for size in (6, 4, 1)}
    assert lines[1] == lines[4] == lines[6] and len(lines[6]) == len(records)
