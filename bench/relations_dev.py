"""The hand-judged relation dev set (issue 17): every typed edge the relation model would put in the graph of
the abstracts of blind rounds 1 and 2 (no longer blind) down to a low probability, for judging by hand, and
per type the precision by probability and the share of the written-down relations found at each point.

    python bench/relations_dev.py --out candidates.tsv [--min-probability 0.3]   # edges to judge (verdict empty)
    python bench/relations_dev.py --judged bench/data/relations_dev/judged.tsv   # precision and found per point

`--out` builds the graph of each round's sample.jsonl with every model type kept from `--min-probability` up
(the confidence table and the graph's operating point set aside, so each edge carries its probability) and
writes one edge a line: round, abstract, head, type, tail, probability, the confidence the shipped model's
table gives that probability, the expected.txt lines of the round the edge matches (as relations_blind.py
matches them), the sentence, and an empty verdict column (y/n by round 2's judging rules).
"""
from __future__ import annotations

import argparse
import csv
import json
import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

from relations_blind import _matches, _names, edges_by_abstract, round_folder

import paperkg
import paperkg.graph.builder as builder
from paperkg.core.schema import PaperRecord
from paperkg.extract.relation_model import LABELS, RelationModel

FIELDS = ["round", "abstract", "head", "type", "tail", "probability", "confidence", "expected", "sentence",
          "verdict"]
ENDS_DEV = Path(__file__).parent / "data" / "relations_blind_ends_dev"
POINTS = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)


def dev_sets(rounds: Sequence[int], ends_dev: int) -> list[tuple[str, list[dict], list[list[str]]]]:
    """(name, abstracts, expected relations) of each set: the rounds' samples with their expected.txt, and the
    first `ends_dev` abstracts of each field of the relation-end dev sample (nothing written down for them; an
    abstract's number is its line in that sample)."""
    sets = []
    for number in rounds:
        folder = round_folder(number)
        sets.append((str(number), [json.loads(line) for line in (folder / "sample.jsonl").open(encoding="utf8")],
                     [line.split(" | ") for line in (folder / "expected.txt").read_text(encoding="utf8").splitlines()]))
    if ends_dev:
        seen: Counter[str] = Counter()
        picked = []
        for number, line in enumerate((ENDS_DEV / "sample.jsonl").open(encoding="utf8")):
            paper = json.loads(line)
            seen[paper["field"]] += 1
            if seen[paper["field"]] <= ends_dev:
                picked.append({**paper, "number": number})
        sets.append(("ends", picked, []))
    return sets


def candidates(sets: list[tuple[str, list[dict], list[list[str]]]], min_probability: float) -> list[dict[str, Any]]:
    """The rows to judge: every typed edge of each set's graph at `min_probability` and up (see module doc)."""
    nlp = paperkg.load_pipeline()
    component = cast(RelationModel, nlp.get_pipe("relation_model"))
    table = dict(component.cfg["precision"])
    thresholds = dict(component.cfg["thresholds"])
    component.cfg["precision"] = {}  # confidence = probability while listing
    component.cfg["thresholds"] = {label: thresholds[label] if label == "SYNONYM_OF" else min_probability
                                   for label in LABELS}  # SYNONYM_OF merges nodes: as shipped
    keep = builder.GRAPH_MIN_RELATION_CONFIDENCE
    builder.GRAPH_MIN_RELATION_CONFIDENCE = 0.0  # every model relation, not only the graph's
    rows = []
    try:
        for name, papers, expected in sets:
            graph = paperkg.build_graph([PaperRecord(id=p["id"], abstract=p["abstract"], title=p["title"],
                                                     year=p["year"]) for p in papers], nlp=nlp)
            found = edges_by_abstract(graph, [p["id"] for p in papers])
            for abstract in sorted(found):
                for head, kind, tail, data in found[abstract]:
                    evidence = next(e for e in data["evidence"] if e["paper"] == papers[abstract]["id"])
                    probability = float(evidence["confidence"])
                    component.cfg["precision"] = table
                    confidence = component.confidence(kind, probability)
                    component.cfg["precision"] = {}
                    hits = [str(i) for i, (n, h, k, t) in enumerate(expected)
                            if int(n) == abstract and k == kind and _matches(h, _names(graph, head))
                            and _matches(t, _names(graph, tail))]
                    rows.append({"round": name, "abstract": papers[abstract].get("number", abstract), "head": graph.nodes[head]["name"],
                                 "type": kind, "tail": graph.nodes[tail]["name"], "probability": round(probability, 4),
                                 "confidence": confidence, "expected": ",".join(hits),
                                 "sentence": evidence["sentence"], "verdict": ""})
    finally:
        builder.GRAPH_MIN_RELATION_CONFIDENCE = keep
        component.cfg["precision"], component.cfg["thresholds"] = table, thresholds
    return rows


def lower_bound(right: int, kept: int, z: float = 1.645) -> float:
    """The one-sided 95% Wilson lower bound of a precision of `right` in `kept` (0 when nothing is kept)."""
    if not kept:
        return 0.0
    p = right / kept
    centre = p + z * z / (2 * kept)
    margin = z * math.sqrt(p * (1 - p) / kept + z * z / (4 * kept * kept))
    return (centre - margin) / (1 + z * z / kept)


def report(rows: list[dict[str, str]], rounds: Sequence[int]) -> None:
    """Per type and point: edges kept, right, precision, its lower bound, and expected relations found."""
    totals = {n: len((round_folder(n) / "expected.txt").read_text(encoding="utf8").splitlines()) for n in rounds}
    expected_types: Counter[str] = Counter()
    for n in rounds:
        for line in (round_folder(n) / "expected.txt").read_text(encoding="utf8").splitlines():
            expected_types[line.split(" | ")[2]] += 1
    by_type: dict[str, list[dict[str, str]]] = defaultdict(list)
    for row in rows:
        by_type[row["type"]].append(row)
    print(f"{'type':14} {'p>=':>4} {'edges':>5} {'right':>5} {'prec':>5} {'lower':>5} {'found':>7}")
    for kind in sorted(by_type):
        for point in POINTS:
            kept = [r for r in by_type[kind] if float(r["probability"]) >= point]
            right = sum(r["verdict"].strip().lower().startswith("y") for r in kept)
            found = {(r["round"], e) for r in kept for e in r["expected"].split(",") if e}
            print(f"{kind:14} {point:4.2f} {len(kept):5} {right:5} "
                  f"{right / len(kept) if kept else 0:5.2f} {lower_bound(right, len(kept)):5.2f} "
                  f"{len(found):3}/{expected_types[kind]:<3}")
    print(f"expected relations in rounds {', '.join(map(str, rounds))}: {sum(totals.values())}")


def _edge(row: dict[str, Any]) -> tuple[str, ...]:
    """An edge's key across runs: set, abstract, head, type, tail."""
    return tuple(str(row[field]) for field in ("round", "abstract", "head", "type", "tail"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, nargs="+", default=[1, 2], help="blind rounds to use (default 1 2)")
    parser.add_argument("--min-probability", type=float, default=0.3, help="lowest model probability listed")
    parser.add_argument("--ends-dev", type=int, default=0, metavar="N",
                        help="also the first N abstracts of each field of the relation-end dev sample")
    parser.add_argument("--out", type=Path, help="write the edges for judging here (TSV)")
    parser.add_argument("--judged", type=Path, help="a judged TSV: print precision and expected found per point")
    parser.add_argument("--carry", type=Path, help="with --out: a judged TSV whose verdicts are carried over to the "
                        "same edges (set, abstract, head, type, tail)")
    args = parser.parse_args()
    if not 0 < args.min_probability <= 1:
        parser.error("--min-probability must be in (0, 1]")
    for number in args.rounds:
        if not (round_folder(number) / "expected.txt").is_file():
            parser.error(f"round {number} has no {round_folder(number) / 'expected.txt'}")
    if args.judged:
        if not args.judged.is_file():
            parser.error(f"{args.judged} is not a file")
        with args.judged.open(encoding="utf8") as handle:
            report(list(csv.DictReader(handle, delimiter="\t")), args.rounds)
        return
    if not args.out:
        parser.error("give --out (list edges to judge) or --judged (measure a judged list)")
    rows = candidates(dev_sets(args.rounds, args.ends_dev), args.min_probability)
    if args.carry:
        with args.carry.open(encoding="utf8") as handle:
            verdicts = {_edge(row): row["verdict"] for row in csv.DictReader(handle, delimiter="\t")}
        for row in rows:
            row["verdict"] = verdicts.get(_edge(row), "")
    with args.out.open("w", encoding="utf8", newline="") as handle:
        writer = csv.DictWriter(handle, FIELDS, delimiter="\t", lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    print(f"{len(rows)} edges ({sum(not row['verdict'] for row in rows)} to judge) written to {args.out}: " +
          ", ".join(f"{k} {v}" for k, v in sorted(Counter(r["type"] for r in rows).items())))


if __name__ == "__main__":
    main()
