"""The results paperkg reads from a hand-made set's abstracts, in the record shape bench/results_score.py scores.

    python bench/results_predict.py bench/data/results_dev /tmp/dev-predicted.jsonl --held-out 5
    python bench/results_score.py bench/data/results_dev /tmp/dev-predicted.jsonl

Runs the shipped pipeline (extract/pipeline.cfg, the model included) on each abstract of the folder's
sample.jsonl with its title, as a build does, and writes one line per abstract: {"id": ..., "results": [...]}.
The result finder's two models are trained on results_dev; `--held-out N` scores them honestly there: the
abstracts are cut into the N folds of extract/training/result_models.py, and each fold's results are read with
models fitted on the other folds only (the rules, data files and the result threshold are the shipped ones).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from paperkg.core.schema import PaperRecord, ResultStatement
from paperkg.extract.extraction import extract
from paperkg.extract.pipeline import load_pipeline
from paperkg.extract.results import ResultFinder
from paperkg.extract.training.result_models import examples, fit, folds


def record(result: ResultStatement) -> dict:
    """A result in the scorer's record shape (its parts as the text they are, or null)."""
    def text(name: str) -> str | None:
        part = getattr(result, name)
        return part.text if part is not None else None

    return {"value": result.value, "value_span": [result.start, result.end], "kind": result.kind.value,
            "unit": result.unit, "metric": text("metric"), "dataset": text("dataset"), "method": text("method"),
            "proposed": result.proposed, "task": text("task"), "comparison": text("comparison"),
            "split": result.split, "confidence": result.confidence}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path, help="a hand-made set with sample.jsonl (and results.jsonl)")
    parser.add_argument("predicted", type=Path, help="where to write the predictions (JSON lines)")
    parser.add_argument("--held-out", type=int, default=0, metavar="N",
                        help="read each of N folds with the models fitted on the others (results_dev only)")
    args = parser.parse_args()
    if args.held_out == 1 or args.held_out < 0:
        sys.exit(f"error: --held-out {args.held_out}: give 2 or more folds (or 0, the shipped models).")
    needed = [args.folder / "sample.jsonl"] + ([args.folder / "results.jsonl"] if args.held_out else [])
    missing = next((path for path in needed if not path.is_file()), None)
    if missing is not None:
        sys.exit(f"error: {missing} does not exist (a hand-made set of bench/data/ has it).")
    rows = [json.loads(line) for line in (args.folder / "sample.jsonl").read_text(encoding="utf8").splitlines()]
    papers = [PaperRecord(id=row["id"], abstract=row["abstract"], title=row.get("title"), year=row.get("year"))
              for row in rows]
    nlp = load_pipeline()
    finder = nlp.get_pipe("paperkg_results")
    assert isinstance(finder, ResultFinder)
    found: dict[str, list[dict]] = {}
    if args.held_out:
        gold = {item["id"]: item["results"] for item in
                map(json.loads, (args.folder / "results.jsonl").read_text(encoding="utf8").splitlines())}
        with nlp.select_pipes(disable=["paperkg_results"]):
            docs = list(zip((paper.id for paper in papers), nlp.pipe(paper.abstract for paper in papers)))
        rows_all = examples(finder, docs, gold)
        shipped = finder.result_model.threshold, finder.change_model.threshold
        for fold in folds([paper.id for paper in papers], args.held_out):
            train = [row for row in rows_all if row.abstract not in fold]
            result = fit([(row.features, row.result) for row in train])
            change = fit([(row.features, row.change) for row in train if row.result])
            finder.result_model = result.__class__(result.weights, result.bias, shipped[0])
            finder.change_model = change.__class__(change.weights, change.bias, shipped[1])
            for extraction in extract(nlp, [paper for paper in papers if paper.id in fold]):
                found[extraction.paper.id] = [record(result) for result in extraction.results]
    else:
        for extraction in extract(nlp, papers):
            found[extraction.paper.id] = [record(result) for result in extraction.results]
    args.predicted.write_text("".join(json.dumps({"id": paper.id, "results": found[paper.id]}, ensure_ascii=False)
                                      + "\n" for paper in papers), encoding="utf8")
    print(f"wrote {args.predicted}: {sum(map(len, found.values()))} results of {len(papers)} abstracts")


if __name__ == "__main__":
    main()
