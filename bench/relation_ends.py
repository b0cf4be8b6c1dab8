"""Check a build's typed edges against the relation schema: every entity-entity edge's end labels are ones
its type allows (core/schema.py REL_ENDS); and count the edges per type, from the floor and at the default
threshold, against issue 30's must-hold (at least six of the eight types with 100 edges or more).

    python bench/relation_ends.py out/graph.json [--min-confidence 0.8] [--at-least 100] [--types 6]

Exits 1 when an edge breaks its type's end labels (the must-hold on counts is printed, not an exit code).
"""
from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

import networkx as nx

from paperkg.core.errors import PaperkgError
from paperkg.core.schema import (DEFAULT_MIN_CONFIDENCE, ENTITY_REL_TYPES, PAPER_REL_TYPES, RESULT_REL_TYPES, RelType,
                                 relation_allowed)
from paperkg.graph.exports import read_graph


def misfits(path: Path | nx.MultiDiGraph,
            min_confidence: float = 0.0) -> tuple[Counter[str], list[tuple[str, str, str]]]:
    """Typed edges per type at least `min_confidence` sure, and the edges (of any confidence) whose ends their
    type does not allow, of a graph or the graph file a path names."""
    graph = path if isinstance(path, nx.MultiDiGraph) else read_graph(path)
    labels = graph.nodes(data="label")
    kinds: Counter[str] = Counter()
    bad = []
    for source, target, key, data in graph.edges(keys=True, data=True):
        if RelType(key) in PAPER_REL_TYPES or RelType(key) in RESULT_REL_TYPES:
            continue  # a paper's role or a result's part: no entity-entity relation
        if data.get("confidence", 1.0) >= min_confidence:
            kinds[key] += 1
        if not relation_allowed(RelType(key), labels[source], labels[target]):
            bad.append((source, key, target))
    return kinds, bad


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("graph", type=Path, help="a build's graph.json (or its output folder)")
    parser.add_argument("--min-confidence", type=float, default=DEFAULT_MIN_CONFIDENCE,
                        help=f"the threshold the counts are read at (default {DEFAULT_MIN_CONFIDENCE})")
    parser.add_argument("--at-least", type=int, default=100, help="edges a type needs (default 100)")
    parser.add_argument("--types", type=int, default=6, help="types that need them (default 6 of the 8)")
    args = parser.parse_args()
    if not 0 <= args.min_confidence <= 1:
        parser.error("--min-confidence takes a number from 0 to 1")
    try:
        graph = read_graph(args.graph)
    except PaperkgError as error:
        parser.error(str(error))
    every, wrong = misfits(graph)
    at, _ = misfits(graph, args.min_confidence)
    print(f"{'type':14} {'from the floor':>14} {'at ' + str(args.min_confidence):>8}")
    for kind in (kind.value for kind in ENTITY_REL_TYPES):
        print(f"{kind:14} {every[kind]:14} {at[kind]:8}")
    print(f"{'all':14} {sum(every.values()):14} {sum(at.values()):8}")
    enough = sum(at[kind.value] >= args.at_least for kind in ENTITY_REL_TYPES)
    print(f"types with {args.at_least} edges or more at {args.min_confidence}: {enough} of {len(ENTITY_REL_TYPES)} "
          f"(must hold: {args.types}) -> {'holds' if enough >= args.types else 'does not hold'}")
    print(f"edges breaking their type's end labels: {len(wrong)}")
    for edge in wrong[:20]:
        print("  ", *edge)
    raise SystemExit(1 if wrong else 0)


if __name__ == "__main__":
    main()
