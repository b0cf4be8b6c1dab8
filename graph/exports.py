"""Exports of the graph: node-link JSON, GraphML, GEXF and CSV, byte-identical for identical graphs.

GraphML, GEXF and CSV follow the conventions of the tools that open them (graph/interchange.py):
a node's `label` is its name, its type is `node_type`, an edge's relation type is its kind and its
`interaction`, and its `weight` is what a layout pulls by (`edge_weight`: a typed relation's papers
times its confidence, 0 below the threshold the user sets). They hold only scalars, so list and dict
attributes (aliases, authors, evidence) are written as JSON strings (in CSV, lists of names joined by
'|'), named in GraphML's graph attribute `paperkg_json_attributes`; `read_graphml` decodes them and
gives back the graph that was written (its weights aside). A character XML 1.0 cannot hold (a
control character, a lone surrogate) is written as U+FFFD, so the file is always well-formed XML.
CSV cells that a spreadsheet would run as a formula (starting with =, +, -, @, tab or carriage
return) are prefixed with a single quote, as OWASP recommends against CSV injection.
"""
from __future__ import annotations

import csv
import io
import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import networkx as nx

from paperkg.core import graph_model as model
from paperkg.core.atomic import atomic_write, atomic_write_texts
from paperkg.core.characters import replace_invalid_characters
from paperkg.core.errors import PaperkgError
from paperkg.core.output_folder import checked_output
from paperkg.core.schema import (DEFAULT_MIN_CONFIDENCE, PAPER_REL_TYPES, SCHEMA_KEY, NodeLabel, RelType,
                                 check_graph_schema, enum_member)

from . import stream_writers
from .evidence import json_default
from .interchange import (CYTOSCAPE_NAME, INTERACTION, NODE_LABEL, NODE_TYPE, WEIGHT, EdgeRow, GraphTable,
                          NodeRow)
from .stream_writers import sorted_edges, write_node_link_json

JSON_ATTRIBUTES_KEY = "paperkg_json_attributes"
GRAPH_FILE = "graph.json"  # what a build's output folder stands for
# CSV columns in the order of Gephi's spreadsheet import (Id, Label; Source, Target, Kind, Weight), then
# the rest sorted; the abstract, evidence lists and Cytoscape's duplicate name are left to the other formats.
NODE_CSV_FIRST = ("id", NODE_LABEL, NODE_TYPE, "name")
NODE_CSV_LEFT_OUT = ("abstract", CYTOSCAPE_NAME, "canonical")
EDGE_CSV_FIRST = ("id", "source", "target", "kind", INTERACTION, WEIGHT)
EDGE_CSV_LEFT_OUT = ("evidence",)
FORMULA_LEADERS = ("=", "+", "-", "@", "\t", "\r")  # OWASP, CSV injection


def ordered(graph: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """A copy with nodes, edges and attribute names in sorted order, so output never depends on history."""
    copy = nx.MultiDiGraph()
    copy.graph.update(sorted(graph.graph.items()))
    for key in sorted(graph.nodes):
        copy.add_node(key, **dict(sorted(model.node_attrs(graph, key).items())))
    for u, v, k, data in sorted_edges(graph):
        copy.add_edge(u, v, key=k, **dict(sorted(data.items())))
    return copy


def write_json(graph: nx.MultiDiGraph, path: Path) -> None:
    """Write node-link JSON atomically, streamed (one node or edge a line)."""
    atomic_write(path, lambda handle: write_node_link_json(graph, handle))


def read_json(path: Path) -> nx.MultiDiGraph:
    """Read a graph written by write_json (its schema version checked)."""
    data = json.loads(Path(path).read_text(encoding="utf8"))
    if not isinstance(data, dict):
        raise ValueError(f"it holds a JSON {type(data).__name__}, where a graph is a JSON object")
    # paperkg's graphs are directed multigraphs, whatever a hand-made file says
    graph = nx.node_link_graph({**data, "directed": True, "multigraph": True}, edges="edges")
    check_graph_schema(graph.graph.get(SCHEMA_KEY), str(path))
    return graph


def graph_path(path: Path) -> Path:
    """The graph file a user names: the file itself, or a build's output folder's graph.json; one
    sentence saying what to name when there is none."""
    path = Path(path)
    if path.is_dir():
        if not (path / GRAPH_FILE).is_file():
            raise PaperkgError(f"{path} is a folder without {GRAPH_FILE}: name a paperkg build's output folder "
                               "or its graph.json.")
        return path / GRAPH_FILE
    if not path.is_file():
        raise PaperkgError(f"{path}: no such file; name a graph.json, a graph.graphml or a build's output folder.")
    return path


def read_graph(path: Path) -> nx.MultiDiGraph:
    """graph.json or graph.graphml as written by paperkg (a build's output folder means its graph.json);
    one sentence naming the file when it is missing, unreadable, not a paperkg graph of this schema,
    or not the file its folder's manifest lists."""
    path = graph_path(path)
    checked_output(path)
    try:
        graph = read_graphml(path) if path.suffix.lower() == ".graphml" else read_json(path)
        _check_shape(graph)
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError, OSError, SyntaxError,  # XML ParseError
            nx.NetworkXError) as error:
        raise PaperkgError(f"{path} is not a paperkg graph ({type(error).__name__}: {error}).") from None
    return graph


_LABELS = frozenset(label.value for label in NodeLabel)


def _check_shape(graph: nx.MultiDiGraph) -> None:
    """What every command relies on: each node has one of paperkg's labels and a name, each edge a type
    (a hand-made or damaged file is refused here rather than failing later in a command)."""
    for key, data in model.nodes(graph):
        if data.get("label") not in _LABELS or not isinstance(data.get("name", ""), str):
            raise ValueError(f"node {str(key)[:80]!r} has no label of paperkg's ({', '.join(sorted(_LABELS))}) "
                             "or a name that is not text")
    for source, target, _, edge in model.edges(graph):
        if not isinstance(edge.get("type"), str):
            raise ValueError(f"the edge {str(source)[:80]!r} -> {str(target)[:80]!r} has no type")


def edge_weight(kind: str, data: model.EdgeAttrs, min_confidence: float) -> float:
    """An edge's layout weight: for a paper's role towards an entity, the mentions behind it; for a typed
    relation, its papers times its confidence when it is at least `min_confidence` sure, else 0 (kept in
    the file with its confidence, but pulling nothing)."""
    if enum_member(RelType, kind) in PAPER_REL_TYPES:
        return float(data["count"])
    confidence = float(data["confidence"])
    return round(data.get("papers", 1) * confidence, 4) if confidence >= min_confidence else 0.0


def graph_table(graph: nx.MultiDiGraph, min_confidence: float = DEFAULT_MIN_CONFIDENCE) -> GraphTable:
    """The knowledge graph as exchange formats hold it (see rows_table), layout weights at `min_confidence`."""
    return rows_table(lambda: ((key, model.node_attrs(graph, key)) for key in sorted(graph.nodes)),
                      lambda: sorted_edges(graph), dict(graph.graph), min_confidence)


def rows_table(nodes: Callable[[], Iterable[tuple[str, Any]]],
               edges: Callable[[], Iterable[tuple[str, str, str, Any]]], attributes: dict[str, Any],
               min_confidence: float = DEFAULT_MIN_CONFIDENCE) -> GraphTable:
    """The knowledge graph, given as sorted node rows (key, attributes) and edge rows (source, target, type,
    attributes), as exchange formats hold it: each node labelled by its name (a paper by its title) with its
    type in `node_type` and Cytoscape's `shared name`; each edge of kind TYPE (its relation type, also in
    `interaction`) with the id 'source|TYPE|target' and its `weight` at `min_confidence` (edge_weight);
    XML-safe."""
    def node_rows() -> Iterator[NodeRow]:
        for key, attrs in nodes():
            data = {name: value for name, value in attrs.items() if name != "label"}
            name = str(attrs.get("name", key))
            yield NodeRow(_xml_safe(key), _safe({**data, NODE_LABEL: name, CYTOSCAPE_NAME: name,
                                                 NODE_TYPE: attrs.get("label")}))

    def edge_rows() -> Iterator[EdgeRow]:
        for source, target, key, data in edges():
            kind = str(data.get("type", key))
            columns = {name: value for name, value in data.items() if name != "type"}
            yield EdgeRow(_xml_safe(f"{source}|{kind}|{target}"), _xml_safe(source), _xml_safe(target),
                          _xml_safe(kind), _safe({**columns, INTERACTION: kind,
                                                  WEIGHT: edge_weight(kind, data, min_confidence)}))

    return GraphTable(directed=True, nodes=node_rows, edges=edge_rows,
                      attributes=_safe(dict(sorted(attributes.items()))))


def _table(graph: nx.MultiDiGraph | GraphTable) -> GraphTable:
    """A GraphTable as it is; the knowledge graph as graph_table gives it."""
    return graph if isinstance(graph, GraphTable) else graph_table(graph)


def _safe(data: dict[str, Any]) -> dict[str, Any]:
    return {name: _xml_safe(value) for name, value in data.items()}


def _xml_safe(value: Any) -> Any:
    return replace_invalid_characters(value, "\ufffd") if isinstance(value, str) else value


def write_graphml(graph: nx.MultiDiGraph | GraphTable, path: Path) -> None:
    """GraphML for Gephi, Cytoscape, igraph: named nodes, typed edges, scalar columns, streamed."""
    atomic_write(path, lambda handle: stream_writers.write_graphml(_table(graph), handle, JSON_ATTRIBUTES_KEY))


def read_graphml(path: Path) -> nx.MultiDiGraph:
    """Read GraphML written by write_graphml back into the graph that was written."""
    flat = nx.read_graphml(path, force_multigraph=True)
    encoded = set(filter(None, flat.graph.pop(JSON_ATTRIBUTES_KEY, "").split(",")))
    check_graph_schema(flat.graph.get(SCHEMA_KEY), str(path))
    graph = nx.MultiDiGraph()
    graph.graph.update(flat.graph)
    for key, data in flat.nodes(data=True):
        if NODE_TYPE not in data:
            raise PaperkgError(f"{path}: node {key!r} has no {NODE_TYPE}; it was written by an older paperkg, "
                               "so export it again from graph.json (or build again).")
        data = _decode(data, encoded)
        data = {name: value for name, value in data.items() if name not in (NODE_LABEL, CYTOSCAPE_NAME, NODE_TYPE)}
        graph.add_node(key, label=flat.nodes[key][NODE_TYPE], **data)
    for u, v, data in flat.edges(data=True):
        data = _decode(data, encoded)
        kind = data.pop(INTERACTION)
        data.pop(WEIGHT, None)  # the layout weight the file was written with, not an attribute of the graph
        graph.add_edge(u, v, key=kind, type=kind, **data)
    return ordered(graph)


def _decode(data: dict[str, Any], encoded: set[str]) -> dict[str, Any]:
    return {name: json.loads(value) if name in encoded else value for name, value in data.items()}


def write_gexf(graph: nx.MultiDiGraph | GraphTable, path: Path) -> None:
    """GEXF 1.3 for Gephi, the same columns as GraphML, no date (same graph, same bytes), streamed."""
    atomic_write(path, lambda handle: stream_writers.write_gexf(_table(graph), handle))


def write_csv(graph: nx.MultiDiGraph | GraphTable, directory: Path) -> list[Path]:
    """nodes.csv and edges.csv in `directory` (list cells joined by '|', dict cells as JSON; an
    edge's first evidence sentence in `evidence_sentence`); returns the two paths."""
    table = _table(graph)
    rows = [{"id": node.id, **node.attributes} for node in table.nodes()]
    node_columns = _csv_columns(rows, NODE_CSV_FIRST, NODE_CSV_LEFT_OUT)
    nodes = _csv_text(node_columns, rows)
    rows = [{"id": edge.id, "source": edge.source, "target": edge.target, "kind": edge.kind, **edge.attributes,
             **_first_sentence(edge.attributes)} for edge in table.edges()]
    edges = _csv_text(_csv_columns(rows, EDGE_CSV_FIRST, EDGE_CSV_LEFT_OUT), rows)
    written = [Path(directory) / "nodes.csv", Path(directory) / "edges.csv"]
    atomic_write_texts({written[0]: nodes, written[1]: edges})
    return written


VOSVIEWER_FILES = ("map.txt", "network.txt")
MAX_VOSVIEWER_CLUSTER = 1000


def write_vosviewer(table: GraphTable, directory: Path) -> list[Path]:
    """VOSviewer's map and network files (app.vosviewer.com/docs, "map and network files") of an
    entity map: map.txt (tab-separated, a header; id 1..n, label, description, x, y, cluster =
    community + 1, weight<Papers>, weight<Links>, weight<Total link strength>, score<Avg. pub. year>)
    and network.txt (no header; id, id, strength = the papers behind the link). Entities in no
    community share the cluster after the last; clusters past 1,000 (VOSviewer's limit) join it."""
    nodes = list(table.nodes())
    ids = {node.id: number for number, node in enumerate(nodes, start=1)}
    edges = [(ids[edge.source], ids[edge.target], edge.attributes.get(WEIGHT, 1)) for edge in table.edges()]
    links, strength = Counter[int](), Counter[int]()
    for source, target, weight in edges:
        links.update((source, target))
        strength.update({source: weight})
        strength.update({target: weight})
    communities = [node.attributes.get("community") for node in nodes]
    other = min(max((c for c in communities if c is not None), default=-1) + 2, MAX_VOSVIEWER_CLUSTER)
    rows = ["id\tlabel\tdescription\tx\ty\tcluster\tweight<Papers>\tweight<Links>\tweight<Total link strength>"
            "\tscore<Avg. pub. year>"]
    for node, community in zip(nodes, communities):
        data = node.attributes
        cluster = other if community is None else min(community + 1, MAX_VOSVIEWER_CLUSTER)
        year = data.get("mean_year")
        rows.append("\t".join(str(cell) for cell in (
            ids[node.id], _vosviewer_text(str(data.get(NODE_LABEL, node.id))),
            _vosviewer_text(f"{data.get(NODE_TYPE, '')} in {_papers(data.get('papers', 0))}"),
            data.get("x", 0.0), data.get("y", 0.0), cluster, data.get("papers", 0), links[ids[node.id]],
            strength[ids[node.id]], "" if year is None else year)))
    written = [Path(directory) / name for name in VOSVIEWER_FILES]
    atomic_write_texts({written[0]: "\n".join(rows) + "\n",
                        written[1]: "".join(f"{a}\t{b}\t{weight}\n" for a, b, weight in sorted(edges))})
    return written


def _papers(count: int) -> str:
    return f"{count} paper" if count == 1 else f"{count} papers"


def _vosviewer_text(text: str) -> str:
    """A label or description as VOSviewer reads it: in double quotes when it holds a comma, a
    semicolon or a quote; tabs and line breaks as spaces."""
    text = _xml_safe(" ".join(text.split()))
    return '"' + text.replace('"', '""') + '"' if any(mark in text for mark in ',;"') else text


def _csv_columns(rows: list[dict[str, Any]], first: tuple[str, ...], left_out: tuple[str, ...]) -> list[str]:
    """The `first` columns that some row has, in that order, then the others sorted."""
    present = {name for row in rows for name in row} - set(left_out)
    return [name for name in first if name in present] + sorted(present - set(first))


def _first_sentence(attributes: dict[str, Any]) -> dict[str, Any]:
    evidence = attributes.get("evidence")
    return {"evidence_sentence": evidence[0].get("sentence")} if evidence else {}


def _csv_text(columns: list[str], rows: list[dict[str, Any]]) -> str:
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=columns, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow(spreadsheet_safe({name: _cell(value) for name, value in row.items()}))
    return text.getvalue()


def _cell(value: Any) -> Any:
    if isinstance(value, (list, tuple)) and all(isinstance(item, str) for item in value):
        return "|".join(value)
    if isinstance(value, (list, tuple, dict)):
        return json.dumps(value, sort_keys=True, ensure_ascii=False, default=json_default)
    return value


def spreadsheet_safe(row: dict[str, Any]) -> dict[str, Any]:
    """Text cells a spreadsheet would run as a formula, prefixed with a quote (OWASP); characters
    no text file can hold replaced as in GraphML."""
    cells = {name: _xml_safe(value) for name, value in row.items()}
    return {name: f"'{value}" if isinstance(value, str) and value.startswith(FORMULA_LEADERS) else value
            for name, value in cells.items()}
