"""One run of `paperkg build` or `paperkg extract`: its inputs and output checked before any work, one
warning reporter (kept for the summary, or with --strict an error), the counts of what it read, the
records it extracts, and the transaction its output folder is replaced in."""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from paperkg.core.errors import ExitCode, PaperkgError
from paperkg.core.manifest import FileEntry
from paperkg.core.output_folder import OutputTransaction, check_output_folder
from paperkg.core.output_guard import check_output
from paperkg.core.schema import PaperRecord
from paperkg.extract.limits import BATCH_SIZE
from paperkg.ingest.readers import InputWarning, read_records
from paperkg.orchestrate.inputs import check_inputs, files_outside
from paperkg.orchestrate.warnings_log import WarningLog

T = TypeVar("T")


@dataclass
class ExtractSettings:
    """How to extract: the pipeline, batch size and worker processes."""

    use_model: bool = True
    model: Path | None = None
    batch_size: int = BATCH_SIZE
    jobs: int | None = None  # None: decided by the input's size (parallel.extract_lines)
    strict: bool = False
    follow_links: bool = False  # read a folder's symbolic links out of it (ingest/input_files.py)


@dataclass
class ReadCounts:
    """How many records were read, and how many of them were already built."""

    read: int = 0
    known: int = 0


@dataclass
class Run:
    """What one run shares from its checks to its summary; made by Run.start, which checks first."""

    inputs: list[Path]
    output: Path  # the folder written (a build, Dask shards) or the file (extract); never read as an input
    settings: ExtractSettings
    console: Console
    warnings: WarningLog = field(default_factory=WarningLog)
    counts: ReadCounts = field(default_factory=ReadCounts)
    read: dict[Path, FileEntry] = field(default_factory=dict)  # each file read: its size and sha256 as read

    @classmethod
    def start(cls, inputs: list[Path], output: Path, settings: ExtractSettings, console: Console, *,
              writes_file: bool = False) -> Run:
        """A run whose inputs exist and whose output folder (a file's folder with `writes_file`) may be written."""
        check_inputs(inputs)
        if writes_file and output.is_dir():
            raise PaperkgError(f"-o {output} is a folder; name the JSONL file to write.")
        check_output_folder(output.parent if writes_file else output)
        if writes_file:
            check_output(output, "the extraction lines")
        return cls(inputs, output, settings, console)

    def report(self, source: str, message: str) -> None:
        """A problem with one input: a warning kept for the summary, or with --strict an error."""
        if self.settings.strict:
            raise PaperkgError(f"{source}: {message}", ExitCode.USAGE)
        self.warnings(InputWarning(source, message))

    def files(self, inputs: Iterable[Path] | None = None) -> list[Path]:
        """The files the inputs (default: the run's) name, without the run's own output."""
        return files_outside(self.inputs if inputs is None else inputs, self.output, self.report,
                             self.settings.follow_links)

    def records(self, files: list[Path], known: set[str] | frozenset[str] = frozenset()) -> Iterator[PaperRecord]:
        """The records of the files that are not in `known` (the readers skip an over-long abstract)."""
        for record in read_records(files, strict=self.settings.strict, on_warning=self.warnings,
                                   on_file=self.read.__setitem__):
            self.counts.read += 1
            if record.id in known:
                self.counts.known += 1
            else:
                yield record

    def extracted(self, files: list[Path], known: set[str] | frozenset[str] = frozenset()) -> Iterator[tuple[str, str]]:
        """(paper id, extraction line) for each new record of the files, in input order, with progress."""
        from paperkg.orchestrate.parallel import extract_lines

        settings = self.settings
        lines = extract_lines(self.records(files, known), jobs=settings.jobs, model=settings.model,
                              rules_only=not settings.use_model, batch_size=settings.batch_size,
                              skip=self.report)
        return self.progress(lines, "extracting")

    def transaction(self) -> OutputTransaction:
        """The output folder's transaction: what is staged replaces the old outputs together, or nothing does."""
        return OutputTransaction(self.output)

    def progress(self, items: Iterable[T], what: str) -> Iterator[T]:
        """The items, with a transient progress line (count and time) on the run's console."""
        columns = (SpinnerColumn(), TextColumn(what), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
        with Progress(*columns, console=self.console, transient=True) as progress:
            task = progress.add_task(what, total=None)
            for item in items:
                yield item
                progress.advance(task)
