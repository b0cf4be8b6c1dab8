"""The largest entity nodes of a build, as a TSV ready for hand verdicts (issue 31: a hub of the top 100 must
be a thing a reader would search for, typed as the field types it).

    python bench/top_nodes.py BUILD [--n 100] [--out verdicts.tsv]

BUILD is a build's output folder (its graph.json). Nodes are ranked by papers, then mentions, then name; the
columns are rank, name, type, papers, mentions, aliases (up to five), verdict (empty: 'ok', 'type' for a
thing of another of the four types, 'junk' for no entity of the schema) and note (empty).
"""
from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

from paperkg.core import graph_model as model
from paperkg.graph.exports import read_graph

COLUMNS = ("rank", "name", "type", "papers", "mentions", "aliases", "verdict", "note")


def top_nodes(build: Path, n: int) -> list[dict[str, object]]:
    """The `n` entity nodes of the build with the most papers, as rows of COLUMNS."""
    graph = read_graph(build / "graph.json")
    ranked = sorted(model.entities(graph), key=lambda item: (-item[1]["papers"], -item[1]["mentions"], item[1]["name"]))
    return [{"rank": rank, "name": node["name"], "type": node["label"], "papers": node["papers"],
             "mentions": node["mentions"], "aliases": "; ".join(node["aliases"][:5]), "verdict": "", "note": ""}
            for rank, (_key, node) in enumerate(ranked[:n], 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("build", type=Path, help="a build's output folder (holding graph.json)")
    parser.add_argument("--n", type=int, default=100, help="how many nodes (default 100)")
    parser.add_argument("--out", type=Path, help="write the TSV here instead of standard output")
    args = parser.parse_args()
    if not (args.build / "graph.json").is_file():
        sys.exit(f"{args.build}: no graph.json there; give a build's output folder.")
    if args.n < 1:
        sys.exit("--n must be at least 1.")
    rows = top_nodes(args.build, args.n)
    out = args.out.open("w", encoding="utf8", newline="") if args.out else sys.stdout
    writer = csv.DictWriter(out, COLUMNS, delimiter="\t", lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    if args.out:
        out.close()


if __name__ == "__main__":
    main()
