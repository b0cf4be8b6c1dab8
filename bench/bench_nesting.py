"""Extraction time of one deeply nested abstract, at growing sizes: linear means twice the text, twice the time.

    .venv/bin/python bench/bench_nesting.py [--rules-only] [--sizes 2000 4000 8000]

Shapes (n is the nesting depth): `acronyms` is "(DN" n times then n closing brackets after "Deep Net (DN)"
(every "DN" a mention, an acronym and a relation candidate), `parentheses` is 2n nested "(" around one word,
`terms` is "(the deep network model" n times. Each abstract goes through the reader (normalisation) and
the default pipeline (or the rules only); the pipeline is loaded once, before the timings.
"""
from __future__ import annotations

import argparse
import time

import paperkg
from paperkg.extract.pipeline import load_pipeline
from paperkg.ingest.fields import record_from_fields

SHAPES = {"acronyms": lambda n: "We propose Deep Net (DN). " + " ".join(["(DN"] * n) + ")" * n,
          "parentheses": lambda n: "We propose Net " + "(" * (2 * n) + "x" + ")" * (2 * n),
          "terms": lambda n: "We propose Net " + "(the deep network model " * n + ")" * n}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules-only", action="store_true")
    parser.add_argument("--sizes", type=int, nargs="+", default=[2000, 4000, 8000])
    parser.add_argument("--shapes", nargs="+", choices=sorted(SHAPES), default=sorted(SHAPES))
    args = parser.parse_args()
    nlp = load_pipeline(rules_only=args.rules_only)
    list(paperkg.extract_records([record_from_fields({"abstract": "We propose Deep Net (DN)."}, "warm:1")], nlp=nlp))
    for shape in args.shapes:
        for n in args.sizes:
            started = time.perf_counter()
            record = record_from_fields({"id": "x", "abstract": SHAPES[shape](n)}, "x:1")
            list(paperkg.extract_records([record], nlp=nlp))
            print(f"{shape:12} n={n:6} {len(record.abstract):7,} characters {time.perf_counter() - started:7.2f} s",
                  flush=True)


if __name__ == "__main__":
    main()
