"""A small dated corpus whose history is known, for the trends tests (built by the real builder).

Twelve years, eight papers a year: statistical machine translation until 2015 then fading, neural
machine translation from 2015 and rising, BERT bursting in 2019-2020. Every abstract differs (the
builder drops duplicates), and each names a common task so that every year has papers.
"""
from __future__ import annotations

import json
from pathlib import Path

FIRST, LAST, PER_YEAR = 2012, 2023, 8
SCHEDULE = {
    "statistical machine translation": lambda year: 5 if year < 2016 else 1 if year < 2018 else 0,
    "neural machine translation": lambda year: max(0, min(PER_YEAR, year - 2013)),
    "BERT": lambda year: 7 if year in (2019, 2020) else 1 if year > 2020 else 0,
}
FILLERS = ("sentiment analysis", "named entity recognition", "dependency parsing", "text classification",
           "question answering", "relation extraction", "summarization", "coreference resolution")


def dated_rows() -> list[dict]:
    """The corpus as JSONL rows (id, title, abstract, year)."""
    rows = []
    for year in range(FIRST, LAST + 1):
        for number in range(PER_YEAR):
            sentences = [f"We study {FILLERS[number]} in setting {year}-{number} of our experiments."]
            sentences += [f"We apply {name} and compare it with a baseline in the {year} shared task number {number}."
                          for name, count in SCHEDULE.items() if number < count(year)]
            rows.append({"id": f"trend-{year}-{number}", "title": f"Study {number} of {year}",
                         "abstract": " ".join(sentences), "year": year})
    return rows


def write_dated_corpus(path: Path) -> Path:
    """Write the corpus as JSONL at `path`."""
    path.write_text("".join(json.dumps(row) + "\n" for row in dated_rows()), encoding="utf8")
    return path
