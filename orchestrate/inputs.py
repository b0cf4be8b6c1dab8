"""What a run reads: the input files (never its own output), and the input set its manifest records."""
from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from paperkg.core.errors import PaperkgError
from paperkg.core.manifest import digest
from paperkg.ingest.readers import Report, input_files



def check_inputs(inputs: list[Path]) -> None:
    """An input that is neither an existing path nor a glob pattern is a usage error, not a warning."""
    for path in inputs:
        if not path.exists() and not any(c in str(path) for c in "*?["):
            raise PaperkgError(f"{path}: no such file or directory.")


def files_outside(inputs: Iterable[Path], output: Path, report: Report) -> list[Path]:
    """The files the inputs name, without `output` (a folder, or one file) and anything under it:
    skipped silently when a directory input holds it, with a warning when named directly."""
    excluded = output.resolve()
    files: list[Path] = []
    for item in inputs:
        for path in input_files([item], report):
            resolved = path.resolve()
            if resolved == excluded or excluded in resolved.parents:
                if not Path(item).is_dir():
                    report(str(path), f"is paperkg's own output ({output}), never an input; skipped")
                continue
            files.append(path)
    return files


def input_set(files: Iterable[Path], earlier: Iterable[dict[str, Any]] = ()) -> list[dict[str, Any]]:
    """Path, size and sha256 of each input file (with an earlier build's, for --update), sorted, for
    the manifest."""
    entries = {(item["path"], item["sha256"]): item for item in earlier}
    for path in files:
        entry = digest(path)
        entries[(str(path), entry.sha256)] = {"path": str(path), "size": entry.size, "sha256": entry.sha256}
    return [entries[key] for key in sorted(entries)]
