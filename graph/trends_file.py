"""Trends straight from graph.json, without building the NetworkX graph: fast enough for 100k papers.

graph.json is written one node or edge a line (stream_writers.py), keys sorted. The file is mapped
into memory and searched with regular expressions rather than parsed: of each edge, trends need only
its ends and type, the sorted keys `"key", "source", "target", "type"` after the evidence, matched
in one pass over the edges; of each node its id, label, name and year. A key's quoted name cannot
occur inside a JSON string (whose quotes are escaped), so the matches are the keys; a value holding
an escape is parsed as JSON. The sentences of the (paper, entity) pairs a report shows are read
afterwards from their lines. A file in any other form (GraphML, a hand-made node-link file) is read
as a graph.
"""
from __future__ import annotations

import json
import mmap
import re
from array import array
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from paperkg.core.errors import PaperkgError
from paperkg.core.output_folder import checked_output
from paperkg.core.schema import PAPER_REL_TYPES, SCHEMA_KEY, NodeLabel, check_graph_schema

from .trends import Occurrences, Trends, compute_trends, occurrences, paper_year

HEADER = b'{"directed": true,\n'
_STRING = rb'"([^"\\]*(?:\\.[^"\\]*)*)"'  # a JSON string's body, escapes included
_ENDS = re.compile(rb'"key": ' + _STRING + rb', "source": ' + _STRING + rb', "target": ' + _STRING
                   + rb', "type": ' + _STRING)
_HEAD = re.compile(rb'"id": ' + _STRING + rb', "key": ' + _STRING + rb', "label": ' + _STRING)
_AFTER_LABEL = {"name": re.compile(rb'"name": ' + _STRING), "paper_id": re.compile(rb'"paper_id": ' + _STRING),
                "year": re.compile(rb'"year": "?(-?\d+)')}
_ENTITY_FIELDS = (("name", _AFTER_LABEL["name"]),)  # an entity line has no paper_id or year to look for
_PAPER = NodeLabel.PAPER.value.encode("utf8")
_RELATIONS = {rel.value for rel in PAPER_REL_TYPES}


def read_trends(path: Path, **options: Any) -> Trends:
    """The trends of a saved graph (options as for `compute_trends`); one sentence naming the file when it
    is missing or not a paperkg graph."""
    return compute_trends(read_occurrences(Path(path)), **options)


def read_occurrences(path: Path) -> Occurrences:
    """What trends need from graph.json (streamed) or any other graph file paperkg reads."""
    if not path.is_file():
        raise PaperkgError(f"{path}: no such file.")
    checked_output(path)
    with path.open("rb") as handle:
        streamed = handle.readline() == HEADER
    if not streamed:
        from .exports import read_graph
        return occurrences(read_graph(path))
    try:
        return _stream(path)
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise PaperkgError(f"{path} is not a paperkg graph ({type(error).__name__}: {error}).") from None


def _stream(path: Path) -> Occurrences:
    with path.open("rb") as handle, mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as text:
        edges, graph_at, nodes = text.find(b'"edges": [\n'), text.find(b'\n],\n"graph": '), text.find(b'"nodes": [\n')
        if min(edges, graph_at, nodes) < 0:
            raise ValueError("not one node or edge a line, as paperkg writes graph.json")
        graph_line = text[graph_at + len(b'\n],\n"graph": '):text.find(b"\n", graph_at + 4)]
        schema = json.loads(graph_line.rstrip(b",")).get(SCHEMA_KEY)
        check_graph_schema(schema, str(path))
        links, offsets = _links(text, edges, graph_at)
        years, titles, entities, undated = _nodes(text, nodes + len(b'"nodes": [\n'))
    grouped: defaultdict[str, list[str]] = defaultdict(list)
    for paper, entity in links:
        grouped[entity].append(paper)
    papers_of = {entity: [p for p in papers if p in years] if undated else papers
                 for entity, papers in grouped.items() if entity in entities}
    papers_of = {entity: papers for entity, papers in papers_of.items() if papers}

    def sentences(pairs: Iterable[tuple[str, str]]) -> dict[tuple[str, str], str]:
        wanted = set(pairs)
        at = sorted(offset for link, offset in zip(links, offsets) if link in wanted)
        found = {}
        with path.open("rb") as handle, mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as text:
            for offset in at:
                line = text[text.rfind(b"\n", 0, offset) + 1:text.find(b"\n", offset)]
                edge = json.loads(line.rstrip(b","))
                evidence = edge.get("evidence") or [{}]
                found[(edge["source"], edge["target"])] = str(evidence[0].get("sentence", ""))
        return found
    return Occurrences(years, titles, entities, papers_of, sentences, undated)


def _links(text: mmap.mmap, start: int, end: int) -> tuple[list[tuple[str, str]], array]:
    """(paper, entity) of every Paper -> entity edge, and where in the file each edge's tail starts."""
    links, offsets = [], array("q")
    for match in _ENDS.finditer(text, start, end):
        source, target, kind = match.group(2), match.group(3), match.group(4)
        if not source.startswith(b"paper:"):
            continue
        if b"\\" in match.group(0):
            edge = json.loads(b"{" + match.group(0) + b"}")
            source, target, kind = (edge[name].encode("utf8") for name in ("source", "target", "type"))
        if kind.decode("utf8") in _RELATIONS:
            links.append((source.decode("utf8"), target.decode("utf8")))
            offsets.append(match.start())
    return links, offsets


def _nodes(text: mmap.mmap, start: int) -> tuple[dict[str, int], dict[str, str], dict[str, tuple[str, str]], int]:
    """Each dated paper's year and title, each entity's type and name, and how many papers have no year."""
    years, titles, entities, undated = {}, {}, {}, 0
    text.seek(start)
    for line in iter(text.readline, b""):
        if not line.startswith(b"{"):
            break
        node = _node_fields(line)
        if node.get("label") == NodeLabel.PAPER:
            year = paper_year(node.get("year"))
            if year is None:
                undated += 1
            else:
                years[node["id"]] = year
                titles[node["id"]] = str(node.get("name") or node.get("paper_id") or node["id"])
        else:
            entities[node["id"]] = (str(node.get("label", "")), str(node.get("name", node["id"])))
    return years, titles, entities, undated


def _node_fields(line: bytes) -> dict[str, Any]:
    """id, label, name, paper_id and year of a node line: found by regular expressions after the sorted
    keys "id", "key", "label" (a key's quoted name cannot occur inside a JSON string), or the whole line
    parsed when a value holds an escape or the keys are not where paperkg writes them."""
    head = _HEAD.search(line)
    if head is None:
        return json.loads(line.rstrip(b",\r\n"))
    fields = {"id": head.group(1), "label": head.group(3)}
    for name, pattern in _AFTER_LABEL.items() if fields["label"] == _PAPER else _ENTITY_FIELDS:
        match = pattern.search(line, head.end())
        if match:
            fields[name] = match.group(1)
    if any(b"\\" in value for value in fields.values()):
        return json.loads(line.rstrip(b",\r\n"))
    return {name: value.decode("utf8") for name, value in fields.items()}
