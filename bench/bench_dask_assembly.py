"""The graph assembled on Dask past this machine: extraction records cloned to N papers, `paperkg build
--from-extractions SHARDS --dask local` timed with the memory of its whole process tree and of each worker.

    nice -n 10 .venv/bin/python bench/bench_dask_assembly.py EXTRACTIONS.jsonl --papers 250000 --keep /tmp/sim

EXTRACTIONS is a build's extractions.jsonl (10,000 real abstracts of the shared corpus). Each clone's papers
get new ids ('ID~3'); names in fewer than RARE of the source's papers are renamed per clone ('name-3'), so
the long tail grows as a corpus does (the graph step's growth measured in the issue: 10k papers -> 41,917
nodes, 200k -> 704,284); the others are shared. One shard per clone. Prints the time, the peaks (summed
Rss of the tree, each worker's largest Rss), the build's seconds per step and the size of every output.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scale import TreeSampler, memory_kb, role, run, tree_pids

RARE = 3  # names in fewer papers of the source are renamed per clone
TRACE_SECONDS = 30


def rare_names(source: Path) -> set[str]:
    """The entity names (as extracted) of fewer than RARE papers of the source."""
    papers: Counter[str] = Counter()
    with open(source, encoding="utf8") as handle:
        for line in handle:
            papers.update({entity["name"] for entity in json.loads(line)["entities"]})
    return {name for name, count in papers.items() if count < RARE}


def clone(source: Path, folder: Path, papers: int) -> int:
    """Shards part-00000.jsonl... of about `papers` papers cloned from `source` into `folder`, as hard links to the
    clones in its parent's clones/ (each clone written once, whatever the sizes asked); returns the papers."""
    lines = source.read_text(encoding="utf8").splitlines()
    clones = folder.parent / "clones"
    clones.mkdir(parents=True, exist_ok=True)
    folder.mkdir(parents=True, exist_ok=True)
    rare: set[str] | None = None
    copies = math.ceil(papers / len(lines))
    for copy in range(copies):
        count = min(len(lines), papers - copy * len(lines))
        name = f"part-{copy:05d}.jsonl" if count == len(lines) else f"part-{copy:05d}-{count}.jsonl"
        if not (clones / name).exists():
            rare = rare_names(source) if rare is None else rare
            with open(clones / f"{name}.tmp", "w", encoding="utf8") as out:
                for line in lines[:count]:
                    out.write(cloned(line, copy, rare) + "\n")
            (clones / f"{name}.tmp").rename(clones / name)
        target = folder / f"part-{copy:05d}.jsonl"
        if not target.exists():
            os.link(clones / name, target)
    return min(papers, copies * len(lines))


def cloned(line: str, copy: int, rare: set[str]) -> str:
    """One extraction record of clone `copy`: a new id, its rare names renamed (the first clone is the source)."""
    if not copy:
        return line
    record = json.loads(line)
    record["paper"]["id"] = f"{record['paper']['id']}~{copy}"
    for entity in record["entities"]:
        if entity["name"] in rare and not entity.get("acronym"):
            entity["text"] = entity["name"] = f"{entity['name']}-{copy}"
    return json.dumps(record, ensure_ascii=False)


class WorkerPeaks(TreeSampler):
    """The tree's peaks, and each process's own largest Rss with its role; every TRACE_SECONDS a line of the
    tree's Rss and Pss and each process's Rss to the trace file, if one is set (a run cut short still tells)."""

    trace: Path | None = None

    def __init__(self, pid: int) -> None:
        super().__init__(pid)
        self.largest: dict[int, tuple[str, float]] = {}
        self.began = self.traced = time.monotonic()

    def sample(self) -> None:
        super().sample()
        now_mb = []
        for pid in tree_pids(self.pid):
            rss, pss = (kb / 1024 for kb in memory_kb(pid))
            now_mb.append((pid, rss, pss))
            if rss > self.largest.get(pid, ("", 0.0))[1]:
                self.largest[pid] = (role(pid, self.pid), rss)
        if self.trace is not None and time.monotonic() - self.traced >= TRACE_SECONDS:
            self.traced = time.monotonic()
            with open(self.trace, "a", encoding="utf8") as out:
                out.write(f"{self.traced - self.began:.0f} s: Rss {sum(r for _, r, _ in now_mb):,.0f} MB, Pss "
                          f"{sum(p for *_, p in now_mb):,.0f} MB; " + ", ".join(
                              f"{pid} {self.largest.get(pid, ('?', 0))[0]} {rss:,.0f}" for pid, rss, _ in now_mb)
                          + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("source", type=Path, help="a build's extractions.jsonl")
    parser.add_argument("--papers", type=int, action="append", help="papers to clone to (repeatable)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--memory-limit", default="3GB", help="each worker's memory limit")
    parser.add_argument("--graph-files", action="store_true", help="also stream graph.json and GraphML")
    parser.add_argument("--keep", type=Path, help="keep the shards and outputs in this folder")
    parser.add_argument("--trace", type=Path, help="append the tree's memory every 30 s to this file")
    args = parser.parse_args()
    WorkerPeaks.trace = args.trace
    folder = args.keep or Path(tempfile.mkdtemp(prefix="paperkg-dask-"))
    import bench_scale

    bench_scale.TreeSampler = WorkerPeaks  # type: ignore[misc]  # run() samples with it
    for size in args.papers or [100_000]:
        shards, out = folder / f"shards-{size}", folder / f"out-{size}"
        papers = clone(args.source, shards, size)
        command = [sys.executable, "-m", "paperkg", "build", "--from-extractions", str(shards), "-o", str(out),
                   "--dask", "local", "--jobs", str(args.workers), "--memory-limit", args.memory_limit,
                   *(["--graph-files"] if args.graph_files else [])]
        seconds, tree, _, steps = run(command)
        workers = sorted((mb for name, mb in tree.largest.values() if name != "build"), reverse=True)  # type: ignore[attr-defined]
        sizes, files = Counter[str](), Counter[str]()
        for path in out.rglob("*"):
            if path.is_file():
                folder = path.parent.name if path.parent != out else ""
                name = f"{folder}/" if folder else path.name  # a folder's parts (Parquet, import CSV) as one
                sizes[name] += path.stat().st_size
                files[name] += 1
        print(f"{papers:,} papers: {seconds:,.0f} s wall, {sum(tree.cpu.values()):,.0f} CPU s; peak Rss of the tree "
              f"{tree.peak_rss:,.0f} MB (Pss {tree.peak_pss:,.0f} MB); largest process Rss: "
              + ", ".join(f"{mb:,.0f}" for mb in workers[:4]) + f" MB; build process "
              f"{max((mb for name, mb in tree.largest.values() if name == 'build'), default=0):,.0f} MB\n"  # type: ignore[attr-defined]
              f"  {steps}\n  outputs: "
              + ", ".join(f"{name} {size / 1e6:,.1f} MB" + (f" ({files[name]:,} files)" if files[name] > 1 else "")
                          for name, size in sorted(sizes.items())), flush=True)
    print("command: .venv/bin/python bench/bench_dask_assembly.py " + " ".join(sys.argv[1:]))


if __name__ == "__main__":
    main()
