"""Training of the result finder's two models (extract/results.py): is a number a result, and is a result a change.

    python -m paperkg.extract.training.result_models bench/data/results_dev [--folds 5] [--write]

Each number the finder reads in the hand-made set's abstracts is an example, labelled by the gold value spans
(a result when its span overlaps one) and, for the results, by the gold kind. The models are L2-regularised
logistic regressions over the finder's named features (fitted with L-BFGS). The result model's threshold is
chosen by cross-validation over the abstracts (folds of whole abstracts, a fixed seed): the threshold with the
best F1 of result-or-not across the held-out folds; the figures printed are those of the held-out folds. With
--write the models fitted on the whole set are written to extract/data/results/models.json.
"""
from __future__ import annotations

import argparse
import json
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy
from scipy import optimize, sparse
from spacy.language import Language
from spacy.tokens import Doc

from paperkg.extract.linear_model import LinearModel
from paperkg.extract.result_context import value_features
from paperkg.extract.results import ResultFinder
from paperkg.extract.resources import DATA_DIR

L2 = 1.0
SEED = 36
MODELS_FILE = DATA_DIR / "results" / "models.json"


@dataclass(frozen=True)
class Example:
    """One number of an abstract: its features, whether it is a result, and whether that result is a change."""

    abstract: str
    features: tuple[str, ...]
    result: bool
    change: bool


def examples(finder: ResultFinder, docs: Iterable[tuple[str, Doc]], gold: dict[str, list[dict]]) -> list[Example]:
    """Every number of the Docs (by abstract id) with its features and gold labels."""
    found = []
    for key, doc in docs:
        spans = [(item["value_span"], item["kind"] == "change") for item in gold[key]]
        entities = list(doc.spans.get(finder.entities_key, []))
        for position, sent in enumerate(doc.sents):
            ctx = finder.context(doc, position, sent, [e for e in entities if sent.start <= e.start < sent.end])
            if ctx is None:
                continue
            for k, value in enumerate(ctx.values):
                match = next((change for (start, end), change in spans if value.start < end and start < value.end),
                             None)
                found.append(Example(key, tuple(value_features(ctx, k, finder.cues)), match is not None,
                                     bool(match)))
    return found


def fit(rows: Sequence[tuple[Sequence[str], bool]], l2: float = L2) -> LinearModel:
    """A logistic regression over the rows' features (threshold 0.5 until chosen)."""
    names = sorted({name for features, _ in rows for name in features})
    column = {name: i for i, name in enumerate(names)}
    data = [(r, column[name]) for r, (features, _) in enumerate(rows) for name in set(features)]
    X = sparse.csr_matrix((numpy.ones(len(data)), ([r for r, _ in data], [c for _, c in data])),
                          shape=(len(rows), len(names)))
    y = numpy.array([label for _, label in rows], dtype=float)

    def loss(w: numpy.ndarray) -> tuple[float, numpy.ndarray]:
        z = X @ w[1:] + w[0]
        p = 1.0 / (1.0 + numpy.exp(-numpy.clip(z, -30, 30)))
        eps = 1e-12
        value = -numpy.sum(y * numpy.log(p + eps) + (1 - y) * numpy.log(1 - p + eps)) + l2 * numpy.sum(w[1:] ** 2) / 2
        error = p - y
        grad = numpy.concatenate([[error.sum()], X.T @ error + l2 * w[1:]])
        return value, grad

    solution = optimize.minimize(loss, numpy.zeros(len(names) + 1), jac=True, method="L-BFGS-B")
    return LinearModel(dict(zip(names, solution.x[1:].tolist())), float(solution.x[0]), 0.5)


def folds(keys: Sequence[str], count: int) -> list[set[str]]:
    """The abstracts in `count` folds of a seeded shuffle."""
    order = sorted(set(keys))
    random.Random(SEED).shuffle(order)
    return [set(order[i::count]) for i in range(count)]


def held_out(rows: list[Example], count: int) -> list[tuple[Example, float, float]]:
    """(example, result probability, change probability) of each example from the models fitted without its fold."""
    scored = []
    for fold in folds([row.abstract for row in rows], count):
        train = [row for row in rows if row.abstract not in fold]
        result = fit([(row.features, row.result) for row in train])
        change = fit([(row.features, row.change) for row in train if row.result])
        scored += [(row, result.probability(row.features), change.probability(row.features))
                   for row in rows if row.abstract in fold]
    return scored


def best_threshold(scored: list[tuple[Example, float, float]]) -> tuple[float, float, float, float]:
    """(threshold, precision, recall, F1) of result-or-not with the best F1 over the held-out probabilities."""
    best = (0.5, 0.0, 0.0, 0.0)
    positives = sum(row.result for row, _, _ in scored)
    for threshold in numpy.arange(0.2, 0.81, 0.02):
        kept = [row for row, p, _ in scored if p >= threshold]
        right = sum(row.result for row in kept)
        precision = right / len(kept) if kept else 0.0
        recall = right / positives if positives else 0.0
        f1 = 2 * precision * recall / (precision + recall) if right else 0.0
        if f1 > best[3]:
            best = (round(float(threshold), 2), precision, recall, f1)
    return best


def train(nlp: Language, folder: Path, count: int) -> tuple[dict, str]:
    """The two models fitted on the whole set, the result threshold by cross-validation; and a report."""
    sample = [json.loads(line) for line in (folder / "sample.jsonl").read_text(encoding="utf8").splitlines()]
    gold = {record["id"]: record["results"] for record in
            map(json.loads, (folder / "results.jsonl").read_text(encoding="utf8").splitlines())}
    finder = nlp.get_pipe("paperkg_results")
    assert isinstance(finder, ResultFinder)
    with nlp.select_pipes(disable=["paperkg_results"]):
        docs = list(zip((row["id"] for row in sample), nlp.pipe(row["abstract"] for row in sample)))
    rows = examples(finder, docs, gold)
    scored = held_out(rows, count)
    threshold, precision, recall, f1 = best_threshold(scored)
    results = [(row, p) for row, p, _ in scored if row.result]
    kind_right = sum((p >= 0.5) == row.change for row, _, p in scored if row.result)
    result = fit([(row.features, row.result) for row in rows])
    change = fit([(row.features, row.change) for row in rows if row.result])
    models = {"result": LinearModel(result.weights, result.bias, threshold).to_dict(),
              "change": change.to_dict()}
    report = (f"{len(rows)} numbers in {len(sample)} abstracts, {sum(r.result for r in rows)} results; held out "
              f"({count} folds): result-or-not at threshold {threshold}: precision {precision:.3f}, recall "
              f"{recall:.3f}, F1 {f1:.3f}; change-or-absolute right on {kind_right}/{len(results)} results "
              f"({kind_right / max(1, len(results)):.3f})")
    return models, report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path, help="a hand-made set: bench/data/results_dev")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--write", action="store_true", help=f"write the models to {MODELS_FILE}")
    args = parser.parse_args()
    from paperkg.extract.pipeline import load_pipeline

    models, report = train(load_pipeline(), args.folder, args.folds)
    print(report)
    if args.write:
        MODELS_FILE.write_text(json.dumps(models, indent=1, sort_keys=True) + "\n", encoding="utf8")
        print(f"wrote {MODELS_FILE}")


if __name__ == "__main__":
    main()
