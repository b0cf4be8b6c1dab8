"""Corpus statistics for the termhood test: in how many abstracts of a field each word n-gram occurs.

A phrase that recurs across many papers is part of the field's vocabulary ("gaussian splatting",
"remote sensing"); a description made up for one paper ("dominant model class") is not. The table
counts n-grams of one to four tokens, tokenised by the pipeline's own tokenizer, lower-cased, the
last word singular (the form `Termhood` looks up), and keeps those in at least `min_df` abstracts.
Only rows whose licence lets a shipped artefact be learned from them are read (CC BY 4.0, CC0).
"""
from __future__ import annotations

import gzip
import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path

from spacy.tokenizer import Tokenizer

from paperkg.core.errors import PaperkgError
from paperkg.core.words import singular

SHIPPABLE_LICENCES = ("CC-BY-4.0", "CC0")
CORPUS_FILE = "abstracts.jsonl.gz"  # the shared corpus's file, looked for when a folder is given
MAX_N = 4
# Words that never start or end a term (they may sit inside one: "bag of words").
BOUNDARY_STOPWORDS = frozenset(
    "a an the of for and or in on to with by from as at is are was were be been this that these those we our "
    "it its their which can may via using into over under than such not no all each both other".split())
_WORD = re.compile(r"^\w[\w'./+-]*$")


def is_shippable(row: dict) -> bool:
    """Whether a row's licence lets a shipped artefact (a table, a model) be learned from it."""
    return str(row.get("license", "")).startswith(SHIPPABLE_LICENCES)


def shippable_rows(path: Path) -> Iterator[dict]:
    """The rows of the shared corpus (abstracts.jsonl.gz) whose licence allows a shipped artefact; a
    file that is not gzipped JSON lines stops with one sentence naming it (and the line)."""
    try:
        with gzip.open(path, "rt", encoding="utf8") as lines:
            for number, line in enumerate(lines, 1):
                try:
                    row = json.loads(line)
                except json.JSONDecodeError as error:
                    raise PaperkgError(f"{path}:{number}: not a JSON record ({error.msg}).") from None
                if isinstance(row, dict) and is_shippable(row):
                    yield row
    except (OSError, EOFError, UnicodeDecodeError) as error:
        raise PaperkgError(f"{path}: not a gzipped JSON-lines file ({error}).") from None


def shippable_abstracts(path: Path) -> Iterator[str]:
    """The abstracts of `shippable_rows`."""
    return (row["abstract"] for row in shippable_rows(path))


def ngram_key(words: list[str]) -> str:
    """The lookup form of a phrase: lower-case words, the last one singular."""
    return " ".join([*words[:-1], singular(words[-1])])


def document_ngrams(words: list[str | None]) -> set[str]:
    """The n-grams (1..MAX_N words) of one document that may be terms; None marks a break (punctuation)."""
    found = set()
    for i, first in enumerate(words):
        if first is None or first in BOUNDARY_STOPWORDS:
            continue
        for j in range(i + 1, min(i + MAX_N, len(words)) + 1):
            last = words[j - 1]
            if last is None:
                break
            if last not in BOUNDARY_STOPWORDS:
                found.add(ngram_key(words[i:j]))  # type: ignore[arg-type]
    return found


def document_frequencies(texts: Iterable[str], tokenizer: Tokenizer, min_df: int) -> tuple[int, Counter[str]]:
    """(number of documents, n-gram -> documents containing it) for n-grams in at least `min_df` documents."""
    counts: Counter[str] = Counter()
    documents = 0
    for doc in tokenizer.pipe(texts, batch_size=1000):
        documents += 1
        counts.update(document_ngrams([t.lower_ if _WORD.match(t.text) else None for t in doc]))
    return documents, Counter({gram: df for gram, df in counts.items() if df >= min_df})


def write_table(path: Path, documents: int, counts: Counter[str], min_df: int) -> None:
    """The table as gzipped TSV (deterministic bytes): a provenance header, then 'ngram<TAB>df' in
    code-point order of the n-gram (the order Termhood looks rows up in)."""
    header = (f"# Document frequencies of 1-{MAX_N}-word n-grams in {documents} abstracts of the shared corpus\n"
              f"# (rows licensed {' or '.join(SHIPPABLE_LICENCES)}); lower-cased, last word singular, df >= {min_df}.\n"
              f"# documents\t{documents}\n")
    body = "".join(f"{gram}\t{df}\n" for gram, df in sorted(counts.items()))
    path.write_bytes(gzip.compress((header + body).encode("utf8"), mtime=0))
