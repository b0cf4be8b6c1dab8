"""GraphML, GEXF and node-link JSON written element by element, in order, without a copy of the
graph or of the document in memory (NetworkX's writers build both: 1.9 GB for a 10k-paper graph).

All three read back with NetworkX (`nx.read_graphml`, `nx.read_gexf`, `nx.node_link_graph`); the
same graph gives the same bytes. GraphML and GEXF hold scalars only: list and dict values are JSON
strings (GraphML names them in the graph attribute given as `json_attributes_key`).
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import IO, Any

import networkx as nx

from paperkg.core import graph_model as model
from paperkg.core.graph_model import EdgeAttrs
from paperkg.core.characters import replace_invalid_characters

from .evidence import json_default
from .interchange import GraphTable

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


def sorted_edges(graph: nx.MultiDiGraph) -> Iterator[tuple[str, str, str, EdgeAttrs]]:
    """(source, target, key, data) in sorted order."""
    for source, target, key in sorted(graph.edges(keys=True)):
        data = model.edge_attrs(graph, source, target, key)
        assert data is not None
        yield source, target, key, data


def write_node_link_json(graph: nx.MultiDiGraph, handle: IO[bytes]) -> None:
    """Node-link JSON (NetworkX's `edges="edges"` form), one node or edge a line, keys sorted."""
    write_node_link_rows(dict(graph.graph), sorted_edges(graph),
                         ((node, model.node_attrs(graph, node)) for node in sorted(graph.nodes)), handle)


def write_node_link_rows(graph_attrs: dict[str, Any], edges: Iterable[tuple[str, str, str, Any]],
                         nodes: Iterable[tuple[str, Any]], handle: IO[bytes]) -> None:
    """Node-link JSON of edges (source, target, key, attributes) and nodes (key, attributes), each given sorted."""
    def line(item: dict[str, Any]) -> bytes:
        return json.dumps(item, sort_keys=True, ensure_ascii=False, default=json_default).encode("utf8")

    attrs = json.dumps(dict(sorted(graph_attrs.items())), sort_keys=True, ensure_ascii=False)
    handle.write(b'{"directed": true,\n"edges": [\n')
    for index, (source, target, key, data) in enumerate(edges):
        handle.write((b",\n" if index else b"") + line({**data, "source": source, "target": target, "key": key}))
    handle.write(f'\n],\n"graph": {attrs},\n"multigraph": true,\n"nodes": [\n'.encode("utf8"))
    for index, (node, data) in enumerate(nodes):
        handle.write((b",\n" if index else b"") + line({**data, "id": node}))
    handle.write(b"\n]}\n")


def write_graphml(table: GraphTable, handle: IO[bytes], json_attributes_key: str) -> None:
    """GraphML with one <key> per column (ids g0.., n0.., e0.. in sorted order), list and dict values as
    JSON strings, each edge's relation type as the <edge> `label` attribute (Gephi's edge kind)
    and no edge column named `id` (the <edge> id is the only one)."""
    encoded: set[str] = set()
    keys = {"graph": column_types([table.attributes], encoded),
            "node": column_types((row.attributes for row in table.nodes()), encoded),
            "edge": column_types((row.attributes for row in table.edges()), encoded)}
    graph_data = {**table.attributes, json_attributes_key: ",".join(sorted(encoded))}
    keys["graph"][json_attributes_key] = "string"
    ids = {(kind, name): f"{kind[0]}{index}" for kind in ("graph", "node", "edge")  # g0.., n0.., e0..: no id
           for index, name in enumerate(sorted(keys[kind]))}                        # a reader takes for a name
    out = [_GRAPHML_HEADER]
    for (kind, name), key_id in ids.items():
        out.append(f'  <key id="{key_id}" for="{kind}" attr.name="{xml_attribute(name)}" '
                   f'attr.type="{keys[kind][name]}" />\n')
    out.append(f'  <graph edgedefault="{"directed" if table.directed else "undirected"}">\n')
    handle.write("".join(out).encode("utf8"))
    for node in table.nodes():
        handle.write((f'    <node id="{xml_attribute(node.id)}">\n'
                      + _data_lines(node.attributes, "node", ids, keys) + "    </node>\n").encode("utf8"))
    for edge in table.edges():
        handle.write((f'    <edge id="{xml_attribute(edge.id)}" source="{xml_attribute(edge.source)}" '
                      f'target="{xml_attribute(edge.target)}" label="{xml_attribute(edge.kind)}">\n'
                      + _data_lines(edge.attributes, "edge", ids, keys) + "    </edge>\n").encode("utf8"))
    handle.write((_data_lines(graph_data, "graph", ids, keys, indent="    ") + "  </graph>\n</graphml>\n")
                 .encode("utf8"))


_GEXF_HEADER = ('<?xml version="1.0" encoding="UTF-8"?>\n'
                '<gexf xmlns="http://gexf.net/1.3" xmlns:viz="http://gexf.net/1.3/viz" '
                'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
                'xsi:schemaLocation="http://gexf.net/1.3 http://gexf.net/1.3/gexf.xsd" version="1.3">\n'
                '  <meta>\n    <creator>paperkg</creator>\n  </meta>\n')
_GEXF_PROPERTIES = {"node": ("label", "x", "y", "size"), "edge": ("weight",)}  # XML attributes, not columns


def write_gexf(table: GraphTable, handle: IO[bytes]) -> None:
    """GEXF 1.3 without a date (same graph, same bytes): node `label` = its name, x/y/size as
    viz:position and viz:size, edge `kind` = its relation type, `weight` when the rows have one,
    every other column an <attribute> (lists and dicts as JSON strings)."""
    encoded: set[str] = set()
    keys = {kind: {name: value for name, value in column_types(
        (row.attributes for row in rows()), encoded).items() if name not in _GEXF_PROPERTIES[kind]}
        for kind, rows in (("node", table.nodes), ("edge", table.edges))}
    ids = {(kind, name): str(index) for kind in keys for index, name in enumerate(sorted(keys[kind]))}
    out = [_GEXF_HEADER, f'  <graph defaultedgetype="{"directed" if table.directed else "undirected"}" '
                         'mode="static">\n']
    for kind in ("node", "edge"):
        out.append(f'    <attributes class="{kind}" mode="static">\n')
        out.extend(f'      <attribute id="{ids[kind, name]}" title="{xml_attribute(name)}" '
                   f'type="{keys[kind][name]}" />\n' for name in sorted(keys[kind]))
        out.append("    </attributes>\n")
    out.append("    <nodes>\n")
    handle.write("".join(out).encode("utf8"))
    for node in table.nodes():
        data = node.attributes
        viz = ""
        if "size" in data:
            viz += f'        <viz:size value="{_text(data["size"])}" />\n'
        if "x" in data and "y" in data:
            viz += f'        <viz:position x="{_text(data["x"])}" y="{_text(data["y"])}" z="0.0" />\n'
        handle.write((f'      <node id="{xml_attribute(node.id)}" '
                      f'label="{xml_attribute(str(data.get("label", node.id)))}">\n'
                      + _attvalues(data, "node", ids) + viz + "      </node>\n").encode("utf8"))
    handle.write(b"    </nodes>\n    <edges>\n")
    for edge in table.edges():
        weight = f' weight="{_text(edge.attributes["weight"])}"' if "weight" in edge.attributes else ""
        handle.write((f'      <edge id="{xml_attribute(edge.id)}" source="{xml_attribute(edge.source)}" '
                      f'target="{xml_attribute(edge.target)}" kind="{xml_attribute(edge.kind)}"{weight}>\n'
                      + _attvalues(edge.attributes, "edge", ids) + "      </edge>\n").encode("utf8"))
    handle.write(b"    </edges>\n  </graph>\n</gexf>\n")


def column_types(rows: Iterable[dict[str, Any]], encoded: set[str]) -> dict[str, str]:
    """Each column's type over all rows (boolean, long, double or string; whole and decimal numbers
    mixed give double, anything else mixed gives string); list and dict columns are strings, remembered
    in `encoded`."""
    seen: dict[str, set[str]] = {}
    for data in rows:
        for name, value in data.items():
            if value is None:
                continue
            if isinstance(value, (list, dict, tuple)):
                encoded.add(name)
            seen.setdefault(name, set()).add(_value_type(value))
    return {name: _common_type(types) for name, types in sorted(seen.items())}


def _value_type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "long"
    if isinstance(value, float):
        return "double"
    return "string"


def _common_type(types: set[str]) -> str:
    if len(types) == 1:
        return next(iter(types))
    return "double" if types == {"long", "double"} else "string"


def _text(value: Any) -> str:
    """A value as written: JSON for lists and dicts, lower-case booleans, repr for floats (exact)."""
    if isinstance(value, (list, dict, tuple)):
        return json.dumps(value, sort_keys=True, ensure_ascii=False, default=json_default)
    if isinstance(value, bool):
        return str(value).lower()
    return repr(value) if isinstance(value, float) else str(value)


def _data_lines(data: dict[str, Any], kind: str, ids: dict[tuple[str, str], str], keys: dict[str, dict[str, str]],
                indent: str = "      ") -> str:
    lines = []
    for name in sorted(data):
        value = data[name]
        if value is None:
            continue
        if keys[kind][name] == "double" and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        lines.append(f'{indent}<data key="{ids[kind, name]}">{xml_text(_text(value))}</data>\n')
    return "".join(lines)


def _attvalues(data: dict[str, Any], kind: str, ids: dict[tuple[str, str], str]) -> str:
    values = [f'          <attvalue for="{ids[kind, name]}" value="{xml_attribute(_text(data[name]))}" />\n'
              for name in sorted(data) if data[name] is not None and (kind, name) in ids]
    return "        <attvalues>\n" + "".join(values) + "        </attvalues>\n" if values else ""
