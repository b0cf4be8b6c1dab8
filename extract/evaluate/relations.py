"""`paperkg eval relations`: the pipeline's relations (doc._.paperkg_relations) scored against SciER or
SciERC in paperkg's schema (mapping: relation_benchmarks.py, docs/reference/graph-model.md).

The pipeline runs on the benchmark's own tokens. End to end, a relation's arguments are the
pipeline's own entity mentions; with `gold_entities` the entity step's output is replaced by the
gold mentions (in paperkg's types) before the relation components run. A predicted relation counts
when its type and both arguments' token spans equal a gold relation's (exact), or when its type is
equal and each argument overlaps the gold one's (overlap). COMPARED_WITH and SYNONYM_OF are
symmetric in paperkg's schema and match in either direction. Only the types the source annotates
are scored (SciERC: five).
"""
from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from spacy.language import Language
from spacy.tokens import Doc, Span

from paperkg.core.schema import SYMMETRIC_REL_TYPES, RelType

from ..entities import SPANS_KEY, entities_key
from .entities import prf, score_table
from .relation_benchmarks import ANNOTATED, Arc, RelationRecord, read_relations

RELATION_PIPES = ("paperkg_relations", "relation_model")  # the components that write doc._.paperkg_relations
Keyed = tuple[str, Arc]  # (document key, arc)


def predicted_arcs(doc: Doc, key: str = SPANS_KEY, min_confidence: float = 0.0) -> list[Arc]:
    """The doc's relations at least `min_confidence` sure, as token-offset arcs (heads and tails index
    the entity span group `key`)."""
    entities = list(doc.spans.get(key, []))
    return [(entities[r.head].start, entities[r.head].end, entities[r.tail].start, entities[r.tail].end, r.type)
            for r in doc._.paperkg_relations or [] if r.confidence >= min_confidence]


def canonical(arc: Arc) -> Arc:
    """A symmetric type's arc with its two ends in order; others as they are."""
    h0, h1, t0, t1, kind = arc
    return (*min((h0, h1), (t0, t1)), *max((h0, h1), (t0, t1)), kind) if kind in SYMMETRIC_REL_TYPES else arc


def overlapping(a: Arc, b: Arc) -> bool:
    """Whether two arcs have the same type and each argument overlapping (either way round for a symmetric type)."""
    def both(x: Arc, y: Arc) -> bool:
        return x[0] < y[1] and y[0] < x[1] and x[2] < y[3] and y[2] < x[3]
    if a[4] != b[4]:
        return False
    return both(a, b) or (a[4] in SYMMETRIC_REL_TYPES and both(a, (b[2], b[3], b[0], b[1], b[4])))


def score(gold: Iterable[Keyed], predicted: Iterable[Keyed], labels: Sequence[RelType]) -> dict[str, Any]:
    """Exact micro and per-type P/R/F1 and overlap micro P/R/F1 over `labels`."""
    gold = {(key, canonical(arc)) for key, arc in gold if arc[4] in labels}
    predicted = {(key, canonical(arc)) for key, arc in predicted if arc[4] in labels}
    hits = gold & predicted
    per_label = {kind.value: prf(sum(a[4] == kind for _, a in hits), sum(a[4] == kind for _, a in predicted),
                                 sum(a[4] == kind for _, a in gold)) for kind in labels}
    by_key: dict[str, list[Arc]] = {}
    for key, arc in gold:
        by_key.setdefault(key, []).append(arc)
    pred_by_key: dict[str, list[Arc]] = {}
    for key, arc in predicted:
        pred_by_key.setdefault(key, []).append(arc)
    p_found = sum(any(overlapping(arc, g) for g in by_key.get(key, ())) for key, arc in predicted)
    r_found = sum(any(overlapping(arc, p) for p in pred_by_key.get(key, ())) for key, arc in gold)
    p = p_found / len(predicted) if predicted else 0.0
    r = r_found / len(gold) if gold else 0.0
    return {"labels": [kind.value for kind in labels], "exact": prf(len(hits), len(predicted), len(gold)),
            "per_label": per_label, "overlap": {"p": p, "r": r, "f1": 2 * p * r / (p + r) if p + r else 0.0}}


def process(nlp: Language, records: Sequence[RelationRecord], gold_entities: bool) -> list[Doc]:
    """Run the pipeline on the records' tokens; with `gold_entities` the relation components read the gold mentions."""
    docs = [r.record.doc(nlp.vocab) for r in records]
    if not gold_entities:
        return list(nlp.pipe(docs, batch_size=32))
    relation_pipes = [name for name in RELATION_PIPES if name in nlp.pipe_names]
    with nlp.select_pipes(disable=relation_pipes):
        docs = list(nlp.pipe(docs, batch_size=32))
    key = entities_key(nlp)
    for doc, r in zip(docs, records):
        doc.spans[key] = [Span(doc, s, e, label=label) for s, e, label in r.entities]
        doc._.paperkg_relations = []
    for name in relation_pipes:
        component = nlp.get_pipe(name)
        docs = list(component.pipe(docs)) if hasattr(component, "pipe") else [component(doc) for doc in docs]
    return docs


def gold_arcs(records: Sequence[RelationRecord]) -> list[Keyed]:
    """Every gold relation with its document key."""
    return [(r.record.key, arc) for r in records for arc in r.relations]


def run(nlp: Language, path: Path, fmt: str, *, gold_entities: bool = False, limit: int = 0,
        min_confidence: float = 0.0) -> dict[str, Any]:
    """Run the pipeline on a benchmark file and score its relations at least `min_confidence` sure (see the
    module doc; a mention counts towards a graph edge from core.schema.MENTION_FLOOR)."""
    records = read_relations(fmt, path, limit)
    started = time.perf_counter()
    docs = process(nlp, records, gold_entities)
    seconds = time.perf_counter() - started
    key = entities_key(nlp)
    predicted = [(r.record.key, arc) for r, doc in zip(records, docs)
                 for arc in predicted_arcs(doc, key, min_confidence)]
    labels = [kind for kind in RelType if kind in ANNOTATED[fmt]]
    result = score(gold_arcs(records), predicted, labels)
    words = sum(len(doc) for doc in docs)
    result.update(file=str(path), format=fmt, entities="gold" if gold_entities else "pipeline",
                  min_confidence=min_confidence, documents=len(docs),
                  words=words, seconds=seconds, words_per_second=words / seconds if seconds else 0.0)
    return result


def format_report(result: dict[str, Any]) -> str:
    """The scores as a plain-text table: per type, then exact micro and overlap micro."""
    rows = [(label, result["per_label"][label]) for label in result["labels"]]
    rows += [("exact micro", result["exact"]), ("overlap micro", result["overlap"])]
    kept = f", confidence >= {result['min_confidence']}" if result.get("min_confidence") else ""
    return score_table(f"{result['format']}, {result['entities']} entities{kept}: {result['documents']} documents, "
                       f"{result['words']:,} words, {result['words_per_second']:,.0f} words/s", rows)
