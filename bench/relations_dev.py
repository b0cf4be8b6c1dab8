"""The hand-judged relation dev set (issue 17): every typed edge the relation model would put in the graph of
the abstracts of blind rounds 1 and 2 (no longer blind) down to a low probability, for judging by hand, and
per type the precision by probability and the share of the written-down relations found at each point.

    python bench/relations_dev.py --out edges.tsv [--carry judged.tsv]       # edges to judge (verdicts carried over)
    python bench/relations_dev.py --judged judged.tsv                        # precision and found per point
    python bench/relations_dev.py --calibrate --carry judged.tsv             # the model's confidence table from it
    python bench/relations_dev.py --out edges.tsv --model runs/relations/model --carry judged.tsv  # a trained one

`--out` builds the graph of each round's sample.jsonl with every model type kept from `--min-probability` up
(the confidence table and the graph's operating point set aside, so each edge carries its probability) and
writes one edge a line: round, abstract, head, type, tail, probability, the confidence the shipped model's
table gives that probability, the expected.txt lines of the round the edge matches (as relations_blind.py
matches them), the sentence, and an empty verdict column (y/n by round 2's judging rules). Besides the rounds,
the first `--ends-dev` abstracts of each field of bench/data/relations_blind_ends_dev/sample.jsonl (nothing
written down for them). `--calibrate` lists the edges again with the current code (an edge no verdict is carried to
counts as wrong: code that changes the edges can only lower the table until they are judged) and makes the
shipped relation model's precision table (extract/model/relation_model/cfg, what a relation's
confidence reads and the graph's operating point compares) the lower of SciER dev with gold mentions and the
hand-judged edges (extract/training/relations.py judged_precision).
"""
from __future__ import annotations

import argparse
import csv
import json
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import networkx as nx
import spacy
import srsly
from spacy.language import Language
from relations_blind import _matches, _names, edges_by_abstract, round_folder

import paperkg
from paperkg.admit.admission import admit_all
from paperkg.admit.edge_confidence import Calibration
import paperkg.graph.builder as builder
from paperkg.core.schema import ENTITY_REL_TYPES, DEFAULT_MIN_CONFIDENCE, PaperRecord
from paperkg.extract.pipeline import DEFAULT_MODEL
from paperkg.extract.relation_model import LABELS, RelationModel
from paperkg.extract.training.relations import (dev_precision, judged_precision, load_records, lower_of,
                                                wilson_lower)

FIELDS = ["round", "abstract", "head", "type", "tail", "probability", "confidence", "expected", "sentence",
          "verdict", "why"]
WHY = {"E": "an end is no named thing of its type", "T": "the wrong type", "S": "siblings or not stated",
       "D": "the reverse is stated"}  # the why column of a wrong edge (filled at probability 0.5 and up)
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


def every_edge(records: list[PaperRecord], nlp: Language) -> nx.MultiDiGraph:
    """The graph of the records with every relation the pipeline writes made an edge (no floor, each edge's
    confidence its best mention's: one witness a paper, no calibration curve)."""
    graph_builder = builder.GraphBuilder(calibration=Calibration(paper_cap=1, repeat_weight=0.0), floor=0.0)
    graph_builder.add_all(admit_all(paperkg.extract_records(records, nlp), min_confidence=0.0))
    return graph_builder.finalize()


def pipeline(relation_model: Path | None = None) -> Language:
    """The shipped pipeline, or with its relation component taken from a trained one (what the `relations` step
    of `paperkg train` writes: a pipeline holding only `relation_model`)."""
    nlp = paperkg.load_pipeline()
    if relation_model is not None:
        nlp.remove_pipe("relation_model")
        nlp.add_pipe("relation_model", source=spacy.load(relation_model))
    return nlp


def candidates(sets: list[tuple[str, list[dict], list[list[str]]]], min_probability: float,
               relation_model: Path | None = None) -> list[dict[str, Any]]:
    """The rows to judge: every typed edge of each set's graph at `min_probability` and up (see module doc)."""
    nlp = pipeline(relation_model)
    component = cast(RelationModel, nlp.get_pipe("relation_model"))
    table = dict(component.cfg["precision"])
    thresholds = dict(component.cfg["thresholds"])
    component.cfg["precision"] = {}  # confidence = probability while listing
    component.cfg["thresholds"] = {label: thresholds[label] if label == "SYNONYM_OF" else min_probability
                                   for label in LABELS}  # SYNONYM_OF merges nodes: as shipped
    rows = []
    try:
        for name, papers, expected in sets:
            graph = every_edge([PaperRecord(id=p["id"], abstract=p["abstract"], title=p["title"], year=p["year"])
                                for p in papers], nlp)
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
                    rows.append({"round": name, "abstract": papers[abstract].get("number", abstract),
                                 "head": graph.nodes[head]["name"],
                                 "type": kind, "tail": graph.nodes[tail]["name"], "probability": round(probability, 4),
                                 "confidence": confidence, "expected": ",".join(hits),
                                 "sentence": evidence["sentence"], "verdict": "", "why": ""})
    finally:
        component.cfg["precision"], component.cfg["thresholds"] = table, thresholds
    return rows


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
                  f"{right / len(kept) if kept else 0:5.2f} {wilson_lower(right, len(kept)):5.2f} "
                  f"{len(found):3}/{expected_types[kind]:<3}")
    print(f"expected relations in rounds {', '.join(map(str, rounds))}: {sum(totals.values())}")
    why = Counter(row.get("why") or "?" for row in rows
                  if row["verdict"].strip().lower().startswith("n") and float(row["probability"]) >= 0.5)
    print("wrong edges at probability 0.5 and up: " + ", ".join(f"{WHY.get(k, 'not classed')} {v}"
                                                                for k, v in why.most_common()))


def calibrate(rows: list[dict[str, Any]], floor: float, benchmarks: Path,
              held_out: Sequence[int] = ()) -> dict[str, list[list[float]]]:
    """The shipped relation model's precision table made the lower of SciER dev with gold mentions (exact
    arguments) and, for the graph's edge types, the hand-judged edges (judged_precision); the rounds in
    `held_out` (judged blind, after the edge rules were written on the others) are a measure of their own, so
    that what the rules were chosen on cannot outvote them. Written into the model's cfg."""
    from paperkg.extract.evaluate import relations as evaluation

    nlp = paperkg.load_pipeline()
    component = cast(RelationModel, nlp.get_pipe("relation_model"))
    grid = [threshold for threshold, _ in component.cfg["precision"][LABELS[0]]]
    dev = load_records(benchmarks, ["scier"], "dev")
    scier = dev_precision(component, evaluation.process(nlp, dev, True), dev, grid, overlap=False)
    held = {str(number) for number in held_out}
    groups = [[r for r in rows if r["round"] not in held], [r for r in rows if r["round"] in held]]
    table = lower_of(scier, *(judged_precision(((r["type"], float(r["probability"]),
                                                  r["verdict"].strip().lower() == "y") for r in group), grid, floor)
                              for group in groups if group))
    edges = {kind.value for kind in ENTITY_REL_TYPES}
    for label in set(LABELS) - edges:  # SYNONYM_OF merges nodes, no edge to judge: its SciER table as trained
        table[label] = component.cfg["precision"][label]
    path = DEFAULT_MODEL / "relation_model" / "cfg"
    cfg = srsly.read_json(path)
    cfg["precision"] = table
    srsly.write_json(path, cfg)
    return table


def _read_judged(path: Path, parser: argparse.ArgumentParser) -> list[dict[str, str]]:
    """The rows of a judged list (what --out writes, verdicts filled in); a parser error when it is not one."""
    with path.open(encoding="utf8") as handle:
        judged = csv.DictReader(handle, delimiter="\t")
        if not set(FIELDS[:-1]) <= set(judged.fieldnames or []):
            parser.error(f"{path} is no judged list: its header lacks one of {', '.join(FIELDS[:-1])}")
        return list(judged)


def _edge(row: dict[str, Any]) -> tuple[str, ...]:
    """An edge's key across runs: set, abstract, head, type, tail."""
    return tuple(str(row[field]) for field in ("round", "abstract", "head", "type", "tail"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, nargs="+", default=[1, 2], help="blind rounds to use (default 1 2)")
    parser.add_argument("--ends-dev", type=int, default=50, metavar="N",
                        help="also the first N abstracts of each field of the relation-end dev sample (default 50)")
    parser.add_argument("--min-probability", type=float, default=0.3, help="lowest model probability listed")
    parser.add_argument("--out", type=Path, help="write the edges for judging here (TSV)")
    parser.add_argument("--carry", type=Path, nargs="+", default=[], help="with --out or --calibrate: judged TSVs "
                        "whose verdicts are carried over to the same edges (set, abstract, head, type, tail)")
    parser.add_argument("--model", type=Path, help="with --out: the relation component of this trained pipeline "
                        "(runs/relations/model) instead of the shipped one")
    parser.add_argument("--judged", type=Path, help="a judged TSV: print precision and expected found per point")
    parser.add_argument("--calibrate", action="store_true", help="list the edges again, carry the --carry "
                        "verdicts and write the shipped model's precision table from them (an edge not judged "
                        "counts as wrong)")
    parser.add_argument("--held-out", type=int, nargs="+", default=[], metavar="ROUND",
                        help="with --calibrate: rounds judged blind after the edge rules, measured on their own")
    parser.add_argument("--benchmarks", type=Path, default=Path("../shared/benchmarks"),
                        help="with --calibrate: the folder holding scier/dev.jsonl")
    args = parser.parse_args()
    if not 0 < args.min_probability <= 1:
        parser.error("--min-probability must be in (0, 1]")
    for number in args.rounds:
        if not (round_folder(number) / "expected.txt").is_file():
            parser.error(f"round {number} has no {round_folder(number) / 'expected.txt'}")
    if args.model and not (args.model / "relation_model").is_dir():
        parser.error(f"--model {args.model} holds no relation_model (give the relations step's model folder)")
    for given in (args.judged, *args.carry):
        if given and not given.is_file():
            parser.error(f"{given} is not a file")
    if args.judged:
        report(_read_judged(args.judged, parser), args.rounds)
        return
    if not args.out and not args.calibrate:
        parser.error("give --out (list edges to judge), --judged (measure a judged list) or --calibrate")
    if args.calibrate and not args.carry:
        parser.error("--calibrate needs the judged edges: --carry FILE")
    if args.calibrate and not (args.benchmarks / "scier" / "dev.jsonl").is_file():
        parser.error(f"--benchmarks {args.benchmarks} holds no scier/dev.jsonl")
    verdicts = {_edge(row): (row["verdict"], row.get("why") or "")
                for path in args.carry for row in _read_judged(path, parser)}
    rows = candidates(dev_sets(args.rounds, args.ends_dev), args.min_probability, args.model)
    if args.carry:
        for row in rows:
            row["verdict"], row["why"] = verdicts.get(_edge(row), ("", ""))
    if args.out:
        with args.out.open("w", encoding="utf8", newline="") as handle:
            writer = csv.DictWriter(handle, FIELDS, delimiter="\t", lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
        print(f"{len(rows)} edges ({sum(not row['verdict'] for row in rows)} to judge) written to {args.out}: " +
              ", ".join(f"{k} {v}" for k, v in sorted(Counter(r["type"] for r in rows).items())))
    if args.calibrate:
        unjudged = sum(not row["verdict"] for row in rows)
        if unjudged:
            print(f"{unjudged} edges not judged yet count as wrong (judge them in --out and run again to count them)")
        table = calibrate(rows, args.min_probability, args.benchmarks, args.held_out)
        for kind in ENTITY_REL_TYPES:
            point = next((t for t, value in table[kind.value] if value >= DEFAULT_MIN_CONFIDENCE), None)
            print(f"{kind.value:14} in the graph from " + (f"p {point}" if point is not None else "nowhere") +
                  f" (best confidence {max(value for _, value in table[kind.value]):.2f})")


if __name__ == "__main__":
    main()
