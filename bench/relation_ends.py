"""Check a build's typed edges against the relation schema: every entity-entity edge's end labels are ones
its type allows (core/schema.py REL_ENDS), and count the edges per type.

    python bench/relation_ends.py out/graph.json
"""
from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from paperkg.core.schema import PAPER_REL_TYPES, RelType, relation_allowed
from paperkg.graph.exports import read_graph


def misfits(path: Path) -> tuple[Counter[str], list[tuple[str, str, str]]]:
    """Typed edges per type, and the edges whose ends their type does not allow."""
    graph = read_graph(path)
    labels = graph.nodes(data="label")
    kinds: Counter[str] = Counter()
    bad = []
    for source, target, key in graph.edges(keys=True):
        if RelType(key) in PAPER_REL_TYPES:
            continue
        kinds[key] += 1
        if not relation_allowed(RelType(key), labels[source], labels[target]):
            bad.append((source, key, target))
    return kinds, bad


if __name__ == "__main__":
    counts, wrong = misfits(Path(sys.argv[1]))
    print(dict(sorted(counts.items())), f"{sum(counts.values())} typed edges, {len(wrong)} breaking their ends")
    for edge in wrong[:20]:
        print("  ", *edge)
    sys.exit(1 if wrong else 0)
