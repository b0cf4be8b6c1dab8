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
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from paperkg.core.atomic import atomic_write
from paperkg.core.schema import RESULT_REL_TYPES, SCHEMA_KEY, SCHEMA_VERSION, NodeLabel, RelType

if TYPE_CHECKING:
    import networkx as nx

    from .leaderboard import ResultGroup, Row, Subject

NODES, EDGES, EVIDENCE, NAMES = "nodes", "edges", "evidence", "names"
DATASETS = (NODES, EDGES, EVIDENCE, NAMES)
_BATCH = 8192
_RESULT_KINDS = frozenset(kind.value for kind in RESULT_REL_TYPES)
_NOT_NAMED = frozenset({NodeLabel.PAPER.value, NodeLabel.RESULT.value})  # no entity: not in names/
_NODE_COLUMNS = ("degree", "pagerank", "community", "papers")
# an evidence item's fields, in the order graph.json holds them (sorted: a paper's digest reads the items as they are)
_ITEM_FIELDS = ("confidence", "end", "extractor", "paper", "sentence", "sentence_start", "start")


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
        "source", "target", "type", "rank", *_ITEM_FIELDS)}
    for source, target, kind, data in edges:
        for column, value in zip(("source", "target", "type", "count", "confidence"),
                                 (source, target, kind, data["count"], data["confidence"])):
            edge_columns[column].append(value)
        rest = {name: value for name, value in data.items() if name != "evidence"}
        edge_columns["attributes"].append(json.dumps(rest, sort_keys=True, ensure_ascii=False))
        for rank, item in enumerate(data["evidence"]):
            for column, value in (("source", source), ("target", target), ("type", kind), ("rank", rank)):
                evidence_columns[column].append(value)
            for column in _ITEM_FIELDS:
                evidence_columns[column].append(item[column])
    counts = {}
    for dataset, columns in ((NODES, node_columns), (EDGES, edge_columns), (EVIDENCE, evidence_columns),
                             (NAMES, _names(nodes))):
        (folder / dataset).mkdir(parents=True, exist_ok=True)
        pq.write_table(pa.table(columns), folder / dataset / f"{name}.parquet", compression="zstd")
        counts[dataset] = len(next(iter(columns.values())))
    return counts


def _names(nodes: list[tuple[str, dict[str, Any]]]) -> dict[str, list[Any]]:
    """The names index of a part: one row per entity name and alias (casefolded, as searched), in that order."""
    rows = sorted((text.casefold(), text, attrs["name"], key, attrs["label"], attrs.get("papers", 0))
                  for key, attrs in nodes if attrs["label"] not in _NOT_NAMED
                  for text in {attrs["name"], *attrs.get("aliases", ())})
    return {name: [row[at] for row in rows]
            for at, name in enumerate(("folded", "matched", "name", "key", "label", "papers"))}


def find_names(folder: Path, text: str, limit: int = 20) -> list[dict[str, Any]]:
    """The entities whose name or an alias holds `text` (any case), those in the most papers first, each with the
    first name or alias that matched: the search over all names of a build at scale (its names/ parts; the views
    draw only the top of the corpus)."""
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    found: dict[str, dict[str, Any]] = {}
    for path in _parts(folder, NAMES):
        table = pq.read_table(path)
        if not table.num_rows:
            continue
        for row in table.filter(pc.match_substring(table["folded"], text.casefold())).to_pylist():
            row.pop("folded")
            found.setdefault(row["key"], row)
    return sorted(found.values(), key=lambda row: (-row["papers"], row["name"], row["key"]))[:limit]


def _rows(path: Path, columns: list[str]) -> Iterator[dict[str, Any]]:
    """A Parquet file's rows, a batch at a time."""
    import pyarrow.parquet as pq

    with pq.ParquetFile(path) as parquet:
        for batch in parquet.iter_batches(batch_size=_BATCH, columns=columns):
            yield from batch.to_pylist()


def _parts(folder: Path, dataset: str, parts: list[str] | None = None) -> list[Path]:
    """A dataset's part files (those named, with `parts`)."""
    if parts is not None:
        return [folder / dataset / f"{name}.parquet" for name in parts]
    return sorted((folder / dataset).glob("*.parquet"))


def part_names(folder: Path) -> list[str]:
    """The names of the parts (one file each in nodes/, edges/ and evidence/)."""
    return [path.stem for path in _parts(folder, NODES)]


def nodes(folder: Path, parts: list[str] | None = None) -> Iterator[tuple[str, dict[str, Any]]]:
    """(key, attributes) of every node (of the named parts only, with `parts`), in key order."""
    streams = [_rows(path, ["key", "attributes"]) for path in _parts(folder, NODES, parts)]
    for row in heapq.merge(*streams, key=lambda row: row["key"]):
        yield row["key"], json.loads(row["attributes"])


def edges(folder: Path, parts: list[str] | None = None) -> Iterator[tuple[str, str, str, dict[str, Any]]]:
    """(source, target, type, attributes with their evidence) of every edge (of the named parts only, with
    `parts`), in (source, target, type) order."""
    def order(row: dict[str, Any]) -> tuple[str, str, str]:
        return row["source"], row["target"], row["type"]

    rows = heapq.merge(*(_rows(path, ["source", "target", "type", "attributes"])
                         for path in _parts(folder, EDGES, parts)), key=order)
    evidence = heapq.merge(*(_rows(path, None) for path in _parts(folder, EVIDENCE, parts)),  # type: ignore[arg-type]
                           key=lambda row: (*order(row), row["rank"]))
    pending = next(evidence, None)
    for row in rows:
        data = json.loads(row["attributes"])
        items = []
        while pending is not None and order(pending) == order(row):
            items.append({name: pending[name] for name in _ITEM_FIELDS})
            pending = next(evidence, None)
        data["evidence"] = items
        yield row["source"], row["target"], row["type"], data


def part_results(folder: Path, part: str) -> tuple[dict[str, Row], dict[str, ResultGroup], dict[str, Subject]]:
    """The leaderboards' rows of one part's results (graph/leaderboard.py: result_rows), on a worker: its result
    nodes with their edges (not their evidence) and papers, which a paper's part holds, and the entities those
    edges reach, read from the parts of their keys' buckets (entity_nodes). The client joins the rows, never the
    results' graph."""
    import networkx as nx

    from .leaderboard import result_rows

    found = [(row["source"], row["target"], row["type"]) for path in _parts(folder, EDGES, [part])
             for row in _rows(path, ["source", "target", "type"]) if row["type"] in _RESULT_KINDS]
    if not found:
        return {}, {}, {}
    own = {source for source, _, _ in found} | {target for _, target, kind in found if kind == RelType.REPORTS.value}
    graph = nx.MultiDiGraph(**graph_attributes())
    graph.add_nodes_from((key, attrs) for key, attrs in nodes(folder, [part]) if key in own)
    graph.add_nodes_from(entity_nodes(folder, {target for _, target, _ in found} - own).items())
    graph.add_edges_from(found)
    return result_rows(graph)


def entity_nodes(folder: Path, keys: set[str]) -> dict[str, dict[str, Any]]:
    """The attributes of the entity nodes of `keys`, each read from the part of its key's bucket (the parts named
    k0000... of graph/assembly.py: final_names)."""
    import pyarrow.parquet as pq

    from .assembly import bucket_of

    buckets = sum(1 for name in part_names(folder) if name.startswith("k"))
    wanted: dict[str, list[str]] = {}
    for key in sorted(keys):
        wanted.setdefault(f"k{bucket_of(key, buckets):04d}", []).append(key)
    found = {}
    for part, part_keys in sorted(wanted.items()):
        table = pq.read_table(folder / NODES / f"{part}.parquet", columns=["key", "attributes"],
                              filters=[("key", "in", part_keys)])
        for key, attributes in zip(table["key"].to_pylist(), table["attributes"].to_pylist()):
            found[key] = json.loads(attributes)
    return found


def part_graph(folder: Path, part: str,
               labels_of: Callable[[list[str]], list[str]]) -> tuple[nx.MultiDiGraph, list[str]]:
    """One part as a graph: its nodes and edges, and the other ends of its edges with their labels only
    (`labels_of` their keys); with the part's node keys."""
    import networkx as nx

    graph = nx.MultiDiGraph(**graph_attributes())
    graph.add_nodes_from(nodes(folder, [part]))
    own = list(graph)
    found = list(edges(folder, [part]))
    ends = sorted({end for source, target, _, _ in found for end in (source, target)} - set(own))
    graph.add_nodes_from((key, {"label": label}) for key, label in zip(ends, labels_of(ends)))
    graph.add_edges_from((source, target, kind, data) for source, target, kind, data in found)
    return graph, own


def view_rows(folder: Path, part: str, papers_below: int, entities: frozenset[str] | None
              ) -> tuple[list[tuple[str, dict[str, Any]]], list[tuple[str, str, str, dict[str, Any]]]]:
    """What a part gives the views' sample of the corpus: without `entities`, its papers whose key number is at
    most `papers_below` with their edges, and the results they report with theirs; with them, those entity nodes
    and the relations between them."""
    from .assembly import key_hash

    if entities is None:
        own = list(nodes(folder, [part]))
        found = list(edges(folder, [part]))
        keys = {key for key, attrs in own if attrs["label"] == NodeLabel.PAPER.value and key_hash(key) <= papers_below}
        keys |= {target for source, target, kind, _ in found if source in keys and kind == RelType.REPORTS.value}
        return [(key, attrs) for key, attrs in own if key in keys], [edge for edge in found if edge[0] in keys]
    return ([(key, attrs) for key, attrs in nodes(folder, [part]) if key in entities],
            [edge for edge in edges(folder, [part]) if edge[0] in entities and edge[1] in entities])


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
