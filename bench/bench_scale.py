"""`paperkg build` on real abstracts at scale: time, words/s and peak memory, per size and --jobs.

    .venv/bin/python bench/bench_scale.py --papers 10000 --jobs 1 --jobs 2     # the --jobs speed-up
    .venv/bin/python bench/bench_scale.py --papers 10000 --papers 100000       # growth 10k -> 100k

Samples N abstracts from the shared corpus (../shared/corpus/abstracts/abstracts.jsonl.gz, read
in place; the sample is a fixed-seed shuffle, so the 10k sample lies inside the 100k one), writes
it to a temporary folder outside the repository, runs the real command in a subprocess and
samples the memory of its whole process tree (the build, the fork server and the workers) every
0.2 s: summed Rss (a page shared by several processes counted in each; each process's Rss at the peak
is printed too) and summed Pss (shared pages split among the processes sharing them: the tree's real
footprint), and the CPU seconds of its processes. Prints one line per run (with the build's own
seconds per step) and the ratios the scale issue asks for. The largest process is ru_maxrss of
the children (the build itself or one worker).
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus" / "abstracts" / "abstracts.jsonl.gz"
SEED = 13


def sample(corpus: Path, size: int, folder: Path) -> tuple[Path, int]:
    """The first `size` lines of a seeded shuffle of the corpus, as a JSONL file; (file, words)."""
    with gzip.open(corpus, "rt", encoding="utf8") as handle:
        lines = handle.readlines()
    order = list(range(len(lines)))
    random.Random(SEED).shuffle(order)
    picked = [lines[i] for i in sorted(order[:size])]
    path = folder / f"sample-{size}.jsonl"
    path.write_text("".join(picked), encoding="utf8")
    return path, sum(len(json.loads(line)["abstract"].split()) for line in picked)


TICKS = os.sysconf("SC_CLK_TCK")


def tree_pids(pid: int) -> list[int]:
    """A process and all its descendants (from /proc)."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        try:
            for task in Path(f"/proc/{current}/task").iterdir():
                todo += [int(child) for child in (task / "children").read_text().split()]
        except (OSError, ValueError):
            continue
    return found


def memory_kb(pid: int) -> tuple[int, int]:
    """(resident, proportional) memory of one process in kB: Rss counts a page shared with another
    process (a worker's copy-on-write pages of the loaded pipeline) in each, Pss splits it among them."""
    try:
        fields = dict(line.split()[:2] for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:])
        return int(fields["Rss:"]), int(fields["Pss:"])
    except (OSError, KeyError, ValueError):
        return 0, 0


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds the process has used so far."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS
    except (OSError, IndexError, ValueError):
        return 0.0


def role(pid: int, root: int) -> str:
    """What a process of the build's tree is, from its command line and its parent's."""
    def command(of: int) -> str:
        try:
            return Path(f"/proc/{of}/cmdline").read_text()
        except OSError:
            return ""

    def parent(of: int) -> int:
        try:
            return int(Path(f"/proc/{of}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            return 0

    if pid == root:
        return "build"
    if "forkserver" in command(parent(pid)):  # forked from the fork server: its command line too
        return "worker"
    for name in ("forkserver", "resource_tracker"):
        if name in command(pid):
            return name.replace("_", " ").replace("forkserver", "fork server")
    return "forked copy"


class TreeSampler:
    """Peaks of the summed Rss and Pss of a process tree, each process's Rss at the Rss peak, and the CPU
    time of every process seen in it (each at its last sample: up to one interval per process is missed)."""

    def __init__(self, pid: int) -> None:
        self.pid, self.peak_rss, self.peak_pss, self.cpu = pid, 0.0, 0.0, {}
        self.at_peak: list[tuple[str, float]] = []  # (role, Rss MB) of each process at the summed-Rss peak

    def sample(self) -> None:
        """One sample of the whole tree."""
        rss = pss = 0
        processes = []
        for pid in tree_pids(self.pid):
            resident, proportional = memory_kb(pid)
            rss, pss = rss + resident, pss + proportional
            processes.append((pid, resident / 1024))
            self.cpu[pid] = max(self.cpu.get(pid, 0.0), cpu_seconds(pid))
        if rss / 1024 > self.peak_rss:
            self.at_peak = [(role(pid, self.pid), mb) for pid, mb in processes]
        self.peak_rss, self.peak_pss = max(self.peak_rss, rss / 1024), max(self.peak_pss, pss / 1024)


def run(command: list[str]) -> tuple[float, TreeSampler, float, str]:
    """(wall seconds, the tree's memory peaks and CPU time, peak MB of the largest process, the
    build's line of seconds per step)."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    sampler = TreeSampler(process.pid)

    def watch() -> None:
        while process.poll() is None:
            sampler.sample()
            time.sleep(0.2)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    stdout, stderr = process.communicate()
    seconds = time.perf_counter() - started
    watcher.join()
    if process.returncode not in (0, 3):
        sys.exit(f"{' '.join(command)} exited {process.returncode}:\n{stderr[-2000:]}")
    import resource

    largest = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    steps = next((line for line in stdout.splitlines() if line.startswith("seconds:")), "")
    return seconds, sampler, largest, steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--papers", type=int, action="append", help="sample size (repeatable; default 10000)")
    parser.add_argument("--jobs", type=int, action="append", help="--jobs of the build (repeatable; default 2)")
    parser.add_argument("--no-model", action="store_true", help="rules-only pipeline")
    parser.add_argument("--batch-size", type=int, help="--batch-size of the build (default: the build's)")
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--keep", type=Path, help="keep the samples and outputs in this folder")
    args = parser.parse_args()
    sizes, jobs_list = args.papers or [10_000], args.jobs or [2]
    folder = args.keep or Path(tempfile.mkdtemp(prefix="paperkg-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    results: dict[tuple[int, int], float] = {}
    print(f"{'papers':>8} {'jobs':>4} {'words':>11} {'seconds':>9} {'CPU s':>7} {'words/s':>9} "
          f"{'peak Rss MB':>12} {'peak Pss MB':>12} {'largest process MB':>19}")
    for size in sizes:
        source, words = sample(args.corpus, size, folder)
        for jobs in jobs_list:
            arguments = ["build", str(source), "-o", str(folder / f"out-{size}-{jobs}"), "--jobs", str(jobs)]
            arguments += ["--no-model"] if args.no_model else []
            arguments += ["--batch-size", str(args.batch_size)] if args.batch_size else []
            command = [sys.executable, "-m", "paperkg", *arguments]
            seconds, tree, largest, steps = run(command)
            results[size, jobs] = seconds
            print(f"{size:>8} {jobs:>4} {words:>11,} {seconds:>9.1f} {sum(tree.cpu.values()):>7.1f} "
                  f"{words / seconds:>9,.0f} {tree.peak_rss:>12,.0f} {tree.peak_pss:>12,.0f} "
                  f"{largest:>19,.0f}\n{'':>14}{steps}\n{'':>14}Rss MB at the peak: "
                  + ", ".join(f"{name} {mb:,.0f}" for name, mb in tree.at_peak), flush=True)
    for size in sizes:
        if len(jobs_list) > 1:
            base = results[size, jobs_list[0]]
            for jobs in jobs_list[1:]:
                print(f"{size} papers: --jobs {jobs} is {base / results[size, jobs]:.2f}x --jobs {jobs_list[0]}")
    for jobs in jobs_list:
        for small, large in zip(sizes, sizes[1:]):
            print(f"--jobs {jobs}: {small} -> {large} papers takes {results[large, jobs] / results[small, jobs]:.2f}x "
                  f"the time ({large / small:.0f}x the papers)")
    print("command: .venv/bin/python bench/bench_scale.py " + " ".join(sys.argv[1:]))


if __name__ == "__main__":
    main()
