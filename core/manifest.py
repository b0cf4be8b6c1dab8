"""The manifest of an output folder: which build wrote it, from which inputs, and each file's size and
sha256, so a reader can refuse a folder whose files come from different runs.

`manifest.json` is written last; its `build_id` is a hash of the files it lists, so the same build
gives the same manifest, byte for byte.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paperkg.core.errors import ExitCode, PaperkgError

MANIFEST = "manifest.json"
MANIFEST_KEY = "paperkg_manifest"
MANIFEST_VERSION = 1
_CHUNK = 1 << 20
# The only files a manifest may name: a build's outputs and extract --dask's shards. A manifest or commit
# is input from whoever made the folder; a name outside this list (a path, `..`) is never moved or deleted.
OUTPUT_FILES = frozenset({"extractions.jsonl", "graph.graphml", "graph.json", "graph.html", "papers.html",
                          "leaderboard.html", "trends.json", "views.json", "admission.json", "leaderboards.json"})
_SHARD = re.compile(r"part-[0-9]{5,9}\.jsonl")
# A build at scale's Parquet parts (graph/parquet_graph.py), Neo4j import files (cypher/bulk_import.py) and
# extraction shards (`build --dask` of abstracts): one level of fixed folder names, plain part names.
_PARQUET_PART = re.compile(r"(?:nodes|edges|evidence|names)/[A-Za-z0-9_-]{1,40}\.parquet"
                           r"|neo4j-import/[A-Za-z0-9_-]{1,60}\.(?:csv|json)|extractions/part-[0-9]{5,9}\.jsonl")


class OutputMismatch(PaperkgError):
    """An output folder whose files do not match its manifest; the message names the folder and file."""

    def __init__(self, message: str) -> None:
        super().__init__(message, ExitCode.USAGE)


class UnsafeManifest(OutputMismatch):
    """A manifest naming a file that is not one of paperkg's outputs: the folder is refused as it is."""


def is_output_name(name: object) -> bool:
    """A plain file name from paperkg's fixed list of outputs (no separator, no `..`, not absolute), or a Parquet
    part in one of the artifact's fixed folders."""
    return isinstance(name, str) and (name in OUTPUT_FILES or _SHARD.fullmatch(name) is not None
                                      or _PARQUET_PART.fullmatch(name) is not None)


@dataclass(frozen=True)
class FileEntry:
    """A file's size and sha256."""

    size: int
    sha256: str


@dataclass
class Manifest:
    """What one build wrote: its id, what it read, the papers in the graph, and its files."""

    files: dict[str, FileEntry]
    inputs: list[dict[str, Any]] = field(default_factory=list)  # {"path", "size", "sha256"}, sorted
    papers: int = 0
    build_id: str = ""
    mode: str = ""  # what extracted the lines: "rules" (--no-model), "model NAME VERSION", "" unknown


    def to_json(self) -> str:
        """The manifest as JSON text, keys sorted; the build id is the hash of everything else."""
        body = {"files": {name: {"size": entry.size, "sha256": entry.sha256}
                          for name, entry in sorted(self.files.items())},
                "inputs": sorted(self.inputs, key=lambda item: (item["path"], item["sha256"])),
                "papers": self.papers, MANIFEST_KEY: MANIFEST_VERSION, **({"mode": self.mode} if self.mode else {})}
        self.build_id = hashlib.sha256(json.dumps(body, sort_keys=True).encode("utf8")).hexdigest()[:16]
        return json.dumps({**body, "build_id": self.build_id}, sort_keys=True, ensure_ascii=False, indent=1) + "\n"


def digest(path: Path) -> FileEntry:
    """Size and sha256 of a file, read in chunks."""
    sha = hashlib.sha256()
    size = 0
    with open(path, "rb") as handle:
        while chunk := handle.read(_CHUNK):
            sha.update(chunk)
            size += len(chunk)
    return FileEntry(size, sha.hexdigest())


def describe_files(folder: Path, names: list[str]) -> dict[str, FileEntry]:
    """The FileEntry of each named file in `folder`."""
    return {name: digest(folder / name) for name in names}


def read_manifest(folder: Path) -> Manifest | None:
    """The folder's manifest, None when it has none; a damaged one is an error naming it."""
    path = folder / MANIFEST
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf8"))
        if data.get(MANIFEST_KEY) != MANIFEST_VERSION:
            raise ValueError(f"manifest version {data.get(MANIFEST_KEY)!r}")
        unsafe = sorted(repr(name) for name in data["files"] if not is_output_name(name))
        if unsafe:
            raise UnsafeManifest(f"{path} names {unsafe[0]}, which is not one of paperkg's output files, so the "
                                 "folder is refused and nothing in it was moved or deleted; remove that manifest "
                                 "(or the folder) and build again.")
        files = {name: FileEntry(int(entry["size"]), str(entry["sha256"])) for name, entry in data["files"].items()}
        return Manifest(files=files, inputs=list(data["inputs"]), papers=int(data["papers"]),
                        build_id=str(data["build_id"]), mode=str(data.get("mode", "")))
    except UnsafeManifest:
        raise
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError, RecursionError) as error:
        raise OutputMismatch(f"{path} is not a readable paperkg manifest ({error}); build the folder "
                             "again.") from None


def verify(folder: Path, manifest: Manifest, names: tuple[str, ...]) -> None:
    """The named files (those the caller reads) are there with the size and sha256 the manifest lists."""
    for name in sorted(set(names) & set(manifest.files)):
        path, entry = folder / name, manifest.files[name]
        size = path.stat().st_size if path.is_file() else None
        if size != entry.size or digest(path).sha256 != entry.sha256:
            state = "is missing" if size is None else "differs from what the build wrote"
            raise OutputMismatch(f"{path} {state} (build {manifest.build_id} in {folder / MANIFEST}): the "
                                 "folder mixes files of different runs; build it again.")
