"""Typed edges of a build to judge by hand: the edges with the most support and edges drawn at random (fixed seed),
at the default threshold, with each edge's best sentence; and the precision of a judged file.

    python bench/edges_judge.py out/ --top 50 --random 50 --seed 30 --out bench/data/edges_acl10k/judged.tsv
    python bench/edges_judge.py --judged bench/data/edges_acl10k/judged.tsv      # precision, per sample and type

An edge's support is its papers, then its mentions, then its confidence. The random draw is among the typed edges at
the threshold that are not in the top, in the graph's edge order, with random.Random(seed). The TSV has one edge a
line: sample (top or random), head, type, tail, confidence, papers, mentions, against (mentions stating the other
direction), the paper of its best sentence, that sentence, and empty `verdict` and `why` columns (y/n by the
judging rules of bench/data/relations_blind2/README.md: stated, direction, type, named ends). Never run on
bench/data/blind6.
"""
from __future__ import annotations

import argparse
import csv
import random
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from paperkg.core import graph_model as model
from paperkg.core.errors import PaperkgError
from paperkg.core.schema import DEFAULT_MIN_CONFIDENCE, ENTITY_REL_TYPES
from paperkg.graph.exports import read_graph

FIELDS = ["sample", "head", "type", "tail", "confidence", "papers", "mentions", "against", "paper", "sentence",
          "verdict", "why"]
TYPES = frozenset(kind.value for kind in ENTITY_REL_TYPES)


def typed_edges(path: Path, min_confidence: float) -> list[dict[str, Any]]:
    """The build's typed edges at least `min_confidence` sure, as rows (no sample, no verdict yet)."""
    graph = read_graph(path)
    rows = []
    for source, target, kind, data in model.edges(graph):
        if kind in TYPES and data["confidence"] >= min_confidence:
            best = data["evidence"][0]
            rows.append({"head": graph.nodes[source]["name"], "type": kind, "tail": graph.nodes[target]["name"],
                         "confidence": data["confidence"], "papers": data.get("papers", 1), "mentions": data["count"],
                         "against": data.get("against", 0), "paper": best["paper"],
                         "sentence": " ".join(str(best["sentence"]).split()), "verdict": "", "why": ""})
    return rows


def sample(rows: list[dict[str, Any]], top: int, drawn: int, seed: int) -> list[dict[str, Any]]:
    """The `top` rows with the most support, then `drawn` of the others at random (random.Random(seed))."""
    ranked = sorted(range(len(rows)), key=lambda i: (-rows[i]["papers"], -rows[i]["mentions"],
                                                     -rows[i]["confidence"], i))
    chosen = ranked[:top]
    rest = sorted(set(range(len(rows))) - set(chosen))
    picked = sorted(random.Random(seed).sample(rest, min(drawn, len(rest))))
    return [{**rows[i], "sample": "top"} for i in chosen] + [{**rows[i], "sample": "random"} for i in picked]


def precision(path: Path) -> list[str]:
    """Lines of right/judged per sample and per type of a judged file."""
    with path.open(encoding="utf8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    if not rows or not set(FIELDS) <= set(rows[0]):
        raise SystemExit(f"{path} is no judged edge list: its header lacks one of {', '.join(FIELDS)}")
    counts: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for row in rows:
        verdict = row["verdict"].strip().lower()[:1] or "?"
        for key in ((row["sample"], "all"), ("all", row["type"]), ("all", "all")):
            counts[key][verdict] += 1
    lines = []
    for (which, kind), seen in sorted(counts.items()):
        judged = seen["y"] + seen["n"]
        share = f"{seen['y'] / judged:.2f}" if judged else "-"
        lines.append(f"{which:7} {kind:14} right {seen['y']:3}/{judged:<3} {share}"
                     + (f"  ({seen['?']} not judged)" if seen["?"] else ""))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("build", type=Path, nargs="?", help="a build's output folder or its graph.json")
    parser.add_argument("--top", type=int, default=50, help="edges with the most support (default 50)")
    parser.add_argument("--random", type=int, default=50, help="edges drawn at random among the rest (default 50)")
    parser.add_argument("--seed", type=int, default=30, help="the random draw's seed (default 30)")
    parser.add_argument("--min-confidence", type=float, default=DEFAULT_MIN_CONFIDENCE,
                        help=f"the threshold (default {DEFAULT_MIN_CONFIDENCE}, the graph's default)")
    parser.add_argument("--out", type=Path, help="the TSV to write (default: standard output)")
    parser.add_argument("--judged", type=Path, help="a judged TSV: print its precision instead")
    args = parser.parse_args()
    if args.judged:
        if not args.judged.is_file():
            parser.error(f"--judged {args.judged}: no such file")
        print("\n".join(precision(args.judged)))
        return
    if args.build is None:
        parser.error("name a build (its output folder or graph.json), or --judged FILE")
    if args.top < 0 or args.random < 0 or not 0 <= args.min_confidence <= 1:
        parser.error("--top and --random take 0 or more, --min-confidence a number from 0 to 1")
    if args.out and not args.out.parent.is_dir():
        parser.error(f"--out {args.out}: no folder {args.out.parent}")
    try:
        rows = sample(typed_edges(args.build, args.min_confidence), args.top, args.random, args.seed)
    except PaperkgError as error:
        parser.error(str(error))
    handle = args.out.open("w", encoding="utf8", newline="") if args.out else sys.stdout
    writer = csv.DictWriter(handle, FIELDS, delimiter="\t", lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    if args.out:
        handle.close()
        print(f"{len(rows)} edges to judge written to {args.out}: "
              + ", ".join(f"{k} {v}" for k, v in sorted(Counter(r["type"] for r in rows).items())), file=sys.stderr)


if __name__ == "__main__":
    main()
