"""What `paperkg build` and `paperkg extract` do, step by step, with progress and a summary."""
from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from paperkg.api import extract_records, load_pipeline
from paperkg.core.atomic import atomic_write
from paperkg.core.errors import PaperkgError
from paperkg.core.schema import Extraction
from paperkg.graph import exports
from paperkg.graph.builder import GraphBuilder
from paperkg.graph.canonical import paper_key
from paperkg.graph.thesaurus import apply_thesaurus, read_thesaurus
from paperkg.ingest.readers import WarningCollector, read_records
from paperkg.viz.html import render_html

GRAPHML, JSON, HTML, EXTRACTIONS = "graph.graphml", "graph.json", "graph.html", "extractions.jsonl"


@dataclass
class BuildOptions:
    """Settings of one build run (the CLI's options)."""

    inputs: list[Path]
    output: Path
    update: bool = False
    strict: bool = False
    use_model: bool = True
    model: Path | None = None
    thesaurus: Path | None = None
    size_by: str = "degree"
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
    nlp = load_pipeline(options.model, rules_only=not options.use_model)
    for extraction in _with_progress(extract_records(fresh, nlp, options.batch_size), console):
        extraction = apply_thesaurus(extraction, thesaurus)
        builder.add(extraction)
        new_lines.append(extraction.to_json())
        summary.papers_new += 1
    graph = builder.finalize()
    options.output.mkdir(parents=True, exist_ok=True)
    _write_lines(options.output / EXTRACTIONS, old_lines + new_lines)
    exports.write_graphml(graph, options.output / GRAPHML)
    exports.write_json(graph, graph_path)
    render_html(graph, options.output / HTML, size_by=options.size_by, colour_by=options.colour_by,
                show_concepts=options.show_concepts, title=_title(options.inputs))
    summary.written = [options.output / name for name in (GRAPHML, JSON, HTML, EXTRACTIONS)]
    summary.papers_total = sum(1 for _, d in graph.nodes(data=True) if d["label"] == "Paper")
    summary.nodes = dict(sorted(Counter(d["label"] for _, d in graph.nodes(data=True)).items()))
    summary.edges = dict(sorted(Counter(d["type"] for *_, d in graph.edges(data=True)).items()))
    summary.warnings = list(warnings)
    summary.seconds = time.perf_counter() - started
    return summary


def run_extract(inputs: list[Path], output: Path, *, strict: bool, use_model: bool, model: Path | None,
                batch_size: int, console: Console) -> tuple[int, list]:
    """Extraction only: write one JSON line per paper; returns (papers, warnings)."""
    check_inputs(inputs)
    warnings = WarningCollector()
    records = read_records(inputs, strict=strict, on_warning=warnings)
    nlp = load_pipeline(model, rules_only=not use_model)
    lines = [e.to_json() for e in _with_progress(extract_records(records, nlp, batch_size), console)]
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


def _already_in(builder: GraphBuilder, paper_id: str, summary: BuildSummary) -> bool:
    if paper_key(paper_id) in builder.graph:
        summary.papers_skipped += 1
        return True
    return False


def _with_progress(items: Iterator[Extraction], console: Console) -> Iterator[Extraction]:
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
