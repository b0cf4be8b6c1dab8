"""Which rule makes each entity mention a graph node, and why the others are not, on a corpus.

    .venv/bin/python bench/termhood_rules.py [examples/icml2025] [--examples 3]

Prints a Markdown table: per rule (acronym, lexicon, cue, name, proposal, corpus, head: kept;
generic, rare, common-word, untyped: not nodes) the mentions and distinct names, with a few
examples, so the figures of docs/quality.md can be regenerated.
"""
from __future__ import annotations

import argparse
from collections import Counter, defaultdict
from pathlib import Path

import paperkg
from paperkg.extract.entities import TERM_RULES

CORPUS = Path(__file__).resolve().parent.parent / "examples" / "icml2025"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", nargs="?", type=Path, default=CORPUS)
    parser.add_argument("--examples", type=int, default=3, help="example names per rule")
    args = parser.parse_args()

    mentions: Counter[str] = Counter()
    names: dict[str, Counter[str]] = defaultdict(Counter)
    for extraction in paperkg.extract_records(paperkg.read_records(args.corpus)):
        for mention in extraction.entities:
            mentions[mention.termhood] += 1
            names[mention.termhood][mention.name.lower()] += 1
    print("| rule | node | mentions | distinct names | examples |")
    print("|---|---|---|---|---|")
    for rule, count in sorted(mentions.items(), key=lambda item: (item[0] not in TERM_RULES, -item[1])):
        examples = ", ".join(f'"{name}"' for name, _ in names[rule].most_common(args.examples))
        print(f"| {rule} | {'yes' if rule in TERM_RULES else 'no'} | {count} | {len(names[rule])} | {examples} |")
    kept = sum(n for rule, n in mentions.items() if rule in TERM_RULES)
    print(f"\n{kept} of {sum(mentions.values())} mentions become nodes.")


if __name__ == "__main__":
    main()
