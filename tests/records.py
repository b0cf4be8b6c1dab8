"""Extraction records written by hand for tests, and the graph GraphBuilder makes of them.

A test names its paper's text and the terms in it; `paper` cuts the sentences (at '.', '!' or '?'
before a space), places each term at its n-th occurrence and makes the `Extraction` record the
pipeline would write, so every graph a test uses is one the builder made.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

import networkx as nx

from paperkg.core.schema import Extraction, Mention, NodeLabel, PaperRecord, Relation, RelType, Role
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
    builder.add_all(records)
    return builder.finalize()
