"""What `paperkg build` and `paperkg extract` do, step by step, with progress and a summary.

A build reads and extracts (streaming the extraction lines to disk), builds the graph from all lines
in paper-id order (the garbage collector paused meanwhile: _collector_paused), writes its outputs
into a staging folder and commits them together with their manifest (paperkg.core.output_folder): a
failure or a kill at any point leaves the previous outputs as they were, or the new ones complete.
"""
from __future__ import annotations

import gc
import json
import os
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from rich.console import Console

from paperkg.core import graph_model as model
from paperkg.core.atomic import atomic_write
from paperkg.core.errors import ExitCode, PaperkgError
from paperkg.core.manifest import MANIFEST, FileEntry, Manifest, describe_files, digest, read_manifest, verify
from paperkg.core.output_folder import checked_output, names_file_only, names_folder
from paperkg.core.output_guard import check_folder_kind
from paperkg.core.schema import Extraction
from paperkg.ingest.input_files import display_name
from paperkg.ingest.source import is_stream
from paperkg.orchestrate.artifact import LAYERS, write_layers
from paperkg.orchestrate.extraction_store import ExtractionStore
from paperkg.orchestrate.inputs import input_set
from paperkg.orchestrate.run import ExtractSettings, Run
from paperkg.orchestrate.warnings_log import WarningLog
from paperkg.processes import run_forked, when_idle
from paperkg.viz.options import DEFAULT_VIEW, LEADERBOARD_FILE, MAP_FILE, PAPERS_FILE, ViewOptions

if TYPE_CHECKING:
    import networkx as nx

    from paperkg.admit.refusals import RefusalTable
    from paperkg.graph.trends import Trends

GRAPHML, JSON, EXTRACTIONS = "graph.graphml", "graph.json", "extractions.jsonl"
OUTPUTS = (EXTRACTIONS, GRAPHML, JSON, MAP_FILE, PAPERS_FILE, LEADERBOARD_FILE, *LAYERS)
SPOOL = ".new-extractions.jsonl"


@dataclass
class BuildOptions:
    """Settings of one build run (the CLI's options)."""

    inputs: list[Path]
    output: Path
    update: bool = False
    from_extractions: bool = False
    extract: ExtractSettings = field(default_factory=ExtractSettings)
    thesaurus: Path | None = None
    view: ViewOptions = DEFAULT_VIEW  # graph.html's and papers.html's options (their title: the inputs' names)


@dataclass
class BuildSummary:
    """What a build did, for the terminal summary; `written` is empty when nothing was replaced."""

    papers_new: int = 0
    papers_skipped: int = 0
    papers_total: int = 0
    nodes: dict[str, int] = field(default_factory=dict)
    edges: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    warnings: WarningLog = field(default_factory=WarningLog)
    written: list[Path] = field(default_factory=list)
    build_id: str = ""
    steps: dict[str, float] = field(default_factory=dict)  # seconds per step: reading and extracting, graph, each file
    graph: nx.MultiDiGraph | None = None  # the graph written (None when nothing was): `build --neo4j` pushes it
    trends: Trends | None = None          # its trends, as written (the push's trend properties)


@dataclass
class _Staged:
    """The extraction lines a build staged: from which files, the earlier build's inputs kept, papers re-extracted."""

    files: list[Path]
    earlier_inputs: list[dict[str, Any]]
    stale: set[str] = field(default_factory=set)


def check_build_folder(output: Path) -> None:
    """-o of a build names a folder: any name but one with a file type's extension (an existing file: the output
    folder check says so), and not one of extraction shards."""
    if not output.exists() and names_file_only(output):
        raise PaperkgError(f"-o {output}: a build writes a folder (graph.json, graph.graphml, graph.html, ...), so -o "
                           f"names a folder: use -o {output.with_suffix('')}/ (or {output}/ to keep the name).",
                           ExitCode.USAGE)
    check_folder_kind(output, shards=False)


def extraction_target(output: Path | None, dask: bool) -> Path:
    """What `paperkg extract` writes: a JSONL file (in a folder -o names: extractions.jsonl), or with
    --dask a folder of shards."""
    if not dask:
        target = output or Path("out/extractions.jsonl")
        return target / EXTRACTIONS if names_folder(target) else target
    target = output or Path("out/shards")
    if not target.exists() and names_file_only(target):
        raise PaperkgError(f"-o {target}: with --dask, extraction writes one shard per partition, so -o names a "
                           f"folder: use -o {target.with_suffix('')}/.", ExitCode.USAGE)
    return target


def run_build(options: BuildOptions, console: Console) -> BuildSummary:
    """Read, extract, build the graph from every extraction line, and commit the outputs together."""
    from paperkg.admit.thesaurus import read_thesaurus

    started = time.perf_counter()
    run = Run.start(options.inputs, options.output, options.extract, console)
    thesaurus = read_thesaurus(options.thesaurus) if options.thesaurus else {}
    summary = BuildSummary()
    mode = "" if options.from_extractions else extraction_mode(options.extract)
    with run.transaction() as out:
        store = ExtractionStore(out.staging / SPOOL)
        staged = _stage_lines(run, store, options, mode, summary)
        store.close()
        summary.warnings = run.warnings
        if summary.papers_new == 0 and not staged.stale:
            return summary
        summary.steps["extraction"] = time.perf_counter() - started
        step = time.perf_counter()
        graph, refusals = _graph_from_store(store, out.staging / EXTRACTIONS, thesaurus, run)
        (out.staging / SPOOL).unlink()
        summary.steps["graph"] = time.perf_counter() - step
        inputs = input_set(run.read, staged.earlier_inputs)
        exported, summary.trends = _write_graph_files(graph, refusals, out.staging, options, view_title(inputs),
                                                      summary.steps)
        files = {**describe_files(out.staging, [name for name in OUTPUTS if name not in exported]), **exported}
        manifest = Manifest(files={name: files[name] for name in OUTPUTS}, inputs=inputs,
                            papers=_count_papers(graph), mode=mode)
        out.commit(manifest)
    summary.build_id, summary.papers_total, summary.graph = manifest.build_id, manifest.papers, graph
    summary.written = [options.output / name for name in (*OUTPUTS, MANIFEST)]
    summary.nodes = dict(sorted(Counter(label for _, label in model.labels(graph)).items()))
    summary.edges = dict(sorted(Counter(data["type"] for *_, data in model.edges(graph)).items()))
    summary.warnings = run.warnings
    summary.seconds = time.perf_counter() - started
    return summary


def _stage_lines(run: Run, store: ExtractionStore, options: BuildOptions, mode: str,
                 summary: BuildSummary) -> _Staged:
    """Put the build's extraction lines in `store`: the earlier build's (--update), then the saved
    extraction files' or the new records' lines; counts the new and skipped papers into `summary`."""
    earlier, known = _previous_build(options.output, store, mode) if options.update else (None, set())
    staged = _Staged(files=[], earlier_inputs=earlier.inputs if earlier else [])
    if options.from_extractions:
        staged.files = extraction_files(run)
        summary.papers_new, summary.papers_skipped = _add_extraction_files(store, staged.files, known, run)
        return staged
    staged.files = run.files()
    if options.update:
        staged.earlier_inputs, staged.stale = _changed_inputs(staged.files, staged.earlier_inputs,
                                                              options.output / EXTRACTIONS)
        store.drop(staged.stale)
        known -= staged.stale
    with when_idle(_import_graph_and_views):
        for paper_id, line in run.extracted(staged.files, known):
            store.append(paper_id, line)
    summary.papers_new, summary.papers_skipped = len(store) - len(known), run.counts.known
    return staged


def _import_graph_and_views() -> None:
    """Import what the steps after extraction use (the graph builder, the exports, the views with NumPy,
    SciPy, Jinja2 and PyVis) while the fork server loads the pipeline and this process would idle
    (parallel._pooled)."""
    import paperkg.graph.builder
    import paperkg.graph.exports
    import paperkg.viz.views  # noqa: F401


def run_extract(inputs: list[Path], output: Path, settings: ExtractSettings,
                console: Console) -> tuple[int, WarningLog]:
    """Extraction only: one JSON line per paper, streamed into `output` (replaced only when at least
    one paper was read); returns (papers, warnings)."""
    run = Run.start(inputs, output, settings, console, writes_file=True)
    files = run.files()
    written = 0

    def write(handle: IO[bytes]) -> None:
        nonlocal written
        for _, line in run.extracted(files):
            handle.write(line.encode("utf8") + b"\n")
            written += 1
        if not written:
            raise _NothingRead

    created = not output.parent.exists()
    try:
        atomic_write(output, write)
    except _NothingRead:
        if created:
            output.parent.rmdir()
    return written, run.warnings


class _NothingRead(Exception):
    """No paper was read: the output file is left as it was."""


def _previous_build(folder: Path, store: ExtractionStore, mode: str) -> tuple[Manifest | None, set[str]]:
    """For --update: the earlier build's manifest and paper ids, its extraction lines added to `store`;
    its extraction lines and graph must match its manifest (a damaged graph.json is refused, naming
    the file; graph.html and graph.graphml are written anew and may have been re-rendered), and it must
    have been extracted the way this run extracts."""
    from paperkg.graph.exports import read_graph

    manifest = read_manifest(folder)
    if manifest is not None:
        verify(folder, manifest, (EXTRACTIONS, JSON))
        if manifest.mode and mode and manifest.mode != mode:
            raise PaperkgError(f"--update: {folder} was extracted with {_mode_name(manifest.mode)} and this run "
                               f"extracts with {_mode_name(mode)}; a graph mixing the two is built by neither, so "
                               f"extract the same way or build {folder} again without --update.")
    elif (folder / JSON).is_file():
        read_graph(folder / JSON)  # a folder from before manifests: at least the graph must read
    else:
        raise PaperkgError(f"--update needs an earlier build in {folder}, but {folder / JSON} does not exist.")
    if not (folder / EXTRACTIONS).is_file():
        raise PaperkgError(f"--update needs {folder / EXTRACTIONS} from the earlier build; build {folder} again.")
    return manifest, store.add_file(folder / EXTRACTIONS)[0]


def extraction_mode(settings: ExtractSettings) -> str:
    """What extracts this run's lines, for the manifest: "rules" (--no-model) or the model's name and version."""
    if not settings.use_model:
        return "rules"
    from paperkg.extract.limits import DEFAULT_MODEL

    folder = settings.model or DEFAULT_MODEL
    try:
        meta = json.loads((folder / "meta.json").read_text(encoding="utf8"))
        return f"model {meta['name']} {meta['version']}"
    except (OSError, ValueError, KeyError, TypeError):
        return f"model {folder.resolve()}"


def _mode_name(mode: str) -> str:
    return "the rules only (--no-model)" if mode == "rules" else f"the {mode.removeprefix('model ')} model"


def _changed_inputs(files: list[Path], earlier: list[dict[str, Any]],
                    extractions: Path) -> tuple[list[dict[str, Any]], set[str]]:
    """For --update: the earlier input set without the entries of this run's files (they are recorded
    anew), and the ids of the papers read from the files whose sha256 changed since (re-extracted;
    an edited paragraph without an id has a new id, so its old version must go). A pipe or standard input
    cannot be read before the build reads it: its papers are kept, and those read again skipped."""
    paths = {display_name(path) for path in files}
    same = {display_name(path) for path in files
            if is_stream(path) or {"path": display_name(path), **_entry(path)} in earlier}
    changed = {item["path"] for item in earlier if item["path"] in paths} - same
    kept = [item for item in earlier if item["path"] not in paths]
    if not changed:
        return kept, set()
    names = {display_name(Path(path)) for path in changed}
    stale = set()
    with open(extractions, encoding="utf8") as handle:
        for line in handle:
            paper = json.loads(line)["paper"]
            if str(paper.get("source") or "").rpartition(":")[0] in names:
                stale.add(str(paper["id"]))
    return kept, stale


def _entry(path: Path) -> dict[str, Any]:
    entry = digest(path)
    return {"size": entry.size, "sha256": entry.sha256}


def extraction_files(run: Run) -> list[Path]:
    """The .jsonl files among the run's inputs; a folder gives the shards its manifest lists (checked
    against it), or without a manifest its .jsonl files, sorted."""
    files = []
    for item in run.inputs:
        if item.is_dir():
            manifest = read_manifest(item)
            if manifest is not None:
                verify(item, manifest, tuple(manifest.files))
                found = [item / name for name in sorted(manifest.files) if name.endswith(".jsonl")]
            else:
                found = sorted(path for path in item.glob("*.jsonl") if path.is_file())
            if not found:
                run.report(str(item), "holds no .jsonl extraction files")
            files += run.files(found)
        else:
            found = [path for path in run.files([item]) if path.suffix == ".jsonl" or is_stream(path)]
            for path in found:
                if not is_stream(path):
                    checked_output(path)  # a saved extraction file its folder's manifest lists must match it
            files += found
    return files


def _add_extraction_files(store: ExtractionStore, files: list[Path], known: set[str], run: Run) -> tuple[int, int]:
    """Index saved extraction files (shards), each read once (its size and sha256 into `run.read`); returns
    (new papers, papers already built)."""
    new: set[str] = set()
    for path in files:
        ids, run.read[path] = store.add_file(path)
        new |= ids
    return len(new - known), len(new & known)


def _graph_from_store(store: ExtractionStore, target: Path, thesaurus: dict[str, str],
                      run: Run) -> tuple[nx.MultiDiGraph, RefusalTable]:
    """Write extractions.jsonl, admit the same lines and build the graph from them, in paper-id order; the graph
    and the refusals."""
    from paperkg.admit.admission import admit
    from paperkg.graph.builder import GraphBuilder

    builder = GraphBuilder()
    with _collector_paused():
        with open(target, "w", encoding="utf8") as handle:
            for where, line in run.progress(store.sorted_lines(run.report), "building the graph"):
                handle.write(line + "\n")
                builder.add(admit(Extraction.from_json(line, where), thesaurus))
        return builder.finalize(), builder.refusals


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off while the graph is built: the builder's objects (about
    600,000 at 10,000 papers) all live until the graph is written and form no cycles, and each full
    collection scanned them all again (about a quarter of the graph step's CPU at 10,000 papers)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _write_graph_files(graph: nx.MultiDiGraph, refusals: RefusalTable, folder: Path, options: BuildOptions,
                       title: str, steps: dict[str, float]) -> tuple[dict[str, FileEntry], Trends]:
    """graph.graphml, graph.json, the views (graph.html, papers.html, leaderboard.html) and the layers
    (trends.json, views.json, admission.json, leaderboards.json) into `folder`, each timed into `steps`; returns
    the manifest entries of the files written in a forked copy (flushed to disk and digested there), and the
    trends written.

    With --jobs 2 or more (without --jobs: for a big graph on a machine with a core to spare) the work
    is shared by three processes on the two cores: a forked copy of this one writes, flushes and
    digests GraphML; a forked worker lays the entity map out (NumPy, given only the map's nodes and
    links); this one writes JSON and papers.html, then graph.html once the layout is back.
    """
    from paperkg.graph import exports
    from paperkg.graph.leaderboard import compute_leaderboards
    from paperkg.graph.trends import trends as graph_trends
    from paperkg.orchestrate.parallel import layout_worker, second_process_pays
    from paperkg.viz.leaderboard_page import write_leaderboard_page
    from paperkg.viz.views import start_views

    def graphml() -> tuple[float, dict[str, FileEntry]]:
        began = time.perf_counter()
        exports.write_graphml(exports.graph_table(graph, options.view.min_confidence), folder / GRAPHML)
        return time.perf_counter() - began, _flushed(folder, [GRAPHML])

    fork = second_process_pays(options.extract.jobs, graph.number_of_nodes())
    with run_forked(graphml, f"writing {GRAPHML}", fork) as written, \
            layout_worker(graph.number_of_nodes()) if fork else nullcontext() as layouts:
        began = time.perf_counter()
        views = start_views(graph, folder, replace(options.view, title=title), layouts=layouts)
        planned = time.perf_counter() - began
        began = time.perf_counter()
        exports.write_json(graph, folder / JSON)
        steps[JSON] = time.perf_counter() - began
        began = time.perf_counter()
        trends = graph_trends(graph)
        steps["trends"] = time.perf_counter() - began
        began = time.perf_counter()
        views.finish()
        steps["views"] = planned + time.perf_counter() - began
        began = time.perf_counter()
        boards = compute_leaderboards(graph)
        write_leaderboard_page(boards.boards.values(), folder / LEADERBOARD_FILE, f"{title} · leaderboards")
        steps["leaderboards"] = time.perf_counter() - began
        write_layers(folder, trends, views.layer(), refusals, boards)
        steps[GRAPHML], entries = written.result()
    return entries, trends


def _flushed(folder: Path, names: list[str]) -> dict[str, FileEntry]:
    """The files' manifest entries, their data on disk first (so that the commit, which syncs every
    output, finds nothing left to write of them)."""
    for name in names:
        with open(folder / name, "rb") as handle:
            os.fsync(handle.fileno())
    return describe_files(folder, names)


def _count_papers(graph: nx.MultiDiGraph) -> int:
    return sum(1 for _ in model.papers(graph))


def view_title(inputs: list[dict[str, Any]]) -> str:
    """graph.html's title: the names of the input files (of every build an --update added to), a folder's
    name for the files of a folder that holds more than one of them."""
    paths = [Path(item["path"]) for item in inputs]
    in_folder = Counter(path.parent for path in paths)
    names = sorted({f"{path.parent.name}/" if in_folder[path.parent] > 1 else path.name for path in paths})
    return "paperkg · " + ", ".join(names[:3]) + (" …" if len(names) > 3 else "")
