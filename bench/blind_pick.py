"""Pick the abstracts of a blind round of entities and relations (issues 30 and 31) from the shared corpus.

    python bench/blind_pick.py bench/data/blind6 [--seed 2026120506] [--per-field 10]

Three fields of `../shared/corpus/abstracts/abstracts.jsonl.gz`, 80-190 words each: ACL Anthology papers under
CC BY 4.0 from 2016 on (`nlp`), arXiv papers listed first in a cs category (`arxiv-cs`, all 2025-2026) and arXiv
papers listed first outside cs (`other`: eess, q-bio, physics, stat, math, astro-ph, cond-mat, q-fin, econ,
quant-ph). The `other` field is drawn spread over the fields: its rows are grouped by the top-level part of the
first category, and each turn takes one row from every group still holding rows, the groups in an order shuffled
by the same generator, until the field is full. The exclusions are those of bench/relations_blind_pick.py: the
ids written in any other bench/data/ folder (every other sample.jsonl) or under tests/, and abstracts sharing an
8-word run with ../shared/benchmarks/ or examples/icml2025/. Writes sample.jsonl.
"""
from __future__ import annotations

import argparse
import json
import random
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

from relations_blind_pick import FIELDS as ROUND5_FIELDS
from relations_blind_pick import listed_first, candidates, sample_row


def _field_of(row: dict) -> str:
    """The top-level part of the first arXiv category: 'q-bio' for q-bio.NC, 'astro-ph' for astro-ph.IM."""
    return listed_first(row).split(".")[0]


FIELDS: dict[str, Callable[[dict], bool]] = {
    "nlp": ROUND5_FIELDS["nlp"],
    "arxiv-cs": lambda row: row["source"] == "arxiv" and _field_of(row) == "cs",
    "other": lambda row: row["source"] == "arxiv" and _field_of(row) not in {"", "cs"},
}
SPREAD = {"other"}


def spread_sample(rng: random.Random, rows: list[dict], size: int) -> list[dict]:
    """`size` rows taken in turns, one from each field group a turn (the groups in shuffled order)."""
    groups: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        groups[_field_of(row)].append(row)
    drawn: list[dict] = []
    while len(drawn) < size and any(groups.values()):
        order = sorted(name for name, left in groups.items() if left)
        rng.shuffle(order)
        for name in order[:size - len(drawn)]:
            drawn.append(groups[name].pop(rng.randrange(len(groups[name]))))
    return drawn


def pick(seed: int, per_field: int, out: Path) -> list[dict]:
    """The sample: per field, `per_field` rows drawn from the eligible candidates sorted by id."""
    found, excluded, overlapping = candidates(FIELDS, out)
    rng = random.Random(seed)
    sample = []
    for field, rows in found.items():
        groups = sorted({_field_of(row) for row in rows}) if field in SPREAD else []
        spread = f" in {len(groups)} fields ({', '.join(groups)})" if groups else ""
        print(f"{field}: {len(rows)} candidates{spread}")
        drawn = spread_sample(rng, rows, per_field) if field in SPREAD else rng.sample(rows, per_field)
        sample += [sample_row(field, row) | ({"categories": row["categories"]} if row["source"] == "arxiv" else {})
                   for row in drawn]
    print(f"left out: {excluded} ids of other bench/data folders and tests, {overlapping} abstracts sharing "
          "text with the benchmarks or the example corpus")
    return sample


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path, help="the round's folder (sample.jsonl is written there)")
    parser.add_argument("--seed", type=int, default=2026120506)
    parser.add_argument("--per-field", type=int, default=10)
    args = parser.parse_args()
    sample = pick(args.seed, args.per_field, args.out)
    args.out.mkdir(parents=True, exist_ok=True)
    with (args.out / "sample.jsonl").open("w", encoding="utf8") as handle:
        for row in sample:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
