"""Trends straight from graph.json, without building the NetworkX graph: fast enough for 100k papers.

graph.json is written one node or edge a line (stream_writers.py). Trends need every node, but of
each edge only its ends and type; an edge line ends with its sorted keys `"key", "source", "target",
"type"` after the evidence, so that tail is parsed alone (the text `"key": ` cannot occur inside a
JSON string, whose quotes are escaped). The sentences of the few (paper, entity) pairs a report
shows are read in a second pass. A file in any other form (GraphML, a hand-made node-link file) is
read as a graph.
"""
from __future__ import annotations

import json
import re
from array import array
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from paperkg.core.errors import PaperkgError
from paperkg.core.output_folder import checked_output
from paperkg.core.schema import PAPER_REL_TYPES, SCHEMA_KEY, NodeLabel, check_graph_schema

from .trends import Occurrences, Trends, compute_trends, occurrences, paper_year

HEADER = b'{"directed": true,\n'
_TAIL = b'"key": '
_STRING = rb'"([^"\\]*(?:\\.[^"\\]*)*)"'  # a JSON string's body, escapes included
_ENDS = re.compile(rb'"key": ' + _STRING + rb', "source": ' + _STRING + rb', "target": ' + _STRING
                   + rb', "type": ' + _STRING + rb'}')
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
    years, titles, entities, undated = {}, {}, {}, 0
    links: list[tuple[str, str]] = []
    offsets = array("q")  # where each link's line starts, for the sentences read later
    schema: Any = None
    for section, line, offset in _lines(path):
        if section == "graph":
            schema = json.loads(line.rstrip(b",\r\n")).get(SCHEMA_KEY)
        elif section == "edges":
            source, target, kind = _edge_ends(line)
            if kind in _RELATIONS and source.startswith("paper:"):
                links.append((source, target))
                offsets.append(offset)
        elif section == "nodes":
            node = json.loads(line.rstrip(b",\r\n"))
            if node.get("label") == NodeLabel.PAPER:
                year = paper_year(node.get("year"))
                if year is None:
                    undated += 1
                else:
                    years[node["id"]] = year
                    titles[node["id"]] = str(node.get("name") or node.get("paper_id") or node["id"])
            else:
                entities[node["id"]] = (str(node.get("label", "")), str(node.get("name", node["id"])))
    check_graph_schema(schema, str(path))
    papers_of: dict[str, list[str]] = {}
    for paper, entity in links:
        if paper in years and entity in entities:
            papers_of.setdefault(entity, []).append(paper)

    def sentences(pairs: Iterable[tuple[str, str]]) -> dict[tuple[str, str], str]:
        wanted = set(pairs)
        at = sorted(offset for link, offset in zip(links, offsets) if link in wanted)
        found = {}
        with path.open("rb") as handle:
            for offset in at:
                handle.seek(offset)
                edge = json.loads(handle.readline().rstrip(b",\r\n"))
                evidence = edge.get("evidence") or [{}]
                found[(edge["source"], edge["target"])] = str(evidence[0].get("sentence", ""))
        return found
    return Occurrences(years, titles, entities, papers_of, sentences, undated)


def _lines(path: Path) -> Iterator[tuple[str, bytes, int]]:
    """(section, the JSON text of one item, where its line starts) for every edge and node line, and the
    graph attributes."""
    section = ""
    with path.open("rb") as handle:
        offset = len(handle.readline())
        for raw in handle:
            if raw.startswith(b"{"):
                yield section, raw, offset  # the line still ends with its comma and newline
            elif raw.startswith(b'"edges": ['):
                section = "edges"
            elif raw.startswith(b'"nodes": ['):
                section = "nodes"
            elif raw.startswith(b'"graph": '):
                yield "graph", raw[len(b'"graph": '):].rstrip(b",\r\n"), offset
            elif raw.startswith(b"]"):
                section = ""
            offset += len(raw)


def _edge_ends(line: bytes) -> tuple[str, str, str]:
    """source, target and type of an edge line, without parsing its evidence (a regular expression over
    the line's tail; JSON when a string there holds an escape)."""
    at = line.rfind(_TAIL)
    match = _ENDS.match(line, at) if at > 0 else None
    if match is None or b"\\" in match.group(0):
        edge = json.loads(line.rstrip(b",\r\n"))
        return edge["source"], edge["target"], edge["type"]
    return match.group(2).decode("utf8"), match.group(3).decode("utf8"), match.group(4).decode("utf8")

