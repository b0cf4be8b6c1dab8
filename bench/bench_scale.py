"""`paperkg build` on real abstracts at scale: time, words/s and peak memory, per size and --jobs.

    .venv/bin/python bench/bench_scale.py --papers 10000 --jobs 1 --jobs 2     # the --jobs speed-up
    .venv/bin/python bench/bench_scale.py --papers 10000 --papers 100000       # growth 10k -> 100k

Samples N abstracts from the shared corpus (../shared/corpus/abstracts/abstracts.jsonl.gz, read
in place; the sample is a fixed-seed shuffle, so the 10k sample lies inside the 100k one), writes
it to a temporary folder outside the repository, runs the real command in a subprocess and
samples the resident memory of its whole process tree (the build and its worker processes)
every 0.2 s. Prints one line per run (with the build's own seconds per step) and the ratios
the scale issue asks for. The largest process is ru_maxrss of the children (the build itself
or one worker).
"""
from __future__ import annotations

import argparse
import gzip
import json
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


def tree_rss_mb(pid: int) -> float:
    """Resident memory of a process and all its descendants, in MB (from /proc)."""
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        try:
            status = Path(f"/proc/{current}/status").read_text()
            total += int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS:")))
            for task in Path(f"/proc/{current}/task").iterdir():
                todo += [int(child) for child in (task / "children").read_text().split()]
        except (OSError, StopIteration, ValueError):
            continue
    return total / 1024


def run(command: list[str]) -> tuple[float, float, float, str]:
    """(wall seconds, peak MB of the process tree, peak MB of the largest process, the build's
    line of seconds per step)."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peak = [0.0]

    def watch() -> None:
        while process.poll() is None:
            peak[0] = max(peak[0], tree_rss_mb(process.pid))
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
    return seconds, peak[0], largest, steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--papers", type=int, action="append", help="sample size (repeatable; default 10000)")
    parser.add_argument("--jobs", type=int, action="append", help="--jobs of the build (repeatable; default 2)")
    parser.add_argument("--no-model", action="store_true", help="rules-only pipeline")
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--keep", type=Path, help="keep the samples and outputs in this folder")
    args = parser.parse_args()
    sizes, jobs_list = args.papers or [10_000], args.jobs or [2]
    folder = args.keep or Path(tempfile.mkdtemp(prefix="paperkg-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    results: dict[tuple[int, int], float] = {}
    print(f"{'papers':>8} {'jobs':>4} {'words':>11} {'seconds':>9} {'words/s':>9} {'peak MB (tree)':>15} "
          f"{'largest process MB':>19}")
    for size in sizes:
        source, words = sample(args.corpus, size, folder)
        for jobs in jobs_list:
            arguments = ["build", str(source), "-o", str(folder / f"out-{size}-{jobs}"), "--jobs", str(jobs)]
            arguments += ["--no-model"] if args.no_model else []
            command = [sys.executable, "-m", "paperkg", *arguments]
            seconds, peak, largest, steps = run(command)
            results[size, jobs] = seconds
            print(f"{size:>8} {jobs:>4} {words:>11,} {seconds:>9.1f} {words / seconds:>9,.0f} {peak:>15,.0f} "
                  f"{largest:>19,.0f}\n{'':>14}{steps}", flush=True)
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
