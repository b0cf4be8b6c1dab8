"""Words per second of the shipped SciERC model (and the default pipeline when given).

Runs on SciERC dev abstracts in two ways: on the benchmark's tokens (what `paperkg eval
scierc` times) and on raw text through the tokenizer (what `paperkg build` pays).
Usage: python bench/scierc_ner_speed.py [DEV_JSON] [--repeat N] [--pipeline MODULE:FUNC]
"""
from __future__ import annotations

import argparse
import importlib
import json
import platform
import time
from pathlib import Path

import spacy

from paperkg.extract.evaluate.scierc import load_model
from paperkg.extract.training.convert import read_scierc, to_doc

DEFAULT_DEV = Path(__file__).resolve().parents[2] / "shared" / "benchmarks" / "scierc" / "dev.json"


def words_per_second(nlp, make_inputs, words: int) -> float:
    """Best of three passes of nlp.pipe over fresh inputs (one process)."""
    best = float("inf")
    for _ in range(3):
        inputs = make_inputs()
        started = time.perf_counter()
        for _doc in nlp.pipe(inputs, batch_size=64):
            pass
        best = min(best, time.perf_counter() - started)
    return words / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("dev", nargs="?", type=Path, default=DEFAULT_DEV)
    parser.add_argument("--repeat", type=int, default=4, help="copies of the dev set per pass")
    parser.add_argument("--pipeline", help="MODULE:FUNC returning the pipeline to time instead")
    args = parser.parse_args()
    if args.pipeline:
        module, func = args.pipeline.split(":")
        nlp = getattr(importlib.import_module(module), func)()
    else:
        nlp = load_model()
    abstracts = list(read_scierc(args.dev)) * args.repeat
    texts = [" ".join(a.words) for a in abstracts]
    n_words = sum(len(a.words) for a in abstracts)
    print(json.dumps({
        "pipeline": nlp.pipe_names, "spacy": spacy.__version__, "python": platform.python_version(),
        "words": n_words,
        "words_per_second_given_tokens": round(words_per_second(
            nlp, lambda: [to_doc(nlp.vocab, a, with_entities=False) for a in abstracts], n_words)),
        "words_per_second_raw_text": round(words_per_second(nlp, lambda: texts, n_words)),
    }, indent=2))


if __name__ == "__main__":
    main()
