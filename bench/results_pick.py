"""Pick the abstracts of the result-statement dev set and blind round (issue 36) from the shared corpus.

    python bench/results_pick.py dev      # writes bench/data/results_dev/sample.jsonl (seed 2026120536)
    python bench/results_pick.py blind    # writes bench/data/results_blind/sample.jsonl (seed 2026120537)

Four fields of `../shared/corpus/abstracts/abstracts.jsonl.gz`, 60-300 words each: ACL Anthology papers under
CC BY 4.0 from 2016 on, and arXiv papers (2025-2026, CC0 metadata) listed first in cs.CL, in cs.CV, in cs.LG.
A candidate reports a result by a plain pattern (RESULT_HINT: a number with %, "points", a score unit, a number
close after a metric's name, or "Nx faster"); reading decides in the annotation whether it really does.
Left out, with the exclusion code of bench/relations_blind_pick.py: every Anthology or arXiv id written under
tests/ or in a bench/data/ folder other than the two made here and those picked after them (LATER: a rerun then
draws the same abstracts), and every abstract sharing an 8-word run with ../shared/benchmarks/ or
examples/icml2025/. The blind round also leaves out the dev sample. Candidates are sorted by id and drawn with
`random.Random(seed)`; the script fails if a drawn abstract is in a LATER folder's sample.
"""
from __future__ import annotations

import argparse
import gzip
import json
import random
import re
from collections.abc import Callable
from pathlib import Path

from relations_blind_pick import (BENCH, CORPUS, EXAMPLES, ROOT, SHARED, _shingles, _words,
                                  benchmark_shingles, example_shingles, ids_written, listed_first)

DATA = BENCH / "data"
WORDS = (60, 300)
NUMBER = r"\d+(?:\.\d+)?"
METRIC_NAMES = (r"BLEU|chrF|COMET|ROUGE(?:-[L12])?|METEOR|F1|F-?score|F-?measure|accuracy|precision|recall|mAP|AP|"
                r"AUC|AUROC|EM|exact match|perplexity|WER|CER|error rate|PSNR|SSIM|LPIPS|FID|IoU|mIoU|Dice|"
                r"correlation|Spearman|Pearson|Kappa|win rate|success rate|pass@\d+|top-1|top-5|MRR|NDCG|Hits@\d+|"
                r"UAS|LAS|BERTScore")
RESULT_HINT = re.compile(
    rf"{NUMBER}\s?%|{NUMBER}\s+(?:absolute\s+)?(?:points?|pp)\b|{NUMBER}\s?(?:BLEU|F1|ROUGE|mAP|AP|FID|PSNR|dB)\b"
    rf"|\b(?:{METRIC_NAMES})\b[^.\d]{{0,40}}{NUMBER}"
    rf"|{NUMBER}\s?[x×]\s+(?:faster|speed|fewer|less|more|higher|lower|improvement|reduction)", re.IGNORECASE)

FIELDS: dict[str, Callable[[dict], bool]] = {
    "acl": lambda row: row["source"] == "acl-anthology" and row["license"] == "CC-BY-4.0" and row["year"] >= 2016,
    "cs.CL": lambda row: row["source"] == "arxiv" and listed_first(row) == "cs.CL",
    "cs.CV": lambda row: row["source"] == "arxiv" and listed_first(row) == "cs.CV",
    "cs.LG": lambda row: row["source"] == "arxiv" and listed_first(row) == "cs.LG",
}
ROUNDS = {
    "dev": (DATA / "results_dev", 2026120536, {"acl": 80, "cs.CL": 80, "cs.CV": 60, "cs.LG": 20}),
    "blind": (DATA / "results_blind", 2026120537, {"acl": 10, "cs.CL": 10, "cs.CV": 7, "cs.LG": 3}),
}
MADE_HERE = {"results_dev", "results_blind"}
LATER = {"blind6", "acronyms_fields_dev"}


def sample_ids(folder: Path) -> set[str]:
    """The ids of a folder's sample.jsonl (none when it is not there yet)."""
    path = folder / "sample.jsonl"
    if not path.exists():
        return set()
    return {json.loads(line)["id"] for line in path.read_text(encoding="utf8").splitlines() if line.strip()}


def excluded_ids(round_name: str) -> set[str]:
    """Ids written under tests/ and in the bench/data folders picked before these rounds; blind adds the dev sample."""
    excluded = ids_written(ROOT / "tests")
    for folder in sorted(DATA.iterdir()):
        if folder.is_dir() and folder.name not in MADE_HERE | LATER:
            excluded |= ids_written(folder)
    if round_name == "blind":
        excluded |= sample_ids(ROUNDS["dev"][0])
    return excluded


def pick(round_name: str) -> list[dict]:
    """The sample: per field, its count of rows drawn from the eligible candidates sorted by id."""
    _, seed, counts = ROUNDS[round_name]
    excluded = excluded_ids(round_name)
    seen = benchmark_shingles(SHARED / "benchmarks") | example_shingles(EXAMPLES)
    candidates: dict[str, list[dict]] = {field: [] for field in FIELDS}
    overlapping = 0
    with gzip.open(CORPUS, "rt", encoding="utf8") as handle:
        for line in handle:
            row = json.loads(line)
            if row["id"] in excluded or not WORDS[0] <= len(row["abstract"].split()) <= WORDS[1]:
                continue
            field = next((name for name, eligible in FIELDS.items() if eligible(row)), None)
            if field is None or not RESULT_HINT.search(row["abstract"]):
                continue
            if _shingles(_words(row["abstract"])) & seen:
                overlapping += 1
            else:
                candidates[field].append(row)
    rng = random.Random(seed)
    sample = []
    for field, rows in candidates.items():
        rows.sort(key=lambda row: row["id"])
        print(f"{field}: {len(rows)} candidates")
        sample += [{"field": field, "id": row["id"], "title": row["title"], "abstract": row["abstract"],
                    "year": row["year"], "venue": row["venue"], "categories": row["categories"],
                    "license": row["license"]}
                   for row in rng.sample(rows, counts[field])]
    print(f"left out: {len(excluded)} ids of tests and bench data, {overlapping} candidates sharing text with the "
          "benchmarks or the example corpus")
    later = {key for name in sorted(LATER) for key in sample_ids(DATA / name)}
    clashes = sorted(row["id"] for row in sample if row["id"] in later)
    if clashes:
        raise SystemExit(f"error: {clashes[0]} is also in a sample picked later ({', '.join(sorted(LATER))})")
    return sample


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("round", choices=sorted(ROUNDS), help="dev (240 abstracts) or blind (30)")
    args = parser.parse_args()
    out = ROUNDS[args.round][0]
    sample = pick(args.round)
    out.mkdir(parents=True, exist_ok=True)
    with (out / "sample.jsonl").open("w", encoding="utf8") as handle:
        for row in sample:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
