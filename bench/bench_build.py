"""Throughput and memory of extraction and graph building on the ICML 2025 corpus, replicated.

    .venv/bin/python bench/bench_build.py --copies 20            # 1,140 abstracts
    .venv/bin/python bench/bench_build.py --copies 20 --no-model # rules only

Prints words per second of the spaCy pipeline (one process), papers per second of the whole
build (extract + graph + metrics), and the peak resident memory. Copies get distinct paper
ids, so the graph grows as it would with a larger corpus.
"""
from __future__ import annotations

import argparse
import resource
import time
from dataclasses import replace
from pathlib import Path

import paperkg
from paperkg.extract.pipeline import DEFAULT_MODEL
from paperkg.admit.admission import admit_all
from paperkg.graph.builder import GraphBuilder

CORPUS = Path(__file__).resolve().parent.parent / "examples" / "icml2025"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--copies", type=int, default=20)
    parser.add_argument("--no-model", action="store_true", help="rules-only pipeline")
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL, help="trained model directory to time")
    args = parser.parse_args()

    base = list(paperkg.read_records(CORPUS))
    records = [replace(r, id=f"{r.id}-{copy}") for copy in range(args.copies) for r in base]
    words = sum(len(r.abstract.split()) for r in records)
    nlp = paperkg.load_pipeline(args.model, rules_only=args.no_model)
    list(paperkg.extract_records(base[:8], nlp))  # warm-up: lexemes, caches

    started = time.perf_counter()
    cpu = time.process_time()
    extractions = list(paperkg.extract_records(records, nlp))
    extract_seconds = time.perf_counter() - started
    extract_cpu = time.process_time() - cpu

    started = time.perf_counter()
    builder = GraphBuilder()
    builder.add_all(admit_all(extractions))
    graph = builder.finalize()
    graph_seconds = time.perf_counter() - started

    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"pipeline: {'rules only' if args.no_model else 'rules + NER model'} ({', '.join(nlp.pipe_names)})")
    print(f"abstracts: {len(records)}  words: {words}")
    print(f"extraction: {extract_seconds:.1f} s wall, {words / extract_seconds:,.0f} words/s, "
          f"{words / extract_cpu:,.0f} words per CPU second")
    print(f"graph: {graph.number_of_nodes()} nodes, {graph.number_of_edges()} edges in {graph_seconds:.1f} s")
    print(f"whole build: {len(records) / (extract_seconds + graph_seconds):,.0f} abstracts/s")
    print(f"peak memory: {peak_mb:,.0f} MB")


if __name__ == "__main__":
    main()
