"""A first push through Neo4j's bulk importer, for a local server and an empty database.

`neo4j-admin database import full` is how Neo4j recommends loading a large graph the first time:
it writes the store files directly, without transactions. It needs the server stopped, so it is
for a server run from a local Neo4j home (lib/, conf/neo4j.conf, run/neo4j.pid: what
scripts/neo4j.sh makes). Here the graph becomes CSV files (one per label or relationship group and
set of property types, so every column has one type and no row has an empty field) carrying the
same properties and markers a push writes, the paper digests included (an empty list, which the
importer cannot store, is no property in either: see paperkg.cypher.rows); they are written by as many
processes as there are cores (forked, each for the relationships and nodes of its share of the node
keys). The caller stops the server, imports, starts it again and writes by Cypher what CSV cannot
carry exactly: rows with line breaks or the array delimiter inside a list item, with their relationships.
"""
from __future__ import annotations

import functools
import json
import math
import multiprocessing
import os
import re
import shutil
import subprocess
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Callable, Iterable
from urllib.parse import urlsplit

import networkx as nx
from neo4j import GraphDatabase
from neo4j.exceptions import DatabaseUnavailable, ServiceUnavailable, SessionExpired

from paperkg.core import graph_model as model
from paperkg.core.errors import ExitCode, PaperkgError
from paperkg.graph.trends import Trends
from paperkg.processes import available_cores, in_parts
from paperkg.cypher.rows import (PAPER, GraphRows, keyed_row, node_properties, paper_digest, rel_row,
                                 trend_properties)

ARRAY_DELIMITER = "\x1f"  # the unit separator: text never holds it, ";" (the default) it often does
_CSV_TYPES = {str: "string", int: "long", float: "double", bool: "boolean"}
HASH = "paperkg_hash"
DIGEST = "paperkg_digest"
_LONG = range(-2**63, 2**63)
_LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1"}
_START_TIMEOUT = 300.0
_MAX_WRITERS = 4
_STAMP_HEADER = ["first_push:long", "last_push:long", "paperkg_hash:string", "paperkg_keys:string[]"]

Columns = tuple[tuple[str, str], ...]  # (property, CSV type) of each field
Cells = tuple[Columns, list[str]]  # the columns and the field texts of one row's properties


@dataclass
class ImportFiles:
    """The CSV files to import, what they leave to Cypher, and how many rows the import writes."""

    arguments: list[str] = field(default_factory=list)  # --nodes=Label=FILE and --relationships=TYPE=FILE
    leftover: GraphRows = field(default_factory=GraphRows)  # rows CSV cannot carry exactly
    digests: dict[str, str] = field(default_factory=dict)  # paper key -> digest Cypher sets after `leftover`
    nodes: Counter[str] = field(default_factory=Counter)  # rows written per label (CSV and Cypher)
    rels: Counter[str] = field(default_factory=Counter)  # rows written per relationship type

    def merge(self, other: ImportFiles) -> None:
        """Add another writer's files and leftovers to these."""
        self.arguments += other.arguments
        for label, node_rows in other.leftover.nodes.items():
            self.leftover.nodes[label].extend(node_rows)
        for rel_group, rel_rows in other.leftover.rels.items():
            self.leftover.rels[rel_group].extend(rel_rows)
        self.digests.update(other.digests)
        self.nodes.update(other.nodes)
        self.rels.update(other.rels)


    def to_json(self, root: Path) -> str:
        """The account as JSON, the files' paths relative to `root` (a build's folder, which moves on commit)."""
        def relative(argument: str) -> str:
            option, name, path = argument.split("=", 2)
            return f"{option}={name}={Path(path).relative_to(root)}"

        return json.dumps({"arguments": [relative(argument) for argument in self.arguments],
                           "nodes": dict(sorted(self.nodes.items())), "rels": dict(sorted(self.rels.items())),
                           "digests": self.digests, "leftover_nodes": self.leftover.nodes,
                           "leftover_rels": [[*group, rows] for group, rows in self.leftover.rels.items()]},
                          ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_json(cls, text: str, root: Path) -> ImportFiles:
        """The account to_json wrote, its files' paths under `root`."""
        data = json.loads(text)
        found = cls(digests=data["digests"], nodes=Counter(data["nodes"]), rels=Counter(data["rels"]))
        for argument in data["arguments"]:
            option, name, path = argument.split("=", 2)
            found.arguments.append(f"{option}={name}={root / path}")
        for label, rows in data["leftover_nodes"].items():
            found.leftover.nodes[label].extend(rows)
        for kind, source, target, rows in data["leftover_rels"]:
            found.leftover.rels[kind, source, target].extend(rows)
        return found


def part_left_keys(folder: Path, part: str) -> set[str]:
    """The keys of a Parquet part's nodes whose rows CSV cannot carry (graph/parquet_graph.py)."""
    from paperkg.graph.parquet_graph import nodes

    graph = nx.MultiDiGraph()
    graph.add_nodes_from(nodes(folder, [part]))
    return left_keys(graph, list(graph))


def part_import_files(folder: Path, part: str, labels_of: Callable[[list[str]], list[str]], target: Path,
                      over_time: Path, left: set[str]) -> ImportFiles:
    """A Parquet part's CSV files in `target` (write_part_files), as a worker writes them; `over_time`: a JSON file
    of the entities' trend properties."""
    from paperkg.graph.parquet_graph import part_graph

    graph, own = part_graph(folder, part, labels_of)
    return write_part_files(graph, own, target, part, push=1, over_time=_over_time(str(over_time)), left=left)


@functools.lru_cache(maxsize=1)
def _over_time(path: str) -> dict[str, dict[str, Any]]:
    return json.loads(Path(path).read_text(encoding="utf8"))


def _cell(value: Any) -> tuple[str, str] | None:
    """A property value's CSV type and field text, None when CSV cannot carry it exactly."""
    kind = type(value)
    if kind is str:
        return None if _breaks(value) else ("string", value)
    if kind is list:
        return _list_cell(value)
    if kind is float:
        return ("double", repr(value)) if math.isfinite(value) else None
    if kind is int:
        return ("long", str(value)) if value in _LONG else None
    if kind is bool:
        return "boolean", "true" if value else "false"
    return None


def _list_cell(value: list[Any]) -> tuple[str, str] | None:
    """A list property's CSV type and field text, None when CSV cannot carry it exactly: empty (the importer
    drops it; rows hold none), mixed or unknown types, an empty string or one with a line break or the
    delimiter, a number out of range."""
    if not value:
        return None
    if len(value) == 1:  # most evidence lists: the item's own cell
        item = value[0]
        if type(item) is str:
            return None if not item or _breaks(item) else ("string[]", item)
        cell = _cell(item) if type(item) in _CSV_TYPES else None
        return None if cell is None else (cell[0] + "[]", cell[1])
    types = set(map(type, value))
    first = types.pop()
    name = _CSV_TYPES.get(first)
    if name is None or types:
        return None
    if first is str:
        text = ARRAY_DELIMITER.join(value)
        if "" in value or "\n" in text or "\r" in text or text.count(ARRAY_DELIMITER) != len(value) - 1:
            return None
    elif first is float:
        if not all(map(math.isfinite, value)):
            return None
        text = ARRAY_DELIMITER.join(map(repr, value))
    elif first is int:
        if min(value) not in _LONG or max(value) not in _LONG:
            return None
        text = ARRAY_DELIMITER.join(map(str, value))
    else:
        text = ARRAY_DELIMITER.join(["true" if item else "false" for item in value])
    return name + "[]", text


def _breaks(text: str) -> bool:
    """Whether text holds a line break or the array delimiter (the importer would need slow multi-line parsing)."""
    return "\n" in text or "\r" in text or ARRAY_DELIMITER in text


def _cells(props: dict[str, Any]) -> Cells | None:
    """The properties' columns (name, CSV type) and field texts, None if one cannot go in CSV."""
    columns, texts = [], []
    for name, value in props.items():
        cell = _cell(value)
        if cell is None:
            return None
        columns.append((name, cell[0]))
        texts.append(cell[1])
    return tuple(columns), texts


@functools.lru_cache(maxsize=1024)
def _owned_keys(columns: Columns) -> str:
    """The paperkg_keys field of rows with these property columns: their names, sorted."""
    return ARRAY_DELIMITER.join(sorted(name for name, _ in columns))


def _line(texts: list[str]) -> str:
    """One CSV line, every field quoted (faster than the csv module's writer on long fields)."""
    return '"' + '","'.join([text.replace('"', '""') for text in texts]) + '"\n'


class _CsvFiles:
    """One CSV file per (label or relationship group, columns and their types), opened on first use."""

    def __init__(self, folder: Path, prefix: str) -> None:
        self.folder, self.prefix = folder, prefix
        self.open: dict[tuple[Any, ...], IO[str]] = {}
        self.files = ImportFiles()

    def write(self, option: str, name: str, signature: tuple[Any, ...], texts: list[str],
              header: Callable[[], list[str]]) -> None:
        """Write one row to the file of its signature (made with its header the first time)."""
        handle = self.open.get(signature)
        if handle is None:
            path = self.folder / f"{self.prefix}{len(self.open):05d}.csv"
            handle = self.open[signature] = path.open("w", encoding="utf8", newline="", buffering=1 << 20)
            handle.write(_line(header()))
            self.files.arguments.append(f"--{option}={name}={path}")
        handle.write(_line(texts))

    def close(self) -> ImportFiles:
        """Close every file; the files made."""
        for handle in self.open.values():
            handle.close()
        return self.files


@dataclass
class _Nodes:
    """Every node's properties (one per label and key: the last, as a push folds them) with its node and
    cells, made once before the writers fork; the keys whose rows CSV cannot carry; each node's writer."""

    props: dict[str, dict[str, tuple[Any, dict[str, Any], Cells | None]]]
    left: set[str]
    share: dict[Any, int]


def _nodes(graph: nx.MultiDiGraph, over_time: dict[str, dict[str, Any]], share: Callable[[str], int],
           nodes: Iterable[Any] | None = None) -> _Nodes:
    """The node properties (of `nodes`, default all), the keys left to Cypher, and each node's writer (`share` of
    its key)."""
    found: dict[str, dict[str, tuple[Any, dict[str, Any], Cells | None]]] = defaultdict(dict)
    writer = {}
    for node in graph if nodes is None else nodes:
        attrs = model.node_attrs(graph, node)
        props = node_properties(graph, node, attrs, over_time)
        found[attrs["label"]][props["key"]] = (node, props, _cells(props))
        writer[node] = share(props["key"])
    left = {key for label_props in found.values() for key, (_, _, cells) in label_props.items() if cells is None}
    return _Nodes(dict(found), left, writer)


def write_import_files(graph: nx.MultiDiGraph, folder: Path, *, push: int, writers: int | None = None,
                       trends: Trends | None = None) -> ImportFiles:
    """The graph's rows (one per key and per pair of ends: folded as a push folds them; the trend properties of
    `trends`, the build's) and paper digests as CSV files in `folder`, by `writers` processes (default: one per
    core, at most four)."""
    if "fork" not in multiprocessing.get_all_start_methods():
        writers = 1
    count = writers or max(1, min(available_cores(), _MAX_WRITERS))
    nodes = _nodes(graph, trend_properties(graph, trends), lambda key: hash(key) % count)
    mine = [[node for node in graph if nodes.share[node] == part] for part in range(count)]
    files, *others = in_parts(lambda part: _written_share(graph, nodes, folder, push, part, mine[part]), count,
                              "writing the bulk import's CSV files", "push again")
    for other in others:
        files.merge(other)
    return files


def left_keys(graph: nx.MultiDiGraph, nodes: Iterable[Any]) -> set[str]:
    """The keys of these nodes whose rows CSV cannot carry (Cypher writes them, and the relationships at them)."""
    return _nodes(graph, {}, lambda _: 0, nodes).left


def write_part_files(graph: nx.MultiDiGraph, nodes: list[Any], folder: Path, prefix: str, *, push: int,
                     over_time: dict[str, dict[str, Any]], left: set[str]) -> ImportFiles:
    """One part of a graph too large for one process (`graph` holds the part's `nodes` and the other ends of their
    edges, with their labels): the part's nodes and the relationships leaving them as CSV files `prefix`-N.csv in
    `folder`; `left`: the keys of every part whose rows Cypher writes (left_keys)."""
    found = _nodes(graph, over_time, lambda _: 0, nodes)
    found.left = left
    found.share = defaultdict(lambda: 1, found.share)
    return _written_share(graph, found, folder, push, 0, nodes, prefix)


def _written_share(graph: nx.MultiDiGraph, nodes: _Nodes, folder: Path, push: int, part: int, mine: list[Any],
                   prefix: str = "") -> ImportFiles:
    """One writer's share (see _share_files); an unexpected error as the push's error, with its words."""
    try:
        return _share_files(graph, nodes, folder, push, part, mine, prefix or str(part))
    except PaperkgError:
        raise
    except Exception as error:
        raise PaperkgError(f"--bulk-import: writing the CSV files failed: {error!r}", ExitCode.SERVER) from error


def _share_files(graph: nx.MultiDiGraph, nodes: _Nodes, folder: Path, push: int, part: int, mine: list[Any],
                 prefix: str) -> ImportFiles:
    """The relationships leaving the nodes of writer `part` (`mine`, in the graph's order, as a push folds rows),
    then those nodes with their digests, as CSV files (a paper's relationships are its writer's, so it knows
    whether Cypher writes any of them)."""
    files = _CsvFiles(folder, f"{prefix}-")
    found = files.files
    rels: dict[tuple[str, str, str], dict[tuple[Any, Any], dict[str, Any]]] = defaultdict(dict)
    for source, target, key, attrs in model.edges(graph, mine):
        group, row = rel_row(graph, source, target, key, attrs)
        rels[group][row["source"], row["target"]] = row
    later = set(nodes.left)  # nodes whose hash or digest waits for Cypher's rows
    for group, group_rows in rels.items():
        found.rels[group[0]] += len(group_rows)
        for row in group_rows.values():
            if not _rel_line(files, group, row, push, nodes.left):
                found.leftover.rels[group].append(row)
                later.add(row["source"])
    for label, label_props in nodes.props.items():
        for key, (node, props, cells) in label_props.items():
            if nodes.share[node] != part:
                continue
            found.nodes[label] += 1
            row = keyed_row(props)
            digest = paper_digest(graph, node, model.node_attrs(graph, node))[1] if label == PAPER else None
            if digest is not None and key in later:
                found.digests[key] = digest
                digest = None
            if cells is None:
                found.leftover.nodes[label].append(row)
            else:
                _node_line(files, label, row, cells, push, digest)
    return files.close()


def _node_line(files: _CsvFiles, label: str, row: dict[str, Any], cells: Cells, push: int,
               digest: str | None) -> None:
    """One node row into its label's CSV file, with its digest unless Cypher sets it."""
    columns, texts = cells
    texts = texts + _stamps(row, push, columns)
    if digest is not None:
        texts.append(digest)
    files.write("nodes", label, (label, columns, digest is None), texts, lambda: _node_header(label, columns, digest))


def _node_header(label: str, columns: Columns, digest: str | None) -> list[str]:
    """The header of a node file: the key as the label's ID, typed properties, stamps, the digest if carried."""
    return ([f"key:ID({label})" if name == "key" else f"{name}:{kind}" for name, kind in columns] + _STAMP_HEADER
            + ([f"{DIGEST}:string"] if digest is not None else []))


def _rel_line(files: _CsvFiles, group: tuple[str, str, str], row: dict[str, Any], push: int, left: set[str]) -> bool:
    """One relationship row into its group's CSV file; False (nothing written) when Cypher must write it: a
    value CSV cannot carry or an end that Cypher creates."""
    rel_type, source, target = group
    cells = _cells(row["props"])
    if cells is None or row["source"] in left or row["target"] in left:
        return False
    columns, texts = cells
    files.write("relationships", rel_type, (group, columns),
                [str(row["source"]), str(row["target"]), *texts, *_stamps(row, push, columns)],
                lambda: [f":START_ID({source})", f":END_ID({target})"]
                + [f"{name}:{kind}" for name, kind in columns] + _STAMP_HEADER)
    return True


def _stamps(row: dict[str, Any], push: int, columns: Columns) -> list[str]:
    """first_push, last_push, paperkg_hash and paperkg_keys (sorted) of a row with these property columns."""
    return [str(push), str(push), row["hash"], _owned_keys(columns)]


@dataclass(frozen=True)
class LocalServer:
    """A Neo4j server run from a local home: its launcher and admin tool on Java, as scripts/neo4j.sh runs them."""

    home: Path

    def check(self, uri: str) -> None:
        """The home is a Neo4j home whose running server is the one `uri` reaches, else one sentence."""
        conf = self.home / "conf" / "neo4j.conf"
        if not (self.home / "lib").is_dir() or not conf.is_file():
            raise PaperkgError(f"--bulk-import {self.home}: not a Neo4j home (no lib/ and conf/neo4j.conf; "
                               "scripts/neo4j.sh makes one).", ExitCode.USAGE)
        if not self.running():
            raise PaperkgError(f"--bulk-import {self.home}: no server of that home is running (no live "
                               "run/neo4j.pid); start it with scripts/neo4j.sh start.", ExitCode.USAGE)
        bolt = re.search(r"^server\.bolt\.listen_address=.*:(\d+)\s*$", conf.read_text(encoding="utf8"), re.M)
        parts = urlsplit(uri)
        if parts.hostname not in _LOCAL_HOSTS or bolt is None or str(parts.port or 7687) != bolt.group(1):
            raise PaperkgError(f"--bulk-import {self.home}: its server listens on Bolt port "
                               f"{bolt.group(1) if bolt else '?'} of this machine, but the push goes to {uri}; "
                               "pass the --uri of that server.", ExitCode.USAGE)

    def running(self) -> bool:
        """Whether the pid file names a live process."""
        try:
            os.kill(int((self.home / "run" / "neo4j.pid").read_text().split()[0]), 0)
        except (OSError, ValueError, IndexError):
            return False
        return True

    def _command(self, *arguments: str) -> list[str]:
        """The command line running a Neo4j main class on the home's jars."""
        java_home = os.environ.get("JAVA_HOME")
        java = str(Path(java_home) / "bin" / "java") if java_home else shutil.which("java") or "java"
        return [java, "-cp", str(self.home / "lib" / "*"), *arguments]

    def _env(self) -> dict[str, str]:
        """The environment the launcher and admin tool read the home from."""
        return {**os.environ, "NEO4J_HOME": str(self.home), "NEO4J_CONF": str(self.home / "conf")}

    def _java(self, *arguments: str) -> subprocess.CompletedProcess:
        """Run a Neo4j main class on the home's jars, output kept for the error message."""
        return subprocess.run(self._command(*arguments), env=self._env(), capture_output=True, text=True,
                              stdin=subprocess.DEVNULL)

    def _launcher(self, command: str) -> None:
        """`neo4j start|stop` (the tarball's launcher class)."""
        done = self._java("org.neo4j.server.startup.Neo4jCommand", command)
        if done.returncode != 0:
            raise PaperkgError(f"--bulk-import: `neo4j {command}` in {self.home} failed (exit {done.returncode}): "
                               f"{_last_line(done)}", ExitCode.SERVER)

    def stop(self) -> subprocess.Popen:
        """Begin stopping the server (`neo4j stop`, which returns once its process is gone); wait on the result."""
        return subprocess.Popen(self._command("org.neo4j.server.startup.Neo4jCommand", "stop"), env=self._env(),
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True)

    def stopped(self, stopping: subprocess.Popen) -> None:
        """Wait for `stop()` to finish; one sentence if it failed."""
        output, _ = stopping.communicate()
        if stopping.returncode != 0 or self.running():
            raise PaperkgError(f"--bulk-import: `neo4j stop` in {self.home} failed (exit {stopping.returncode}): "
                               f"{(output or 'no output').strip().splitlines()[-1]}", ExitCode.SERVER)

    def start(self, uri: str, auth: tuple[str, str], database: str) -> None:
        """Start the server (unless it still runs: a stop that failed) and wait until `database` answers."""
        if not self.running():
            self._launcher("start")
        deadline = time.monotonic() + _START_TIMEOUT
        with GraphDatabase.driver(uri, auth=auth, notifications_min_severity="OFF") as driver:
            while True:
                try:
                    driver.execute_query("RETURN 1", database_=database)
                    return
                except (ServiceUnavailable, SessionExpired, DatabaseUnavailable):
                    if time.monotonic() > deadline or not self.running():
                        raise PaperkgError(f"--bulk-import: the server in {self.home} did not come back after "
                                           f"the import; see {self.home / 'logs' / 'neo4j.log'}.",
                                           ExitCode.SERVER) from None
                    time.sleep(0.2)

    def import_files(self, database: str, files: ImportFiles, report: Path) -> None:
        """`neo4j-admin database import full` of the files into `database` (overwritten: the caller checked
        it was empty)."""
        arguments = report.with_name("import.arguments")  # past a million papers the files outgrow a command line
        arguments.write_text("".join(_quoted(argument) + "\n" for argument in files.arguments), encoding="utf8")
        done = self._java("org.neo4j.cli.AdminTool", "database", "import", "full", database,
                          "--overwrite-destination=true", f"--array-delimiter=U+{ord(ARRAY_DELIMITER):04X}",
                          "--bad-tolerance=0", f"--report-file={report}", f"@{arguments}")
        if done.returncode != 0:
            # The store it left is unusable; the database was empty, so the server makes it afresh without it.
            for folder in ("databases", "transactions"):
                shutil.rmtree(self.home / "data" / folder / database, ignore_errors=True)
            raise PaperkgError(f"--bulk-import: neo4j-admin database import failed (exit {done.returncode}): "
                               f"{_last_line(done)}", ExitCode.SERVER)


def _quoted(argument: str) -> str:
    """One argument of an argument file (picocli's @-files, which neo4j-admin reads): double-quoted, its
    backslashes and quotes escaped."""
    return '"' + argument.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _last_line(done: subprocess.CompletedProcess) -> str:
    """The last line the command printed that names an error (else its last line)."""
    lines = [line.strip() for line in (done.stdout + done.stderr).splitlines()
             if line.strip() and not line.startswith("\t") and "--verbose" not in line]
    errors = [line for line in lines if "rror" in line or "xception" in line]
    return (errors or lines or ["no output"])[-1]
