"""The blind relation rounds of issue 17: build the graph of a round's 30 abstracts (bench/data/relations_blind/
for round 1, relations_blind2/ to relations_blind5/ for rounds 2 to 5), list its typed entity-entity edges (with
the sentence behind each) for judging by hand, and count which of the relations written down beforehand
(expected.txt) the graph holds.

    python bench/relations_blind.py [--round N | --data FOLDER] [--out judged.tsv] [--judged FILE]

`--out` writes one edge a line (abstract, head, type, tail, confidence, sentence) with an empty verdict
column to fill with y/n; `--judged` reads such a file back and prints precision per type.
"""
from __future__ import annotations

import argparse
import csv
import json
import re
from collections import Counter, defaultdict
from pathlib import Path

import networkx as nx

import paperkg
from paperkg.core.schema import ENTITY_REL_TYPES, PaperRecord

DATA = Path(__file__).parent / "data"
ROUNDS = (1, 2, 3, 4, 5)


def round_folder(number: int) -> Path:
    """The folder of a blind round: relations_blind/ for the first, relations_blind<N>/ after it."""
    return DATA / ("relations_blind" if number == 1 else f"relations_blind{number}")


def _norm(text: str) -> str:
    """Loose form for matching a name written by hand with a node's names: lower case, letters and digits."""
    text = re.sub(r"[^0-9a-z]+", " ", text.lower()).strip()
    return re.sub(r"s\b", "", text)


def _names(graph: nx.MultiDiGraph, node: str) -> set[str]:
    data = graph.nodes[node]
    return {_norm(n) for n in [data["name"], data.get("acronym") or "", *data.get("aliases", [])] if n}


def _matches(written: str, names: set[str]) -> bool:
    """A hand-written name matches a node when one contains the other as whole words."""
    want = _norm(written)
    return any(want == name or f" {want} " in f" {name} " or f" {name} " in f" {want} " for name in names
               if min(len(want), len(name)) >= 3)


def edges_by_abstract(graph: nx.MultiDiGraph, ids: list[str]) -> dict[int, list[tuple[str, str, str, dict]]]:
    """The typed edges of each abstract (by the papers of its evidence)."""
    number = {paper_id: i for i, paper_id in enumerate(ids)}
    found: dict[int, list[tuple[str, str, str, dict]]] = defaultdict(list)
    for head, tail, kind, data in graph.edges(keys=True, data=True):
        if kind in {k.value for k in ENTITY_REL_TYPES}:
            for paper in sorted({ev["paper"] for ev in data["evidence"]}):
                found[number[paper]].append((head, kind, tail, data))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--round", type=int, default=1, choices=ROUNDS,
                       help="which blind round: 1 to 5 (default 1)")
    which.add_argument("--data", type=Path, help="a round's folder (sample.jsonl, expected.txt) instead of --round")
    parser.add_argument("--out", type=Path, help="write the edges for judging here (TSV)")
    parser.add_argument("--judged", type=Path, help="a judged TSV (verdict column y/n): print precision per type")
    args = parser.parse_args()
    if args.judged:
        verdicts: dict[str, Counter] = defaultdict(Counter)
        with args.judged.open(encoding="utf8") as handle:
            for row in csv.DictReader(handle, delimiter="\t"):
                verdicts[row["type"]][row["verdict"].strip().lower()[:1] or "?"] += 1
        for kind, counts in sorted(verdicts.items()):
            judged = counts["y"] + counts["n"]
            print(f"{kind:14} {counts['y']}/{judged} right" + (f" ({counts['y'] / judged:.2f})" if judged else ""))
        total = Counter()
        for counts in verdicts.values():
            total.update(counts)
        print(f"{'all':14} {total['y']}/{total['y'] + total['n']} right")
        return
    data = args.data or round_folder(args.round)
    if not (data / "sample.jsonl").is_file() or not (data / "expected.txt").is_file():
        parser.error(f"{data} has no sample.jsonl and expected.txt of a blind round")
    rows = [json.loads(line) for line in (data / "sample.jsonl").open(encoding="utf8")]
    records = [PaperRecord(id=row["id"], abstract=row["abstract"], title=row["title"], year=row["year"])
               for row in rows]
    graph = paperkg.build_graph(records)
    ids = [row["id"] for row in rows]
    found = edges_by_abstract(graph, ids)
    expected = [line.split(" | ") for line in (data / "expected.txt").read_text(encoding="utf8").splitlines()]
    hit_by_type: dict[str, Counter] = defaultdict(Counter)
    for number, head, kind, tail in expected:
        hit = any(k == kind and _matches(head, _names(graph, h)) and _matches(tail, _names(graph, t))
                  or k == kind == "COMPARED_WITH" and _matches(tail, _names(graph, h))
                  and _matches(head, _names(graph, t))
                  for h, k, t, _ in found.get(int(number), []))
        hit_by_type[kind]["found" if hit else "missed"] += 1
    for kind, counts in sorted(hit_by_type.items()):
        print(f"expected {kind:14} found {counts['found']}/{counts['found'] + counts['missed']}")
    print(f"expected all            found {sum(c['found'] for c in hit_by_type.values())}/{len(expected)}")
    print(f"typed edges built: {sum(len(edges) for edges in found.values())}")
    if args.out:
        with args.out.open("w", encoding="utf8", newline="") as handle:
            writer = csv.writer(handle, delimiter="\t")
            writer.writerow(["abstract", "head", "type", "tail", "confidence", "sentence", "verdict"])
            for number in sorted(found):
                for head, kind, tail, data in found[number]:
                    writer.writerow([number, graph.nodes[head]["name"], kind, graph.nodes[tail]["name"],
                                     data["confidence"], data["evidence"][0]["sentence"], ""])


if __name__ == "__main__":
    main()
