"""`paperkg eval scierc`: exact-match entity precision/recall/F1 on SciERC-format abstracts.

The pipeline runs on the benchmark's own tokens (a Doc built from them, then the
pipeline's components), so predicted spans align with the gold ones token for token.
"""
from __future__ import annotations

import json
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import spacy
from spacy.language import Language
from spacy.tokens import Doc

from paperkg.core.errors import PaperkgError
from paperkg.extract.pipeline import DEFAULT_MODEL, load_pipeline, term_layer
from paperkg.extract.training.convert import SCIERC_LABELS, SciercDoc, read_scierc, to_doc

FOUR_LABELS = ("Task", "Method", "Material", "Metric")

Mention = tuple[str, int, int, str]  # (document key, start, end exclusive, label)


def load_model(path: Path | None = None) -> Language:
    """The trained model alone (default: the one shipped inside the package)."""
    return spacy.load(path or DEFAULT_MODEL)


def predicted_entities(doc: Doc) -> list[tuple[int, int, str]]:
    """(start, end, SciERC label) of a processed Doc: its scientific-term layer, doc.ents
    (in paperkg's pipeline, the model's spans plus the rules', see extract/terms.py)."""
    return [(ent.start, ent.end, ent.label_) for ent in doc.ents]


def prf(true_positives: int, predicted: int, gold: int) -> dict[str, float | int]:
    """Precision, recall and F1 (0.0 where undefined) with the counts behind them."""
    precision = true_positives / predicted if predicted else 0.0
    recall = true_positives / gold if gold else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"p": precision, "r": recall, "f1": f1, "tp": true_positives,
            "predicted": predicted, "gold": gold}


def score(gold: Iterable[Mention], predicted: Iterable[Mention]) -> dict[str, Any]:
    """Exact-match scores: per label, over all six SciERC labels, and over FOUR_LABELS.

    A prediction counts only when document, start, end and label equal a gold mention's.
    "overall" counts every prediction, also one with a label outside SciERC's six.
    """
    gold_set, predicted_set = set(gold), set(predicted)
    hits = gold_set & predicted_set

    def restricted(labels: Iterable[str]) -> dict[str, float | int]:
        keep = set(labels)
        return prf(sum(m[3] in keep for m in hits), sum(m[3] in keep for m in predicted_set),
                   sum(m[3] in keep for m in gold_set))

    per_label = {label: restricted([label]) for label in SCIERC_LABELS}
    return {
        "per_label": per_label,
        "overall": prf(len(hits), len(predicted_set), len(gold_set)),
        "four_labels": restricted(FOUR_LABELS),
        "unlabelled": prf(len({m[:3] for m in gold_set} & {m[:3] for m in predicted_set}),
                          len({m[:3] for m in predicted_set}), len({m[:3] for m in gold_set})),
    }


def run(path: str | Path, nlp: Language | None = None,
        predictions_out: str | Path | None = None) -> dict[str, Any]:
    """Run `nlp` (default: paperkg's pipeline) on a SciERC file and score its entities."""
    nlp = nlp or load_pipeline()
    try:
        abstracts = list(read_scierc(path))
    except OSError as error:
        raise PaperkgError(f"cannot read SciERC file {path}: {error.strerror}") from error
    except ValueError as error:
        raise PaperkgError(str(error)) from error
    docs = [to_doc(nlp.vocab, abstract, with_entities=False) for abstract in abstracts]
    started = time.perf_counter()
    with term_layer(nlp):
        docs = list(nlp.pipe(docs))
        pipeline = list(nlp.pipe_names)
    seconds = time.perf_counter() - started
    gold = [(a.key, start, end, label) for a in abstracts for start, end, label in a.entities]
    predicted = [(a.key, start, end, label) for a, doc in zip(abstracts, docs)
                 for start, end, label in predicted_entities(doc)]
    if predictions_out is not None:
        _write_predictions(predictions_out, abstracts, predicted)
    words = sum(len(doc) for doc in docs)
    result = score(gold, predicted)
    result.update(file=str(path), documents=len(docs), words=words, seconds=seconds,
                  words_per_second=words / seconds if seconds else 0.0,
                  pipeline=pipeline)
    return result


def _write_predictions(path: str | Path, abstracts: list[SciercDoc],
                       predicted: list[Mention]) -> None:
    """One JSON line per abstract: its key, tokens, gold and predicted [start, end, label]."""
    by_key: dict[str, list[list]] = {}
    for key, start, end, label in predicted:
        by_key.setdefault(key, []).append([start, end - 1, label])
    with Path(path).open("w", encoding="utf-8") as out:
        for abstract in abstracts:
            out.write(json.dumps({
                "doc_key": abstract.key, "words": abstract.words,
                "gold": [[s, e - 1, label] for s, e, label in abstract.entities],
                "predicted": by_key.get(abstract.key, []),
            }) + "\n")


def format_report(scores: dict[str, Any]) -> str:
    """The scores as a plain-text table, one row per label then the two totals."""
    rows = [(label, scores["per_label"][label]) for label in SCIERC_LABELS]
    rows += [("overall (6 labels)", scores["overall"]),
             ("Task/Method/Material/Metric", scores["four_labels"]),
             ("spans, label ignored", scores["unlabelled"])]
    width = max(len(name) for name, _ in rows)
    lines = [f"{'label':<{width}}  {'P':>6} {'R':>6} {'F1':>6} {'gold':>6} {'pred':>6}"]
    lines += [f"{name:<{width}}  {s['p']:6.3f} {s['r']:6.3f} {s['f1']:6.3f} "
              f"{s['gold']:6d} {s['predicted']:6d}" for name, s in rows]
    lines.append(f"{scores['documents']} documents, {scores['words']} words, "
                 f"{scores['words_per_second']:,.0f} words/s ({' + '.join(scores['pipeline'])})")
    return "\n".join(lines)
