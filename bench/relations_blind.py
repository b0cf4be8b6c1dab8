"""A blind relation round: build the graph of a round's abstracts (bench/data/relations_blind/ for round 1,
relations_blind2/ to relations_blind5/ for rounds 2 to 5, or any folder with sample.jsonl and expected.txt), and
report at the graph's default threshold, per type and per field (the sample's `field`: nlp, arxiv-cs, other):
typed edges per paper, the share of the relations written down beforehand (expected.txt) that the graph holds,
and, once the edges are judged by hand, the precision of the edges built.

    python bench/relations_blind.py --data FOLDER --out edges.tsv       # the edges to judge (no confidence shown)
    python bench/relations_blind.py --data FOLDER --judged edges.tsv    # the three figures, verdicts read back
    python bench/relations_blind.py --round 5 [--min-confidence 0.8]

`--out` lists every typed edge the graph keeps (from its floor) once per abstract whose sentence states it: field,
abstract, head, type, tail, the sentence, and empty verdict and why columns, without the confidence, so the judge
does not see it; the threshold is applied afterwards, when `--judged` builds the same graph again and reads the
verdicts of its edges (abstract, head, type, tail). An edge at the threshold without a verdict is reported as
not judged. The run builds the round's abstracts: never run it on a round that is still to be judged blind
before its expected relations are committed.
"""
from __future__ import annotations

import argparse
import csv
import json
import re
from collections import defaultdict
from pathlib import Path

import networkx as nx

import paperkg
from paperkg.core.schema import DEFAULT_MIN_CONFIDENCE, ENTITY_REL_TYPES, PaperRecord

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


def found_expected(graph: nx.MultiDiGraph, found: dict[int, list[tuple[str, str, str, dict]]],
                   expected: list[list[str]]) -> list[bool]:
    """For each expected relation (abstract, head, type, tail): whether an edge of that type of the abstract joins
    nodes matching both ends (COMPARED_WITH either way)."""
    return [any(k == kind and _matches(head, _names(graph, h)) and _matches(tail, _names(graph, t))
                or k == kind == "COMPARED_WITH" and _matches(tail, _names(graph, h))
                and _matches(head, _names(graph, t))
                for h, k, t, _ in found.get(int(number), []))
            for number, head, kind, tail in expected]


def read_verdicts(path: Path) -> dict[tuple[str, str, str, str], str]:
    """(abstract, head, type, tail) -> y or n from a judged --out file."""
    with path.open(encoding="utf8") as handle:
        return {(row["abstract"], row["head"], row["type"], row["tail"]): row["verdict"].strip().lower()[:1]
                for row in csv.DictReader(handle, delimiter="\t") if row["verdict"].strip()}


def report(rows: list[dict], fields: list[str], expected: list[list[str]], hits: list[bool],
           verdicts: dict[tuple[str, str, str, str], str] | None, min_confidence: float) -> list[str]:
    """The round's figures at the threshold, overall, per type and per field."""
    kept = [row for row in rows if row["confidence"] >= min_confidence]
    groups = [("all", lambda kind, field: True)]
    groups += [(kind.value, lambda kind, field, k=kind.value: kind == k) for kind in ENTITY_REL_TYPES]
    groups += [(f"field {name}", lambda kind, field, f=name: field == f) for name in sorted(set(fields))]
    lines = [f"at confidence {min_confidence}: {len(kept)} typed edges in {len(fields)} papers, "
             f"{len(kept) / max(len(fields), 1):.2f} a paper (from the floor: {len(rows)})",
             f"{'':22} {'edges':>5} {'a paper':>7} {'right':>9} {'precision':>9} {'expected found':>15}"]
    for name, wanted in groups:
        mine = [row for row in kept if wanted(row["type"], row["field"])]
        papers = sum(wanted(None, field) for field in fields) if name.startswith("field") else len(fields)
        written = [hit for (number, _, kind, _), hit in zip(expected, hits) if wanted(kind, fields[int(number)])]
        right = judged = 0
        if verdicts is not None:
            marks = [verdicts.get((str(r["abstract"]), r["head"], r["type"], r["tail"]), "") for r in mine]
            right, judged = marks.count("y"), marks.count("y") + marks.count("n")
        if not mine and not written:
            continue
        share = f"{right / judged:.2f}" if judged else "-"
        unjudged = f" ({len(mine) - judged} not judged)" if verdicts is not None and judged < len(mine) else ""
        lines.append(f"{name:22} {len(mine):5} {len(mine) / max(papers, 1):7.2f} "
                     f"{f'{right}/{judged}' if verdicts is not None else '-':>9} {share:>9} "
                     f"{sum(written):>7}/{len(written):<3} "
                     f"{sum(written) / len(written) if written else 0:.2f}{unjudged}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--round", type=int, default=1, choices=ROUNDS,
                       help="which blind round: 1 to 5 (default 1)")
    which.add_argument("--data", type=Path, help="a round's folder (sample.jsonl, expected.txt) instead of --round")
    parser.add_argument("--min-confidence", type=float, default=DEFAULT_MIN_CONFIDENCE,
                        help=f"the threshold the figures are read at (default {DEFAULT_MIN_CONFIDENCE})")
    parser.add_argument("--out", type=Path, help="write the edges for judging here (TSV)")
    parser.add_argument("--judged", type=Path, help="the --out file with its verdict column filled (y/n)")
    args = parser.parse_args()
    data = args.data or round_folder(args.round)
    if not (data / "sample.jsonl").is_file() or not (data / "expected.txt").is_file():
        parser.error(f"{data} has no sample.jsonl and expected.txt of a blind round")
    if args.judged and not args.judged.is_file():
        parser.error(f"--judged {args.judged}: no such file")
    if not 0 <= args.min_confidence <= 1:
        parser.error("--min-confidence takes a number from 0 to 1")
    papers = [json.loads(line) for line in (data / "sample.jsonl").open(encoding="utf8")]
    records = [PaperRecord(id=row["id"], abstract=row["abstract"], title=row["title"], year=row["year"])
               for row in papers]
    fields = [str(row.get("field", "")) for row in papers]
    graph = paperkg.build_graph(records)
    found = edges_by_abstract(graph, [row["id"] for row in papers])
    rows = [{"field": fields[number], "abstract": number, "head": graph.nodes[head]["name"], "type": kind,
             "tail": graph.nodes[tail]["name"], "confidence": edge["confidence"],
             "sentence": next(e["sentence"] for e in edge["evidence"] if e["paper"] == papers[number]["id"])}
            for number in sorted(found) for head, kind, tail, edge in found[number]]
    expected = [line.split(" | ") for line in (data / "expected.txt").read_text(encoding="utf8").splitlines()]
    at = {number: [edge for edge in edges if edge[3]["confidence"] >= args.min_confidence]
          for number, edges in found.items()}
    verdicts = read_verdicts(args.judged) if args.judged else None
    print("\n".join(report(rows, fields, expected, found_expected(graph, at, expected), verdicts,
                           args.min_confidence)))
    if args.out:
        with args.out.open("w", encoding="utf8", newline="") as handle:
            writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
            writer.writerow(["field", "abstract", "head", "type", "tail", "sentence", "verdict", "why"])
            for row in rows:
                writer.writerow([row["field"], row["abstract"], row["head"], row["type"], row["tail"],
                                 " ".join(row["sentence"].split()), "", ""])
        print(f"{len(rows)} edges to judge written to {args.out}")


if __name__ == "__main__":
    main()
