"""Pick the abstracts of a new blind relation round (issue 17) from the shared corpus, deterministically.

    python bench/relations_blind_pick.py bench/data/relations_blind2 [--seed 2026120302] [--per-field 10]
    python bench/relations_blind_pick.py bench/data/relations_blind3 --seed 2026120303
    python bench/relations_blind_pick.py bench/data/relations_blind4 --seed 2026120304
    python bench/relations_blind_pick.py bench/data/relations_blind5 --seed 2026120305

Three fields of `../shared/corpus/abstracts/abstracts.jsonl.gz`, 80-190 words each: ACL Anthology papers
under CC BY 4.0 from 2016 on, arXiv papers listed first in cs.CV, arXiv papers listed first in cs.AI or cs.GR.
Left out so the round stays blind: every id of another bench/data/relations_blind*/sample.jsonl (the other
rounds and the relation-end dev set relations_blind_ends_dev/), every id written anywhere under tests/ or in another
bench/data/ folder (relations_dev/, relations_example/), and every abstract sharing text (8-word shingles) with the
training or tuning data in `../shared/benchmarks/` or with the example corpus examples/icml2025/ (judged in
bench/data/relations_example/).
Candidates are sorted by id and drawn with `random.Random(seed)`; writes sample.jsonl.
"""
from __future__ import annotations

import argparse
import gzip
import json
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path

BENCH = Path(__file__).parent
ROOT = BENCH.parent
SHARED = ROOT.parent / "shared"
CORPUS = SHARED / "corpus" / "abstracts" / "abstracts.jsonl.gz"
EXAMPLES = ROOT / "examples" / "icml2025"
SHINGLE = 8
WORDS = (80, 190)



def listed_first(row: dict) -> str:
    """The arXiv category a paper is listed under first ('' for Anthology rows)."""
    return (row.get("categories") or [""])[0]


FIELDS: dict[str, Callable[[dict], bool]] = {
    "nlp": lambda row: row["source"] == "acl-anthology" and row["license"] == "CC-BY-4.0" and row["year"] >= 2016,
    "vision": lambda row: row["source"] == "arxiv" and listed_first(row) == "cs.CV",
    "graphics-ai": lambda row: row["source"] == "arxiv" and listed_first(row) in {"cs.AI", "cs.GR"},
}
ID_PATTERN = re.compile(r"\b(?:\d{4}\.[a-z][a-z0-9-]*\.\d+|[A-Z]\d{2}-\d{4}|\d{4}\.\d{4,5})\b")


def _words(text: str) -> list[str]:
    """Lower-case words and numbers: the common form of corpus text and pre-tokenised benchmark text."""
    return re.findall(r"[0-9a-z]+", text.lower())


def _shingles(words: list[str]) -> set[tuple[str, ...]]:
    return {tuple(words[i:i + SHINGLE]) for i in range(len(words) - SHINGLE + 1)}


def _strings(value: object) -> Iterator[str]:
    """Every string in a JSON value, a token list joined into one text (benchmark records nest them)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        yield " ".join(value)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)


def benchmark_shingles(folder: Path) -> set[tuple[str, ...]]:
    """8-word shingles of all text in the benchmarks folder (JSON, JSON lines and CoNLL files)."""
    shingles: set[tuple[str, ...]] = set()
    for path in sorted(folder.rglob("*")):
        if path.suffix == ".conll":
            sentences = path.read_text(encoding="utf8").split("\n\n")
            texts = [" ".join(line.split("\t")[0] for line in s.splitlines()) for s in sentences]
        elif path.suffix == ".json" and path.read_text(encoding="utf8").lstrip().startswith("["):
            texts = list(_strings(json.loads(path.read_text(encoding="utf8"))))
        elif path.suffix in {".json", ".jsonl"}:
            lines = path.read_text(encoding="utf8").splitlines()
            texts = [text for line in lines if line.strip() for text in _strings(json.loads(line))]
        else:
            continue
        for text in texts:
            shingles |= _shingles(_words(text))
    return shingles


def example_shingles(folder: Path) -> set[tuple[str, ...]]:
    """8-word shingles of the example corpus (its text files), whose typed edges bench/data/relations_example judged."""
    return {shingle for path in sorted(folder.glob("*.txt"))
            for shingle in _shingles(_words(path.read_text(encoding="utf8")))}


def ids_written(folder: Path, skip: Path | None = None) -> set[str]:
    """Anthology and arXiv ids written in any text file under a folder (not under `skip`, the round being made)."""
    found: set[str] = set()
    for path in folder.rglob("*"):
        if skip is not None and path.resolve().is_relative_to(skip.resolve()):
            continue
        if path.is_file() and path.suffix in {".py", ".json", ".jsonl", ".txt", ".tsv", ".csv", ".md"}:
            found |= set(ID_PATTERN.findall(path.read_text(encoding="utf8", errors="replace")))
    return found


def earlier_ids(data: Path, out: Path) -> set[str]:
    """The ids of every other round's sample.jsonl under bench/data/relations_blind* (not the one being made)."""
    return {json.loads(line)["id"] for sample in sorted(data.glob("relations_blind*/sample.jsonl"))
            if sample.parent.resolve() != out.resolve()
            for line in sample.read_text(encoding="utf8").splitlines() if line.strip()}


def candidates(fields: dict[str, Callable[[dict], bool]], out: Path) -> tuple[dict[str, list[dict]], int, int]:
    """Per field, the eligible rows sorted by id; with the number of ids left out and of abstracts sharing text."""
    excluded = earlier_ids(BENCH / "data", out) | ids_written(ROOT / "tests") | ids_written(BENCH / "data", out)
    seen = benchmark_shingles(SHARED / "benchmarks") | example_shingles(EXAMPLES)
    found: dict[str, list[dict]] = {field: [] for field in fields}
    overlapping = 0
    with gzip.open(CORPUS, "rt", encoding="utf8") as handle:
        for line in handle:
            row = json.loads(line)
            if row["id"] in excluded or not WORDS[0] <= len(row["abstract"].split()) <= WORDS[1]:
                continue
            for field, eligible in fields.items():
                if eligible(row):
                    if _shingles(_words(row["abstract"])) & seen:
                        overlapping += 1
                    else:
                        found[field].append(row)
    for rows in found.values():
        rows.sort(key=lambda row: row["id"])
    return found, len(excluded), overlapping


def sample_row(field: str, row: dict) -> dict:
    """The record a round's sample.jsonl holds for one drawn row."""
    return {"field": field, "id": row["id"], "title": row["title"], "year": row["year"],
            "license": row["license"], "abstract": row["abstract"]}


def pick(seed: int, per_field: int, out: Path) -> list[dict]:
    """The sample: per field, `per_field` rows drawn from the eligible candidates sorted by id."""
    found, excluded, overlapping = candidates(FIELDS, out)
    rng = random.Random(seed)
    sample = []
    for field, rows in found.items():
        print(f"{field}: {len(rows)} candidates")
        sample += [sample_row(field, row) for row in rng.sample(rows, per_field)]
    print(f"left out: {excluded} ids of earlier rounds, tests and bench data, {overlapping} abstracts sharing "
          "text with the benchmarks or the example corpus")
    return sample


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path, help="the round's folder (sample.jsonl is written there)")
    parser.add_argument("--seed", type=int, default=2026120302)
    parser.add_argument("--per-field", type=int, default=10)
    args = parser.parse_args()
    sample = pick(args.seed, args.per_field, args.out)
    args.out.mkdir(parents=True, exist_ok=True)
    with (args.out / "sample.jsonl").open("w", encoding="utf8") as handle:
        for row in sample:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
