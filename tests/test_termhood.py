"""Only real terms become graph nodes: the corpus termhood rule on its own, and on the example corpus
(no generic phrase is a node; what the last release found is still found)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from paperkg.api import load_pipeline
from paperkg.core.schema import Extraction
from paperkg.extract.entities import TERM_RULES
from paperkg.extract.termhood import Termhood

ROOT = Path(__file__).resolve().parents[1]
LAST_RELEASE = json.loads((ROOT / "tests" / "data" / "icml_last_release.json").read_text(encoding="utf8"))
GENERIC = frozenset({"real-world", "lightweight", "dominant"})
VAGUE = frozenset({"process", "technique"})


@pytest.fixture(scope="module")
def termhood():
    table = ["gaussian splatting\t1356", "image\t9000", "splatting\t400", "citation\t40",
             "graph transformer\t60", "alignment process\t30"]
    return Termhood(table, 10_000, min_df=5, max_word_share=0.1)


@pytest.fixture(scope="module")
def nlp():
    return load_pipeline()


def rule(nlp, termhood, text: str, head_label: str | None = None) -> str:
    doc = nlp.make_doc(text)
    return termhood.rule(doc[:], head_label, GENERIC, frozenset({"method", "model"}), VAGUE)


@pytest.mark.parametrize("text, head, expected", [
    ("gaussian splatting", None, "corpus"),            # recurs across the field
    ("image", None, "common-word"),                    # one word in 90% of abstracts names nothing
    ("splatting", None, "corpus"),
    ("citation classification", "Task", "head"),       # rare, but a specific kind of a known task
    ("dominant model class", None, "generic"),
    ("real-world application", "Task", "generic"),
    ("alignment process", None, "vague"),              # frequent, but a procedure named by its purpose
    ("diverting probability", "Metric", "rare"),       # made up for one paper: modifier not of the field
    ("citation model", "Method", "rare"),              # a generic head however specific the modifier
])
def test_rule(nlp, termhood, text, head, expected):
    assert rule(nlp, termhood, text, head) == expected


def test_document_frequency_ignores_case_and_plural(termhood):
    assert termhood.document_frequency("Graph Transformers") == 60
    assert termhood.document_frequency("never seen phrase") == 0


@pytest.fixture(scope="module")
def icml(built):
    """The extraction records of the example corpus, as `paperkg build` wrote them."""
    lines = (built / "extractions.jsonl").read_text(encoding="utf8").splitlines()
    return [Extraction.from_json(line, f"extractions.jsonl:{number}") for number, line in enumerate(lines, 1)]


def _norm(text: str | None) -> str:
    return re.sub(r"[\s\-]+", " ", (text or "").lower()).strip()


def test_no_generic_phrase_is_a_node_on_the_example_corpus(icml, nlp):
    generic = nlp.get_pipe("paperkg_entities").generic_words
    nodes = [m for extraction in icml for m in extraction.entities if m.node]
    assert nodes and all(m.termhood in TERM_RULES for m in nodes)
    loose = [m.text for m in nodes if m.termhood in {"corpus", "head"}
             and any(word in generic for word in m.text.lower().split())]
    assert not loose
    names = {_norm(m.name) for m in nodes}
    assert not names & {"dominant model class", "real world application", "lightweight training strategy",
                        "diverting probability", "art method", "alignment process"}


def test_every_acronym_and_proposal_of_the_last_release_is_still_found(icml):
    acronyms = {(e.paper.id, a.short, a.long) for e in icml for a in e.acronyms}
    assert [a for a in map(tuple, LAST_RELEASE["acronyms"]) if a not in acronyms] == []
    proposed: dict[str, set[str]] = {}
    for extraction in icml:
        for m in extraction.entities:
            if m.proposed:
                proposed.setdefault(extraction.paper.id, set()).update({_norm(m.name), _norm(m.text), _norm(m.acronym)})
    assert [p for p in LAST_RELEASE["proposals"] if _norm(p[1]) not in proposed.get(p[0], set())] == []
    assert [p for p in LAST_RELEASE["generic_parents"] if _norm(p[1]) in proposed.get(p[0], set())] == []
