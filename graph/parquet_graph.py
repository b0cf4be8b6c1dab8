"""The graph as partitioned Parquet: the artifact of a build at scale (`paperkg build --dask`).

Three datasets, one file per part, each file sorted: nodes/ (key, label, name, degree, pagerank,
community, papers, attributes: every attribute of the graph model as JSON), edges/ (source, target,
type, count, confidence, attributes without the evidence) and evidence/ (source, target, type, rank and
the Evidence fields, the sentence written out). graph.json and GraphML are streamed from them, parts
merged in key order, one row in memory per part: the same bytes the one-process build writes.
Needs pyarrow (`pip install 'paperkg[dask]'`).
"""
from __future__ import annotations

import heapq
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from paperkg.core.atomic import atomic_write
from paperkg.core.schema import SCHEMA_KEY, SCHEMA_VERSION

NODES, EDGES, EVIDENCE = "nodes", "edges", "evidence"
DATASETS = (NODES, EDGES, EVIDENCE)
_BATCH = 8192
_NODE_COLUMNS = ("degree", "pagerank", "community", "papers")


def write_part(folder: Path, name: str, nodes: list[tuple[str, dict[str, Any]]],
               edges: list[tuple[str, str, str, dict[str, Any]]]) -> dict[str, int]:
    """One part's nodes and edges (each sorted) as Parquet files `name`.parquet under nodes/, edges/ and
    evidence/ of `folder`; returns the rows written per dataset."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    node_columns: dict[str, list[Any]] = {"key": [], "label": [], "name": [], **{c: [] for c in _NODE_COLUMNS},
                                          "attributes": []}
    for key, attrs in nodes:
        node_columns["key"].append(key)
        node_columns["label"].append(attrs["label"])
        node_columns["name"].append(attrs["name"])
        for column in _NODE_COLUMNS:
            node_columns[column].append(attrs.get(column, 0))
        node_columns["attributes"].append(json.dumps(attrs, sort_keys=True, ensure_ascii=False))
    edge_columns: dict[str, list[Any]] = {name: [] for name in ("source", "target", "type", "count", "confidence",
                                                                "attributes")}
    evidence_columns: dict[str, list[Any]] = {name: [] for name in (
        "source", "target", "type", "rank", "paper", "sentence", "sentence_start", "start", "end", "extractor",
        "confidence")}
    for source, target, kind, data in edges:
        for column, value in zip(("source", "target", "type", "count", "confidence"),
                                 (source, target, kind, data["count"], data["confidence"])):
            edge_columns[column].append(value)
        rest = {name: value for name, value in data.items() if name != "evidence"}
        edge_columns["attributes"].append(json.dumps(rest, sort_keys=True, ensure_ascii=False))
        for rank, item in enumerate(data["evidence"]):
            for column, value in (("source", source), ("target", target), ("type", kind), ("rank", rank)):
                evidence_columns[column].append(value)
            for column in ("paper", "sentence", "sentence_start", "start", "end", "extractor", "confidence"):
                evidence_columns[column].append(item[column])
    counts = {}
    for dataset, columns in ((NODES, node_columns), (EDGES, edge_columns), (EVIDENCE, evidence_columns)):
        (folder / dataset).mkdir(parents=True, exist_ok=True)
        pq.write_table(pa.table(columns), folder / dataset / f"{name}.parquet", compression="zstd")
        counts[dataset] = len(next(iter(columns.values())))
    return counts


def _rows(path: Path, columns: list[str]) -> Iterator[dict[str, Any]]:
    """A Parquet file's rows, a batch at a time."""
    import pyarrow.parquet as pq

    with pq.ParquetFile(path) as parquet:
        for batch in parquet.iter_batches(batch_size=_BATCH, columns=columns):
            yield from batch.to_pylist()


def _parts(folder: Path, dataset: str) -> list[Path]:
    return sorted((folder / dataset).glob("*.parquet"))


def nodes(folder: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """(key, attributes) of every node, in key order."""
    streams = [_rows(path, ["key", "attributes"]) for path in _parts(folder, NODES)]
    for row in heapq.merge(*streams, key=lambda row: row["key"]):
        yield row["key"], json.loads(row["attributes"])


def edges(folder: Path) -> Iterator[tuple[str, str, str, dict[str, Any]]]:
    """(source, target, type, attributes with their evidence) of every edge, in (source, target, type) order."""
    def order(row: dict[str, Any]) -> tuple[str, str, str]:
        return row["source"], row["target"], row["type"]

    rows = heapq.merge(*(_rows(path, ["source", "target", "type", "attributes"]) for path in _parts(folder, EDGES)),
                       key=order)
    evidence = heapq.merge(*(_rows(path, None) for path in _parts(folder, EVIDENCE)),  # type: ignore[arg-type]
                           key=lambda row: (*order(row), row["rank"]))
    pending = next(evidence, None)
    for row in rows:
        data = json.loads(row["attributes"])
        items = []
        while pending is not None and order(pending) == order(row):
            items.append({name: pending[name] for name in ("paper", "sentence", "sentence_start", "start", "end",
                                                           "extractor", "confidence")})
            pending = next(evidence, None)
        data["evidence"] = items
        yield row["source"], row["target"], row["type"], data


def graph_attributes() -> dict[str, Any]:
    """The graph's own attributes, as the builder sets them."""
    return {SCHEMA_KEY: SCHEMA_VERSION}


def write_json(folder: Path, path: Path) -> None:
    """graph.json streamed from the Parquet parts."""
    from .stream_writers import write_node_link_rows

    def write(handle: IO[bytes]) -> None:
        write_node_link_rows(graph_attributes(), edges(folder), nodes(folder), handle)

    atomic_write(path, write)


def write_graphml(folder: Path, path: Path) -> None:
    """GraphML streamed from the Parquet parts (read twice: the columns first, then the rows)."""
    from .exports import rows_table, write_graphml as write

    write(rows_table(lambda: nodes(folder), lambda: edges(folder), graph_attributes()), path)


def counts(folder: Path, dataset: str, column: str) -> dict[str, int]:
    """Rows per value of a column (nodes per label, edges per type) over a dataset's parts."""
    import pyarrow.parquet as pq

    found: dict[str, int] = {}
    for path in _parts(folder, dataset):
        for value in pq.read_table(path, columns=[column]).column(column).to_pylist():
            found[value] = found.get(value, 0) + 1
    return dict(sorted(found.items()))


def part_files(folder: Path) -> Iterable[str]:
    """The parts' paths relative to `folder` (for the manifest)."""
    return [str(path.relative_to(folder)) for dataset in DATASETS for path in _parts(folder, dataset)]
