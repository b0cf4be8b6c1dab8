"""The history of NLP a reader knows, checked against `paperkg trends` on a fixed-seed ACL Anthology slice.

    .venv/bin/python bench/trends_acl.py sample .data/acl-trends.jsonl     # the slice (seed 21)
    nice .venv/bin/paperkg build .data/acl-trends.jsonl -o .data/acl-out --jobs 2
    .venv/bin/python bench/trends_acl.py check .data/acl-out/graph.json

The slice is every ACL Anthology row of ../shared/corpus/abstracts/ from 1990 to 2015 (4,847: the
Anthology has few abstracts before 2016) and a seeded sample of 13,000 of the 47,051 rows of
2016-2024. Shares are per year, so the different sampling rates before and after 2016 do not
bias them. The expectations below were written down before the output was looked at:

- BERT bursts, the burst starting in 2019 or 2020;
- neural machine translation rises from 2015-2016 while statistical machine translation fades;
- LSTM rises before 2018 and falls after;
- large language models rise from 2022.
"""
from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus" / "abstracts" / "abstracts.jsonl.gz"
SEED, RECENT = 21, 13000


def sample(target: Path) -> int:
    """Write the slice as JSONL; returns its size."""
    rows = []
    with gzip.open(CORPUS, "rt", encoding="utf8") as handle:
        for line in handle:
            row = json.loads(line)
            if row["source"] == "acl-anthology" and 1990 <= int(row["year"]) <= 2024:
                rows.append(row)
    old = [row for row in rows if int(row["year"]) < 2016]
    new = [row for row in rows if int(row["year"]) >= 2016]
    chosen = sorted(old + random.Random(SEED).sample(new, RECENT), key=lambda row: (int(row["year"]), row["id"]))
    target.write_text("".join(json.dumps(row) + "\n" for row in chosen), encoding="utf8")
    return len(chosen)


def find(trends, *names: str):
    """The entity of the first name that is in the graph (names as the graph displays them, any case)."""
    by_name = {entity.name.casefold(): entity for entity in trends.entities.values()}
    return next((by_name[name.casefold()] for name in names if name.casefold() in by_name), None)


def mean_share(entity, years: range) -> float:
    return sum(entity.share(year) for year in years) / len(years)


def check(graph_file: Path) -> bool:
    """Print each expectation with the figures behind it; True when all hold."""
    from paperkg.graph.trends_file import read_trends

    trends = read_trends(graph_file)
    results = []
    bert = find(trends, "BERT", "Bidirectional Encoder Representations from Transformers")
    burst = bert.strongest_burst if bert else None
    results.append(("BERT's burst starts in 2019 or 2020", burst is not None and burst.start in (2019, 2020),
                    f"{bert.name if bert else None}: "
                    f"bursts {[(b.start, b.end, b.strength) for b in bert.bursts] if bert else None}"))
    nmt = find(trends, "neural machine translation", "NMT")
    smt = find(trends, "statistical machine translation", "SMT")
    results.append(("NMT rises from 2015-2016",
                    nmt is not None and mean_share(nmt, range(2016, 2019)) > 2 * mean_share(nmt, range(2010, 2015)),
                    f"NMT share 2010-14 {mean_share(nmt, range(2010, 2015)):.4f} "
                    f"-> 2016-18 {mean_share(nmt, range(2016, 2019)):.4f}" if nmt else "no NMT"))
    results.append(("SMT fades",
                    smt is not None and mean_share(smt, range(2016, 2020)) < mean_share(smt, range(2008, 2015)) / 2,
                    f"SMT share 2008-14 {mean_share(smt, range(2008, 2015)):.4f} "
                    f"-> 2016-19 {mean_share(smt, range(2016, 2020)):.4f}" if smt else "no SMT"))
    lstm = find(trends, "LSTM", "long short-term memory")
    if lstm:
        early, peak, late = (mean_share(lstm, range(2010, 2015)), mean_share(lstm, range(2016, 2019)),
                             mean_share(lstm, range(2021, 2025)))
    results.append(("LSTM rises before 2018, falls after", lstm is not None and early < peak > 2 * late,
                    f"LSTM share 2010-14 {early:.4f}, 2016-18 {peak:.4f}, 2021-24 {late:.4f}" if lstm else "no LSTM"))
    llm = find(trends, "large language models", "large language model", "LLMs", "LLM")
    results.append(("LLMs rise from 2022",
                    llm is not None and mean_share(llm, range(2023, 2025)) > 3 * mean_share(llm, range(2019, 2022))
                    and bool(llm.bursts) and llm.strongest_burst.start >= 2022,
                    f"LLM share 2019-21 {mean_share(llm, range(2019, 2022)):.4f} "
                    f"-> 2023-24 {mean_share(llm, range(2023, 2025)):.4f}, "
                    f"bursts {[(b.start, b.end, b.strength) for b in llm.bursts]}" if llm else "no LLM"))
    for claim, held, figures in results:
        print(f"{'holds' if held else 'FAILS'}: {claim} ({figures})")
    return all(held for _, held, _ in results)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("sample", "check"))
    parser.add_argument("path", type=Path)
    args = parser.parse_args()
    if args.step == "sample":
        print(f"{sample(args.path):,} abstracts -> {args.path}")
        return 0
    return 0 if check(args.path) else 1


if __name__ == "__main__":
    sys.exit(main())
