"""Fit the graph's edge calibration (admit/data/edge_calibration.json) on hand-judged edges, with whatever relation
model is shipped: re-run it after a new model lands.

    python bench/edges_calibrate.py                       # fit and write the shipped calibration
    python bench/edges_calibrate.py --check               # judged precision by calibrated confidence, nothing written
    python bench/edges_calibrate.py --out edges.tsv       # also list every edge, verdicts carried, for judging

The judged sets are the abstracts of blind rounds 1-5 (bench/data/relations_blind*/sample.jsonl) and the first
`--ends-dev` abstracts of each field of the relation-end dev sample, as bench/relations_dev.py takes them. Each
set is extracted with the shipped pipeline and built as the graph builds (admission at the mention floor, every
typed edge decided from all its mentions) with the calibration set aside, so an edge's confidence is its raw
score; the verdicts of every judged file (bench/data/relations_dev/judged*.tsv, the rounds' judged_*.tsv) are
carried to the same edges (set, abstract, head, type, tail; COMPARED_WITH either way; the first file read wins
a disagreement) and the per-type logistic curves are fitted on them (admit/edge_confidence.py fit_calibration).
An edge no verdict reaches counts as wrong (`--unjudged skip` leaves it out), so a new model's new edges can only
lower the curves until they are judged: list them with --out, judge the empty verdicts, keep the file under
bench/data/relations_dev/ (judged_*.tsv) and run again. Never run on bench/data/blind6.
"""
from __future__ import annotations

import argparse
import csv
import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from relations_blind import ROUNDS, edges_by_abstract, round_folder
from relations_dev import dev_sets

import paperkg
from paperkg.admit.admission import admit_all
from paperkg.admit.edge_confidence import (CALIBRATION_FILE, Calibration, fit_calibration, shipped_calibration)
from paperkg.core.schema import DEFAULT_MIN_CONFIDENCE, PaperRecord
from paperkg.extract.pipeline import DEFAULT_MODEL
from paperkg.graph.builder import GraphBuilder

DATA = Path(__file__).parent / "data"
SHIPPED = Path(__file__).resolve().parent.parent / "admit" / "data" / CALIBRATION_FILE
FIELDS = ["round", "abstract", "head", "type", "tail", "score", "papers", "confidence", "sentence", "verdict", "why"]
BINS = (0.25, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.01)


def judged_files() -> list[Path]:
    """Every file of hand verdicts on typed edges, the dev set's first (it wins a disagreement)."""
    dev = sorted((DATA / "relations_dev").glob("judged*.tsv"))
    return dev + [path for number in ROUNDS for path in sorted(round_folder(number).glob("judged_*.tsv"))]


def read_verdicts(paths: list[Path]) -> dict[tuple[str, ...], tuple[str, str]]:
    """(set, abstract, head, type, tail) -> (verdict, why) from judged files; a file without a `round` column
    is of the round whose folder holds it."""
    verdicts: dict[tuple[str, ...], tuple[str, str]] = {}
    for path in paths:
        folder_round = next((str(n) for n in ROUNDS if round_folder(n) == path.parent), "")
        with path.open(encoding="utf8") as handle:
            for row in csv.DictReader(handle, delimiter="\t"):
                verdict = (row.get("verdict") or "").strip().lower()[:1]
                if verdict not in ("y", "n"):
                    continue
                key = (row.get("round") or folder_round, row["abstract"], row["head"], row["type"], row["tail"])
                verdicts.setdefault(key, (verdict, row.get("why") or ""))
    return verdicts


def verdict_of(row: dict[str, Any], verdicts: dict[tuple[str, ...], tuple[str, str]]) -> tuple[str, str]:
    """The carried verdict of a listed edge ('' when none), COMPARED_WITH read either way."""
    key = (str(row["round"]), str(row["abstract"]), row["head"], row["type"], row["tail"])
    found = verdicts.get(key)
    if found is None and row["type"] == "COMPARED_WITH":
        found = verdicts.get((key[0], key[1], key[4], key[3], key[2]))
    return found or ("", "")


def listed_edges(ends_dev: int, calibration: Calibration) -> list[dict[str, Any]]:
    """One row per typed edge and paper of each judged set, built as the graph builds with `calibration` and
    no floor: the edge's score, papers and confidence, its best sentence in that paper."""
    nlp = paperkg.load_pipeline()
    rows = []
    for name, papers, _expected in dev_sets(ROUNDS, ends_dev):
        records = [PaperRecord(id=p["id"], abstract=p["abstract"], title=p["title"], year=p["year"]) for p in papers]
        builder = GraphBuilder(calibration=calibration, floor=0.0)
        builder.add_all(admit_all(paperkg.extract_records(records, nlp)))
        graph = builder.finalize()
        found = edges_by_abstract(graph, [p["id"] for p in papers])
        for abstract in sorted(found):
            for head, kind, tail, data in found[abstract]:
                sentence = next(e["sentence"] for e in data["evidence"] if e["paper"] == papers[abstract]["id"])
                rows.append({"round": name, "abstract": papers[abstract].get("number", abstract),
                             "head": graph.nodes[head]["name"], "type": kind, "tail": graph.nodes[tail]["name"],
                             "score": data["confidence"], "papers": data["papers"], "confidence": "",
                             "sentence": sentence, "verdict": "", "why": ""})
    return rows


def reliability(rows: list[dict[str, Any]], calibration: Calibration) -> None:
    """Judged precision by calibrated confidence, and per type at the default threshold."""
    print(f"{'confidence':>12} {'edges':>5} {'judged':>6} {'right':>5} {'precision':>9}")
    for low, high in zip(BINS, BINS[1:]):
        inside = [r for r in rows if low <= r["confidence"] < high]
        judged = [r for r in inside if r["verdict"]]
        right = sum(r["verdict"] == "y" for r in judged)
        print(f"{low:5.2f}-{min(high, 1):<5.2f} {len(inside):5} {len(judged):6} {right:5} "
              f"{right / len(judged) if judged else float('nan'):9.2f}")
    print(f"at the default threshold {DEFAULT_MIN_CONFIDENCE}:")
    kept = [r for r in rows if r["confidence"] >= DEFAULT_MIN_CONFIDENCE]
    for kind in sorted({r["type"] for r in rows}):
        judged = [r for r in kept if r["type"] == kind and r["verdict"]]
        right = sum(r["verdict"] == "y" for r in judged)
        print(f"  {kind:14} edges {sum(r['type'] == kind for r in kept):4}  right {right}/{len(judged)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ends-dev", type=int, default=50, metavar="N",
                        help="the first N abstracts of each field of the relation-end dev sample (default 50)")
    parser.add_argument("--paper-cap", type=int, default=shipped_calibration().paper_cap,
                        help="mentions a paper counts with (default: the shipped calibration's)")
    parser.add_argument("--repeat-weight", type=float, default=shipped_calibration().repeat_weight,
                        help="weight of each paper after the strongest, 0 to 1 (default: the shipped calibration's)")
    parser.add_argument("--unjudged", choices=("wrong", "skip"), default="wrong",
                        help="an edge without a carried verdict counts as wrong (default) or is left out")
    parser.add_argument("--check", action="store_true", help="measure the shipped calibration, write nothing")
    parser.add_argument("--out", type=Path, help="also write every listed edge (verdicts carried) here, for judging")
    args = parser.parse_args()
    if args.paper_cap < 1 or not 0 <= args.repeat_weight <= 1:
        parser.error("--paper-cap must be 1 or more and --repeat-weight between 0 and 1")
    if args.out and not args.out.parent.is_dir():
        parser.error(f"--out {args.out}: no folder {args.out.parent}")
    raw = Calibration(args.paper_cap, args.repeat_weight)
    rows = listed_edges(args.ends_dev, raw)
    verdicts = read_verdicts(judged_files())
    for row in rows:
        row["verdict"], row["why"] = verdict_of(row, verdicts)
    judged = sum(bool(row["verdict"]) for row in rows)
    print(f"{len(rows)} edges listed, {judged} with a carried verdict "
          f"({Counter(r['verdict'] for r in rows if r['verdict'])}), {len(rows) - judged} without")
    used = [r for r in rows if r["verdict"] or args.unjudged == "wrong"]
    model = json.loads((DEFAULT_MODEL / "meta.json").read_text(encoding="utf8"))
    calibration = shipped_calibration() if args.check else fit_calibration(
        ((r["type"], float(r["score"]), r["verdict"] == "y") for r in used), args.paper_cap, args.repeat_weight,
        f"model {model['name']} {model['version']}: {len(used)} edges of blind rounds 1-5 and the relation-end "
        f"dev sample ({judged} judged by hand, {len(used) - judged} without a verdict counted wrong)")
    for row in rows:
        row["confidence"] = calibration.confidence(row["type"], float(row["score"]))
    reliability(rows, calibration)
    if not args.check:
        SHIPPED.write_text(json.dumps(calibration.to_dict(), indent=1) + "\n", encoding="utf8")
        print(f"wrote {SHIPPED}: " + ", ".join(f"{kind} {dict(knots)[0.5]:.2f}@0.5 {dict(knots)[0.8]:.2f}@0.8"
                                               for kind, knots in sorted(calibration.curves.items())))
    if args.out:
        with args.out.open("w", encoding="utf8", newline="") as handle:
            writer = csv.DictWriter(handle, FIELDS, delimiter="\t", lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
        by_type = defaultdict(int)
        for row in rows:
            by_type[row["type"]] += not row["verdict"]
        print(f"wrote {args.out}; to judge: " + ", ".join(f"{k} {v}" for k, v in sorted(by_type.items()) if v))


if __name__ == "__main__":
    main()
