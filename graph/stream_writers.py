"""GraphML and node-link JSON written element by element, in sorted order, without a copy of the
graph or of the document in memory (NetworkX's writers build both: 1.9 GB for a 10k-paper graph).

Both read back with NetworkX (`nx.read_graphml`, `nx.node_link_graph`); the same graph gives the
same bytes. GraphML holds scalars only: list and dict values are JSON strings, named in the graph
attribute given as `json_attributes_key`.
"""
from __future__ import annotations

import json
from collections.abc import Iterator
from typing import IO, Any

import networkx as nx

from paperkg.core.characters import replace_invalid_characters

from .evidence import json_default

_GRAPHML_TYPES = {bool: "boolean", int: "long", float: "double", str: "string"}
_GRAPHML_HEADER = ('<?xml version=\'1.0\' encoding=\'utf-8\'?>\n'
                   '<graphml xmlns="http://graphml.graphdrawing.org/xmlns" '
                   'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
                   'xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns '
                   'http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">\n')
_TEXT_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
_ATTRIBUTE_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;",
                                    "\n": "&#10;", "\r": "&#13;", "\t": "&#09;"})


def xml_text(value: str) -> str:
    """Text content escaped for XML; characters XML cannot hold become U+FFFD."""
    return replace_invalid_characters(value, "\ufffd").translate(_TEXT_ESCAPES)


def xml_attribute(value: str) -> str:
    """An attribute value escaped for XML (line breaks and tabs kept as character references);
    characters XML cannot hold become U+FFFD."""
    return replace_invalid_characters(value, "\ufffd").translate(_ATTRIBUTE_ESCAPES)


def sorted_edges(graph: nx.MultiDiGraph) -> Iterator[tuple[Any, Any, Any, dict[str, Any]]]:
    """(source, target, key, data) in sorted order."""
    for source, target, key in sorted(graph.edges(keys=True)):
        yield source, target, key, graph.edges[source, target, key]


def write_node_link_json(graph: nx.MultiDiGraph, handle: IO[bytes]) -> None:
    """Node-link JSON (NetworkX's `edges="edges"` form), one node or edge a line, keys sorted."""
    def line(item: dict[str, Any]) -> bytes:
        return json.dumps(item, sort_keys=True, ensure_ascii=False, default=json_default).encode("utf8")

    graph_attrs = json.dumps(dict(sorted(graph.graph.items())), sort_keys=True, ensure_ascii=False)
    handle.write(b'{"directed": true,\n"edges": [\n')
    for index, (source, target, key, data) in enumerate(sorted_edges(graph)):
        handle.write((b",\n" if index else b"") + line({**data, "source": source, "target": target, "key": key}))
    handle.write(f'\n],\n"graph": {graph_attrs},\n"multigraph": true,\n"nodes": [\n'.encode("utf8"))
    for index, node in enumerate(sorted(graph.nodes)):
        handle.write((b",\n" if index else b"") + line({**graph.nodes[node], "id": node}))
    handle.write(b"\n]}\n")


def write_graphml(graph: nx.MultiDiGraph, handle: IO[bytes], json_attributes_key: str) -> None:
    """GraphML with one <key> per attribute, list and dict values as JSON strings, and each edge's
    id 'source|TYPE|target' (unique, so Gephi keeps parallel edges)."""
    encoded: set[str] = set()
    keys = {"graph": _attribute_types(graph.graph, encoded), "node": {}, "edge": {"id": "string"}}
    for _, data in graph.nodes(data=True):
        keys["node"].update(_attribute_types(data, encoded, keys["node"]))
    for *_, data in graph.edges(data=True):
        keys["edge"].update(_attribute_types(data, encoded, keys["edge"]))
    graph_data = {**graph.graph, json_attributes_key: ",".join(sorted(encoded))}
    keys["graph"][json_attributes_key] = "string"
    ids = {(kind, name): f"d{index}" for index, (kind, name) in
           enumerate((kind, name) for kind in ("graph", "node", "edge") for name in sorted(keys[kind]))}
    out = [_GRAPHML_HEADER]
    for (kind, name), key_id in ids.items():
        out.append(f'  <key id="{key_id}" for="{kind}" attr.name="{xml_attribute(name)}" '
                   f'attr.type="{keys[kind][name]}" />\n')
    out.append('  <graph edgedefault="directed">\n')
    handle.write("".join(out).encode("utf8"))
    for node in sorted(graph.nodes):
        handle.write((f'    <node id="{xml_attribute(str(node))}">\n'
                      + _data_lines(graph.nodes[node], "node", ids, encoded) + "    </node>\n").encode("utf8"))
    for source, target, key, data in sorted_edges(graph):
        edge_id = f"{source}|{key}|{target}"
        handle.write((f'    <edge source="{xml_attribute(str(source))}" target="{xml_attribute(str(target))}" '
                      f'id="{xml_attribute(edge_id)}">\n'
                      + _data_lines({**data, "id": edge_id}, "edge", ids, encoded) + "    </edge>\n").encode("utf8"))
    handle.write((_data_lines(graph_data, "graph", ids, encoded, indent="    ") + "  </graph>\n</graphml>\n")
                 .encode("utf8"))


def _attribute_types(data: dict[str, Any], encoded: set[str], known: dict[str, str] | None = None) -> dict[str, str]:
    """GraphML types of the attributes (lists and dicts: string, remembered in `encoded`)."""
    types = {}
    for name, value in data.items():
        if value is None or (known and name in known):
            continue
        if isinstance(value, (list, dict, tuple)):
            encoded.add(name)
            types[name] = "string"
        else:
            types[name] = _GRAPHML_TYPES.get(type(value), "string")
    return types


def _data_lines(data: dict[str, Any], kind: str, ids: dict[tuple[str, str], str], encoded: set[str],
                indent: str = "      ") -> str:
    lines = []
    for name in sorted(data):
        value = data[name]
        if value is None:
            continue
        if name in encoded and isinstance(value, (list, dict, tuple)):
            text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=json_default)
        elif isinstance(value, bool):
            text = str(value).lower()
        else:
            text = str(value) if not isinstance(value, float) else repr(value)
        lines.append(f'{indent}<data key="{ids[kind, name]}">{xml_text(text)}</data>\n')
    return "".join(lines)
