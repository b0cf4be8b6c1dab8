"""What a run reads: the input files (never its own output), and the input set its manifest records."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from paperkg.core.errors import PaperkgError
from paperkg.core.manifest import FileEntry
from paperkg.ingest.input_files import Report, display_name, input_files
from paperkg.ingest.source import STDIN


def check_inputs(inputs: list[Path]) -> None:
    """An input that is neither an existing path, standard input (-) nor a glob pattern is a usage error, not a
    warning; standard input is read once."""
    for path in inputs:
        if path != STDIN and not path.exists() and not any(c in str(path) for c in "*?["):
            raise PaperkgError(f"{path}: no such file or directory.")
    if inputs.count(STDIN) > 1:
        raise PaperkgError("- (standard input) is named more than once; it can be read only once.")


def files_outside(inputs: Iterable[Path], output: Path, report: Report, follow_links: bool = False) -> list[Path]:
    """The files the inputs name, without `output` (a folder, or one file) and anything under it:
    skipped silently when a directory input holds it, with a warning when named directly."""
    excluded = output.resolve()
    files: list[Path] = []
    for item in inputs:
        for path in input_files([item], report, follow_links=follow_links, output=output):
            resolved = path.resolve()
            if path != STDIN and (resolved == excluded or excluded in resolved.parents):
                if not Path(item).is_dir():
                    report(str(path), f"is paperkg's own output ({output}), never an input; skipped")
                continue
            files.append(path)
    return files


def input_set(read: Mapping[Path, FileEntry], earlier: Iterable[dict[str, Any]] = ()) -> list[dict[str, Any]]:
    """Path, size and sha256 of each input file as it was read (with an earlier build's, for --update), sorted,
    for the manifest."""
    entries = {(item["path"], item["sha256"]): item for item in earlier}
    for path, entry in read.items():
        name = display_name(path)  # a name of bytes that are not UTF-8, or with a line break, as JSON can hold it
        entries[(name, entry.sha256)] = {"path": name, "size": entry.size, "sha256": entry.sha256}
    return [entries[key] for key in sorted(entries)]
