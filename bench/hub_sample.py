"""Draw a fixed-seed sample of the shared corpus for looking at the largest entity nodes (issue 31).

    python bench/hub_sample.py arxiv --size 1500 > /tmp/arxiv1500.jsonl
    python bench/hub_sample.py acl --size 2000 > /tmp/acl2000.jsonl

`arxiv`: arXiv rows of 2025-2026; `acl`: ACL Anthology rows. Rows whose id is written anywhere under
bench/data/ or tests/ (the blind rounds, the results and acronym dev sets among them) are left out, so that
looking at this sample's graph never shows their outputs. The rows are sorted by id, then drawn with
random.Random(seed); the output is JSON lines paperkg build reads (id, title, abstract, year, venue).
"""
from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
from pathlib import Path

from relations_blind_pick import ids_written

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus" / "abstracts" / "abstracts.jsonl.gz"
SOURCES = {"arxiv": lambda row: row["source"] == "arxiv" and row.get("year") in (2025, 2026),
           "acl": lambda row: row["source"] == "acl-anthology"}
FIELDS = ("id", "title", "abstract", "year", "venue")


def draw(source: str, size: int, seed: int, corpus: Path = CORPUS) -> list[dict]:
    """`size` rows of one source, not written under bench/data/ or tests/, drawn with a fixed seed."""
    excluded = ids_written(ROOT / "bench" / "data") | ids_written(ROOT / "tests")
    keep = SOURCES[source]
    with gzip.open(corpus, "rt", encoding="utf8") as lines:
        rows = [row for row in map(json.loads, lines) if keep(row) and row["id"] not in excluded]
    rows.sort(key=lambda row: row["id"])
    return sorted(random.Random(seed).sample(rows, size), key=lambda row: row["id"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", choices=sorted(SOURCES))
    parser.add_argument("--size", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=2026031)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    args = parser.parse_args()
    for row in draw(args.source, args.size, args.seed, args.corpus):
        sys.stdout.write(json.dumps({f: row.get(f) for f in FIELDS}, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
