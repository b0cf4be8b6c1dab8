"""Turn the hand-written result annotations of issue 36 into results.jsonl, check them, and count them.

    python bench/results_gold.py bench/data/results_dev      # reads annotations.txt and sample.jsonl
    python bench/results_gold.py bench/data/results_blind

`annotations.txt` is the annotator's shorthand (the folder's README gives the full conventions):

    @ <id> | <method of the paper's results, PROPOSED, or !name for a method not the paper's> | <task or ->
    <value>[#n | @context] | <kind> | <unit> | <metric> | <dataset> | <comparison> | <method> | <task> | <flags>

kind is `a` (absolute) or `c+`, `c-`, `c` (a change up, down, or without direction), with `r` after `c` for a
relative change (`cr-`) and after `a` for a share of a compared figure (`ar`: "99.6% of the full model's score");
unit `%`, `points`, `x` or `-`; `-` is null; a method or task left out or `=` is the header's (a header method is
the paper's own, `proposed`, unless written `!name`); flags: `i` (metric or dataset implied by another sentence or
the title), `P` (a method written on the line is the paper's own). `#n` takes the n-th occurrence of the value,
`@context` the occurrence inside a unique context string. Every line is checked: the value at its span, and the
metric, dataset, comparison, method and task written in the title or abstract (each ` ; ` alternative).
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

UNITS = {"%": "%", "points": "points", "x": "x", "-": None}
KINDS = re.compile(r"^(a(r?)|c(r?)([+-]?))$")
UNIT_MARKS = re.compile(r"(?<=\d)\s?(?:%|×|x)(?=$|\W)")
ABBREVIATIONS = re.compile(r"(?:\b(?:e\.g|i\.e|et al|vs|cf|Fig|Eq|approx|resp|etc|No|Sec)|\b[A-Z])\.$")


def sentences(text: str) -> list[tuple[int, int]]:
    """Character spans of an abstract's sentences: a full stop, ! or ? then a space and a letter, digit or bracket."""
    spans, start = [], 0
    for match in re.finditer(r"[.!?](?=\s+[\"“(\[A-Za-z0-9$]|[A-Z][a-z])", text):
        end = match.end()
        decimal = re.search(r"\d\.$", text[start:end]) and text[end:end + 1].isdigit()
        if ABBREVIATIONS.search(text[start:end]) or decimal:
            continue
        spans.append((start, end))
        start = end + len(text[end:]) - len(text[end:].lstrip())
    spans.append((start, len(text)))
    return spans


def locate(value: str, abstract: str, where: str) -> tuple[int, int]:
    """The span of the value: its only standalone occurrence, the n-th (`#n`), or the one inside `@context`."""
    text, _, context = value.partition("@")
    text, _, nth = text.partition("#")
    pattern = re.compile(r"(?<![\d.])" + re.escape(text) + r"(?!\d|[.,]\d)")
    offset = 0
    if context:
        found = [m.start() for m in re.finditer(re.escape(context), abstract)]
        if len(found) != 1:
            raise ValueError(f"{where}: context {context!r} found {len(found)} times")
        offset = found[0]
        hits = [(offset + m.start(), offset + m.end()) for m in pattern.finditer(context)]
    else:
        hits = [(m.start(), m.end()) for m in pattern.finditer(abstract)]
    if not hits or (len(hits) > 1 and not nth):
        raise ValueError(f"{where}: value {text!r} found {len(hits)} times")
    index = int(nth) - 1 if nth else 0
    if index >= len(hits):
        raise ValueError(f"{where}: value {text!r} has no occurrence {nth}")
    return hits[index]


def written(name: str | None, text: str, where: str, label: str) -> None:
    """Fail unless every ` ; ` alternative of a name is written in the title or abstract (case-insensitive)."""
    if name is None or name == "PROPOSED":
        return
    for part in name.split(" ; "):
        if part.lower() not in text.lower():
            raise ValueError(f"{where}: {label} {part!r} is not written in the title or abstract")


def parse(annotations: Path, sample: dict[str, dict], partial: bool = False) -> list[dict]:
    """One record per sample abstract, in sample order, from the shorthand file (`partial`: only those annotated)."""
    results: dict[str, list[dict]] = {}
    current: str | None = None
    header_method = header_task = "-"
    header_own = True
    for number, line in enumerate(annotations.read_text(encoding="utf8").splitlines(), 1):
        where = f"{annotations}:{number}"
        if not line.strip() or line.startswith("#"):
            continue
        fields = [field.strip() for field in line.split(" | ")]
        if line.startswith("@"):
            current = fields[0][1:].strip()
            if current not in sample or current in results:
                raise ValueError(f"{where}: {current!r} is not a sample id or is annotated twice")
            header_method, header_task = (fields[1:] + ["-", "-"])[:2]
            header_own = not header_method.startswith("!")
            header_method = header_method.lstrip("!")
            results[current] = []
            continue
        if current is None:
            raise ValueError(f"{where}: a result line before the first @ line")
        row = sample[current]
        abstract, context = row["abstract"], row["title"] + "\n" + row["abstract"]
        fields += ["-"] * (6 - len(fields)) + ["="] * (8 - max(len(fields), 6)) + ["-"]
        value, kind, unit, metric, dataset, comparison, method, task, flags = fields[:9]
        kind_match = KINDS.match(kind)
        if kind_match is None or unit not in UNITS:
            raise ValueError(f"{where}: kind {kind!r} or unit {unit!r} unknown")
        start, end = locate(value, abstract, where)
        own = method == "=" and header_own or "P" in flags
        method = header_method if method == "=" else method
        task = header_task if task == "=" else task
        nulled = {name: (None if text == "-" else text) for name, text in
                  (("metric", metric), ("dataset", dataset), ("comparison", comparison), ("method", method),
                   ("task", task))}
        for label, name in nulled.items():
            written(name, context, where, label)
        sentence = next(span for span in sentences(abstract) if span[0] <= start < span[1])
        direction = {"+": "up", "-": "down"}.get(kind_match.group(4) or "")
        results[current].append({
            "value": UNIT_MARKS.sub("", abstract[start:end]), "value_span": [start, end], "unit": UNITS[unit],
            "kind": "absolute" if kind.startswith("a") else "change",
            "relative": bool(kind_match.group(2) or kind_match.group(3)),
            "direction": direction, **nulled, "proposed": own and nulled["method"] is not None,
            "implied": "i" in flags, "sentence": abstract[sentence[0]:sentence[1]], "sentence_span": list(sentence)})
    missing = [key for key in sample if key not in results]
    if missing and not partial:
        raise ValueError(f"{annotations}: {len(missing)} sample abstracts have no @ line, the first {missing[0]}")
    return [{"id": key, "results": results[key]} for key in sample if key in results]


def numbers(text: str) -> list[str]:
    """The numbers of a value, in order (how a value is compared)."""
    return re.findall(r"\d+(?:\.\d+)?", text)


def check(records: list[dict], sample: dict[str, dict]) -> None:
    """Fail unless each value's numbers are the numbers at its span and its sentence holds the span."""
    for record in records:
        abstract = sample[record["id"]]["abstract"]
        for result in record["results"]:
            start, end = result["value_span"]
            if numbers(abstract[start:end]) != numbers(result["value"]) or not numbers(result["value"]):
                raise ValueError(f"{record['id']}: value {result['value']!r} is not the text at {start}-{end}")
            s_start, s_end = result["sentence_span"]
            if not (s_start <= start and end <= s_end and abstract[s_start:s_end] == result["sentence"]):
                raise ValueError(f"{record['id']}: the sentence does not hold the value {result['value']!r}")


def counts(records: list[dict], fields: dict[str, str]) -> str:
    """A Markdown summary: abstracts and results per field, per kind, with metric, dataset and method present."""
    lines = ["| field | abstracts | with results | results | absolute | change | relative | metric | dataset "
             "| proposed method | named method | implied |", "|---" * 12 + "|"]
    groups = sorted(set(fields.values())) + ["all"]
    for group in groups:
        chosen = [r for r in records if group == "all" or fields[r["id"]] == group]
        results = [x for r in chosen for x in r["results"]]
        tally: Counter[str] = Counter()
        for x in results:
            tally["absolute" if x["kind"] == "absolute" else "change"] += 1
            tally["relative"] += x["relative"]
            tally["metric"] += x["metric"] is not None
            tally["dataset"] += x["dataset"] is not None
            tally["proposed"] += x["proposed"]
            tally["named"] += x["method"] not in (None, "PROPOSED")
            tally["implied"] += x["implied"]
        lines.append(f"| {group} | {len(chosen)} | {sum(bool(r['results']) for r in chosen)} | {len(results)} | "
                     + " | ".join(str(tally[k]) for k in ("absolute", "change", "relative", "metric", "dataset",
                                                          "proposed", "named", "implied")) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path, help="a folder with sample.jsonl and annotations.txt")
    parser.add_argument("--partial", action="store_true", help="accept abstracts not annotated yet (while annotating)")
    args = parser.parse_args()
    try:
        rows = [json.loads(line) for line in (args.folder / "sample.jsonl").read_text(encoding="utf8").splitlines()]
        sample = {row["id"]: row for row in rows}
        records = parse(args.folder / "annotations.txt", sample, args.partial)
        check(records, sample)
    except (ValueError, OSError) as error:
        sys.exit(f"error: {error}")
    with (args.folder / "results.jsonl").open("w", encoding="utf8") as handle:
        for record in records:
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    print(counts(records, {row["id"]: row["field"] for row in rows}))


if __name__ == "__main__":
    main()
