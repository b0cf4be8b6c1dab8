"""Neo4j push throughput at scale: a first push, an update push, a re-push, and the naive way.

Builds a large graph by replicating the ICML 2025 corpus graph with distinct paper ids (the
entities are shared, as in a bigger corpus), until it has at least --min-rels relationships
(default 1,000,000), and pushes it to the real server (scripts/neo4j.sh start):

  1. the batched push (paperkg push) of all copies but the last into an empty database (with
     --bulk-import HOME: by neo4j-admin database import, paperkg push --bulk-import);
  2. the update push of the whole graph: only the last copy's papers and relationships are
     written (the others are on the server as they are: their hashes match);
  3. a re-push of the unchanged graph (hashes read back, nothing written);
  4. the naive push: nodes batched, then one MERGE per relationship, each in its own managed
     transaction, on a sample of relationships (reported as relationships per second).

    .venv/bin/python bench/bench_neo4j_push.py [--graph out/graph.json] [--min-rels 1000000]

It empties the target database first (refusing one that holds non-paperkg labels) and leaves
it holding the large graph. Each step prints as it ends, with the CPU seconds of this process and
(when the server is the one scripts/neo4j.sh started, whose pid file lies under
$PAPERKG_NEO4J_HOME/run) of the server: on a shared machine wall time depends on the others' load.
With --bulk-import it also prints when each phase of the import ends (CSV written, imported, server
started, schema in, Cypher's rows written, indexes online), with the CPU seconds spent so far by the client
(with its finished children: the CSV writers, the importer) and by the server now running.
"""
from __future__ import annotations

import argparse
import json
import logging
import math
import os
import sys
import time
from pathlib import Path

import networkx as nx
from neo4j.exceptions import ServiceUnavailable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from neo4j_fixtures import empty_database  # noqa: E402

from paperkg.graph.exports import read_json  # noqa: E402
from paperkg.cypher.rows import GraphRows, graph_counts, graph_rows  # noqa: E402
from paperkg.cypher.writer import (DEFAULT_BATCH_SIZE, Neo4jTarget, apply_schema, open_driver,  # noqa: E402
                                        push_graph, start_push, write_rows)

def server_pid() -> int | None:
    """The pid of the Neo4j server scripts/neo4j.sh started, if its pid file is there."""
    pid_file = Path(os.environ.get("PAPERKG_NEO4J_HOME", ROOT / ".neo4j")) / "run" / "neo4j.pid"
    try:
        return int(pid_file.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def process_cpu(pid: int | None) -> float:
    """User and system CPU seconds of a process so far (0 when it cannot be read)."""
    if pid is None:
        return 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def client_cpu() -> float:
    """CPU seconds of this process and its finished children (the bulk importer runs as one)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def timed(name: str, step, figures: dict) -> object:
    """Run `step()`, record its wall seconds and the client's and server's CPU seconds, print them (a server
    restarted during the step, as --bulk-import does, counts from its new start)."""
    pid = server_pid()
    wall, client, server = time.perf_counter(), client_cpu(), process_cpu(pid)
    result = step()
    figures[f"{name}_seconds"] = round(time.perf_counter() - wall, 2)
    figures[f"{name}_client_cpu_seconds"] = round(client_cpu() - client, 2)
    after = server_pid()
    figures[f"{name}_server_cpu_seconds"] = (round(process_cpu(pid) - server, 2) if after == pid
                                             else round(process_cpu(after), 2)) if after else None
    print(f"{name}: {figures[f'{name}_seconds']} s wall, CPU {figures[f'{name}_client_cpu_seconds']} s client, "
          f"{figures[f'{name}_server_cpu_seconds']} s server; load average {os.getloadavg()[0]:.1f}", flush=True)
    return result


def with_cpu(record: logging.LogRecord) -> bool:
    """A log filter adding to each record the CPU seconds so far of this process with its finished children
    (the CSV writers, the importer) and of the server now running, and the load average."""
    record.msg = (f"{record.msg} (CPU so far: client {client_cpu():.1f} s, server {process_cpu(server_pid()):.1f} s; "
                  f"load {os.getloadavg()[0]:.1f})")
    return True


NAIVE_MERGE = """
MATCH (s:{source} {{key: $row.source}})
MATCH (t:{target} {{key: $row.target}})
MERGE (s)-[r:{rel_type}]->(t)
WITH r, coalesce(r.first_push, $push) AS first_push
SET r = $row.props
SET r.first_push = first_push, r.last_push = $push
"""


def corpus_graph(path: Path | None) -> nx.MultiDiGraph:
    """The saved corpus graph, or a fresh build of examples/icml2025."""
    if path:
        return read_json(path)
    import paperkg

    return paperkg.build_graph(paperkg.read_records(ROOT / "examples" / "icml2025"))


def replicate(graph: nx.MultiDiGraph, copies: int) -> nx.MultiDiGraph:
    """`copies` copies of the graph's papers, each with distinct paper ids; entities are shared.

    Paper -> entity relationships multiply with the copies; entity -> entity ones stay, as in a larger
    corpus that keeps finding the same methods and tasks. Node and edge attributes are copied as they are
    (the tests' replicate builds copies of records instead; at a million relationships that is too slow).
    """
    big = nx.MultiDiGraph()
    big.graph.update(graph.graph)
    big.add_nodes_from((node, data) for node, data in graph.nodes(data=True) if data["label"] != "Paper")

    def renamed(node: str, copy: int) -> str:
        return f"{node}-{copy}" if graph.nodes[node]["label"] == "Paper" else node

    for copy in range(copies):
        for node, data in graph.nodes(data=True):
            if data["label"] == "Paper":
                big.add_node(renamed(node, copy), **{**data, "key": renamed(node, copy),
                                                     "paper_id": f"{data['paper_id']}-{copy}"})
        for source, target, key, data in graph.edges(keys=True, data=True):
            big.add_edge(renamed(source, copy), renamed(target, copy), key=key, **data)
    return big


def naive_rels_per_second(target: Neo4jTarget, graph: nx.MultiDiGraph, sample: int) -> tuple[float, int]:
    """Push all nodes batched, then `sample` relationships one MERGE per transaction; rels/s of the latter."""
    rows = graph_rows(graph)
    nodes_only = GraphRows(nodes=rows.nodes)
    work = [(NAIVE_MERGE.format(rel_type=t, source=s, target=e), row)
            for (t, s, e), group in rows.rels.items() for row in group]
    step = max(1, len(work) // sample)
    picked = work[::step][:sample]
    with open_driver(target) as driver:
        apply_schema(driver, target.database)
        push = start_push(driver, target.database, graph_counts(graph), "bench naive")
        write_rows(driver, target.database, nodes_only, push, DEFAULT_BATCH_SIZE)
        with driver.session(database=target.database) as session:
            began = time.perf_counter()
            for query, row in picked:
                session.execute_write(lambda tx, q=query, r=row: tx.run(q, row=r, push=push).consume())
            seconds = time.perf_counter() - began
    return len(picked) / seconds, len(picked)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--graph", type=Path, help="corpus graph.json (default: build examples/icml2025)")
    parser.add_argument("--min-rels", type=int, default=1_000_000)
    parser.add_argument("--batch-size", type=int, help="rows per transaction (default: the push's own)")
    parser.add_argument("--naive-sample", type=int, default=3000, help="relationships pushed naively")
    parser.add_argument("--uri", default=os.environ.get("NEO4J_URI", "bolt://127.0.0.1:7687"))
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--bulk-import", type=Path, metavar="NEO4J_HOME",
                        help="first push by neo4j-admin database import into the server run from this home")
    parser.add_argument("--skip", action="append", default=[], choices=["update", "naive"],
                        help="leave out a step (repeatable)")
    args = parser.parse_args()
    target = Neo4jTarget(uri=args.uri, password=os.environ.get("NEO4J_PASSWORD", "paperkg-neo4j"))
    if args.bulk_import:  # the bulk import's phases, as they end, with the CPU seconds spent so far
        logging.basicConfig(format="%(message)s")
        logging.getLogger("paperkg.cypher.writer").setLevel(logging.INFO)
        logging.getLogger("paperkg.cypher.writer").addFilter(with_cpu)

    corpus = corpus_graph(args.graph)
    paper_rels = sum(1 for s, *_ in corpus.edges if corpus.nodes[s]["label"] == "Paper")
    copies = math.ceil(args.min_rels / paper_rels)
    graph = replicate(corpus, copies)
    before = graph if "update" in args.skip else replicate(corpus, copies - 1)  # the first push's graph
    rels, nodes = graph.number_of_edges(), graph.number_of_nodes()
    print(f"graph: {copies} copies of the corpus graph -> {nodes} nodes, {rels} relationships")

    try:
        empty_database(target)
    except ServiceUnavailable:
        sys.exit(f"no Neo4j answers at {args.uri}: start one with `bash scripts/neo4j.sh start`.")
    figures: dict = {"nodes": nodes, "relationships": rels, "batch_size": args.batch_size,
                     "batched_push_relationships": before.number_of_edges()}
    first = timed("batched_push", lambda: push_graph(before, target, batch_size=args.batch_size,
                                                     bulk_import=args.bulk_import, source="bench batched"), figures)
    figures["batched_rels_per_second"] = round(before.number_of_edges() / first.seconds)
    if "update" not in args.skip:
        update = timed("update_push", lambda: push_graph(graph, target, batch_size=args.batch_size,
                                                         source="bench update"), figures)
        figures["update_push_rows_written"] = update.rows_written
    again = timed("repush", lambda: push_graph(graph, target, batch_size=args.batch_size, source="bench re-push"),
                  figures)
    figures["repush_rows_written"] = again.rows_written
    if "naive" not in args.skip:
        empty_database(target)
        naive_rate, naive_count = naive_rels_per_second(target, graph, args.naive_sample)
        figures.update({"naive_sample_rels": naive_count, "naive_rels_per_second": round(naive_rate),
                        "naive_full_push_estimate_seconds": round(rels / naive_rate),
                        "batched_speedup_over_naive": round(before.number_of_edges() / first.seconds / naive_rate, 1)})
    for name, value in figures.items():
        print(f"{name:>34}: {value}")
    print("command: .venv/bin/python bench/bench_neo4j_push.py " + " ".join(sys.argv[1:]))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(figures, indent=1) + "\n")


if __name__ == "__main__":
    main()
