"""`paperkg build --from-extractions SHARDS --dask ADDRESS|local`: the graph assembled on a Dask cluster.

The steps of graph/assembly.py run as tasks, one per partition (a shard) or per bucket of names, and
exchange files in a work folder inside the build's staging folder (on a cluster: a file system the
workers share with the client). The client holds only the corpus' short forms and groups of forms
(what the decisions need from the whole corpus), then the numbers of the nodes and edges while it
computes the metrics, then the views' sample and the leaderboards' rows; the refusals are joined by the
workers and merged into admission.json a line at a time. The result is the Parquet artifact
(graph/parquet_graph.py), with graph.json and GraphML streamed from it when asked, and admission.json;
committed with a manifest like any build.
"""
from __future__ import annotations

import json
import math
import shutil
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from rich.console import Console

from paperkg.admit.refusals import RefusalTable
from paperkg.core.errors import PaperkgError
from paperkg.core.manifest import Manifest, describe_files
from paperkg.ingest.input_files import display_name
from paperkg.orchestrate.build import view_title
from paperkg.orchestrate.dask_extract import dask_client, extract_shards
from paperkg.orchestrate.inputs import input_set
from paperkg.orchestrate.run import ExtractSettings, Run
from paperkg.orchestrate.warnings_log import WarningLog
from paperkg.viz.options import DEFAULT_VIEW, LEADERBOARD_FILE, MAP_FILE, PAPERS_FILE, ViewOptions

if TYPE_CHECKING:
    import networkx as nx

    from paperkg.graph.leaderboard import Leaderboards

GRAPH_JSON, GRAPHML, IMPORT = "graph.json", "graph.graphml", "neo4j-import"
EXTRACTION_SHARDS = "extractions"  # `build INPUTS --dask`: the folder of the build's extraction shards
PAPERS_PER_BUCKET = 25_000  # names of about this many papers per bucket (a bucket's tables in one task)
SCALE_EDGES = 2_000_000  # above this many edges, communities on the top entities (graph/metrics.py: top_communities)
VIEW_PAPERS = 20_000  # the views and trends draw a sample of this many papers (view_sample)


@dataclass
class Assembly:
    """What an assembly wrote: papers, nodes per label, edges per type, seconds per step."""

    papers: int = 0
    nodes: dict[str, int] = field(default_factory=dict)
    edges: dict[str, int] = field(default_factory=dict)
    steps: dict[str, float] = field(default_factory=dict)
    written: list[str] = field(default_factory=list)


def run_dask_build(inputs: list[Path], output: Path, address: str, *, workers: int, memory_limit: str | None,
                   graph_files: bool, thesaurus: dict[str, str], console: Console,
                   view: ViewOptions = DEFAULT_VIEW, extract: ExtractSettings | None = None,
                   partition_size: int = 2000) -> tuple[Assembly, WarningLog]:
    """Assemble the graph of the extraction shards on the cluster at `address` into `output`, committed
    together with its manifest (nothing replaced on failure). With `extract`, the inputs are abstracts:
    extracted on the same cluster first, into the build's extractions/ shards (partitions of
    `partition_size`), which the assembly then reads. Returns the assembly and the run's input warnings."""
    run = Run.start(inputs, output, extract or ExtractSettings(), console)
    with dask_client(address, workers, memory_limit) as client, run.transaction() as out:
        if extract is None:
            files = shard_files = _shard_files(run)
            entries = [{"path": str(path), **_entry(path)} for path in files]
            shards: list[str] = []
        else:
            files = run.files()
            (out.staging / EXTRACTION_SHARDS).mkdir()
            names, _ = extract_shards(client, run, files, out.staging / EXTRACTION_SHARDS, partition_size,
                                      f"extracting on {address}")
            if not names:
                raise PaperkgError(f"--dask: no abstract to build in {', '.join(map(str, inputs))}.")
            shards = [f"{EXTRACTION_SHARDS}/{name}" for name in names]
            shard_files = [out.staging / name for name in shards]
            entries = input_set(run.read)
        view = replace(view, title=view.title or view_title([{"path": display_name(path)} for path in files]))
        assembly = assemble(client, shard_files, out.staging, thesaurus, graph_files, run.progress, view)
        assembly.written += shards
        out.commit(Manifest(files=describe_files(out.staging, assembly.written), papers=assembly.papers,
                            inputs=entries))
    return assembly, run.warnings


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
             progress: Callable[[Iterable[Any], str], Iterable[Any]], view: ViewOptions = DEFAULT_VIEW) -> Assembly:
    """The assembly's steps on the cluster of `client`; outputs into `folder`: the Parquet parts, the views and
    trends of a sample of the corpus (view_sample), the Neo4j import files, graph.json and GraphML if asked."""
    from paperkg.core.atomic import atomic_write_text
    from paperkg.cypher.rows import trend_properties
    from paperkg.graph import assembly as steps
    from paperkg.graph import parquet_graph
    from paperkg.graph.builder import corpus_groups
    from paperkg.graph.resolve import ShortForms
    from paperkg.graph.trends import trends as graph_trends
    from paperkg.orchestrate.artifact import ADMISSION, LAYERS, write_layers
    from paperkg.viz.leaderboard_page import write_leaderboard_page
    from paperkg.viz.views import start_views

    done = Assembly()
    parts = len(shards)
    work = steps.Work(folder / ".assembly", buckets=0, tables=parts)

    def run(what: str, function: Callable[..., Any], calls: list[tuple[Any, ...]]) -> list[Any]:
        began = time.perf_counter()
        futures = [client.submit(function, *call, pure=False) for call in calls]
        results = [future.result() for future in progress(futures, what)]
        done.steps[what] = time.perf_counter() - began
        return results

    shorts, merges, ids = ShortForms(), [], []
    began = time.perf_counter()
    for found in progress((future.result() for future in [
            client.submit(steps.read_definitions, part, shard, thesaurus, work, pure=False)
            for part, shard in enumerate(shards)]),
            "reading the short forms"):
        shorts.update(found.shorts)
        merges += found.merges
        ids.append(found.ids)
    numbers = np.concatenate(ids) if ids else np.zeros(0, dtype=np.int64)
    if len(np.unique(numbers)) != len(numbers):
        raise PaperkgError("--dask: a paper is in two shards; build from shards of one extraction run.")
    done.papers = len(numbers)
    work = replace(work, buckets=max(1, math.ceil(done.papers / PAPERS_PER_BUCKET)))
    merges.sort(key=lambda merge: merge[3])  # the builder's order: papers by id
    refusals = RefusalTable()
    groups, notes = corpus_groups(shorts, merges, refusals)
    steps.dump_refusals(work, refusals, "corpus")
    steps.dump_corpus(work, shorts, groups)
    steps.corpus_notes(notes, groups, work)
    del shorts, merges, notes, groups, refusals
    done.steps["short forms"] = time.perf_counter() - began
    run("name tables", steps.vote_partition, [(part, work) for part in range(parts)])
    run("node choices", steps.decide_bucket, [(bucket, parts, work) for bucket in range(work.buckets)])
    run("entity nodes", steps.node_bucket, [(bucket, parts, work) for bucket in range(work.buckets)])
    run("paper edges", steps.edge_partition, [(part, work) for part in range(parts)])
    run("relations", steps.entity_bucket, [(bucket, parts, work) for bucket in range(work.buckets)])
    run("refusals", steps.admission_bucket, [(table, work) for table in range(work.tables)])
    began = time.perf_counter()
    finals = steps.final_names(work, parts)
    metrics_file = _metrics(client, finals, work.folder / "metrics.npz", progress)
    done.steps["metrics"] = time.perf_counter() - began
    run("parquet", steps.write_parts, [(path, metrics_file, folder) for path in finals])
    done.nodes = parquet_graph.counts(folder, parquet_graph.NODES, "label")
    done.edges = parquet_graph.counts(folder, parquet_graph.EDGES, "type")
    began = time.perf_counter()
    sample = view_sample(client, folder, metrics_file, progress)
    trends = graph_trends(sample)
    done.steps["views' sample"] = time.perf_counter() - began
    began = time.perf_counter()
    views = start_views(sample, folder, view)
    views.finish()
    layer = views.layer()
    over_time = work.folder / "over-time.json"
    atomic_write_text(over_time, json.dumps(trend_properties(sample, trends)))
    del sample, views  # the leaderboards' rows grow with the corpus: the sample is let go first
    done.steps["views and trends"] = time.perf_counter() - began
    began = time.perf_counter()
    boards = leaderboards(folder, run)
    write_leaderboard_page(boards.boards.values(), folder / LEADERBOARD_FILE, f"{view.heading} · leaderboards")
    write_layers(folder, trends, layer, None, boards)
    del boards
    steps.write_admission_file(work, folder / ADMISSION)
    done.steps["leaderboards"] = time.perf_counter() - began
    import_files(client, folder, metrics_file, over_time, run)
    done.written = [MAP_FILE, PAPERS_FILE, LEADERBOARD_FILE, *LAYERS, *parquet_graph.part_files(folder),
                    *import_names(folder)]
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
    """Degree, PageRank, community and label of every node from the edges' numbers (graph/metrics.py), saved by
    node number for the parts to read."""
    from paperkg.graph.assembly import LABELS, key_hash, metric_numbers
    from paperkg.graph.metrics import node_metrics

    keys: list[str] = []
    labels: list[np.ndarray] = []
    heads: list[np.ndarray] = []
    tails: list[np.ndarray] = []
    counts: list[np.ndarray] = []
    for found in progress((future.result() for future in [
            client.submit(metric_numbers, path, pure=False) for path in finals]), "metrics: the edges' numbers"):
        keys += found[0]
        for column, value in zip((labels, heads, tails, counts), found[1:]):
            column.append(value)
    ranked = sorted(range(len(keys)), key=keys.__getitem__)  # nodes numbered in key order, as add_metrics does
    numbers = np.array([key_hash(keys[at]) for at in ranked], dtype=np.int64)
    label = np.concatenate(labels)[ranked] if labels else np.zeros(0, dtype=np.int8)
    del keys, ranked
    order = np.argsort(numbers)
    if len(np.unique(numbers)) != len(numbers):
        raise PaperkgError("--dask: two node keys share a 64-bit number; build this corpus without --dask.")
    head, tail = (order[np.searchsorted(numbers, np.concatenate(column), sorter=order)] for column in (heads, tails))
    weight = np.concatenate(counts)
    papers = label == LABELS.index("Paper") if len(weight) > SCALE_EDGES else None
    found = node_metrics(len(numbers), head, tail, weight, papers)
    np.savez(target, numbers=numbers[order], label=label[order], degree=np.array(found.degrees)[order],
             pagerank=np.array(found.pagerank)[order], community=np.array(found.community)[order])
    return target


def view_sample(client: Any, folder: Path, metrics_file: Path,
                progress: Callable[[Iterable[Any], str], Iterable[Any]]) -> nx.MultiDiGraph:
    """The corpus the views and trends draw, past VIEW_PAPERS papers a sample of it: the VIEW_PAPERS papers of
    lowest key number (a uniform sample), their edges, the entities they name and the relations between those;
    every node with its metrics and paper count in the whole graph."""
    import networkx as nx

    from paperkg.graph.assembly import LABELS
    from paperkg.graph.parquet_graph import graph_attributes, part_names, view_rows

    with np.load(metrics_file) as data:
        papers = np.sort(data["numbers"][data["label"] == LABELS.index("Paper")])
    below = int(papers[min(VIEW_PAPERS, len(papers)) - 1]) if len(papers) else 0
    parts = part_names(folder)

    def rows(entities: frozenset[str] | None, names: list[str], what: str) -> tuple[list[Any], list[Any]]:
        found_nodes, found_edges = [], []
        for part_nodes, part_edges in progress((future.result() for future in [
                client.submit(view_rows, folder, part, below, entities, pure=False) for part in names]), what):
            found_nodes += part_nodes
            found_edges += part_edges
        return found_nodes, found_edges

    paper_nodes, paper_edges = rows(None, parts, "the views' sample: papers")
    named = frozenset(target for _, target, _, _ in paper_edges)
    entity_nodes, relations = rows(named, [part for part in parts if part.startswith("k")],
                                   "the views' sample: entities")
    graph = nx.MultiDiGraph(**graph_attributes())
    graph.add_nodes_from(sorted(paper_nodes + entity_nodes))
    graph.add_edges_from((source, target, kind, data)
                         for source, target, kind, data in sorted(paper_edges + relations, key=lambda e: e[:3]))
    return graph


def leaderboards(folder: Path, run: Callable[[str, Callable[..., Any], list[tuple[Any, ...]]], list[Any]]
                 ) -> Leaderboards:
    """The leaderboards of the Parquet parts' results: each part's rows read by a worker (parquet_graph.part_results),
    joined here in result key order (the order of the parts' merged nodes)."""
    from paperkg.graph.leaderboard import leaderboards_of
    from paperkg.graph.parquet_graph import part_names, part_results

    rows, groups, subjects = {}, {}, {}
    for part_rows, part_groups, part_subjects in run("leaderboards: the results' rows", part_results,
                                                     [(folder, part) for part in part_names(folder)]):
        rows.update(part_rows)
        groups.update(part_groups)
        subjects.update(part_subjects)
    return leaderboards_of(dict(sorted(rows.items())), groups, subjects)


def import_files(client: Any, folder: Path, metrics_file: Path, over_time: Path,
                 run: Callable[[str, Callable[..., Any], list[tuple[Any, ...]]], list[Any]]) -> None:
    """neo4j-admin's import files of the Parquet parts, written by the workers (cypher/bulk_import.py), with their
    account (neo4j-import/import.json: what `paperkg push --bulk-import` loads)."""
    from functools import partial

    from paperkg.core.atomic import atomic_write_text
    from paperkg.cypher.bulk_import import ImportFiles, part_import_files, part_left_keys
    from paperkg.graph.assembly import labels_of
    from paperkg.graph.parquet_graph import part_names

    parts = part_names(folder)
    left = set().union(*run("import: rows for Cypher", part_left_keys, [(folder, part) for part in parts]))
    target = folder / IMPORT
    target.mkdir()
    labels = partial(labels_of, metrics_file=metrics_file)
    files = ImportFiles()
    for found in run("import files", part_import_files,
                     [(folder, part, labels, target, over_time, left) for part in parts]):
        files.merge(found)
    atomic_write_text(target / IMPORT_ACCOUNT, files.to_json(folder))


IMPORT_ACCOUNT = "import.json"


def import_names(folder: Path) -> list[str]:
    """The import files and their account, relative to `folder` (for the manifest)."""
    return sorted(str(path.relative_to(folder)) for path in (folder / IMPORT).iterdir())
