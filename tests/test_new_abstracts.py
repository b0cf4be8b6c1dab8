"""Regression guard on 30 abstracts written for paperkg's QA (tests/data/new_abstracts.json): proposed
names, acronym pairs and data sets against hand-written expectations.

The rules were improved against this set's failures, so its scores are a floor that must not
drop, not an unbiased estimate (that is what the held-out checks are for).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from paperkg.api import load_pipeline

CASES = json.loads((Path(__file__).parent / "data" / "new_abstracts.json").read_text(encoding="utf8"))


def _norm(text: str | None) -> str:
    return re.sub(r"[\s\u2013\u2014-]+", " ", (text or "").lower()).strip()


@pytest.fixture(scope="module")
def found():
    """Per abstract: proposed-name forms, acronym pairs and data set forms the pipeline found."""
    nlp = load_pipeline()
    results = []
    for doc in nlp.pipe(case["text"] for case in CASES):
        def forms(predicate, doc=doc):
            groups: dict[str, set[str]] = {}
            for e in doc.spans["entities"]:
                if predicate(e):
                    groups.setdefault(e._.paperkg_canonical, set()).update(
                        {_norm(e.text), _norm(e._.paperkg_canonical), _norm(e._.paperkg_acronym)})
            return list(groups.values())
        results.append({
            "proposed": forms(lambda e: e._.paperkg_proposed),
            "acronyms": {(_norm(s.text), _norm(long.text)) for s, long in doc._.paperkg_acronym_definitions},
            "datasets": forms(lambda e: e.label_ == "Dataset"),
        })
    return results


def _precision_recall(expected_per_case, found_per_case, matches):
    hits = sum(sum(1 for e in exp if any(matches(e, f) for f in got))
               for exp, got in zip(expected_per_case, found_per_case))
    correct = sum(sum(1 for f in got if any(matches(e, f) for e in exp))
                  for exp, got in zip(expected_per_case, found_per_case))
    return correct / max(1, sum(map(len, found_per_case))), hits / sum(map(len, expected_per_case))


def test_proposed_names(found):
    precision, recall = _precision_recall([c["proposed"] for c in CASES], [f["proposed"] for f in found],
                                          lambda e, forms: _norm(e) in forms)
    assert precision >= 0.95 and recall >= 0.90, (precision, recall)


def test_acronym_pairs(found):
    expected = [{(_norm(s), _norm(long)) for s, long in c["acronyms"]} for c in CASES]
    precision, recall = _precision_recall(expected, [f["acronyms"] for f in found], lambda e, f: e == f)
    assert precision >= 0.95 and recall >= 0.90, (precision, recall)


def test_datasets(found):
    precision, recall = _precision_recall([c["datasets"] for c in CASES], [f["datasets"] for f in found],
                                          lambda e, forms: _norm(e) in forms)
    assert precision >= 0.90 and recall >= 0.85, (precision, recall)
