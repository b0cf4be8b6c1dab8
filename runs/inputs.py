"""What a run reads: the input files (never its own output), the records it extracts (new ones, within
the pipeline's size limit) and the input set its manifest records."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from paperkg.core.errors import ExitCode, PaperkgError
from paperkg.core.manifest import digest
from paperkg.core.schema import PaperRecord
from paperkg.ingest.readers import InputWarning, WarningCollector, input_files, read_records

Report = Callable[[str, str], None]


def check_inputs(inputs: list[Path]) -> None:
    """An input that is neither an existing path nor a glob pattern is a usage error, not a warning."""
    for path in inputs:
        if not path.exists() and not any(c in str(path) for c in "*?["):
            raise PaperkgError(f"{path}: no such file or directory.")


def reporter(strict: bool, warnings: WarningCollector) -> Report:
    """A (source, message) handler: a warning kept for the summary, or with --strict an error."""
    def report(source: str, message: str) -> None:
        if strict:
            raise PaperkgError(f"{source}: {message}", ExitCode.USAGE)
        warnings(InputWarning(source, message))
    return report


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


@dataclass
class ReadCounts:
    """How many records were read, and how many of them were already built."""

    read: int = 0
    known: int = 0


def new_records(files: list[Path], *, strict: bool, warnings: WarningCollector, known: set[str],
                max_chars: int, counts: ReadCounts) -> Iterator[PaperRecord]:
    """The records of the files that are not in `known`; an abstract longer than `max_chars` is
    skipped with a warning (spaCy's nlp.max_length; the pipeline is linear up to it)."""
    report = reporter(strict, warnings)
    for record in read_records(files, strict=strict, on_warning=warnings):
        counts.read += 1
        if record.id in known:
            counts.known += 1
        elif len(record.abstract) > max_chars:
            report(record.source or record.id, f"abstract of {len(record.abstract):,} characters is over the "
                                               f"limit of {max_chars:,} (nlp.max_length); skipped")
        else:
            yield record


def input_set(files: Iterable[Path], earlier: Iterable[dict[str, Any]] = ()) -> list[dict[str, Any]]:
    """Path, size and sha256 of each input file (with an earlier build's, for --update), sorted, for
    the manifest."""
    entries = {(item["path"], item["sha256"]): item for item in earlier}
    for path in files:
        entry = digest(path)
        entries[(str(path), entry.sha256)] = {"path": str(path), "size": entry.size, "sha256": entry.sha256}
    return [entries[key] for key in sorted(entries)]
