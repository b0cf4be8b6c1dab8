"""SciERC JSON lines -> spaCy Docs and DocBin files, keeping SciERC's own tokens.

One Doc per abstract with sentence starts and entity spans, so training, evaluation and
the shipped model all see exactly the tokenisation the benchmark was annotated on. The SciERC term
layer (`ner`) is trained on these Docs; the types head's corpora are built by corpus.py.
"""
from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

from spacy.tokens import Doc, DocBin, Span
from spacy.util import filter_spans
from spacy.vocab import Vocab

SCIERC_LABELS = ("Task", "Method", "Metric", "Material", "OtherScientificTerm", "Generic")
# SciERC writes brackets and quotes as Penn Treebank escapes; real text (and spaCy's
# tokenizer) has the characters, so training and evaluation use the characters too.
PTB_ESCAPES = {"-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "-LCB-": "{", "-RCB-": "}",
               "``": '"', "''": '"'}


@dataclass(frozen=True)
class SciercDoc:
    """One SciERC abstract: its tokens per sentence (PTB escapes undone) and its gold entities.

    Entities are (start, end, label) over document tokens with `end` exclusive (SciERC
    writes it inclusive); overlapping gold spans are all kept here.
    """

    key: str
    sentences: list[list[str]]
    entities: list[tuple[int, int, str]]

    @property
    def words(self) -> list[str]:
        return [word for sentence in self.sentences for word in sentence]

    @property
    def sent_starts(self) -> list[bool]:
        return [i == 0 for sentence in self.sentences for i in range(len(sentence))]


def read_scierc(path: str | Path) -> Iterator[SciercDoc]:
    """Yield the abstracts of a SciERC JSON-lines file; ValueError names the bad line."""
    path = Path(path)
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                yield _parse_record(json.loads(line), default_key=f"{path.name}:{number}")
            except (ValueError, KeyError, TypeError, IndexError) as error:
                raise ValueError(f"{path}:{number}: not a SciERC document ({error})") from error


def _parse_record(record: dict, default_key: str) -> SciercDoc:
    sentences = [[PTB_ESCAPES.get(str(word), str(word)) for word in sentence]
                 for sentence in record["sentences"]]
    n_words = sum(len(sentence) for sentence in sentences)
    entities = []
    for start, end, label in (item for sentence in record.get("ner", []) for item in sentence):
        if not 0 <= start <= end < n_words:
            raise ValueError(f"entity [{start}, {end}] outside the {n_words} tokens")
        entities.append((int(start), int(end) + 1, str(label)))
    return SciercDoc(str(record.get("doc_key", default_key)), sentences, entities)


def to_doc(vocab: Vocab, scierc_doc: SciercDoc, with_entities: bool = True) -> Doc:
    """A Doc on SciERC's tokens with sentence starts; gold entities set unless told not to.

    spaCy's NER cannot hold overlapping spans, so of overlapping gold spans the longest
    is kept (a handful per split).
    """
    doc = Doc(vocab, words=scierc_doc.words,
              sent_starts=scierc_doc.sent_starts)  # type: ignore[arg-type]  # spaCy types it List[bool | int | None]
    if with_entities:
        spans = [Span(doc, start, end, label=label) for start, end, label in scierc_doc.entities]
        doc.ents = filter_spans(spans)
    return doc


def convert(source: str | Path, destination: str | Path, limit: int = 0) -> int:
    """Write the abstracts of a SciERC file (the first `limit` when > 0) as a .spacy DocBin for the
    term layer's training; returns the document count."""
    vocab = Vocab()
    docs = DocBin(attrs=["ORTH", "SENT_START", "ENT_IOB", "ENT_TYPE"])
    for scierc_doc in islice(read_scierc(source), limit or None):
        docs.add(to_doc(vocab, scierc_doc))
    Path(destination).parent.mkdir(parents=True, exist_ok=True)
    docs.to_disk(destination)
    return len(docs)
