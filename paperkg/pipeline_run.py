"""What `paperkg build` and `paperkg extract` do, step by step, with progress and a summary."""
from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from paperkg.api import extract_records, load_pipeline
from paperkg.errors import PaperkgError
from paperkg.extract.pipeline import DEFAULT_MODEL
from paperkg.graph import exports
from paperkg.graph.atomic import atomic_write
from paperkg.graph.builder import GraphBuilder
from paperkg.graph.canonical import paper_key
from paperkg.graph.thesaurus import apply_thesaurus, read_thesaurus
from paperkg.readers import WarningCollector, read_records
from paperkg.viz.views import render_views

GRAPHML, JSON, EXTRACTIONS = "graph.graphml", "graph.json", "extractions.jsonl"


@dataclass
class BuildOptions:
    """Settings of one build run (the CLI's options)."""

    inputs: list[Path]
    output: Path
    update: bool = False
    strict: bool = False
    use_model: bool = True
    thesaurus: Path | None = None
    size_by: str = "papers"
    colour_by: str = "type"
    show_concepts: bool = False
    batch_size: int = 32


@dataclass
class BuildSummary:
    """What a build did, for the terminal summary."""

    papers_new: int = 0
    papers_skipped: int = 0
    papers_total: int = 0
    nodes: dict[str, int] = field(default_factory=dict)
    edges: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    warnings: list = field(default_factory=list)
    written: list[Path] = field(default_factory=list)


def run_build(options: BuildOptions, console: Console) -> BuildSummary:
    """Read, extract, build (or extend) the graph, and write the four outputs atomically."""
    started = time.perf_counter()
    check_inputs(options.inputs)
    graph_path = options.output / JSON
    if options.update and not graph_path.is_file():
        raise PaperkgError(f"--update needs an earlier build in {options.output}, but {graph_path} does not exist.")
    thesaurus = read_thesaurus(options.thesaurus) if options.thesaurus else {}
    previous = exports.read_json(graph_path) if options.update else None
    builder = GraphBuilder(previous)
    old_lines = _old_extraction_lines(options.output / EXTRACTIONS) if options.update else []
    warnings = WarningCollector()
    summary = BuildSummary()
    new_lines: list[str] = []
    records = read_records(options.inputs, strict=options.strict, on_warning=warnings)
    fresh = (r for r in records if not _already_in(builder, r.id, summary))
    for extraction in _with_progress(extract_records(fresh, _pipeline(options.use_model), options.batch_size), console):
        extraction = apply_thesaurus(extraction, thesaurus)
        builder.add(extraction)
        new_lines.append(json.dumps(extraction, ensure_ascii=False, sort_keys=True))
        summary.papers_new += 1
    graph = builder.finalize()
    options.output.mkdir(parents=True, exist_ok=True)
    _write_lines(options.output / EXTRACTIONS, old_lines + new_lines)
    exports.write_graphml(graph, options.output / GRAPHML)
    exports.write_json(graph, graph_path)
    views = render_views(graph, options.output, size_by=options.size_by, colour_by=options.colour_by,
                         show_concepts=options.show_concepts, title=_title(options.inputs))
    summary.written = [options.output / GRAPHML, graph_path, *views, options.output / EXTRACTIONS]
    summary.papers_total = sum(1 for _, d in graph.nodes(data=True) if d["label"] == "Paper")
    summary.nodes = dict(sorted(Counter(d["label"] for _, d in graph.nodes(data=True)).items()))
    summary.edges = dict(sorted(Counter(d["type"] for *_, d in graph.edges(data=True)).items()))
    summary.warnings = list(warnings)
    summary.seconds = time.perf_counter() - started
    return summary


def run_extract(inputs: list[Path], output: Path, *, strict: bool, use_model: bool, batch_size: int,
                console: Console) -> tuple[int, list]:
    """Extraction only: write one JSON line per paper; returns (papers, warnings)."""
    check_inputs(inputs)
    warnings = WarningCollector()
    records = read_records(inputs, strict=strict, on_warning=warnings)
    lines = [json.dumps(e, ensure_ascii=False, sort_keys=True)
             for e in _with_progress(extract_records(records, _pipeline(use_model), batch_size), console)]
    _write_lines(output, lines)
    return len(lines), list(warnings)


def _title(inputs: list[Path]) -> str:
    names = ", ".join(path.name for path in inputs[:3]) + (" …" if len(inputs) > 3 else "")
    return f"paperkg · {names}"


def check_inputs(inputs: list[Path]) -> None:
    """An input that is neither an existing path nor a glob pattern is a usage error, not a warning."""
    for path in inputs:
        if not path.exists() and not any(c in str(path) for c in "*?["):
            raise PaperkgError(f"{path}: no such file or directory.")


def _pipeline(use_model: bool):
    return load_pipeline(DEFAULT_MODEL if use_model else None)


def _already_in(builder: GraphBuilder, paper_id: str, summary: BuildSummary) -> bool:
    if paper_key(paper_id) in builder.graph:
        summary.papers_skipped += 1
        return True
    return False


def _with_progress(items: Iterator[dict[str, Any]], console: Console) -> Iterator[dict[str, Any]]:
    columns = (SpinnerColumn(), TextColumn("extracting"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task("extract", total=None)
        for item in items:
            yield item
            progress.advance(task)


def _old_extraction_lines(path: Path) -> list[str]:
    if not path.is_file():
        return []
    return [line for line in path.read_text(encoding="utf8").splitlines() if line.strip()]


def _write_lines(path: Path, lines: list[str]) -> None:
    atomic_write(path, lambda handle: handle.write("".join(line + "\n" for line in lines).encode("utf8")))
