"""Turn processed Docs into Extraction records (paperkg.core.schema), one per paper, with evidence."""
from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator

from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.tokens.underscore import Underscore

from paperkg.core.schema import (AcronymDefinition, Extraction, Mention, NodeLabel, PaperRecord, ResultKind,
                                 ResultPart, ResultStatement, Role, UndefinedAcronym)

from .entities import SPANS_KEY, entities_key
from .extensions import acronym_records, results
from .limits import BATCH_SIZE


def doc_to_extraction(doc: Doc, paper: PaperRecord, key: str = SPANS_KEY) -> Extraction:
    """The paper's entities (the span group `key`), acronyms and relations; every item names its
    sentence, span, source, confidence."""
    sents = list(doc.sents)
    sent_of = [0] * len(doc)
    for index, sent in enumerate(sents):
        sent_of[sent.start:sent.end] = [index] * len(sent)
    entities = [_mention(span, span._, sent_of) for span in doc.spans.get(key, [])]
    acronyms = []
    for record in acronym_records(doc):
        if record.kind == "definition":
            short, long = doc[record.start:record.end], doc[record.long_start:record.long_end]
            acronyms.append(AcronymDefinition(
                short=short.text, long=long.text, start=short.start_char, end=short.end_char,
                long_start=long.start_char, long_end=long.end_char, sentence=sent_of[short.start],
                rule=record.rule, confidence=record.confidence))
    undefined = [UndefinedAcronym(text=short.text, start=short.start_char, end=short.end_char,
                                  sentence=sent_of[short.start])
                 for short in doc._.paperkg_undefined_acronyms or []]
    return Extraction(paper=paper, sentences=[sent.text for sent in sents], entities=entities,
                      acronyms=acronyms, undefined_acronyms=undefined, relations=list(doc._.paperkg_relations or []),
                      sentence_spans=[(sent.start_char, sent.end_char) for sent in sents],
                      results=result_statements(doc, [sent.start_char for sent in sents]))


def result_statements(doc: Doc, sentence_starts: list[int]) -> list[ResultStatement]:
    """The Doc's results (doc._.paperkg_results) as records of the schema, each naming its sentence."""
    statements = []
    text = doc.text if doc._.paperkg_results else ""
    for record in results(doc):
        statements.append(ResultStatement(
            value=record.value, start=record.start, end=record.end,
            sentence=bisect_right(sentence_starts, record.start) - 1,
            kind=ResultKind(record.kind), unit=record.unit or None, relative=record.relative,
            direction=record.direction or None, split=record.split or None, proposed=record.proposed,
            confidence=record.confidence,
            metric=_result_part(text, record.metric_start, record.metric_end, record.metric_entity),
            dataset=(_result_part(text, record.dataset_start, record.dataset_end, record.dataset_entity)
                     or (ResultPart(record.dataset_title) if record.dataset_title else None)),
            method=_result_part(text, record.method_start, record.method_end, record.method_entity),
            task=_result_part(text, record.task_start, record.task_end, record.task_entity),
            comparison=_result_part(text, record.comparison_start, record.comparison_end, -1)))
    return statements


def _result_part(text: str, start: int, end: int, entity: int) -> ResultPart | None:
    """A part of a result at [start, end) of the text (None when start is -1), with its entity's index."""
    if start < 0:
        return None
    return ResultPart(text[start:end], start, end, entity if entity >= 0 else None)


def _mention(span: Span, ext: Underscore, sent_of: list[int]) -> Mention:
    """A span of doc.spans["entities"] as a Mention; `ext` is span._ (each span._ makes a new object)."""
    return Mention(text=span.text, name=ext.paperkg_canonical, label=_node_label(span.label_),
                   start=span.start_char, end=span.end_char, sentence=sent_of[span.start],
                   source=ext.paperkg_source, confidence=ext.paperkg_confidence,
                   role=Role(ext.paperkg_role), proposed=ext.paperkg_proposed, acronym=ext.paperkg_acronym,
                   node=ext.paperkg_node, termhood=ext.paperkg_termhood)


_NODE_LABELS = {label.value: label for label in NodeLabel}


def _node_label(span_label: str) -> NodeLabel | None:
    """The graph type of a span's label; None for a term of none of the types (OTHER_TERM)."""
    return _NODE_LABELS.get(span_label)


def titled_doc(nlp: Language, paper: PaperRecord) -> Doc:
    """The paper's abstract as a Doc, tokenized, with the paper's title in doc._.paperkg_title."""
    doc = nlp.make_doc(paper.abstract)
    doc._.paperkg_title = paper.title
    return doc


def extract(nlp: Language, papers: Iterable[PaperRecord], batch_size: int = BATCH_SIZE) -> Iterator[Extraction]:
    """Run the pipeline over paper records with nlp.pipe, yielding one Extraction per paper (each Doc knows its
    paper's title: doc._.paperkg_title)."""
    pairs = ((titled_doc(nlp, paper), paper) for paper in papers)
    key = entities_key(nlp)
    for doc, paper in nlp.pipe(pairs, as_tuples=True, batch_size=batch_size):
        yield doc_to_extraction(doc, paper, key)
