"""`paperkg build --from-extractions SHARDS --dask ADDRESS|local`: the graph assembled on a Dask cluster.

The steps of graph/assembly.py run as tasks, one per partition (a shard) or per bucket of names, and
exchange files in a work folder inside the build's staging folder (on a cluster: a file system the
workers share with the client). The client holds only the corpus' short forms and groups of forms
(what the decisions need from the whole corpus), then the numbers of the nodes and edges while it
computes the metrics. The result is the Parquet artifact (graph/parquet_graph.py), with graph.json and
GraphML streamed from it when asked, and admission.json; committed with a manifest like any build.
"""
from __future__ import annotations

import math
import shutil
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console

from paperkg.admit.refusals import RefusalTable
from paperkg.core.errors import PaperkgError
from paperkg.core.manifest import Manifest, describe_files
from paperkg.orchestrate.dask_extract import dask_client
from paperkg.orchestrate.run import ExtractSettings, Run

ADMISSION, GRAPH_JSON, GRAPHML = "admission.json", "graph.json", "graph.graphml"
PAPERS_PER_BUCKET = 25_000  # names of about this many papers per bucket (a bucket's tables in one task)
SCALE_EDGES = 2_000_000  # above this many edges, communities on the entity graph only (docs/guides/large-corpora.md)


@dataclass
class Assembly:
    """What an assembly wrote: papers, nodes per label, edges per type, seconds per step."""

    papers: int = 0
    nodes: dict[str, int] = field(default_factory=dict)
    edges: dict[str, int] = field(default_factory=dict)
    steps: dict[str, float] = field(default_factory=dict)
    written: list[str] = field(default_factory=list)


def run_dask_build(shards: list[Path], output: Path, address: str, *, workers: int, memory_limit: str | None,
                   graph_files: bool, thesaurus: dict[str, str], console: Console) -> Assembly:
    """Assemble the graph of the extraction shards on the cluster at `address` into `output`, committed
    together with its manifest (nothing replaced on failure)."""
    run = Run.start(shards, output, ExtractSettings(), console)
    files = _shard_files(run)
    with dask_client(address, workers, memory_limit) as client, run.transaction() as out:
        assembly = assemble(client, files, out.staging, thesaurus, graph_files, run.progress)
        out.commit(Manifest(files=describe_files(out.staging, assembly.written), papers=assembly.papers,
                            inputs=[{"path": str(path), **_entry(path)} for path in files]))
    return assembly


def _entry(path: Path) -> dict[str, Any]:
    from paperkg.core.manifest import digest

    found = digest(path)
    return {"size": found.size, "sha256": found.sha256}


def _shard_files(run: Run) -> list[Path]:
    from paperkg.orchestrate.build import extraction_files

    files = extraction_files(run)
    if not files:
        raise PaperkgError("--dask: no extraction shards among the inputs (name a folder of shards or .jsonl files).")
    return files


def assemble(client: Any, shards: list[Path], folder: Path, thesaurus: dict[str, str], graph_files: bool,
             progress: Callable[[Iterable[Any], str], Iterable[Any]]) -> Assembly:
    """The assembly's steps on the cluster of `client`; outputs into `folder`."""
    from paperkg.graph import assembly as steps
    from paperkg.graph import parquet_graph
    from paperkg.graph.builder import corpus_groups
    from paperkg.graph.resolve import ShortForms

    done = Assembly()
    work = steps.Work(folder / ".assembly", buckets=0)
    parts = len(shards)

    def run(what: str, function: Callable[..., Any], calls: list[tuple[Any, ...]]) -> list[Any]:
        began = time.perf_counter()
        futures = [client.submit(function, *call, pure=False) for call in calls]
        results = [future.result() for future in progress(futures, what)]
        done.steps[what] = time.perf_counter() - began
        return results

    shorts, merges, refusals, ids = ShortForms(), [], RefusalTable(), []
    began = time.perf_counter()
    for found in progress((future.result() for future in [
            client.submit(steps.read_definitions, shard, thesaurus, pure=False) for shard in shards]),
            "reading the short forms"):
        shorts.update(found.shorts)
        merges += found.merges
        refusals.update(found.refusals)
        ids.append(found.ids)
    numbers = np.concatenate(ids) if ids else np.zeros(0, dtype=np.int64)
    if len(np.unique(numbers)) != len(numbers):
        raise PaperkgError("--dask: a paper is in two shards; build from shards of one extraction run.")
    done.papers = len(numbers)
    work = steps.Work(work.folder, buckets=max(1, math.ceil(done.papers / PAPERS_PER_BUCKET)))
    merges.sort(key=lambda merge: merge[3])  # the builder's order: papers by id
    groups, notes = corpus_groups(shorts, merges, refusals)
    steps.dump_corpus(work, shorts, groups)
    steps.corpus_notes(notes, groups, work)
    del shorts, merges, notes, groups
    done.steps["short forms"] = time.perf_counter() - began
    run("name tables", steps.vote_partition, [(part, shard, thesaurus, work) for part, shard in enumerate(shards)])
    run("node choices", steps.decide_bucket, [(bucket, parts, work) for bucket in range(work.buckets)])
    run("entity nodes", steps.node_bucket, [(bucket, parts, work) for bucket in range(work.buckets)])
    for table in run("paper edges", steps.edge_partition, [(part, shard, thesaurus, work)
                                                           for part, shard in enumerate(shards)]):
        refusals.update(table)
    for table in run("relations", steps.entity_bucket, [(bucket, parts, work) for bucket in range(work.buckets)]):
        refusals.update(table)
    began = time.perf_counter()
    finals = steps.final_names(work, parts)
    metrics_file = _metrics(client, finals, work.folder / "metrics.npz", progress)
    done.steps["metrics"] = time.perf_counter() - began
    run("parquet", steps.write_parts, [(path, metrics_file, folder) for path in finals])
    from paperkg.core.atomic import atomic_write_text

    atomic_write_text(folder / ADMISSION, refusals.to_json())
    done.nodes = parquet_graph.counts(folder, parquet_graph.NODES, "label")
    done.edges = parquet_graph.counts(folder, parquet_graph.EDGES, "type")
    done.written = [ADMISSION, *parquet_graph.part_files(folder)]
    shutil.rmtree(work.folder)
    if graph_files:
        for name, write in ((GRAPH_JSON, parquet_graph.write_json), (GRAPHML, parquet_graph.write_graphml)):
            began = time.perf_counter()
            write(folder, folder / name)
            done.steps[name] = time.perf_counter() - began
            done.written.append(name)
    return done


def _metrics(client: Any, finals: list[Path], target: Path,
             progress: Callable[[Iterable[Any], str], Iterable[Any]]) -> Path:
    """Degree, PageRank and community of every node from the edges' numbers (graph/metrics.py), saved by node
    number for the parts to read."""
    from paperkg.graph.assembly import key_hash, metric_numbers
    from paperkg.graph.metrics import node_metrics

    keys: list[str] = []
    heads, tails, counts, entity = [], [], [], []
    for found in progress((future.result() for future in [
            client.submit(metric_numbers, path, pure=False) for path in finals]), "metrics: the edges' numbers"):
        keys += found[0]
        heads.append(found[1])
        tails.append(found[2])
        counts.append(found[3])
        entity.append(np.full(len(found[1]), found[4], dtype=bool))
    keys.sort()
    numbers = np.array([key_hash(key) for key in keys], dtype=np.int64)
    del keys
    order = np.argsort(numbers)
    if len(np.unique(numbers)) != len(numbers):
        raise PaperkgError("--dask: two node keys share a 64-bit number; build this corpus without --dask.")
    head, tail = (order[np.searchsorted(numbers, np.concatenate(column), sorter=order)] for column in (heads, tails))
    weight = np.concatenate(counts)
    scale = len(weight) > SCALE_EDGES
    found = node_metrics(len(numbers), head, tail, weight, np.concatenate(entity) if scale else None)
    np.savez(target, numbers=numbers[order], degree=np.array(found.degrees)[order],
             pagerank=np.array(found.pagerank)[order], community=np.array(found.community)[order])
    return target
