"""`paperkg eval entities`: the pipeline's graph-level entities scored against a benchmark file.

The whole pipeline runs on the benchmark's own tokens; what is scored is doc.spans["entities"] in
paperkg's types (by default only the mentions that become graph nodes; `mentions="all"` scores
every typed mention). Only the labels a format annotates are scored: a Method found in a TDMSci
sentence is neither right nor wrong. Conventions: TDMSci writes a name with its acronym as one
span, "named entity recognition ( NER )", so a predicted name directly followed by its bracketed
acronym is merged into one mention (the acronym is still resolved in the graph); SciERC's
Method/Task/Metric are scored with its "X ( ACR )" spans split the way paperkg writes them.
Figures: exact match (start, end and label equal) micro and per label, labels ignored, and
overlap match (same label, any token in common).
"""
from __future__ import annotations

import time
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterable
from itertools import accumulate
from pathlib import Path
from typing import Any

from spacy.language import Language
from spacy.tokens import Doc

from ..entities import SPANS_KEY, entities_key
from .benchmarks import Record, read_benchmark

SCORED = {"scierc": ("Method", "Task", "Metric"), "tdmsci": ("Task", "Dataset", "Metric"),
          "scier": ("Method", "Task", "Dataset")}
Mention = tuple[str, int, int, str]  # (document key, start, end exclusive, label)


def prf(tp: int, predicted: int, gold: int) -> dict[str, float | int]:
    """Precision, recall and F1 (0.0 where undefined) with the counts behind them."""
    p = tp / predicted if predicted else 0.0
    r = tp / gold if gold else 0.0
    return {"p": p, "r": r, "f1": 2 * p * r / (p + r) if p + r else 0.0, "tp": tp, "predicted": predicted,
            "gold": gold}


def split_acronym_pair(start: int, end: int, label: str, words: list[str]) -> list[tuple[int, int, str]]:
    """A gold span "X ( ACR )" (one to three tokens in the brackets, none in X) as the two
    mentions paperkg writes, X and ACR; any other span as it is."""
    for inner in (1, 2, 3):
        open_at = end - inner - 2
        if end - start >= inner + 3 and words[end - 1] == ")" and words[open_at] == "(":
            head = words[start:open_at]
            if head and "(" not in head and ")" not in head:
                return [(start, open_at, label), (open_at + 1, end - 1, label)]
    return [(start, end, label)]


def merge_acronym_pairs(spans: Iterable[tuple[int, int, str]], words: list[str]) -> list[tuple[int, int, str]]:
    """Predicted "X" and "ACR" in "X ( ACR )" as one mention over all of it, labelled as X."""
    spans = sorted(spans)
    by_start = {s: (s, e, label) for s, e, label in spans}
    out, merged = [], set()
    for s, e, label in spans:
        if (s, e, label) in merged:
            continue
        inner = by_start.get(e + 1)
        if inner and e < len(words) and words[e] == "(" and inner[1] < len(words) and words[inner[1]] == ")":
            out.append((s, inner[1] + 1, label))
            merged.add(inner)
        else:
            out.append((s, e, label))
    return out


def gold_mentions(record: Record, fmt: str) -> list[tuple[int, int, str]]:
    """The gold mentions scored for a record in paperkg's types and conventions."""
    if fmt == "scierc":
        return [piece for s, e, label in record.spans if label in SCORED["scierc"]
                for piece in split_acronym_pair(s, e, label, record.words)]
    return list(record.spans)


def predicted_mentions(doc: Doc, fmt: str, mentions: str, key: str = SPANS_KEY) -> list[tuple[int, int, str]]:
    """The pipeline's entity mentions of a Doc, in span group `key` ("nodes": only those that become graph nodes)."""
    spans = [(s.start, s.end, s.label_) for s in doc.spans.get(key, [])
             if mentions == "all" or s._.paperkg_node]
    return merge_acronym_pairs(spans, [t.text for t in doc]) if fmt == "tdmsci" else spans


def score(gold: Iterable[Mention], predicted: Iterable[Mention], labels: tuple[str, ...]) -> dict[str, Any]:
    """Exact, label-ignored and overlap P/R/F1 over `labels` (other labels are not scored)."""
    gold = {m for m in gold if m[3] in labels}
    predicted = {m for m in predicted if m[3] in labels}
    hits = gold & predicted
    result: dict[str, Any] = {
        "labels": list(labels),
        "exact": prf(len(hits), len(predicted), len(gold)),
        "per_label": {label: prf(sum(m[3] == label for m in hits), sum(m[3] == label for m in predicted),
                                 sum(m[3] == label for m in gold)) for label in labels},
        "unlabelled": prf(len({m[:3] for m in gold} & {m[:3] for m in predicted}),
                          len({m[:3] for m in predicted}), len({m[:3] for m in gold})),
    }
    p = _share_overlapping(predicted, gold) if predicted else 0.0
    r = _share_overlapping(gold, predicted) if gold else 0.0
    result["overlap"] = {"p": p, "r": r, "f1": 2 * p * r / (p + r) if p + r else 0.0}
    return result


def _share_overlapping(mentions: set[Mention], others: set[Mention]) -> float:
    """The share of `mentions` that overlap a mention of `others` with the same key and label: per
    (key, label), `others` sorted by start with the running maximum of their ends, one bisection each."""
    grouped: dict[tuple[str, str], list[tuple[int, int]]] = defaultdict(list)
    for key, start, end, label in others:
        grouped[(key, label)].append((start, end))
    reach: dict[tuple[str, str], tuple[list[int], list[int]]] = {}
    for group, spans in grouped.items():
        spans.sort()
        reach[group] = ([start for start, _ in spans], list(accumulate((end for _, end in spans), max)))
    found = 0
    for key, start, end, label in mentions:
        starts, ends = reach.get((key, label), ((), ()))
        before = bisect_left(starts, end)  # the others that start before this mention ends
        found += before > 0 and ends[before - 1] > start
    return found / len(mentions)


def run(nlp: Language, path: Path, fmt: str, *, split: str | None = "dev", mentions: str = "nodes") -> dict[str, Any]:
    """Run the pipeline on a benchmark file's own tokens and score its entities (see the module doc)."""
    records = read_benchmark(fmt, path, split if fmt == "tdmsci" else None)
    docs = [record.doc(nlp.vocab) for record in records]
    started = time.perf_counter()
    docs = list(nlp.pipe(docs, batch_size=32))
    seconds = time.perf_counter() - started
    gold = [(r.key, s, e, label) for r in records for s, e, label in gold_mentions(r, fmt)]
    key = entities_key(nlp)
    predicted = [(r.key, s, e, label) for r, doc in zip(records, docs)
                 for s, e, label in predicted_mentions(doc, fmt, mentions, key)]
    result = score(gold, predicted, SCORED[fmt])
    words = sum(len(doc) for doc in docs)
    result.update(file=str(path), format=fmt, split=split if fmt == "tdmsci" else None, mentions=mentions,
                  documents=len(docs), words=words, seconds=seconds,
                  words_per_second=words / seconds if seconds else 0.0)
    return result


def format_report(result: dict[str, Any]) -> str:
    """The scores as a plain-text table: per label, then exact micro, labels ignored and overlap."""
    rows = [(label, result["per_label"][label]) for label in result["labels"]]
    rows += [("exact micro", result["exact"]), ("labels ignored", result["unlabelled"]),
             ("overlap, same label", result["overlap"])]
    split = f" ({result['split']} split)" if result["split"] else ""
    return score_table(f"{result['format']}{split}, {result['mentions']} mentions: {result['documents']} documents, "
                       f"{result['words']:,} words, {result['words_per_second']:,.0f} words/s", rows)


def score_table(heading: str, rows: list[tuple[str, dict[str, Any]]]) -> str:
    """A heading line, then one P/R/F1 (gold, predicted) line per named score, names aligned."""
    width = max(len(name) for name, _ in rows)
    lines = [heading, f"{'':<{width}}  {'P':>6} {'R':>6} {'F1':>6} {'gold':>6} {'pred':>6}"]
    for name, s in rows:
        lines.append(f"{name:<{width}}  {s['p']:6.3f} {s['r']:6.3f} {s['f1']:6.3f} "
                     f"{s.get('gold', ''):>6} {s.get('predicted', ''):>6}")
    return "\n".join(lines)
