"""Turn processed Docs into extraction records: plain JSON, one per paper, with evidence."""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from spacy.language import Language
from spacy.tokens import Doc


def doc_to_extraction(doc: Doc, paper: dict[str, Any]) -> dict[str, Any]:
    """The paper's entities, acronyms and relations; every item names its sentence, span, source, confidence."""
    sents = list(doc.sents)
    sent_of = {}
    for index, sent in enumerate(sents):
        for i in range(sent.start, sent.end):
            sent_of[i] = index
    entities = [
        {
            "text": span.text,
            "name": span._.canonical,
            "label": span.label_,
            "acronym": span._.acronym,
            "start": span.start_char,
            "end": span.end_char,
            "sentence": sent_of[span.start],
            "source": span._.source,
            "confidence": span._.confidence,
            "proposed": span._.proposed,
            "role": span._.role,
        }
        for span in doc.spans.get("entities", [])
    ]
    acronym_list = [
        {
            "short": short.text,
            "long": long.text,
            "start": short.start_char,
            "end": short.end_char,
            "long_start": long.start_char,
            "long_end": long.end_char,
            "sentence": sent_of[short.start],
            "rule": short._.acronym_rule,
            "confidence": short._.acronym_confidence,
        }
        for short, long in doc._.acronym_definitions
    ]
    undefined = [dict(item, sentence=sent_of[doc.char_span(item["start"], item["end"]).start])
                 for item in (doc._.undefined_acronyms or [])]
    return {
        "paper": paper,
        "sentences": [sent.text for sent in sents],
        "entities": entities,
        "acronyms": acronym_list,
        "undefined_acronyms": undefined,
        "relations": doc._.relations or [],
    }


def extract(nlp: Language, papers: Iterable[dict[str, Any]], batch_size: int = 32) -> Iterator[dict[str, Any]]:
    """Run the pipeline over paper dicts (with an 'abstract' field) with nlp.pipe, yielding records."""
    pairs = ((paper["abstract"], paper) for paper in papers)
    for doc, paper in nlp.pipe(pairs, as_tuples=True, batch_size=batch_size):
        yield doc_to_extraction(doc, paper)
