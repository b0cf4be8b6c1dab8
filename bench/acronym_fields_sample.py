"""Draw the abstracts of the acronym dev set of other fields (bench/data/acronyms_fields_dev/), before annotation.

    python bench/acronym_fields_sample.py > bench/data/acronyms_fields_dev/sample.jsonl

arXiv rows of `../shared/corpus/abstracts/` with a category outside cs, in three groups by their categories
(a row goes to the first group it fits): biology and medicine (q-bio, physics.med-ph, physics.bio-ph), social
science (econ, q-fin, physics.soc-ph) and physics (the rest of physics, cond-mat, astro-ph, quant-ph,
nlin, gr-qc, hep, math-ph). Kept: rows writing at least one bracketed capitalised short form such as "(ABC)" or
"(FEV1)" (a regular expression on the text, no run of paperkg), not written under tests/ (tests/data/
acronyms_noncs_dev.jsonl among them) or in another bench/data/ folder (the blind rounds' samples among them).
Each group's rows are sorted by id and `PER_GROUP` drawn with `random.Random(SEED)`; each row is written with
an empty definitions list, to be annotated by hand.
"""
from __future__ import annotations

import gzip
import json
import random
import re
import sys
from collections.abc import Callable

from relations_blind_pick import BENCH, CORPUS, ROOT, ids_written

SEED, PER_GROUP = 2026120531, 25
OUT = BENCH / "data" / "acronyms_fields_dev"
BRACKETED = re.compile(r"\((?=[^()]{2,12}\))(?:[^()\s]*[A-Z]){2}[^()\s]*\)")


def _any(row: dict, prefixes: tuple[str, ...]) -> bool:
    return any(category.startswith(prefixes) for category in row.get("categories") or [])


GROUPS: dict[str, Callable[[dict], bool]] = {
    "biology-medicine": lambda row: _any(row, ("q-bio", "physics.med-ph", "physics.bio-ph")),
    "social-science": lambda row: _any(row, ("econ", "q-fin", "physics.soc-ph")),
    "physics": lambda row: _any(row, ("physics", "cond-mat", "astro-ph", "quant-ph", "nlin", "gr-qc", "hep",
                                      "math-ph")),
}


def group_of(row: dict) -> str | None:
    """The first group a row fits, or None."""
    return next((name for name, fits in GROUPS.items() if fits(row)), None)


def main() -> None:
    excluded = ids_written(ROOT / "tests") | ids_written(BENCH / "data", OUT)
    found: dict[str, list[dict]] = {name: [] for name in GROUPS}
    with gzip.open(CORPUS, "rt", encoding="utf8") as handle:
        for row in map(json.loads, handle):
            group = group_of(row) if row["source"] == "arxiv" else None
            if group and row["id"] not in excluded and BRACKETED.search(row["abstract"]):
                found[group].append(row)
    rng = random.Random(SEED)
    for group, rows in found.items():
        rows.sort(key=lambda row: row["id"])
        for row in rng.sample(rows, PER_GROUP):
            print(json.dumps({"id": row["id"], "field": group, "categories": row["categories"],
                              "license": row["license"], "title": row["title"], "text": row["abstract"],
                              "definitions": []}, ensure_ascii=False))
    print(", ".join(f"{group}: {len(rows)} candidates" for group, rows in found.items()),
          f"({len(excluded)} ids left out)", file=sys.stderr)


if __name__ == "__main__":
    main()
