"""Every query of the Cypher library on a real build in a real Neo4j: push the build's graph (replacing paperkg's
nodes), run each query with parameters picked from the graph at the threshold, and print its rows.

    bash scripts/neo4j.sh start        # or any Neo4j 5; the connection from the settings (NEO4J_URI, NEO4J_PASSWORD)
    python bench/queries_acl.py .data/acl10k-out [--min-confidence 0.8] [--no-push] [--show 3]

The build of docs/quality.md is the fixed-seed 10,000-abstract ACL 2020-2021 slice (bench/acronym_split.py
--slice). A query's parameters: a task, method or entity with the most typed edges of the types the query reads
(at the threshold), the entity in the most papers for the others, the most common year; the rest default.
"""
from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path
from typing import Any

import networkx as nx

from paperkg.core import graph_model as model
from paperkg.core.errors import PaperkgError
from paperkg.core.schema import DEFAULT_MIN_CONFIDENCE, PAPER_REL_TYPES, RelType, enum_member
from paperkg.cypher.library import THRESHOLD_PARAM, list_queries
from paperkg.cypher.runner import lacking, relation_counts, run_named_query
from paperkg.graph.exports import read_graph
from paperkg.settings import load_settings

# The typed relations whose ends name what a query asks for: (parameter, query) -> (types, end, label).
WANTED: dict[tuple[str, str], tuple[tuple[str, ...], str, str]] = {
    ("task", "methods_for_task"): (("USED_FOR",), "target", "Task"),
    ("task", "benchmarks_for_task"): (("BENCHMARK_FOR", "USED_FOR"), "target", "Task"),
    ("task", "datasets_for_task"): (("USED_FOR",), "target", "Task"),
    ("method", "compared_with"): (("COMPARED_WITH",), "either", "Method"),
    ("name", "parts_and_kinds"): (("PART_OF", "IS_A", "SUBTASK_OF"), "either", ""),
}


def most_related(graph: nx.MultiDiGraph, types: tuple[str, ...], end: str, label: str, min_confidence: float) -> str:
    """The name of the node (of `label`, '' any) at the most `end`s of typed edges of `types` at the threshold;
    '' when there is none."""
    counts: Counter[str] = Counter()
    for source, target, kind, data in model.edges(graph):
        if kind in types and data["confidence"] >= min_confidence:
            counts.update(node for node, side in ((source, "source"), (target, "target")) if end in (side, "either"))
    ranked = sorted((node for node in counts if not label or graph.nodes[node]["label"] == label),
                    key=lambda node: (-counts[node], node))
    return str(graph.nodes[ranked[0]]["name"]) if ranked else ""


def parameters(graph: nx.MultiDiGraph, name: str, params: list[str], min_confidence: float) -> dict[str, str]:
    """The values picked for a query's parameters (see the module doc); a parameter not named here keeps its
    default."""
    entities = sorted(model.entities(graph), key=lambda item: (-item[1]["papers"], item[0]))
    top = [str(data["name"]) for _, data in entities]
    years = Counter(data.get("year") for _, data in model.papers(graph) if data.get("year"))
    acronym = next((str(data["acronym"]) for _, data in entities if data.get("acronym")), "")
    picked: dict[str, str] = {THRESHOLD_PARAM: str(min_confidence)}
    for param in params:
        if (param, name) in WANTED:
            picked[param] = most_related(graph, *WANTED[param, name], min_confidence) or top[0]
        elif param in ("method", "name", "text", "from"):
            label = "Method" if param == "method" else ""
            picked[param] = next(str(d["name"]) for _, d in entities if not label or d["label"] == label)
        elif param == "to":
            picked[param] = top[1]
        elif param == "acronym" and acronym:
            picked[param] = acronym
        elif param == "paper":
            picked[param] = next(str(data["paper_id"]) for _, data in model.papers(graph))
        elif param == "year" and years:
            picked[param] = str(years.most_common(1)[0][0])
        elif param in ("since", "until") and name == "rising" and years:
            picked[param] = str(min(years) if param == "since" else max(years))
    return {key: value for key, value in picked.items() if key in params}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("build", type=Path, help="a build's output folder or graph.json")
    parser.add_argument("--min-confidence", type=float, default=DEFAULT_MIN_CONFIDENCE,
                        help=f"the threshold of the relation queries (default {DEFAULT_MIN_CONFIDENCE})")
    parser.add_argument("--no-push", action="store_true", help="the graph is in the database already")
    parser.add_argument("--show", type=int, default=2, help="rows printed per query (default 2)")
    args = parser.parse_args()
    if not 0 <= args.min_confidence <= 1:
        parser.error("--min-confidence takes a number from 0 to 1")
    from paperkg.cli_neo4j import make_target
    from paperkg.cypher.writer import push_graph

    try:
        graph = read_graph(args.build)
        target = make_target(load_settings())
        if not args.no_push:
            push_graph(graph, target, replace=True)
    except PaperkgError as error:
        parser.error(str(error))
    typed = Counter(k for _, _, k, d in model.edges(graph)
                    if enum_member(RelType, k) not in PAPER_REL_TYPES and d["confidence"] >= args.min_confidence)
    print(f"typed edges at {args.min_confidence}: {dict(sorted(typed.items()))}")
    empty = []
    for query in list_queries():
        values = query.parameters(parameters(graph, query.name, [p.name for p in query.params], args.min_confidence))
        rows: list[dict[str, Any]] = run_named_query(query, target, values)
        shown = {k: v for k, v in values.items() if isinstance(v, str) and v}
        print(f"{query.name:26} {len(rows):5} rows  {shown}")
        for row in rows[:args.show]:
            print("    " + "; ".join(f"{k}={str(v)[:60]}" for k, v in row.items() if v not in (None, [], "")))
        if query.relation_types:
            for sentence in lacking(query.name, relation_counts(target, query.relation_types, args.min_confidence),
                                    args.min_confidence):
                print("    " + sentence)
        if not rows:
            empty.append(query.name)
    print(f"{len(list_queries()) - len(empty)} of {len(list_queries())} queries answer"
          + (f"; no rows: {', '.join(empty)}" if empty else ""))


if __name__ == "__main__":
    main()
