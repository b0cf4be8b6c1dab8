"""Neo4j push throughput at scale: a first push, an update push, a re-push, and the naive way.

Builds a large graph by replicating the ICML 2025 corpus graph with distinct paper ids (the
entities are shared, as in a bigger corpus), until it has at least --min-rels relationships
(default 1,000,000), and pushes it to the real server (scripts/neo4j.sh start):

  1. the batched push (paperkg push) of all copies but the last into an empty database;
  2. the update push of the whole graph: only the last copy's papers and relationships are
     written (the others are on the server as they are: their hashes match);
  3. a re-push of the unchanged graph (hashes read back, nothing written);
  4. the naive push: nodes batched, then one MERGE per relationship, each in its own managed
     transaction, on a sample of relationships (reported as relationships per second).

    .venv/bin/python bench/bench_neo4j_push.py [--graph out/graph.json] [--min-rels 1000000]

It empties the target database first (refusing one that holds non-paperkg labels) and leaves
it holding the large graph.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path

import networkx as nx
from neo4j.exceptions import ServiceUnavailable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from neo4j_fixtures import empty_database, replicate  # noqa: E402

from paperkg.graph.exports import read_json  # noqa: E402
from paperkg.cypher.rows import GraphRows, graph_rows  # noqa: E402
from paperkg.cypher.writer import (DEFAULT_BATCH_SIZE, Neo4jTarget, apply_schema, open_driver,  # noqa: E402
                                        push_graph, start_push, write_rows)

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


def naive_rels_per_second(target: Neo4jTarget, rows: GraphRows, sample: int) -> tuple[float, int]:
    """Push all nodes batched, then `sample` relationships one MERGE per transaction; rels/s of the latter."""
    nodes_only = GraphRows(nodes=rows.nodes)
    work = [(NAIVE_MERGE.format(rel_type=t, source=s, target=e), row)
            for (t, s, e), group in rows.rels.items() for row in group]
    step = max(1, len(work) // sample)
    picked = work[::step][:sample]
    with open_driver(target) as driver:
        apply_schema(driver, target.database)
        push = start_push(driver, target.database, rows, "bench naive")
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
    parser.add_argument("--batch-size", type=int, default=DEFAULT_BATCH_SIZE)
    parser.add_argument("--naive-sample", type=int, default=3000, help="relationships pushed naively")
    parser.add_argument("--uri", default=os.environ.get("NEO4J_URI", "bolt://127.0.0.1:7687"))
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    target = Neo4jTarget(uri=args.uri, password=os.environ.get("NEO4J_PASSWORD", "paperkg-neo4j"))

    corpus = corpus_graph(args.graph)
    paper_rels = sum(1 for s, *_ in corpus.edges if corpus.nodes[s]["label"] == "Paper")
    copies = math.ceil(args.min_rels / paper_rels)
    graph = replicate(corpus, copies)
    before = replicate(corpus, copies - 1)
    rels, nodes = graph.number_of_edges(), graph.number_of_nodes()
    print(f"graph: {copies} copies of the corpus graph -> {nodes} nodes, {rels} relationships")

    try:
        empty_database(target)
    except ServiceUnavailable:
        sys.exit(f"no Neo4j answers at {args.uri}: start one with `bash scripts/neo4j.sh start`.")
    first = push_graph(before, target, batch_size=args.batch_size, source="bench batched")
    update = push_graph(graph, target, batch_size=args.batch_size, source="bench update")
    again = push_graph(graph, target, batch_size=args.batch_size, source="bench re-push")
    empty_database(target)
    naive_rate, naive_count = naive_rels_per_second(target, graph_rows(graph), args.naive_sample)

    figures = {
        "nodes": nodes, "relationships": rels, "batch_size": args.batch_size,
        "batched_push_relationships": before.number_of_edges(),
        "batched_push_seconds": round(first.seconds, 2),
        "batched_rels_per_second": round(before.number_of_edges() / first.seconds),
        "update_push_rows_written": update.rows_written,
        "update_push_seconds": round(update.seconds, 2),
        "repush_rows_written": again.rows_written,
        "repush_seconds": round(again.seconds, 2),
        "naive_sample_rels": naive_count,
        "naive_rels_per_second": round(naive_rate),
        "naive_full_push_estimate_seconds": round(rels / naive_rate),
        "batched_speedup_over_naive": round(before.number_of_edges() / first.seconds / naive_rate, 1),
    }
    for name, value in figures.items():
        print(f"{name:>34}: {value}")
    print("command: .venv/bin/python bench/bench_neo4j_push.py " + " ".join(sys.argv[1:]))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(figures, indent=1) + "\n")


if __name__ == "__main__":
    main()
