"""Split acronyms in a build: bare short-form nodes whose dominant definition is another node.

    .venv/bin/python bench/acronym_split.py --slice /tmp/acl2020-21.jsonl          # write the ACL slice
    .venv/bin/paperkg build /tmp/acl2020-21.jsonl -o /tmp/acl-out                    # build it
    .venv/bin/python bench/acronym_split.py /tmp/acl-out/graph.json                  # count the splits
    .venv/bin/python bench/acronym_split.py --slice /tmp/acl2023.jsonl --size 400 --year 2023
    .venv/bin/python bench/acronym_split.py --sweep /tmp/acl-out/extractions.jsonl   # measure the share

The slice is the fixed-seed 10,000-abstract ACL 2020-2021 sample: the ACL Anthology rows of
../shared/corpus/abstracts/ from 2020 and 2021, shuffled with bench_scale.py's seed, the first
10,000 in corpus order. A split is an entity node named by a bare short form ('NLP', no long
form of its own) while another node carries that short form as its acronym; the dominant such
definition (most papers) is printed with both nodes' papers. Also judges the 30 short forms in the
most papers (`judge`): each holds when its dominant sense is one node with its long form and the
short form, no other node is named by the short form, and every other node carrying it is a sense
of its own (printed) rather than a variant of another sense's long form left split.
"""
from __future__ import annotations

import argparse
import gzip
import json
import random
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus" / "abstracts" / "abstracts.jsonl.gz"
SEED = 13  # bench_scale.py's
SHORT_FORM = re.compile(r"^(?=.*[A-Z].*[A-Z])[A-Za-z0-9][\w\-.+/]*$")  # one word, two capitals or more


def write_slice(target: Path, size: int = 10_000, years: tuple[int, ...] = (2020, 2021)) -> int:
    """The fixed-seed ACL sample of `size` abstracts from `years`, as JSONL; returns its rows."""
    with gzip.open(CORPUS, "rt", encoding="utf8") as handle:
        rows = [line for line in handle
                if (row := json.loads(line))["source"] == "acl-anthology" and row["year"] in years]
    order = list(range(len(rows)))
    random.Random(SEED).shuffle(order)
    picked = [rows[i] for i in sorted(order[:size])]
    target.write_text("".join(picked), encoding="utf8")
    return len(picked)


def splits(graph: dict) -> list[tuple[dict, dict]]:
    """(bare node, dominant definition node) for each short form split from its definition."""
    entities = [node for node in graph["nodes"] if node.get("label") != "Paper"]
    defined: dict[str, list[dict]] = defaultdict(list)
    for node in entities:
        if node.get("acronym") and node.get("long_form"):
            defined[_key(node["acronym"])].append(node)
    found = []
    for node in entities:
        if node.get("long_form") or not SHORT_FORM.match(node["name"]):
            continue
        definitions = [d for d in defined.get(_key(node["name"]), []) if d["key"] != node["key"]]
        if definitions:
            found.append((node, max(definitions, key=lambda d: (d.get("papers", 0), d["key"]))))
    return sorted(found, key=lambda pair: (-pair[0].get("papers", 0), pair[0]["key"]))


def top_short_forms(graph: dict, count: int = 30) -> list[tuple[str, int, list[dict]]]:
    """The `count` acronyms (short forms some node has a long form for) in the most papers, with every
    node carrying or named by them."""
    nodes: dict[str, list[dict]] = defaultdict(list)
    for node in graph["nodes"]:
        if node.get("label") == "Paper":
            continue
        if node.get("acronym"):
            nodes[_key(node["acronym"])].append(node)
        elif SHORT_FORM.match(node["name"]):
            nodes[_key(node["name"])].append(node)
    defined = {short: group for short, group in nodes.items() if any(n.get("long_form") for n in group)}
    ranked = sorted(defined.items(), key=lambda item: (-sum(n.get("papers", 0) for n in item[1]), item[0]))
    return [(short, sum(n.get("papers", 0) for n in group), group) for short, group in ranked[:count]]


def judge(short: str, group: list[dict]) -> tuple[dict, list[dict], list[tuple[dict, dict]], list[dict]]:
    """(dominant sense, bare nodes, variants left split as (variant, the sense it varies), distinct senses) of a
    short form's nodes. The dominant sense is the node defining it in the most papers; a bare node is another
    one named by the short form; a variant is a node whose long form's words (stemmed, function words out)
    are all among another sense's ('natural processing', 'language modeling', 'Dialectal'); the rest are
    senses of their own. Judged from the names alone, apart from the builder's rules. (`misnamed` tells
    whether the dominant node goes by another thing's name.)"""
    defining = [n for n in group if n.get("long_form")]
    dominant = max(defining, key=lambda n: (n.get("papers", 0), n["key"]))
    bare = [n for n in group if n is not dominant and _key(n["name"]) == short]
    others = sorted((n for n in defining if n is not dominant and n not in bare),
                    key=lambda n: (-n.get("papers", 0), n["key"]))
    variants, distinct = [], []
    for node in others:
        words = _stems(node["long_form"])
        sense = next((other for other in [dominant, *others] if other is not node
                      and other.get("papers", 0) >= node.get("papers", 0) and words <= _stems(other["long_form"])),
                     None)
        if sense is None:
            sense = next((other for other in [dominant, *others] if other is not node
                          and _stems(other["long_form"]) < words and other.get("papers", 0) > node.get("papers", 0)),
                         None)
        if sense is not None:
            variants.append((node, sense))
        else:
            distinct.append(node)
    return dominant, bare, variants, distinct


def misnamed(short: str, node: dict) -> bool:
    """The node is named neither by its long form nor by the short form: another thing merged into it
    ('machine learning' carrying SVM = support vector machine)."""
    return _key(node["name"]) != short and _stems(node["name"]) != _stems(node["long_form"])


_FUNCTION_WORDS = frozenset({"a", "an", "and", "for", "in", "of", "on", "the", "to", "with"})


def _stems(name: str) -> frozenset[str]:
    """A long form's content words, crudely stemmed: 'modelling', 'modeling', 'models' -> 'model'."""
    stems = set()
    for word in re.split(r"[^a-z0-9]+", name.lower()):
        if not word or word in _FUNCTION_WORDS:
            continue
        for suffix in ("ing", "ed", "s"):
            if len(word) > len(suffix) + 2 and word.endswith(suffix) and not word.endswith("ss"):
                word = word[:-len(suffix)]
                break
        if len(word) > 3 and word[-1] == word[-2]:
            word = word[:-1]
        stems.add(word.removesuffix("e") if len(word) > 3 else word)
    return frozenset(stems)


def sweep(extractions: Path, shares: list[float]) -> None:
    """Build the graph from saved extraction lines once per dominant-share threshold; print the splits
    left and how many short forms with rival definitions the threshold hands to their top one."""
    from paperkg.core.schema import Extraction
    from paperkg.graph import resolve
    from paperkg.admit.admission import admit_all
    from paperkg.graph.builder import GraphBuilder

    lines = extractions.read_text(encoding="utf8").splitlines()
    print(f"{'share':>6} {'splits':>7} {'split papers':>13} {'rival senses merged':>20}")
    for share in shares:
        resolve.DOMINANT_SHARE = share
        builder = GraphBuilder()
        builder.add_all(admit_all(Extraction.from_json(line, f"{extractions}:{n}") for n, line in enumerate(lines, 1)))
        rivals = sum(1 for senses in _senses(builder).values()
                     if len(senses) > 1 and resolve._dominates(senses, max(senses, key=senses.get)))
        graph = builder.finalize()
        found = splits({"nodes": [data for _, data in graph.nodes(data=True)]})
        print(f"{share:>6.2f} {len(found):>7} {sum(b.get('papers', 0) for b, _ in found):>13} {rivals:>20}")


def _senses(builder) -> dict[str, dict[str, int]]:
    """Short form -> {long form: papers defining it}, from the builder's papers before it finalises."""
    senses: dict[str, Counter[str]] = defaultdict(Counter)
    for entry in builder.papers.values():
        for short, (form, _) in entry.defines.items():
            senses[short][form] += 1
    return senses


def _key(short: str) -> str:
    """The short form as compared: a plural 's' dropped ('LLMs' -> 'LLM')."""
    return short[:-1] if len(short) > 2 and short.endswith("s") and short[-2].isupper() else short


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("graph", nargs="?", type=Path, help="graph.json of a build")
    parser.add_argument("--slice", type=Path, help="write the ACL 2020-2021 sample to this JSONL file and stop")
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--year", type=int, action="append", help="years of the slice (default 2020 and 2021)")
    parser.add_argument("--show", type=int, default=25, help="split nodes to print")
    parser.add_argument("--sweep", type=Path,
                        help="extractions.jsonl to build once per --share (the threshold measured)")
    parser.add_argument("--share", type=float, action="append", help="dominant-share thresholds for --sweep")
    args = parser.parse_args()
    if args.slice:
        years = tuple(args.year or (2020, 2021))
        print(f"{write_slice(args.slice, args.size, years)} abstracts -> {args.slice}")
        return
    if args.sweep:
        sweep(args.sweep, args.share or [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0])
        return
    if args.graph is None:
        sys.exit("name a graph.json, or --slice FILE to write the sample")
    graph = json.loads(args.graph.read_text(encoding="utf8"))
    found = splits(graph)
    print(f"{len(found)} bare short-form nodes whose dominant definition is another node")
    for bare, definition in found[:args.show]:
        print(f"  {bare['name']!r} ({bare.get('papers', 0)} papers, {bare['label']}) -> "
              f"{definition['name']!r} ({definition.get('papers', 0)} papers, {definition['label']})")
    top = top_short_forms(graph)
    judged = [(short, papers, *judge(short, group)) for short, papers, group in top]
    whole = [short for short, _, dominant, bare, variants, _ in judged
             if not bare and not variants and not misnamed(short, dominant)]
    print(f"\n{len(whole)} of the {len(top)} acronyms in the most papers are one node with their long form, "
          f"no bare node, every other node a sense of its own; "
          f"{sum(len(v) for *_, v, _ in judged)} variants left split, "
          f"{sum(len(b) for *_, b, _, _ in judged)} bare nodes, "
          f"{sum(misnamed(short, dominant) for short, _, dominant, *_ in judged)} named by another thing")
    for short, papers, dominant, bare, variants, distinct in judged:
        mark = "ok" if short in whole else "NO"
        print(f"  {mark} {short:10} {papers:5}  {dominant['name']} [{dominant['label']}, {dominant.get('papers', 0)}]"
              + (f"  (long form {dominant['long_form']!r}: another thing merged in)"
                 if misnamed(short, dominant) else ""))
        for node in bare:
            print(f"        bare node: {node['name']} [{node['label']}, {node.get('papers', 0)}]")
        for node, sense in variants:
            print(f"        variant left split: {node['name']} [{node['label']}, {node.get('papers', 0)}] "
                  f"of {sense['name']}")
        if distinct:
            print("        other senses: " + "; ".join(
                f"{n['long_form']} [{n['label']}, {n.get('papers', 0)}]" for n in distinct))


if __name__ == "__main__":
    main()
