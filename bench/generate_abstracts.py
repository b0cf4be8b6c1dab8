"""Make N distinct, realistic abstracts from the shared corpus, for builds beyond its 126,678.

    .venv/bin/python bench/generate_abstracts.py 1000000 /tmp/abstracts-1m.jsonl.gz

Each output abstract is a real one (taken in a seeded order, cycling through the corpus) with its
names renewed, consistently within the abstract:
- defined acronyms get a new long form and the acronym of its initials ("Graph Neural Network
  (GNN)" -> "Sparse Kernel Attention (SKA)"), and every other use of the old acronym follows;
- other acronym-like names (BERT, LLaMA-2) and data set names (CIFAR-10, SQuAD) become new
  pronounceable names with the same shape and suffix;
- years in the text and the `year` field move by the same offset;
- every abstract ends with one of a few naming sentences ("We call the resulting method
  Trelvex (TMA) and release the Skorn-12 benchmark."), so no two abstracts are equal even when
  one source abstract is used again or holds no name to renew.
The words of the new long forms come from the corpus's own long forms, so the text reads like
the field. Ids are `gen-0000001`...; the output is the same for the same arguments.
"""
from __future__ import annotations

import argparse
import gzip
import json
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus" / "abstracts" / "abstracts.jsonl.gz"
SEED = 7

DEFINITION = re.compile(r"((?:[A-Za-z][\w-]*\s+){1,5}[A-Za-z][\w-]*)\s+\(([A-Z][A-Za-z0-9-]{1,9})\)")
NAME = re.compile(r"\b(?=[A-Za-z0-9-]*[A-Z][A-Za-z0-9-]*[A-Z])([A-Z][A-Za-z]*[A-Z][A-Za-z]*)((?:-[0-9][\w.]*)?)\b")
YEAR = re.compile(r"\b(19[5-9][0-9]|20[0-2][0-9])\b")
ONSETS = "b c d f g h j k l m n p r s t v w z br cr dr fl gr kl pr st tr th sh ch".split()
VOWELS = "a e i o u ai ea io ou".split()
CODAS = ["", "", "n", "r", "s", "x", "l", "m", "t", "nd", "rk", "st"]
CLOSINGS = ("We call the resulting method {name} ({acronym}) and release the {dataset} benchmark.",
            "Code for {name} ({acronym}) and the {dataset} data set is released.",
            "On {dataset}, {name} ({acronym}) improves over the strongest baseline.",
            "We name this approach {name} ({acronym}); results on {dataset} support it.")


def corpus_lines(path: Path) -> list[str]:
    with gzip.open(path, "rt", encoding="utf8") as handle:
        return handle.readlines()


def long_form_words(lines: list[str]) -> list[str]:
    """Content words of the corpus's acronym long forms (the vocabulary new long forms use)."""
    words: set[str] = set()
    for line in lines[::7]:
        for long_form, _ in DEFINITION.findall(json.loads(line)["abstract"]):
            words.update(w.lower() for w in long_form.split()[-3:] if w.isalpha() and len(w) > 3)
    return sorted(words)


def pseudo_word(rng: random.Random, syllables: int) -> str:
    return "".join(rng.choice(ONSETS) + rng.choice(VOWELS) + rng.choice(CODAS) for _ in range(syllables))


def renew(record: dict, index: int, vocabulary: list[str]) -> dict:
    """The record with new names, acronyms, data sets and years (seeded by its output index)."""
    rng = random.Random(f"{SEED}:{index}")
    text = record["abstract"]
    mapping: dict[str, str] = {}
    fresh_names: set[str] = set()

    def new_definition(match: re.Match) -> str:
        long_form, short = match.group(1), match.group(2)
        count = max(2, min(5, sum(1 for c in short if c.isupper())))
        words = [rng.choice(vocabulary) for _ in range(count)]
        acronym = "".join(w[0].upper() for w in words) + (short[-1] if short[-1].isdigit() else "")
        mapping.setdefault(short, acronym)
        fresh_names.add(mapping[short])
        lead = long_form.split()[:-count] if len(long_form.split()) > count else []
        return " ".join(lead + [w.capitalize() for w in words]) + f" ({mapping[short]})"

    def new_name(match: re.Match) -> str:
        name, suffix = match.group(1), match.group(2)
        if name in fresh_names:
            return match.group(0)
        if name.endswith("s") and name[:-1] in mapping:  # "CNNs" after "(CNN)"
            return mapping[name[:-1]] + "s" + suffix
        if name not in mapping:
            fresh = pseudo_word(rng, max(1, min(3, len(name) // 3)))
            mapping[name] = fresh.upper() if name.isupper() else fresh[:1].upper() + fresh[1:]
            fresh_names.add(mapping[name])
        return mapping[name] + suffix

    offset = rng.randint(1, 30)
    text = DEFINITION.sub(new_definition, text)
    text = NAME.sub(new_name, text)
    text = YEAR.sub(lambda m: str(min(2099, int(m.group(1)) + offset)), text)
    words = [rng.choice(vocabulary) for _ in range(3)]
    name = pseudo_word(rng, 2).capitalize()
    text += " " + rng.choice(CLOSINGS).format(
        name=name, acronym="".join(w[0].upper() for w in words) if rng.random() < 0.5 else name.upper()[:4],
        dataset=f"{pseudo_word(rng, 1).capitalize()}-{rng.randint(2, 99)}")
    title = NAME.sub(lambda m: mapping.get(m.group(1), m.group(1)) + m.group(2), record.get("title") or "")
    year = record.get("year")
    return {"id": f"gen-{index:07d}", "title": title, "abstract": text,
            "year": int(year) + offset if isinstance(year, int) or str(year).isdigit() else None,
            "venue": record.get("venue")}


def generate(lines: list[str], count: int) -> Iterator[dict]:
    order = list(range(len(lines)))
    random.Random(SEED).shuffle(order)
    vocabulary = long_form_words(lines)
    for index in range(count):
        yield renew(json.loads(lines[order[index % len(order)]]), index, vocabulary)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("count", type=int)
    parser.add_argument("output", type=Path, help="a .jsonl or .jsonl.gz file (outside the repository)")
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    args = parser.parse_args()
    lines = corpus_lines(args.corpus)
    opener = gzip.open if args.output.suffix == ".gz" else open
    with opener(args.output, "wt", encoding="utf8") as out:
        for number, record in enumerate(generate(lines, args.count), start=1):
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
            if number % 100_000 == 0:
                print(f"{number:,} abstracts", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
