"""A blind entity round (issue 31): the entity nodes a build links to each abstract of a round, listed for judging
by hand, and once judged the figures: precision of the nodes per label and per field (nlp, arxiv-cs, other), and
recall with the right type of the entities written down before any run (the round's entities.tsv).

    paperkg build bench/data/blind6/sample.jsonl -o out/blind6
    python bench/entities_blind.py out/blind6 --data bench/data/blind6 --out nodes.tsv      # to judge
    python bench/entities_blind.py out/blind6 --data bench/data/blind6 --judged nodes.tsv   # the figures

A build of any release is read from its graph.json, so the last release's graph is scored by the same rules.
`--out` lists each paper's entity nodes once (field, abstract, name, type, its other names) with empty verdict
and why columns: `y` a right node (a whole name of a Method, Task, Dataset or Metric, with that type), `t` a
thing of another of the four types, `n` no entity (a fragment, a coordination, a generic word, out of the
schema). Recall matches a written entity to a node of its paper by name (case, plural, hyphens and spaces aside;
either half of `long form (ACR)`; the node's aliases count) and reports a match of another type apart.
"""
from __future__ import annotations

import argparse
import csv
import json
from collections import defaultdict
from pathlib import Path

from blind_check import ACRONYM_NAME
from relations_blind import _norm

from paperkg.core.schema import ENTITY_LABELS

VERDICTS = ("y", "t", "n")


class Node:
    """An entity node as a paper's list shows it."""

    def __init__(self, data: dict) -> None:
        self.name: str = data["name"]
        self.label: str = data["label"]
        self.aliases: list[str] = sorted(set(data.get("aliases", [])) - {self.name})
        self.forms = {_norm(name) for name in [self.name, *self.aliases]} - {""}


def written_forms(name: str) -> set[str]:
    """The loose forms a hand-written entity matches: itself, or each half of 'long form (ACR)'."""
    parts = ACRONYM_NAME.match(name)
    return {_norm(part) for part in (parts.groups() if parts else (name,))} - {""}


def nodes_by_paper(graph: dict) -> dict[str, list[Node]]:
    """Paper id -> the entity nodes its edges reach (any paper-entity relationship), by name."""
    nodes = {node["id"]: node for node in graph["nodes"]}
    found: dict[str, dict[str, Node]] = defaultdict(dict)
    for edge in graph["edges"]:
        paper, entity = nodes[edge["source"]], nodes[edge["target"]]
        if paper["label"] == "Paper" and entity["label"] in {label.value for label in ENTITY_LABELS}:
            found[paper["paper_id"]][entity["id"]] = Node(entity)
    return {paper: sorted(by_id.values(), key=lambda n: (n.label, n.name.lower())) for paper, by_id in found.items()}


def recall_rows(expected: list[list[str]], papers: list[dict],
                found: dict[str, list[Node]]) -> list[tuple[str, str, str]]:
    """(field, type, outcome) of each written entity: 'right', 'other-type' or 'missed'."""
    rows = []
    for number, name, label in expected:
        paper = papers[int(number)]
        matches = [node for node in found.get(paper["id"], []) if written_forms(name) & node.forms]
        outcome = "right" if any(n.label == label for n in matches) else "other-type" if matches else "missed"
        rows.append((paper["field"], label, outcome))
    return rows


def report(listed: list[dict], verdicts: dict[tuple[str, str, str], str] | None,
           recall: list[tuple[str, str, str]]) -> list[str]:
    """Precision of the nodes (once judged) and recall with the right type, overall, per label and per field."""
    groups = [("all", lambda field, label: True)]
    groups += [(label.value, lambda field, label, k=label.value: label == k) for label in ENTITY_LABELS]
    groups += [(f"field {f}", lambda field, label, f=f: field == f) for f in sorted({r[0] for r in recall})]
    lines = [f"{'':16} {'nodes':>5} {'right':>9} {'precision':>9} {'written':>7} {'found':>5} {'recall':>6} "
             f"{'other type':>10}"]
    for name, wanted in groups:
        mine = [row for row in listed if wanted(row["field"], row["type"])]
        marks = [verdicts.get((row["abstract"], row["name"], row["type"]), "") for row in mine] if verdicts else []
        judged = sum(mark in VERDICTS for mark in marks)
        right = marks.count("y")
        written = [outcome for field, label, outcome in recall if wanted(field, label)]
        lines.append(f"{name:16} {len(mine):5} {f'{right}/{judged}' if verdicts else '-':>9} "
                     f"{f'{right / judged:.2f}' if judged else '-':>9} {len(written):7} {written.count('right'):5} "
                     f"{written.count('right') / len(written) if written else 0:6.2f} {written.count('other-type'):10}"
                     + (f"  ({len(mine) - judged} not judged)" if verdicts and judged < len(mine) else ""))
    return lines


def read_verdicts(path: Path) -> dict[tuple[str, str, str], str]:
    """(abstract, name, type) -> y, t or n from a judged --out file."""
    with path.open(encoding="utf8") as handle:
        return {(row["abstract"], row["name"], row["type"]): row["verdict"].strip().lower()[:1]
                for row in csv.DictReader(handle, delimiter="\t") if row["verdict"].strip()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("build", type=Path, help="a build folder (its graph.json) of the round's sample.jsonl")
    parser.add_argument("--data", type=Path, required=True, help="the round's folder (sample.jsonl, entities.tsv)")
    parser.add_argument("--out", type=Path, help="write the nodes for judging here (TSV)")
    parser.add_argument("--judged", type=Path, help="the --out file with its verdict column filled (y, t or n)")
    args = parser.parse_args()
    if not (args.build / "graph.json").is_file():
        parser.error(f"{args.build} has no graph.json: build the round's sample.jsonl into it first")
    if not (args.data / "sample.jsonl").is_file() or not (args.data / "entities.tsv").is_file():
        parser.error(f"{args.data} has no sample.jsonl and entities.tsv of a blind round")
    if args.judged and not args.judged.is_file():
        parser.error(f"--judged {args.judged}: no such file")
    papers = [json.loads(line) for line in (args.data / "sample.jsonl").open(encoding="utf8")]
    found = nodes_by_paper(json.loads((args.build / "graph.json").read_text(encoding="utf8")))
    listed = [{"field": paper["field"], "abstract": str(number), "name": node.name, "type": node.label,
               "aliases": "; ".join(node.aliases)}
              for number, paper in enumerate(papers) for node in found.get(paper["id"], [])]
    expected = [line.split("\t") for line in (args.data / "entities.tsv").read_text(encoding="utf8").splitlines()
                if line.strip()]
    verdicts = read_verdicts(args.judged) if args.judged else None
    print(f"{len(listed)} entity nodes in {len(papers)} papers, {len(listed) / max(len(papers), 1):.2f} a paper")
    print("\n".join(report(listed, verdicts, recall_rows(expected, papers, found))))
    if args.out:
        with args.out.open("w", encoding="utf8", newline="") as handle:
            writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
            writer.writerow(["field", "abstract", "name", "type", "aliases", "verdict", "why"])
            for row in listed:
                writer.writerow([*row.values(), "", ""])
        print(f"{len(listed)} nodes to judge written to {args.out}")


if __name__ == "__main__":
    main()
