"""Which properties of a typed edge's ends and evidence tell right from wrong on the hand-judged relation dev set
(bench/data/relations_dev/, issue 17), and the two rules built from them (admit/relation_ends.py):

- `no-task`: a Task node whose head is no task noun ("3D scenes", "medical entities") ends no typed edge;
- `no-purpose`: a USED_FOR relation to a task its sentence only mentions (the task mention's role, extract/roles.py:
  no purpose word, no proposal, not the first sentence) makes no edge.

    python bench/relation_edge_rules.py [--judged bench/data/relations_dev/judged.tsv] [--features]

Lists the dev edges with both rules switched off (every other end rule as shipped), joins each judged edge with
the extraction relation behind it (same paper, type, sentence and probability), and prints per type, rule and
probability point the edges kept, the right ones, the precision and its one-sided 90% Wilson lower bound (the one
the confidence table uses), for all edges and per subset (rounds 1, 2 and the ends-dev abstracts). `--features`
also prints USED_FOR precision from p 0.5 split by other candidate features of the ends and the sentence.
"""
from __future__ import annotations

import argparse
import csv
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import cast
from unittest import mock

from relations_blind import edges_by_abstract
from relations_dev import _edge, dev_sets, every_edge

import paperkg
import paperkg.graph.builder as builder
from paperkg.core.schema import Extraction, Mention, PaperRecord, RelType, Role
from paperkg.extract.relation_model import LABELS, RelationModel
from paperkg.extract.training.relations import wilson_lower
from paperkg.admit.relation_ends import end_refusal, purpose_refusal

JUDGED = Path(__file__).parent / "data" / "relations_dev" / "judged.tsv"
POINTS = (0.3, 0.5, 0.6, 0.7, 0.8, 0.9)
SUBSETS = ("1", "2", "ends")


@dataclass(frozen=True)
class Edge:
    """A judged dev edge with the extraction behind it."""

    subset: str
    kind: str
    probability: float
    right: bool
    head: Mention
    tail: Mention
    head_node: dict
    tail_node: dict
    sentence: str


def _without_new_rules() -> mock._patch:
    """The builder's end check with the 'no-task' rule switched off (purpose_refusal is switched off apart)."""
    def old_end_refusal(name: str, label: str) -> str | None:
        reason = end_refusal(name, label)
        return None if reason == "no-task" else reason
    return mock.patch.object(builder, "end_refusal", old_end_refusal)


def judged_edges(judged: Path) -> list[Edge]:
    """Every edge of the dev listing (rules off, p >= 0.3) that has a verdict, joined with its relation."""
    verdicts = {_edge(row): row["verdict"].strip().lower() == "y"
                for row in csv.DictReader(judged.open(encoding="utf8"), delimiter="\t")}
    nlp = paperkg.load_pipeline()
    component = cast(RelationModel, nlp.get_pipe("relation_model"))
    component.cfg["precision"] = {}
    component.cfg["thresholds"] = {label: component.cfg["thresholds"][label] if label == "SYNONYM_OF" else 0.3
                                   for label in LABELS}
    edges = []
    with _without_new_rules(), mock.patch.object(builder, "purpose_refusal", lambda kind, tail: None):
        for name, papers, _ in dev_sets([1, 2], 50):
            records = [PaperRecord(id=p["id"], abstract=p["abstract"], title=p["title"], year=p["year"])
                       for p in papers]
            extractions: list[Extraction] = list(paperkg.extract_records(records, nlp))
            graph = every_edge(records, nlp)
            by_id = {extraction.paper.id: extraction for extraction in extractions}
            for abstract, found in edges_by_abstract(graph, [p["id"] for p in papers]).items():
                for head, kind, tail, data in found:
                    key = _edge({"round": name, "abstract": papers[abstract].get("number", abstract),
                                 "head": graph.nodes[head]["name"], "type": kind, "tail": graph.nodes[tail]["name"]})
                    if key not in verdicts:
                        continue
                    evidence = next(e for e in data["evidence"] if e["paper"] == papers[abstract]["id"])
                    extraction = by_id[papers[abstract]["id"]]
                    relation = next(r for r in extraction.relations if r.type.value == kind
                                    and abs(r.confidence - float(evidence["confidence"])) < 1e-6
                                    and extraction.sentences[r.sentence] == evidence["sentence"])
                    edges.append(Edge(name, kind, relation.confidence, verdicts[key],
                                      extraction.entities[relation.head], extraction.entities[relation.tail],
                                      dict(graph.nodes[head]), dict(graph.nodes[tail]),
                                      extraction.sentences[relation.sentence]))
    return edges


def _no_task(edge: Edge) -> bool:
    return any(end_refusal(node["name"], node["label"]) == "no-task" for node in (edge.head_node, edge.tail_node))


RULES: dict[str, Callable[[Edge], bool]] = {  # True: the rule keeps the edge
    "none": lambda edge: True,
    "no-task": lambda edge: not _no_task(edge),
    "no-purpose": lambda edge: not purpose_refusal(RelType(edge.kind), edge.tail),
    "both": lambda edge: not _no_task(edge) and not purpose_refusal(RelType(edge.kind), edge.tail),
}
FEATURES: dict[str, Callable[[Edge], bool]] = {
    "head proposed by the paper": lambda edge: edge.head.role is Role.PROPOSES,
    "tail task addressed": lambda edge: edge.tail.role is not Role.MENTIONS,
    "own claim (we/our/this paper)": lambda edge: bool(re.search(r"\b(we|our|this (paper|work))\b", edge.sentence,
                                                                 re.I)),
    "background (existing/recent/...)": lambda edge: bool(re.search(
        r"\b(existing|recent|prior|previous|current|traditional|conventional)\b", edge.sentence, re.I)),
    "head from the model (no name, lexicon, acronym)": lambda edge: edge.head.source == "model",
    "head has a capital": lambda edge: any(c.isupper() for c in edge.head.text),
}


def _cell(edges: list[Edge]) -> str:
    right = sum(edge.right for edge in edges)
    return f"{right:3}/{len(edges):<3} {right / len(edges) if edges else 0:.2f} ({wilson_lower(right, len(edges)):.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--judged", type=Path, default=JUDGED, help="the judged dev edges (default: the shipped set)")
    parser.add_argument("--features", action="store_true", help="also USED_FOR precision by candidate feature")
    args = parser.parse_args()
    if not args.judged.is_file():
        parser.error(f"{args.judged} is not a file")
    edges = judged_edges(args.judged)
    print(f"{len(edges)} judged edges from p 0.3; right/kept precision (90% lower bound)")
    print(f"{'type':14} {'rule':10} {'p>=':>4}  {'all':18}  " + "  ".join(f"{s:18}" for s in SUBSETS))
    for kind in sorted({edge.kind for edge in edges}):
        for rule, keeps in RULES.items():
            for point in POINTS:
                kept = [e for e in edges if e.kind == kind and e.probability >= point and keeps(e)]
                print(f"{kind:14} {rule:10} {point:4.1f}  {_cell(kept):18}  " +
                      "  ".join(f"{_cell([e for e in kept if e.subset == s]):18}" for s in SUBSETS))
    if args.features:
        used = [e for e in edges if e.kind == RelType.USED_FOR.value and e.probability >= 0.5]
        for feature, holds in FEATURES.items():
            print(f"USED_FOR p>=0.5 {feature:48} yes {_cell([e for e in used if holds(e)]):18} "
                  f"no {_cell([e for e in used if not holds(e)])}")


if __name__ == "__main__":
    main()
