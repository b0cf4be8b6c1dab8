"""Teacher tags for partial annotation: a types model trained on the sources that annotate a label
tags that label in the train sentences of a source that does not (Method in TDMSci, Metric in SciER).
The tagged tokens become missing in the training corpus (corpus.py), not O and not gold.

Stored as JSON lines {"source", "key", "spans": [[start, end, label], ...]}, one line per record,
so the step can be resumed and its output inspected.
"""
from __future__ import annotations

import json
from pathlib import Path

import spacy

from paperkg.extract.span_ner import TYPES_KEY
from paperkg.extract.training.corpus import ANNOTATED, TYPES, Teacher, records


def tag(model: Path, benchmarks: Path, source: str, out: Path, append: bool = False, limit: int = 0) -> int:
    """Write the teacher's spans of the labels `source` lacks on its train records; returns the span count."""
    nlp = spacy.load(model)
    lacking = set(TYPES) - ANNOTATED[source]
    found = records(benchmarks, "train", source, limit)
    docs = nlp.pipe((record.doc(nlp.vocab) for record in found), batch_size=64)
    n = 0
    with out.open("a" if append else "w", encoding="utf-8") as lines:
        for record, doc in zip(found, docs):
            spans = [[s.start, s.end, s.label_] for s in doc.spans.get(TYPES_KEY, []) if s.label_ in lacking]
            n += len(spans)
            lines.write(json.dumps({"source": record.source, "key": record.key, "spans": spans}) + "\n")
    return n


def load(path: Path) -> Teacher:
    """The teacher tags of a file written by `tag`."""
    with path.open(encoding="utf-8") as lines:
        return {(item["source"], item["key"]): [tuple(s) for s in item["spans"]]
                for item in map(json.loads, lines)}
