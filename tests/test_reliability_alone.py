"""A per-abstract time and memory bound (issue 33): a record too long to be an abstract is extracted alone, in a
process of its own; 99,000 characters of acronyms (64 s and 4 GB before) are stopped at the bound with a warning
naming the paper, a long text that is prose is extracted, and the lines keep the input's order."""
from __future__ import annotations

import json
import random
import string
from pathlib import Path

import pytest

from build_helpers import example_papers, write_papers
from cli_helpers import run_cli

from paperkg.orchestrate.alone import ALONE_CHARS, ALONE_MEGABYTES, ALONE_SECONDS

pytestmark = pytest.mark.slow


def acronym_soup(chars: int, seed: int = 1) -> str:
    """Text made to be costly: acronyms, their spelled-out forms in brackets, few words between, no sentence end."""
    rng = random.Random(seed)
    words: list[str] = []
    while sum(map(len, words)) + len(words) < chars:
        acronym = "".join(rng.choice(string.ascii_uppercase) for _ in range(rng.randint(2, 5)))
        kind = rng.random()
        if kind < 0.4:
            words.append(acronym)
        elif kind < 0.7:
            words.append(" ".join(letter.capitalize() + rng.choice(["net", "former", "ing", "er"])
                                  for letter in acronym.lower()) + f" ({acronym})")
        else:
            words.append(rng.choice(["we", "propose", "the", "on", "with", "and", "for", "using", "model"]))
    return " ".join(words)[:chars] + "."


def _prose(chars: int) -> str:
    text = " ".join(paper["abstract"] for paper in example_papers())
    return (text * (chars // len(text) + 1))[:chars].rsplit(" ", 1)[0] + "."


def test_a_costly_text_is_stopped_at_the_bound_with_a_warning_naming_the_paper(tmp_path):
    papers = [*example_papers()[:2], {"id": "soup", "abstract": acronym_soup(99_000)}, *example_papers()[2:4]]
    source = write_papers(tmp_path / "in.jsonl", papers)
    result = run_cli("extract", str(source), "-o", str(tmp_path / "out.jsonl"), check=False)
    assert result.returncode == 3
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1 and warnings[0].startswith(
        f"warning: {source}:3: paper soup: an abstract of 99,001 characters (more than {ALONE_CHARS:,}, so extracted "
        "alone) took more than ")
    assert warnings[0].endswith((f"{ALONE_MEGABYTES:,} MB of memory to extract; skipped",
                                 f"{ALONE_SECONDS:g} s to extract; skipped"))
    ids = [json.loads(line)["paper"]["id"] for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert ids == [paper["id"] for paper in papers if paper["id"] != "soup"]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_long_text_that_is_prose_is_extracted_alone_in_the_input_order(tmp_path, jobs):
    papers = [*example_papers()[:40], {"id": "long", "abstract": _prose(60_000)}, *example_papers()[40:]]
    source = write_papers(tmp_path / "in.jsonl", papers)
    run_cli("extract", str(source), "-o", str(tmp_path / "out.jsonl"), "--no-model", "--jobs", jobs)
    lines = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [line["paper"]["id"] for line in lines] == [paper["id"] for paper in papers]
    alone = lines[40]
    assert len(alone["entities"]) > 100


def test_strict_stops_at_an_abstract_past_the_bound(tmp_path: Path):
    source = write_papers(tmp_path / "in.jsonl", [{"id": "soup", "abstract": acronym_soup(99_000)}])
    result = run_cli("extract", str(source), "-o", str(tmp_path / "out.jsonl"), "--strict", check=False)
    assert result.returncode == 2 and result.stderr.strip().startswith(f"error: {source}:1: paper soup: an abstract")
    assert not (tmp_path / "out.jsonl").exists()


def test_on_a_dask_cluster_a_long_text_is_extracted_alone_by_the_client(tmp_path):
    papers = [*example_papers()[:3], {"id": "long", "abstract": _prose(25_000)}, *example_papers()[3:5]]
    source = write_papers(tmp_path / "in.jsonl", papers)
    run_cli("extract", str(source), "--dask", "local", "--jobs", "1", "--partition-size", "2", "--no-model",
            "-o", str(tmp_path / "shards"))
    shards = {path.name: [json.loads(line)["paper"]["id"] for line in path.read_text().splitlines()]
              for path in sorted((tmp_path / "shards").glob("part-*.jsonl"))}
    assert list(shards.values()) == [[papers[0]["id"], papers[1]["id"]], [papers[2]["id"]], ["long"],
                                     [papers[4]["id"], papers[5]["id"]]]
