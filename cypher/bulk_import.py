"""A first push through Neo4j's bulk importer, for a local server and an empty database.

`neo4j-admin database import full` is how Neo4j recommends loading a large graph the first time:
it writes the store files directly, without transactions. It needs the server stopped, so it is
for a server run from a local Neo4j home (lib/, conf/neo4j.conf, run/neo4j.pid: what
scripts/neo4j.sh makes). Here the rows become CSV files (one per label or relationship group and
set of property types, so every column has one type and no row has an empty field) carrying the
same properties and markers a push writes; the caller stops the server, imports, starts it again
and writes by Cypher what CSV cannot carry exactly (empty lists; rows with line breaks or the array
delimiter inside a list item).
"""
from __future__ import annotations

import csv
import math
import os
import re
import shutil
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any
from urllib.parse import urlsplit

from neo4j import GraphDatabase
from neo4j.exceptions import DatabaseUnavailable, ServiceUnavailable, SessionExpired

from paperkg.core.errors import ExitCode, PaperkgError
from paperkg.cypher.rows import GraphRows

ARRAY_DELIMITER = "\x1f"  # the unit separator: text never holds it, ";" (the default) it often does
_CSV_TYPES = {str: "string", int: "long", float: "double", bool: "boolean"}
HASH = "paperkg_hash"
PENDING = "pending"  # the hash of a node whose empty lists Cypher still has to set
_LONG = range(-2**63, 2**63)
_LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1"}
_START_TIMEOUT = 300.0


@dataclass
class ImportFiles:
    """The CSV files to import and what they leave to Cypher."""

    arguments: list[str] = field(default_factory=list)  # --nodes=Label=FILE and --relationships=TYPE=FILE
    empty_lists: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # label -> [{key, props}]: lists, hash
    leftover: GraphRows = field(default_factory=GraphRows)  # rows CSV cannot carry exactly


def _value_type(value: Any) -> str | None:
    """The CSV column type of a property value ('' for an empty list), None when CSV cannot carry it exactly."""
    kind = type(value)
    if kind is list:
        if not value:
            return ""
        element = _CSV_TYPES.get(type(value[0]))
        if element is None or any(type(item) is not type(value[0]) for item in value):
            return None
        if element == "string" and ("" in value or _breaks("".join(value))):
            return None
        return element + "[]"
    found = _CSV_TYPES.get(kind)
    if (found == "string" and _breaks(value)) or (found == "double" and not math.isfinite(value)) \
            or (found == "long" and value not in _LONG):
        return None
    return found


def _breaks(text: str) -> bool:
    """Whether text holds a line break or the array delimiter (the importer would need slow multi-line parsing)."""
    return "\n" in text or "\r" in text or ARRAY_DELIMITER in text


def _field(value: Any) -> Any:
    """A property value as its CSV field."""
    if type(value) is list:
        return ARRAY_DELIMITER.join(_field(item) if type(item) is bool else str(item) for item in value)
    if type(value) is bool:
        return "true" if value else "false"
    return value


class _CsvFiles:
    """One CSV file per (label or relationship group, columns and their types), opened on first use."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.open: dict[tuple[Any, ...], tuple[IO[str], Any]] = {}
        self.files = ImportFiles()

    def writer(self, option: str, name: str, header: list[str], signature: tuple[Any, ...]) -> Any:
        """The csv writer for rows of this signature (its file and header made the first time)."""
        if signature not in self.open:
            path = self.folder / f"{len(self.open):05d}.csv"
            handle = path.open("w", encoding="utf8", newline="")
            writer = csv.writer(handle, quoting=csv.QUOTE_ALL, lineterminator="\n")
            writer.writerow(header)
            self.open[signature] = (handle, writer)
            self.files.arguments.append(f"--{option}={name}={path}")
        return self.open[signature][1]

    def close(self) -> ImportFiles:
        """Close every file; the files made."""
        for handle, _ in self.open.values():
            handle.close()
        return self.files


def write_import_files(rows: GraphRows, folder: Path, *, push: int) -> ImportFiles:
    """The rows (one per key and per pair of ends: folded as a push folds them) as CSV files in `folder`."""
    files = _CsvFiles(folder)
    for label, label_rows in rows.nodes.items():
        for row in label_rows:
            _node_row(files, label, row, push)
    left = {row["key"] for label_rows in files.files.leftover.nodes.values() for row in label_rows}
    for group, group_rows in rows.rels.items():
        for row in group_rows:
            if row["source"] in left or row["target"] in left:  # its end is created by Cypher, so it is too
                files.files.leftover.rels[group].append(row)
            else:
                _rel_row(files, group, row, push)
    return files.close()


def _typed_columns(props: dict[str, Any]) -> list[tuple[str, str]] | None:
    """(name, CSV type) of each property ('' for an empty list), None if one cannot go in CSV."""
    columns = [(name, _value_type(value)) for name, value in props.items()]
    return None if any(kind is None for _, kind in columns) else columns  # type: ignore[return-value]


def _stamp_fields(row: dict[str, Any], names: list[str], push: int, complete: bool = True) -> list[Any]:
    """first_push, last_push, paperkg_hash and paperkg_keys (sorted) of a row; a row Cypher completes
    carries a hash no row has until then, so a push cut short before that rewrites it."""
    return [push, push, row["hash"] if complete else PENDING, ARRAY_DELIMITER.join(sorted(names))]


_STAMP_HEADER = ["first_push:long", "last_push:long", "paperkg_hash:string", "paperkg_keys:string[]"]


def _node_row(files: _CsvFiles, label: str, row: dict[str, Any], push: int) -> None:
    """One node row into its label's CSV file (or left for Cypher)."""
    props = row["props"]
    columns = _typed_columns(props)
    if columns is None:
        files.files.leftover.nodes[label].append(row)
        return
    empty: dict[str, Any] = {name: [] for name, kind in columns if kind == ""}
    if empty:
        files.files.empty_lists.setdefault(label, []).append({"key": row["key"],
                                                              "props": {**empty, HASH: row["hash"]}})
    kept = [(name, kind) for name, kind in columns if kind]
    header = [f"key:ID({label})" if name == "key" else f"{name}:{kind}" for name, kind in kept] + _STAMP_HEADER
    values = [_field(props[name]) for name, _ in kept] + _stamp_fields(row, list(props), push, not empty)
    files.writer("nodes", label, header, (label, tuple(kept))).writerow(values)


def _rel_row(files: _CsvFiles, group: tuple[str, str, str], row: dict[str, Any], push: int) -> None:
    """One relationship row into its group's CSV file (or left for Cypher)."""
    rel_type, source, target = group
    props = row["props"]
    columns = _typed_columns(props)
    if columns is None or any(kind == "" for _, kind in columns):
        files.files.leftover.rels[group].append(row)
        return
    header = [f":START_ID({source})", f":END_ID({target})"] + [f"{name}:{kind}" for name, kind in columns]
    values = [row["source"], row["target"]] + [_field(props[name]) for name, _ in columns]
    files.writer("relationships", rel_type, header + _STAMP_HEADER, (group, tuple(columns))).writerow(
        values + _stamp_fields(row, list(props), push))


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
                    time.sleep(0.5)

    def import_files(self, database: str, files: ImportFiles, report: Path) -> None:
        """`neo4j-admin database import full` of the files into `database` (overwritten: the caller checked
        it was empty)."""
        done = self._java("org.neo4j.cli.AdminTool", "database", "import", "full", database,
                          "--overwrite-destination=true", f"--array-delimiter=U+{ord(ARRAY_DELIMITER):04X}",
                          "--bad-tolerance=0", f"--report-file={report}", *files.arguments)
        if done.returncode != 0:
            # The store it left is unusable; the database was empty, so the server makes it afresh without it.
            for folder in ("databases", "transactions"):
                shutil.rmtree(self.home / "data" / folder / database, ignore_errors=True)
            raise PaperkgError(f"--bulk-import: neo4j-admin database import failed (exit {done.returncode}): "
                               f"{_last_line(done)}", ExitCode.SERVER)


def _last_line(done: subprocess.CompletedProcess) -> str:
    """The last line the command printed that names an error (else its last line)."""
    lines = [line.strip() for line in (done.stdout + done.stderr).splitlines()
             if line.strip() and not line.startswith("\t") and "--verbose" not in line]
    errors = [line for line in lines if "rror" in line or "xception" in line]
    return (errors or lines or ["no output"])[-1]
