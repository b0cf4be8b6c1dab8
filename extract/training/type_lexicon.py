"""Write graph/data/type_lexicon.tsv: the names the training data types, each with its one type (issue 31).

    python -m paperkg.extract.training.type_lexicon ../shared/benchmarks > graph/data/type_lexicon.tsv

From the train splits only: SciER train (Method, Task, Dataset), SciERC train (Method, Task, Metric) and
TDMSci's train part (Task, Dataset, Metric; its held-out dev part is left out). A name is listed when it is
annotated at least MIN_COUNT times and one type holds at least MIN_SHARE of them (SciER, which annotates no
metrics, does not count for a name another set annotates as a Metric); the key is the name's group
form (core.canonical.group_form), so the graph looks a node's names up hyphen-, space- and plural-blind.
"""
from __future__ import annotations

import sys
from collections import Counter, defaultdict
from pathlib import Path

from paperkg.core.canonical import group_form
from paperkg.extract.evaluate.benchmarks import read_benchmark

MIN_COUNT, MIN_SHARE = 2, 0.8
SOURCES = (("scier", "scier/train.jsonl", None), ("scierc", "scierc/train.json", None),
           ("tdmsci", "tdmsci/train.conll", "train"))
LABELS = frozenset({"Method", "Task", "Dataset", "Metric"})


def _name(words: list[str]) -> str:
    """A benchmark span's tokens as written: 'BERT - base' -> 'BERT-base'."""
    return " ".join(words).replace(" - ", "-").replace(" / ", "/")


def type_counts(benchmarks: Path) -> dict[str, Counter[str]]:
    """Group form -> how often each type annotates a name of that form in the train splits; a name another set
    annotates as a Metric does not count SciER's types (SciER annotates no metrics: its 'ROUGE-L' is a Method)."""
    counts: dict[str, dict[str, Counter[str]]] = defaultdict(lambda: defaultdict(Counter))
    for fmt, file, split in SOURCES:
        for record in read_benchmark(fmt, benchmarks / file, split=split):
            for start, end, label in record.spans:
                if label in LABELS:
                    counts[group_form(_name(record.words[start:end]))][fmt][label] += 1
    merged: dict[str, Counter[str]] = {}
    for form, by_set in counts.items():
        metric = any(by_set[fmt]["Metric"] for fmt in by_set)
        merged[form] = sum((c for fmt, c in by_set.items() if not (metric and fmt == "scier")), Counter())
    return merged


def lexicon_rows(counts: dict[str, Counter[str]]) -> list[tuple[str, str, int]]:
    """(form, type, count) of each form one type dominates, sorted by form."""
    rows = []
    for form, labels in sorted(counts.items()):
        label, top = min(labels.items(), key=lambda item: (-item[1], item[0]))
        total = sum(labels.values())
        if form and total >= MIN_COUNT and top >= MIN_SHARE * total:
            rows.append((form, label, total))
    return rows


def main() -> None:
    benchmarks = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("../shared/benchmarks")
    sys.stdout.write("# form\ttype\tcount (extract/training/type_lexicon.py from the train splits)\n")
    for form, label, total in lexicon_rows(type_counts(benchmarks)):
        sys.stdout.write(f"{form}\t{label}\t{total}\n")


if __name__ == "__main__":
    main()
