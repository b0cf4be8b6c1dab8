"""The graph assembled by parts on Dask (graph/assembly.py, orchestrate/dask_assembly.py) is the one-process
build's graph: graph.json and GraphML byte for byte, from shards whose papers come in any order."""
from __future__ import annotations

import random

import pytest

from build_helpers import example_papers, write_papers
from cli_helpers import run_cli

pytest.importorskip("distributed")
pytest.importorskip("pyarrow")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A one-process build of the example abstracts (rules only) and its extraction lines in three shards,
    shuffled."""
    folder = tmp_path_factory.mktemp("dask")
    papers = write_papers(folder / "papers.jsonl", example_papers())
    run_cli("build", str(papers), "-o", str(folder / "one"), "--no-model", "--jobs", "1")
    lines = (folder / "one" / "extractions.jsonl").read_text(encoding="utf8").splitlines()
    random.Random(7).shuffle(lines)
    shards = folder / "shards"
    shards.mkdir()
    for part in range(3):
        (shards / f"part-{part:05d}.jsonl").write_text("".join(line + "\n" for line in lines[part::3]),
                                                       encoding="utf8")
    return folder


@pytest.mark.slow
def test_the_assembly_on_dask_writes_the_one_process_graph_byte_for_byte(built, tmp_path):
    from distributed import Client, LocalCluster

    from paperkg.graph import parquet_graph
    from paperkg.orchestrate.dask_assembly import assemble

    shards = sorted((built / "shards").iterdir())
    with LocalCluster(n_workers=1, processes=False, dashboard_address=None) as cluster, Client(cluster) as client:
        done = assemble(client, shards, tmp_path, {}, True, lambda items, _: items)
    for name in ("graph.json", "graph.graphml"):
        assert (tmp_path / name).read_bytes() == (built / "one" / name).read_bytes(), name
    assert done.papers == len(example_papers())
    assert sum(done.nodes.values()) == sum(1 for _ in parquet_graph.nodes(tmp_path))
    assert not (tmp_path / ".assembly").exists()


def test_dask_build_needs_saved_extractions(built, tmp_path):
    result = run_cli("build", str(built / "papers.jsonl"), "--dask", "local", "-o", str(tmp_path / "out"), check=False)
    assert result.returncode == 2
    assert "--from-extractions" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.slow
@pytest.mark.acceptance  # 10,000 real abstracts extracted (rules only), built twice: minutes
def test_ten_thousand_real_abstracts_give_the_same_graph_files_on_dask(shared, tmp_path):
    import gzip

    with gzip.open(shared / "corpus" / "abstracts" / "abstracts.jsonl.gz", "rt", encoding="utf8") as handle:
        lines = [next(handle) for _ in range(10_000)]
    (tmp_path / "abstracts.jsonl").write_text("".join(lines), encoding="utf8")
    run_cli("extract", str(tmp_path / "abstracts.jsonl"), "--no-model", "--jobs", "2", "-o", str(tmp_path / "x.jsonl"))
    run_cli("build", "--from-extractions", str(tmp_path / "x.jsonl"), "-o", str(tmp_path / "one"))
    extracted = (tmp_path / "x.jsonl").read_text(encoding="utf8").splitlines()
    (tmp_path / "shards").mkdir()
    for part in range(4):
        (tmp_path / "shards" / f"part-{part:05d}.jsonl").write_text(
            "".join(line + "\n" for line in extracted[part::4]), encoding="utf8")
    run_cli("build", "--from-extractions", str(tmp_path / "shards"), "-o", str(tmp_path / "dask"), "--dask", "local",
            "--jobs", "2", "--memory-limit", "3GB", "--graph-files")
    for name in ("graph.json", "graph.graphml"):
        assert (tmp_path / "dask" / name).read_bytes() == (tmp_path / "one" / name).read_bytes(), name
