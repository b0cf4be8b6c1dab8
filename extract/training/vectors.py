"""Static floret vectors learned from the shared abstracts, for the types model's tok2vec.

Only rows licensed CC BY 4.0 or CC0 are read (`corpus_stats.is_shippable`): the vectors ship inside
the model. Text: title + ". " + abstract, whitespace collapsed, tokenised by spaCy's English
tokenizer, one abstract a line. floret runs on one thread, the only way its table is the same
from run to run.
"""
from __future__ import annotations

import re
from itertools import islice
from pathlib import Path

import spacy

from paperkg.extract.training.corpus_stats import shippable_rows

# floret settings of the shipped vectors (64 dimensions, 20,000 hash buckets)
FLORET = {"model": "cbow", "mode": "floret", "hashCount": 2, "bucket": 20000, "minn": 3, "maxn": 5,
          "minCount": 10, "dim": 64, "epoch": 5, "ws": 5, "neg": 10, "lr": 0.05, "thread": 1}


def write_tokens(corpus: Path, out: Path, limit: int = 0) -> tuple[int, int]:
    """Write the shippable abstracts (the first `limit` when > 0) as space-joined tokens, one a line;
    returns (abstracts, tokens)."""
    texts = [re.sub(r"\s+", " ", (row.get("title") or "") + ". " + row["abstract"]).strip()
             for row in islice(shippable_rows(corpus), limit or None)]
    tokenizer = spacy.blank("en").tokenizer
    words = 0
    with out.open("w", encoding="utf-8") as lines:
        for doc in tokenizer.pipe(texts, batch_size=1000):
            tokens = [t.text for t in doc if not t.is_space]
            words += len(tokens)
            lines.write(" ".join(tokens) + "\n")
    return len(texts), words


def train_floret(tokens: Path, out: Path, **overrides: int | float | str) -> None:
    """Train floret on a token file and write its table (text, for `init_vectors`) to `out`."""
    import floret

    model = floret.train_unsupervised(str(tokens), **{**FLORET, **overrides})
    model.save_floret_vectors(str(out))


def init_vectors(table: Path, out_dir: Path) -> None:
    """A blank English pipeline with the floret table as its vectors (`spacy init vectors --mode floret`)."""
    from spacy.training.initialize import convert_vectors

    nlp = spacy.blank("en")
    convert_vectors(nlp, table, truncate=0, prune=-1, mode="floret")
    nlp.to_disk(out_dir)
