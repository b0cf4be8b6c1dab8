"""The guard every command that writes a file goes through: a build's folder is never broken by another output.

A build's folder is what its manifest lists. Every command checks each file it is about to write with
`check_output` before any work: a path inside a build's staging or commit folder, a `manifest.json` beside
a build's manifest, and a file the manifest lists are refused in one sentence that names the file and the
way out (a command that may reproduce the build's own bytes, `export`, is let through). `atomic_write`
then checks again as it renames the finished file into place (`refuse_replacing`), so a command that
forgets the first check still never replaces a listed file with other bytes; `paperkg view` re-rendering a
build's views from that build's own graph says so with `rewriting`.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from paperkg.core.errors import ExitCode, PaperkgError
from paperkg.core.manifest import MANIFEST, Manifest, OutputMismatch, digest, read_manifest
from paperkg.core.output_folder import COMMIT, STAGING, check_links

_REWRITABLE: ContextVar[frozenset[Path]] = ContextVar("paperkg_rewritable", default=frozenset())


class OutputRefused(PaperkgError):
    """An output that would break a build's folder: nothing was written."""

    def __init__(self, message: str) -> None:
        super().__init__(message, ExitCode.USAGE)


def build_manifest(folder: Path) -> Manifest | None:
    """The manifest of the build in `folder`, or None when the folder holds no readable paperkg manifest (a
    `manifest.json` of another program's is not a build's)."""
    try:
        return read_manifest(folder) if folder.is_dir() else None
    except OutputMismatch:
        return None


def check_output(path: Path, what: str, option: str = "-o", *, may_match: bool = False) -> None:
    """Refuse, before any work, to write `what` ("the extraction lines") at `path` when that would break a
    build's folder: inside its staging or commit folder, onto its manifest, or onto a file its manifest
    lists (unless `may_match`: the command may write the build's own bytes, checked as the file is renamed)."""
    check_links(path, option)
    internal = next((part for part in path.parts if part in (STAGING, COMMIT)), None)
    if internal is not None:
        raise OutputRefused(f"{option} {path} is inside {internal}, the folder a paperkg build stages its outputs "
                            "in, which the build removes or moves; name a file outside it.")
    manifest = build_manifest(path.parent)
    if manifest is None:
        return
    if path.name == MANIFEST:
        raise OutputRefused(f"{option} {path} is the manifest of the build in {path.parent}, and writing {what} "
                            "there would break that build's folder; name another file.")
    if path.name in manifest.files and not may_match:
        raise OutputRefused(f"{option} {path} is the build's own {path.name} (listed in {path.parent / MANIFEST}), "
                            f"and writing {what} there would break that build's folder; name another file"
                            f"{_way_out(path)}.")


def check_views_folder(folder: Path, graph_file: Path, names: Iterable[str], option: str = "-o") -> list[Path]:
    """Refuse to draw the views of `graph_file` into a build's folder whose manifest lists them (`names`) when
    the graph is not that build's own (read from it, or the same bytes); returns the listed view files, which
    may then be drawn again."""
    check_links(folder, option)
    manifest = build_manifest(folder)
    if manifest is None or not set(names) & set(manifest.files):
        return []
    listed = [folder / name for name in names if name in manifest.files]
    if graph_file.resolve().parent == folder.resolve() or digest(graph_file) in manifest.files.values():
        return listed
    raise OutputRefused(f"{option} {folder} holds a build (listed in {folder / MANIFEST}) whose views are drawn from "
                        f"its own graph, and the views of {graph_file} written there would mix two graphs in one "
                        "build's folder; name another folder.")


def check_folder_kind(folder: Path, shards: bool, option: str = "-o") -> None:
    """Refuse to replace a folder's outputs with the other kind: a build's outputs by extraction shards, or shards
    by a build (the commit removes what the old manifest lists and the new one lacks)."""
    manifest = build_manifest(folder)
    if manifest is None:
        return
    held = sorted(name for name in manifest.files if name.startswith("part-") != shards)
    if held:
        kind = "a build's outputs" if shards else "extraction shards"
        making = "extraction shards" if shards else "a build"
        raise OutputRefused(f"{option} {folder} holds {kind} ({held[0]}, listed in {folder / MANIFEST}), which "
                            f"{making} there would delete; name another folder.")


def _way_out(path: Path) -> str:
    """What else the user may have meant, for a file a build lists."""
    if path.suffix == ".jsonl":
        return f", or add papers to that build with paperkg build NEW -o {path.parent} --update"
    return ""


def refuse_replacing(path: Path, written: Path) -> None:
    """Before `written` (a finished temporary file) is renamed onto `path`: refuse when `path` is a file a
    build's manifest lists and `written` holds other bytes (a view re-rendered inside `rewriting` excepted)."""
    manifest = build_manifest(path.parent)
    entry = manifest.files.get(path.name) if manifest is not None else None
    if entry is None or path.resolve() in _REWRITABLE.get():
        return
    if written.stat().st_size != entry.size or digest(written).sha256 != entry.sha256:
        raise OutputRefused(f"{path} is the build's own {path.name} (listed in {path.parent / MANIFEST}) and this "
                            "output differs from it, so writing it there would break the build's folder; name "
                            "another file.")


@contextmanager
def rewriting(paths: Iterable[Path]) -> Iterator[None]:
    """Within the block, `paths` may be replaced although a build lists them (its views, drawn again from its
    own graph)."""
    token = _REWRITABLE.set(_REWRITABLE.get() | {path.resolve() for path in paths})
    try:
        yield
    finally:
        _REWRITABLE.reset(token)
