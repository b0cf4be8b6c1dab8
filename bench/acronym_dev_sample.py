"""Draw the abstracts of the non-CS acronym dev set (tests/data/acronyms_noncs_dev.jsonl).

The arXiv rows of the shared corpus cross-listed in q-bio, physics, econ, q-fin or cond-mat,
sorted by id, then a fixed-seed sample; each row is written without definitions, ready to be
annotated by hand (the shipped file holds the annotations).

    python bench/acronym_dev_sample.py ../shared/corpus/abstracts/abstracts.jsonl.gz > sample.jsonl
"""
from __future__ import annotations

import gzip
import json
import random
import sys

FIELDS = ("q-bio", "physics", "econ", "q-fin", "cond-mat")
SEED, SIZE = 19, 120


def non_cs(row: dict) -> bool:
    """An arXiv row cross-listed in a field other than computer science."""
    return row.get("source") == "arxiv" and any(c.split(".")[0] in FIELDS for c in row.get("categories") or [])


def main(corpus: str) -> None:
    with gzip.open(corpus, "rt", encoding="utf-8") as lines:
        rows = sorted((r for r in map(json.loads, lines) if non_cs(r)), key=lambda r: r["id"])
    for row in random.Random(SEED).sample(rows, SIZE):
        print(json.dumps({"id": row["id"], "categories": row["categories"], "license": row["license"],
                          "text": row["abstract"], "definitions": []}, ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1])
