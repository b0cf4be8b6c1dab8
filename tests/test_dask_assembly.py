"""The graph assembled by parts on Dask (graph/assembly.py, orchestrate/dask_assembly.py) is the one-process
build's graph: graph.json and GraphML byte for byte, from shards whose papers come in any order."""
from __future__ import annotations

import json
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
    for name in ("graph.json", "graph.graphml", "trends.json", "views.json", "admission.json"):
        assert (tmp_path / name).read_bytes() == (built / "one" / name).read_bytes(), name
    assert done.papers == len(example_papers())
    assert sum(done.nodes.values()) == sum(1 for _ in parquet_graph.nodes(tmp_path))
    assert not (tmp_path / ".assembly").exists()


@pytest.fixture(scope="module")
def at_scale(built, tmp_path_factory):
    """The example's shards built with `build --dask local` (two workers)."""
    out = tmp_path_factory.mktemp("scale") / "out"
    run_cli("build", "--from-extractions", str(built / "shards"), "-o", str(out), "--dask", "local", "--jobs", "2")
    return out


@pytest.mark.slow
def test_a_build_at_scale_writes_the_views_layers_and_import_files_of_the_one_process_build(built, at_scale,
                                                                                           tmp_path):
    from paperkg.cypher.bulk_import import ImportFiles, write_import_files
    from paperkg.graph.exports import read_graph
    from paperkg.orchestrate.artifact import trends_layer

    for name in ("graph.html", "papers.html", "trends.json", "views.json", "admission.json", "leaderboards.json",
                 "leaderboard.html"):
        titled = (at_scale / name).read_bytes().replace(b"shards/", b"papers.jsonl")
        assert titled == (built / "one" / name).read_bytes(), name  # titled after their inputs
    assert not (at_scale / "graph.json").exists() and not (at_scale / "extractions.jsonl").exists()
    graph = read_graph(built / "one" / "graph.json")
    one = write_import_files(graph, tmp_path, push=1, writers=1, trends=trends_layer(built / "one" / "graph.json"))
    scale = ImportFiles.from_json((at_scale / "neo4j-import" / "import.json").read_text(encoding="utf8"), at_scale)
    assert import_rows(scale) == import_rows(one)
    assert (scale.nodes, scale.rels, scale.digests) == (one.nodes, one.rels, one.digests)
    assert scale.leftover.nodes == one.leftover.nodes and scale.leftover.rels == one.leftover.rels


def import_rows(files) -> list[tuple[str, str, tuple[tuple[str, str], ...]]]:
    """Every row of the import files as (option, label or type, its fields by column), sorted: the same rows
    however they are split into files."""
    import csv

    rows = []
    for argument in files.arguments:
        option, name, path = argument.split("=", 2)
        with open(path, encoding="utf8", newline="") as handle:
            header, *lines = list(csv.reader(handle))
        rows += [(option, name, tuple(sorted(zip(header, line)))) for line in lines]
    return sorted(rows)


@pytest.mark.slow
def test_the_names_of_a_build_at_scale_are_searched_whatever_the_views_draw(at_scale):
    from paperkg.graph.parquet_graph import find_names, nodes

    entities = [(key, attrs) for key, attrs in nodes(at_scale) if attrs["label"] not in ("Paper", "Result")]
    key, attrs = max(entities, key=lambda item: (item[1]["papers"], item[0]))
    found = find_names(at_scale, attrs["name"].upper())
    assert found[0] == {"key": key, "name": attrs["name"], "matched": found[0]["matched"], "label": attrs["label"],
                        "papers": attrs["papers"]}
    assert all(attrs["name"].casefold() in row["matched"].casefold() for row in found)
    assert all(row["matched"] in {row["name"], *dict(entities)[row["key"]].get("aliases", ())} for row in found)
    assert find_names(at_scale, "no name holds this") == []
    shown = run_cli("names", attrs["name"], str(at_scale), "--json", "--limit", "1")
    assert [row["key"] for row in json.loads(shown.stdout)] == [key]
    missing = run_cli("names", "x", str(at_scale / "nodes"), check=False)
    assert missing.returncode == 2 and "names/" in missing.stderr


@pytest.mark.slow
def test_a_build_at_scale_is_pushed_with_its_import_files_only(at_scale, monkeypatch):
    monkeypatch.setenv("NEO4J_PASSWORD", "unused")
    result = run_cli("push", str(at_scale), check=False)
    assert result.returncode == 2
    assert "--bulk-import" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.slow
def test_a_build_of_abstracts_on_dask_extracts_them_into_its_shards_then_writes_the_one_process_graph(built, tmp_path):
    from paperkg.core.manifest import read_manifest

    out = tmp_path / "out"
    run_cli("build", str(built / "papers.jsonl"), "--no-model", "--dask", "local", "--jobs", "2",
            "--partition-size", "4", "--graph-files", "-o", str(out))
    for name in ("graph.json", "graph.graphml", "trends.json", "admission.json"):
        assert (out / name).read_bytes() == (built / "one" / name).read_bytes(), name
    manifest = read_manifest(out)
    shards = sorted(name for name in manifest.files if name.startswith("extractions/"))
    assert len(shards) == -(-len(example_papers()) // 4)
    lines = sorted(line for name in shards for line in (out / name).read_text(encoding="utf8").splitlines())
    assert lines == sorted((built / "one" / "extractions.jsonl").read_text(encoding="utf8").splitlines())
    assert [entry["path"] for entry in manifest.inputs] == [str(built / "papers.jsonl")]


@pytest.mark.parametrize("option, says", [(["--update"], "--update"), (["--neo4j", "bolt://localhost:7687"],
                                                                       "paperkg push")])
def test_a_dask_build_refuses_what_it_cannot_do_in_one_sentence(built, tmp_path, option, says):
    result = run_cli("build", str(built / "papers.jsonl"), "--dask", "local", *option, "-o", str(tmp_path / "out"),
                     check=False)
    assert result.returncode == 2
    assert says in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "out" / "graph.json").exists()


@pytest.mark.slow
@pytest.mark.acceptance  # 10,000 real abstracts extracted (rules only), built twice: minutes
def test_ten_thousand_real_abstracts_give_the_same_graph_files_on_dask(shared, tmp_path):
    import gzip

    with gzip.open(shared / "corpus" / "abstracts" / "abstracts.jsonl.gz", "rt", encoding="utf8") as handle:
        lines = [next(handle) for _ in range(10_000)]
    (tmp_path / "abstracts.jsonl").write_text("".join(lines), encoding="utf8")
    outcome = run_cli("extract", str(tmp_path / "abstracts.jsonl"), "--no-model", "--jobs", "2",
                      "-o", str(tmp_path / "x.jsonl"), check=False)
    assert outcome.returncode == 3 and "duplicate of the paper" in outcome.stderr  # three repeated ACL rows
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
