"""`paperkg trends` on a graph of 100,000 abstracts: wall time and peak memory of the real command.

    .venv/bin/python bench/bench_trends.py .data/acl-out/graph.json --papers 100000

Building 100k abstracts takes most of an hour here, so the 100k graph is made from a real build's
graph.json by cloning, as the "100k abstracts from extractions" measurement of docs/performance.md did: each clone's
papers get new ids (years kept), entities in fewer than 3 papers are renamed per clone (so the
long tail grows as a corpus would), the others are shared; edges follow their ends, evidence and
sentences are kept. The clone is written one node or edge a line, as paperkg writes graph.json,
into a temporary folder, with the trends.json a build writes beside it (computed once from the clone, as
the build does) and a manifest listing both. Then `paperkg trends` runs in a subprocess (table, --json,
-o page; with the default parameters it reads trends.json, with --since it computes from the graph),
each timed (wall and CPU: the machine may be shared) with its peak resident memory.
"""
from __future__ import annotations

import argparse
import json
import math
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RARE = 3  # entities in fewer papers are renamed per clone


def clone(source: Path, target: Path, papers: int) -> tuple[int, int, int]:
    """Write a graph of about `papers` papers cloned from `source`; (papers, nodes, edges) written."""
    graph = json.loads(source.read_text(encoding="utf8"))
    nodes, edges = graph["nodes"], graph["edges"]
    have = sum(1 for node in nodes if node["label"] == "Paper")
    copies = math.ceil(papers / have)
    rare = {node["id"] for node in nodes if node["label"] != "Paper" and node.get("papers", 0) < RARE}

    def renamed(key: str, copy: int) -> str:
        if copy and (key.startswith("paper:") or key in rare):
            return f"{key}~{copy}"
        return key
    counts = [0, 0, 0]
    with target.open("w", encoding="utf8") as out:
        out.write('{"directed": true,\n"edges": [\n')
        first = True
        for copy in range(copies):
            for edge in edges:
                source_key, target_key = renamed(edge["source"], copy), renamed(edge["target"], copy)
                if copy and source_key == edge["source"] and target_key == edge["target"]:
                    continue  # between shared entities: written once
                out.write(("" if first else ",\n") + json.dumps({**edge, "source": source_key, "target": target_key},
                                                                sort_keys=True, ensure_ascii=False))
                first = False
                counts[2] += 1
        out.write(f'\n],\n"graph": {json.dumps(graph["graph"], sort_keys=True)},\n"multigraph": true,\n"nodes": [\n')
        first = True
        for copy in range(copies):
            for node in nodes:
                key = renamed(node["id"], copy)
                if copy and key == node["id"]:
                    continue
                row = {**node, "id": key, "key": key}
                if node["label"] == "Paper":
                    row["paper_id"] = f"{node['paper_id']}~{copy}" if copy else node["paper_id"]
                    counts[0] += 1
                out.write(("" if first else ",\n") + json.dumps(row, sort_keys=True, ensure_ascii=False))
                first = False
                counts[1] += 1
        out.write("\n]}\n")
    return counts[0], counts[1], counts[2]


def committed(graph_file: Path) -> None:
    """The clone made a build's folder: its trends.json, as the build computes it, and a manifest of both."""
    from paperkg.core.manifest import MANIFEST, Manifest, describe_files
    from paperkg.graph.exports import read_json
    from paperkg.graph.trends import trends
    from paperkg.orchestrate.artifact import TRENDS

    folder = graph_file.parent
    (folder / TRENDS).write_text(trends(read_json(graph_file)).to_json(), encoding="utf8")
    manifest = Manifest(files=describe_files(folder, [graph_file.name, TRENDS]))
    (folder / MANIFEST).write_text(manifest.to_json(), encoding="utf8")


def timed(command: list[str]) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, peak MB so far of the children) of one command, its output discarded."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return seconds, cpu, after.ru_maxrss / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("graph", type=Path, help="a real build's graph.json to clone")
    parser.add_argument("--papers", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    paperkg = str(Path(sys.executable).parent / "paperkg")
    with tempfile.TemporaryDirectory(prefix="paperkg-trends-") as folder:
        big = Path(folder) / "graph.json"
        start = time.perf_counter()
        papers, nodes, edges = clone(args.graph, big, args.papers)
        print(f"cloned {papers:,} papers, {nodes:,} nodes, {edges:,} edges "
              f"({big.stat().st_size / 1e6:,.0f} MB) in {time.perf_counter() - start:.0f} s")
        start = time.perf_counter()
        committed(big)
        print(f"trends.json written in {time.perf_counter() - start:.0f} s")
        for name, extra in (("table", []), ("--json", ["--json"]),
                            ("-o trends.html", ["-o", str(Path(folder) / "t.html")]), ("--since", ["--since", "2000"])):
            for run in range(args.repeat):
                seconds, cpu, peak = timed([paperkg, "trends", str(big), *extra])
                print(f"paperkg trends {name}: {seconds:.2f} s wall, {cpu:.2f} s CPU (run {run + 1}), "
                      f"peak {peak:,.0f} MB so far")
    return 0


if __name__ == "__main__":
    sys.exit(main())
