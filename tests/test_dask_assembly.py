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
