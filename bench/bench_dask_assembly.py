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
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scale import TreeSampler, memory_kb, role, run, tree_pids

RARE = 3  # names in fewer papers of the source are renamed per clone


def rare_names(source: Path) -> set[str]:
    """The entity names (as extracted) of fewer than RARE papers of the source."""
    papers: Counter[str] = Counter()
    with open(source, encoding="utf8") as handle:
        for line in handle:
            papers.update({entity["name"] for entity in json.loads(line)["entities"]})
    return {name for name, count in papers.items() if count < RARE}


def clone(source: Path, folder: Path, papers: int) -> int:
    """Shards part-00000.jsonl... of about `papers` papers cloned from `source`; returns the papers written."""
    rare = rare_names(source)
    lines = source.read_text(encoding="utf8").splitlines()
    folder.mkdir(parents=True, exist_ok=True)
    written = 0
    for copy in range(math.ceil(papers / len(lines))):
        with open(folder / f"part-{copy:05d}.jsonl", "w", encoding="utf8") as out:
            for line in lines[:papers - written]:
                record = json.loads(line)
                if copy:
                    record["paper"]["id"] = f"{record['paper']['id']}~{copy}"
                    for entity in record["entities"]:
                        if entity["name"] in rare and not entity.get("acronym"):
                            entity["text"] = entity["name"] = f"{entity['name']}-{copy}"
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
                written += 1
    return written


class WorkerPeaks(TreeSampler):
    """The tree's peaks, and each process's own largest Rss with its role."""

    def __init__(self, pid: int) -> None:
        super().__init__(pid)
        self.largest: dict[int, tuple[str, float]] = {}

    def sample(self) -> None:
        super().sample()
        for pid in tree_pids(self.pid):
            rss = memory_kb(pid)[0] / 1024
            if rss > self.largest.get(pid, ("", 0.0))[1]:
                self.largest[pid] = (role(pid, self.pid), rss)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("source", type=Path, help="a build's extractions.jsonl")
    parser.add_argument("--papers", type=int, action="append", help="papers to clone to (repeatable)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--memory-limit", default="3GB", help="each worker's memory limit")
    parser.add_argument("--graph-files", action="store_true", help="also stream graph.json and GraphML")
    parser.add_argument("--keep", type=Path, help="keep the shards and outputs in this folder")
    args = parser.parse_args()
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
        sizes = Counter[str]()
        for path in out.rglob("*"):
            if path.is_file():
                sizes[path.parent.name if path.suffix == ".parquet" else path.name] += path.stat().st_size
        print(f"{papers:,} papers: {seconds:,.0f} s wall, {sum(tree.cpu.values()):,.0f} CPU s; peak Rss of the tree "
              f"{tree.peak_rss:,.0f} MB (Pss {tree.peak_pss:,.0f} MB); largest process Rss: "
              + ", ".join(f"{mb:,.0f}" for mb in workers[:4]) + f" MB; build process "
              f"{max((mb for name, mb in tree.largest.values() if name == 'build'), default=0):,.0f} MB\n"  # type: ignore[attr-defined]
              f"  {steps}\n  outputs: "
              + ", ".join(f"{name} {size / 1e6:,.1f} MB" for name, size in sorted(sizes.items())), flush=True)
    print("command: .venv/bin/python bench/bench_dask_assembly.py " + " ".join(sys.argv[1:]))


if __name__ == "__main__":
    main()
