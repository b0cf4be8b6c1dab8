"""Extraction records written by hand for tests, and the graph GraphBuilder makes of them.

A test names its paper's text and the terms in it; `paper` cuts the sentences (at '.', '!' or '?'
before a space), places each term at its n-th occurrence and makes the `Extraction` record the
pipeline would write, so every graph a test uses is one the builder made.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import networkx as nx

from paperkg.core.schema import Extraction, Mention, NodeLabel, PaperRecord, Relation, RelType, Role
from paperkg.admit.admission import admit_all
from paperkg.graph.builder import GraphBuilder

_SENTENCE = re.compile(r"\S.*?(?:[.!?](?=\s|$)|$)", re.DOTALL)


@dataclass(frozen=True)
class Term:
    """A mention to place in a paper's text: its surface text, type, the paper's role towards it."""

    text: str
    label: str
    role: str = "mentions"
    nth: int = 0                 # which occurrence of `text` (0: the first)
    name: str | None = None      # the name the graph canonicalises (the long form of a short form); default text
    acronym: str | None = None   # the short form this mention is (or is the long form of)
    source: str = "model"
    confidence: float = 0.8


@dataclass(frozen=True)
class Link:
    """A typed relation between two terms of a paper (indices into its terms)."""

    type: str
    head: int
    tail: int
    source: str = "model"
    confidence: float = 0.8


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Where each sentence of `text` lies (a sentence ends at '.', '!' or '?' before a space or the end)."""
    return [match.span() for match in _SENTENCE.finditer(text)]


def paper(paper_id: str, abstract: str, terms: Iterable[Term] = (), links: Iterable[Link] = (),
          **metadata: object) -> Extraction:
    """The extraction record of one paper with these terms and relations; `metadata` fills the PaperRecord."""
    spans = sentence_spans(abstract)
    mentions = [_mention(abstract, spans, term) for term in terms]
    relations = [Relation(RelType(link.type), link.head, link.tail, mentions[link.head].sentence, link.source,
                          link.confidence) for link in links]
    return Extraction(PaperRecord(id=paper_id, abstract=abstract, **metadata),  # type: ignore[arg-type]
                      [abstract[start:end] for start, end in spans], mentions, relations=relations,
                      sentence_spans=spans)


def _mention(abstract: str, spans: list[tuple[int, int]], term: Term) -> Mention:
    start = -1
    for _ in range(term.nth + 1):
        start = abstract.index(term.text, start + 1)
    sentence = next(number for number, (first, last) in enumerate(spans) if first <= start < last)
    role = Role(term.role)
    return Mention(text=term.text, name=term.name or term.text, label=NodeLabel(term.label), start=start,
                   end=start + len(term.text), sentence=sentence, source=term.source, confidence=term.confidence,
                   role=role, proposed=role is Role.PROPOSES, acronym=term.acronym)


def build(records: Iterable[Extraction]) -> nx.MultiDiGraph:
    """The graph GraphBuilder makes of the records (metrics included)."""
    builder = GraphBuilder()
    builder.add_all(admit_all(records))
    return builder.finalize()


def read_extractions(path: Path) -> list[Extraction]:
    """The records of an extractions.jsonl (a build's output folder holds one)."""
    lines = path.read_text(encoding="utf8").splitlines()
    return [Extraction.from_json(line, f"{path}:{number}") for number, line in enumerate(lines, 1) if line]


EVERY_RELATION_ABSTRACT = (
    "We propose FooNet, a kind of BarNet and part of BazNet, trained on QuxSet. "
    "FooNet is used for question answering and compared with BarNet. "
    "QuxSet is a benchmark for question answering, and multi-hop question answering is a subtask of it. "
    "We evaluate FooNet on QuxSet by accuracy."
)


def every_relation(paper_id: str = "5eed5eed5eed5eed", **metadata: object) -> Extraction:
    """A paper with an edge of every type the graph holds: the four roles and every entity-entity type
    (SYNONYM_OF merges two names instead, so it makes no edge)."""
    M, T, D = "Method", "Task", "Dataset"
    terms = [Term("FooNet", M, "proposes"), Term("BarNet", M), Term("BazNet", M),                 # 0-2
             Term("QuxSet", D), Term("FooNet", M, "proposes", nth=1),                            # 3-4
             Term("question answering", T, "addresses"), Term("BarNet", M, nth=1),               # 5-6
             Term("QuxSet", D, nth=1), Term("question answering", T, "addresses", nth=1),        # 7-8
             Term("multi-hop question answering", T), Term("FooNet", M, "proposes", nth=2),      # 9-10
             Term("QuxSet", D, "evaluates_on", nth=2), Term("accuracy", "Metric")]               # 11-12
    links = [Link("IS_A", 0, 1), Link("PART_OF", 0, 2), Link("TRAINED_ON", 0, 3), Link("USED_FOR", 4, 5),
             Link("COMPARED_WITH", 4, 6), Link("BENCHMARK_FOR", 7, 8), Link("SUBTASK_OF", 9, 8),
             Link("EVALUATED_ON", 10, 11)]
    return paper(paper_id, EVERY_RELATION_ABSTRACT, terms, links, **metadata)


QUOTED_NAME = 'A "quoted" \\ name'
QUOTED_SENTENCE = f'{QUOTED_NAME} says "key": "x" here.'


def quoted(paper_id: str, **metadata: object) -> Extraction:
    """A paper naming a method with quotes and a backslash in a sentence that reads like JSON ('"key": "x"'):
    text a streaming reader of graph.json must unescape, not match."""
    return paper(paper_id, QUOTED_SENTENCE, [Term(QUOTED_NAME, "Method", source="cue", confidence=0.5)], **metadata)
