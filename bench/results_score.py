"""Score predicted result statements against a hand-made set of issue 36, by the matching rules of its README.

    python bench/results_score.py bench/data/results_dev predicted.jsonl [--list]

`predicted.jsonl` has the gold set's record shape, one line an abstract: {"id": ..., "results": [{"value": "28.4",
"value_span": [s, e] (optional), "kind": "absolute"|"change", "metric": ..., "dataset": ..., "method": ...,
"proposed": true|false}, ...]}; abstracts it leaves out count as predicting nothing. Prints precision, recall and
method accuracy of result tuples (value, metric, data set and kind right), and the predictions that are no result;
`--list` also prints every wrong prediction and every missed gold tuple.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

from results_gold import numbers

ALIASES = [{"f1", "f", "fmeasure", "fscore"}, {"accuracy", "acc"}, {"em", "exactmatch"},
           {"mae", "meanabsoluteerror"}, {"wer", "worderrorrate"}, {"cer", "charactererrorrate"},
           {"iou", "intersectionoverunion"}, {"map", "meanaverageprecision"}, {"bleu", "bleu4"}]
CANONICAL = {name: sorted(group)[0] for group in ALIASES for name in group}
DATASET_WORDS = re.compile(r"^the\s+|\s+(?:datasets?|data set|benchmarks?|corpus)$")


def metric_key(name: str) -> str:
    """A metric's comparable form: lower case, no spaces or -_/, no trailing "(acronym)", "score" or plural s,
    aliases folded."""
    key = re.sub(r"[\s\-_/]+", "", re.sub(r"\s*\([^)]*\)$", "", name.lower()))
    if re.search(r"(?:rate|error|score)s$", key):
        key = key[:-1]
    if key.endswith("score") and len(key) > 6 and key != "bertscore":
        key = key[:-5]
    for prefix in ("average", "mean"):
        if key.startswith(prefix) and key[len(prefix):] in CANONICAL:
            return prefix + CANONICAL[key[len(prefix):]]
    return CANONICAL.get(key, key)


def name_key(name: str) -> str:
    """A data set's or method's comparable form: lower case, letters and digits, no leading "the" or trailing
    "dataset"/"benchmark"/"corpus"."""
    return re.sub(r"[^0-9a-z]+", "", DATASET_WORDS.sub("", name.lower().strip()))


def same(gold: str | None, predicted: str | None, key: Callable[[str], str]) -> bool:
    """Both null, or the prediction (or one of its ` ; ` parts) equal after `key` to a ` ; ` alternative of the gold."""
    if gold is None or predicted is None:
        return gold is None and predicted is None
    return bool({key(part) for part in predicted.split(" ; ")} & {key(part) for part in gold.split(" ; ")})


def value_numbers(value: str) -> list[float]:
    """The numbers of a value as decimals, thousands commas removed."""
    return [float(number) for number in numbers(re.sub(r"(?<=\d),(?=\d{3})", "", value))]


def overlaps(a: list[int] | None, b: list[int]) -> bool:
    """Whether two character spans share a character (a missing predicted span overlaps anything)."""
    return a is None or (a[0] < b[1] and b[0] < a[1])


def right(gold: dict, predicted: dict, repeated: bool) -> bool:
    """The README's rule: same numbers (and overlapping spans for a repeated value), metric, data set and kind."""
    return (value_numbers(gold["value"]) == value_numbers(predicted["value"])
            and (not repeated or overlaps(predicted.get("value_span"), gold["value_span"]))
            and gold["kind"] == predicted.get("kind") and same(gold["metric"], predicted.get("metric"), metric_key)
            and same(gold["dataset"], predicted.get("dataset"), name_key))


def method_right(gold: dict, predicted: dict) -> bool:
    """Both the paper's own method, or the same name (an alternative), or both null."""
    return (gold["proposed"] and bool(predicted.get("proposed"))) or same(gold["method"], predicted.get("method"),
                                                                           name_key)


def score(gold: dict[str, list[dict]], predicted: dict[str, list[dict]]) -> dict:
    """Pair each prediction with an unpaired gold tuple it gets right; count pairs, methods and non-results."""
    tally = {"gold": 0, "predicted": 0, "right": 0, "method_right": 0}
    wrong, missed, not_results = [], [], []
    for key, golds in gold.items():
        paired: set[int] = set()
        counts = [sum(value_numbers(g["value"]) == value_numbers(x["value"]) for x in golds) for g in golds]
        for prediction in predicted.get(key, []):
            match = next((i for i, g in enumerate(golds) if i not in paired and right(g, prediction, counts[i] > 1)),
                         None)
            if match is None:
                wrong.append((key, prediction))
                span = prediction.get("value_span")
                if not any((span is not None and overlaps(span, g["value_span"])) or
                           (span is None and value_numbers(g["value"]) == value_numbers(prediction["value"]))
                           for g in golds):
                    not_results.append((key, prediction))
                continue
            paired.add(match)
            tally["right"] += 1
            tally["method_right"] += method_right(golds[match], prediction)
        tally["gold"] += len(golds)
        tally["predicted"] += len(predicted.get(key, []))
        missed += [(key, g) for i, g in enumerate(golds) if i not in paired]
    return {**tally, "wrong": wrong, "missed": missed, "not_results": not_results}


def read(path: Path) -> dict[str, list[dict]]:
    """The results of a JSON-lines file by abstract id."""
    return {record["id"]: record["results"] for record in map(json.loads, path.read_text(encoding="utf8").splitlines())
            if record}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path, help="a hand-made set: bench/data/results_dev or results_blind")
    parser.add_argument("predicted", type=Path, help="predicted results, JSON lines of the gold record shape")
    parser.add_argument("--list", action="store_true", help="print every wrong prediction and missed gold tuple")
    args = parser.parse_args()
    gold_path = args.folder / "results.jsonl"
    try:
        gold = read(gold_path)
    except (OSError, ValueError, KeyError, TypeError) as error:
        sys.exit(f"error: cannot read the gold set {gold_path}: {error}")
    try:
        predicted = read(args.predicted)
    except (OSError, ValueError, KeyError, TypeError) as error:
        sys.exit(f"error: cannot read {args.predicted} (JSON lines with id and results): {error}")
    unknown = sorted(set(predicted) - set(gold))
    if unknown:
        sys.exit(f"error: {args.predicted} has {len(unknown)} ids not in {args.folder}, the first {unknown[0]}")
    valueless = next((key for key, items in predicted.items()
                      if any(not isinstance(item.get("value"), str) for item in items)), None)
    if valueless is not None:
        sys.exit(f"error: {args.predicted}: a result of {valueless} has no string \"value\"")
    result = score(gold, predicted)
    precision = result["right"] / result["predicted"] if result["predicted"] else 0.0
    recall = result["right"] / result["gold"] if result["gold"] else 0.0
    method = result["method_right"] / result["right"] if result["right"] else 0.0
    print(f"precision {precision:.3f} ({result['right']}/{result['predicted']})  recall {recall:.3f} "
          f"({result['right']}/{result['gold']})  method {method:.3f} ({result['method_right']}/{result['right']})  "
          f"numbers that are no result: {len(result['not_results'])}")
    for key, item in result["not_results"]:
        print(f"  no result: {key} {item['value']!r} ({item.get('metric')}, {item.get('dataset')})")
    if args.list:
        for label in ("wrong", "missed"):
            for key, item in result[label]:
                print(f"  {label}: {key} {item['value']!r} {item.get('kind')} | {item.get('metric')} | "
                      f"{item.get('dataset')} | {item.get('method')}")


if __name__ == "__main__":
    main()
