"""The relation-end dev set (junk ends of typed edges): build the graph of a sample of abstracts, list the
distinct ends of its typed edges for judging by hand, and measure a judged list against the current build.

    python bench/relation_ends_dev.py [--data FOLDER] --out ends.tsv      # ends to judge (verdict column empty)
    python bench/relation_ends_dev.py [--data FOLDER] --judged ends.tsv   # junk ends removed, good ends lost
    ... [--min-confidence 0]   # every edge the relation model proposes, not only those at the default threshold

An end is one node at one abstract (its name and type) with one typed edge it is an end of. `--judged`
reads the verdicts (junk/ok) back and counts, among the judged ends, which are still the end of a typed
edge of their abstract in the graph built now: junk ends gone are what the rules remove, ok ends gone what
they lose. Default data: bench/data/relations_blind_ends_dev/ (sample.jsonl made by relations_blind_pick.py).
The judged ends were listed from an earlier release's graph (another relation model, kept at a lower confidence);
`--min-confidence 0` measures the end rules on all of the model's edges, apart from which of them the graph's
operating point (core/schema.py) keeps.
"""
from __future__ import annotations

import argparse
import csv
import json
from collections import Counter
from pathlib import Path

import networkx as nx

import paperkg
from paperkg.core.schema import DEFAULT_MIN_CONFIDENCE, ENTITY_REL_TYPES, PaperRecord
from paperkg.admit.admission import admit_all
from paperkg.graph.builder import GraphBuilder

DATA = Path(__file__).parent / "data" / "relations_blind_ends_dev"
FIELDS = ["abstract", "end", "label", "edge", "sentence", "verdict"]


def typed_ends(graph: nx.MultiDiGraph, ids: list[str]) -> dict[tuple[int, str], tuple[str, str, str]]:
    """(abstract number, end name) -> (label, one edge it ends as 'head TYPE tail', its sentence)."""
    number = {paper_id: i for i, paper_id in enumerate(ids)}
    kinds = {k.value for k in ENTITY_REL_TYPES}
    ends: dict[tuple[int, str], tuple[str, str, str]] = {}
    for head, tail, kind, data in sorted(graph.edges(keys=True, data=True), key=lambda e: e[:3]):
        if kind not in kinds:
            continue
        names = graph.nodes[head]["name"], graph.nodes[tail]["name"]
        for evidence in data["evidence"]:
            for node, name in zip((head, tail), names, strict=True):
                ends.setdefault((number[evidence["paper"]], name),
                                (graph.nodes[node]["label"], f"{names[0]} {kind} {names[1]}", evidence["sentence"]))
    return ends


def build(folder: Path, min_confidence: float) -> dict[tuple[int, str], tuple[str, str, str]]:
    """The typed ends of the graph of a folder's sample.jsonl, its edges from relations this sure or more."""
    rows = [json.loads(line) for line in (folder / "sample.jsonl").open(encoding="utf8")]
    records = [PaperRecord(id=row["id"], abstract=row["abstract"], title=row["title"], year=row["year"])
               for row in rows]
    builder = GraphBuilder(floor=min_confidence)  # the edges from this confidence on (0: every edge)
    builder.add_all(admit_all(paperkg.extract_records(records)))
    return typed_ends(builder.finalize(), [row["id"] for row in rows])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DATA, help="a folder with sample.jsonl")
    parser.add_argument("--min-confidence", type=float, default=DEFAULT_MIN_CONFIDENCE,
                        help="typed edges this sure or more are listed (default: the graph's default threshold)")
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--out", type=Path, help="write the typed ends for judging here (TSV)")
    which.add_argument("--judged", type=Path, help="a judged TSV (verdict junk/ok): measure it on this build")
    args = parser.parse_args()
    if not (args.data / "sample.jsonl").is_file():
        parser.error(f"{args.data} has no sample.jsonl")
    if not 0 <= args.min_confidence <= 1:
        parser.error(f"--min-confidence must be between 0 and 1, not {args.min_confidence}")
    ends = build(args.data, args.min_confidence)
    if args.out:
        with args.out.open("w", encoding="utf8", newline="") as handle:
            writer = csv.writer(handle, delimiter="\t")
            writer.writerow(FIELDS)
            for (number, name), (label, edge, sentence) in sorted(ends.items()):
                writer.writerow([number, name, label, edge, sentence, ""])
        print(f"{len(ends)} typed ends written to {args.out}")
        return
    counts: Counter[tuple[str, str]] = Counter()
    with args.judged.open(encoding="utf8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            verdict = row["verdict"].strip().lower()
            if verdict in {"junk", "ok"}:
                kept = (int(row["abstract"]), row["end"]) in ends
                counts[verdict, "kept" if kept else "gone"] += 1
                if verdict == "ok" and not kept:
                    print(f"  ok end with no typed edge left: {row['abstract']} {row['end']} ({row['label']})")
    for verdict in ("junk", "ok"):
        judged = counts[verdict, "kept"] + counts[verdict, "gone"]
        print(f"{verdict:5} ends judged {judged}: still ends {counts[verdict, 'kept']}, gone {counts[verdict, 'gone']}")
    print(f"typed ends in this build: {len(ends)}")


if __name__ == "__main__":
    main()
