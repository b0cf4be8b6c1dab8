"""Exports of the graph: node-link JSON, GraphML, GEXF and CSV, byte-identical for identical graphs.

GraphML and GEXF hold only scalars, so list and dict attributes (aliases, authors, evidence)
are written as JSON strings and named in the graph attribute `paperkg_json_attributes`;
`read_graphml` decodes them and gives back the graph that was written. A character XML 1.0
cannot hold (a control character, a lone surrogate) is written as U+FFFD, so the file is always
well-formed XML. CSV cells that a spreadsheet would run as a formula (starting with =, +, -, @,
tab or carriage return) are prefixed with a single quote, as OWASP recommends against CSV injection.
"""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import networkx as nx

from paperkg.core.atomic import atomic_write, atomic_write_text
from paperkg.core.characters import replace_invalid_characters
from paperkg.core.errors import PaperkgError
from paperkg.core.output_folder import checked_output
from paperkg.core.schema import SCHEMA_KEY, check_graph_schema

from . import stream_writers
from .evidence import json_default
from .stream_writers import write_node_link_json

JSON_ATTRIBUTES_KEY = "paperkg_json_attributes"
NODE_CSV_COLUMNS = ["key", "label", "name", "aliases", "acronym", "long_form", "mentions", "papers",
                    "degree", "pagerank", "community", "paper_id", "title", "year", "venue", "code_url", "source"]
EDGE_CSV_COLUMNS = ["source", "target", "type", "count", "confidence", "evidence_sentence"]
FORMULA_LEADERS = ("=", "+", "-", "@", "\t", "\r")  # OWASP, CSV injection


def ordered(graph: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """A copy with nodes, edges and attribute names in sorted order, so output never depends on history."""
    copy = nx.MultiDiGraph()
    copy.graph.update(sorted(graph.graph.items()))
    for key in sorted(graph.nodes):
        copy.add_node(key, **dict(sorted(graph.nodes[key].items())))
    for u, v, k in sorted(graph.edges(keys=True)):
        copy.add_edge(u, v, key=k, **dict(sorted(graph.edges[u, v, k].items())))
    return copy


def write_json(graph: nx.MultiDiGraph, path: Path) -> None:
    """Write node-link JSON atomically, streamed (one node or edge a line)."""
    atomic_write(path, lambda handle: write_node_link_json(graph, handle))


def read_json(path: Path) -> nx.MultiDiGraph:
    """Read a graph written by write_json (its schema version checked)."""
    data = json.loads(Path(path).read_text(encoding="utf8"))
    graph = nx.node_link_graph(data, edges="edges", multigraph=True, directed=True)
    check_graph_schema(graph.graph.get(SCHEMA_KEY), str(path))
    return graph


def read_graph(path: Path) -> nx.MultiDiGraph:
    """graph.json or graph.graphml as written by paperkg; one sentence naming the file when it is missing,
    unreadable, not a paperkg graph of this schema, or not the file its folder's manifest lists."""
    path = Path(path)
    if not path.is_file():
        raise PaperkgError(f"{path}: no such file.")
    checked_output(path)
    try:
        return read_graphml(path) if path.suffix.lower() == ".graphml" else read_json(path)
    except (ValueError, KeyError, TypeError, UnicodeDecodeError, OSError, nx.NetworkXError) as error:
        raise PaperkgError(f"{path} is not a paperkg graph ({type(error).__name__}: {error}).") from None


def _scalar_graph(graph: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """Lists and dicts as JSON strings, every string XML-safe; each edge gets a document-unique
    id 'source|TYPE|target'."""
    flat = ordered(nx.relabel_nodes(graph, _xml_safe, copy=True))
    flat.graph.update((name, _xml_safe(value)) for name, value in list(flat.graph.items()))
    encoded: set[str] = set()
    for _, data in flat.nodes(data=True):
        _encode(data, encoded)
    for u, v, k, data in flat.edges(keys=True, data=True):
        _encode(data, encoded)
        data["id"] = _xml_safe(f"{u}|{k}|{v}")
    flat.graph[JSON_ATTRIBUTES_KEY] = ",".join(sorted(encoded))
    return flat


def _encode(data: dict[str, Any], encoded: set[str]) -> None:
    for name, value in data.items():
        if isinstance(value, (list, dict, tuple)):
            value = json.dumps(value, sort_keys=True, ensure_ascii=False, default=json_default)
            encoded.add(name)
        data[name] = _xml_safe(value)


def _xml_safe(value: Any) -> Any:
    return replace_invalid_characters(value, "\ufffd") if isinstance(value, str) else value


def write_graphml(graph: nx.MultiDiGraph, path: Path) -> None:
    """GraphML for Gephi, Cytoscape, igraph: scalar attributes only, unique edge ids, streamed."""
    atomic_write(path, lambda handle: stream_writers.write_graphml(graph, handle, JSON_ATTRIBUTES_KEY))


def read_graphml(path: Path) -> nx.MultiDiGraph:
    """Read GraphML written by write_graphml back into the graph that was written."""
    flat = nx.read_graphml(path, force_multigraph=True)
    encoded = set(filter(None, flat.graph.pop(JSON_ATTRIBUTES_KEY, "").split(",")))
    check_graph_schema(flat.graph.get(SCHEMA_KEY), str(path))
    graph = nx.MultiDiGraph()
    graph.graph.update(flat.graph)
    for key, data in flat.nodes(data=True):
        graph.add_node(key, **_decode(data, encoded))
    for u, v, data in flat.edges(data=True):
        data = _decode(data, encoded)
        data.pop("id", None)
        graph.add_edge(u, v, key=data["type"], **data)
    return graph


def _decode(data: dict[str, Any], encoded: set[str]) -> dict[str, Any]:
    return {name: json.loads(value) if name in encoded else value for name, value in data.items()}


def write_gexf(graph: nx.MultiDiGraph, path: Path) -> None:
    """GEXF for Gephi, with the same scalar encoding as GraphML."""
    flat = _scalar_graph(graph)
    atomic_write(path, lambda handle: nx.write_gexf(flat, handle))


def write_csv(graph: nx.MultiDiGraph, directory: Path) -> None:
    """nodes.csv and edges.csv (aliases joined by '|'; the first evidence sentence per edge)."""
    flat = ordered(graph)
    nodes = io.StringIO()
    writer = csv.DictWriter(nodes, fieldnames=NODE_CSV_COLUMNS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for _, data in flat.nodes(data=True):
        writer.writerow(_spreadsheet_safe({**data, "aliases": "|".join(data.get("aliases", []))}))
    edges = io.StringIO()
    writer = csv.DictWriter(edges, fieldnames=EDGE_CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for u, v, data in flat.edges(data=True):
        writer.writerow(_spreadsheet_safe({"source": u, "target": v, "type": data["type"], "count": data["count"],
                                           "confidence": data["confidence"],
                                           "evidence_sentence": data["evidence"][0]["sentence"]}))
    atomic_write_text(directory / "nodes.csv", nodes.getvalue())
    atomic_write_text(directory / "edges.csv", edges.getvalue())


def _spreadsheet_safe(row: dict[str, Any]) -> dict[str, Any]:
    """Text cells a spreadsheet would run as a formula, prefixed with a quote (OWASP); characters
    no text file can hold replaced as in GraphML."""
    cells = {name: _xml_safe(value) for name, value in row.items()}
    return {name: f"'{value}" if isinstance(value, str) and value.startswith(FORMULA_LEADERS) else value
            for name, value in cells.items()}
