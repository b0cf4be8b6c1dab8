"""Combine every extractor's spans into one typed, non-overlapping entity layer: doc.spans['entities'].

Priority when spans overlap (the documented combination rule): acronym definitions, then
lexicon terms, then data sets named by cues, then name-shaped tokens, then the statistical
model's spans; within one source the longer span wins. Types come from the lexicon, else
the head word, else the model's label, else Method for a proposed name and Concept otherwise.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from spacy.language import Language
from spacy.tokens import Doc, Span

from .candidates import name_kind
from .cues import Cues
from .extensions import END, KIND, LONG_END, LONG_START, START, register_extensions
from .proposals import ProposalRules
from .resources import DataComponent, DataFiles
from .roles import assign_roles
from .sentence_spans import group_by_sentence
from .typing import SCIERC_TO_GRAPH, HeadNouns

_TERM_TOKEN = re.compile(r"^\w[\w'’./+-]*$")


@dataclass
class Candidate:
    """A span some extractor proposes as an entity, before overlaps are resolved."""

    start: int
    end: int
    source: str
    label: str | None
    canonical: str | None = None
    acronym: str | None = None
    shape: str = ""

    def sort_key(self, priority: list[str]) -> tuple[int, int, int]:
        return (priority.index(self.source), self.start - self.end, self.start)


class EntityAssembler(DataComponent):
    """Collects candidates, resolves overlaps, types, filters stop phrases, marks proposals and roles."""

    def __init__(self, name: str, files: dict[str, str], *, source_priority: list[str],
                 source_confidence: dict[str, float], max_model_term: int, proposal_window: int,
                 apposition_span: int) -> None:
        super().__init__(name, files.values())
        register_extensions()
        self.file_names = dict(files)
        self.source_priority = list(source_priority)
        self.source_confidence = dict(source_confidence)
        self.max_model_term = max_model_term
        self.proposal_window = proposal_window
        self.apposition_span = apposition_span

    def build(self, data: DataFiles) -> None:
        names = self.file_names
        self.cues = Cues.from_data(data, names["cues"])
        self.head_nouns = HeadNouns.from_data(data, names["head_nouns"])
        self.stop_phrases = data.words(names["stop_phrases"])
        self.generic_words = data.words(names["generic_words"])
        self.not_in_terms = data.words(names["not_in_terms"])
        self.proposals = ProposalRules(self.cues, self.head_nouns, self.proposal_window, self.apposition_span)

    def process(self, doc: Doc) -> Doc:
        chosen = self._resolve_overlaps(list(self._candidates(doc)))
        spans = [span for span in (self._to_span(doc, c) for c in chosen) if span is not None]
        sentences = list(doc.sents)
        self.proposals.mark(doc, spans, sentences, group_by_sentence(sentences, spans))
        spans = [s for s in spans if s._.paperkg_source != "name" or self._keep_name(s)]
        for span in spans:
            if span.label_ == "Unknown":
                span.label_ = "Method" if span._.paperkg_proposed else "Concept"
        assign_roles(sentences, group_by_sentence(sentences, spans), self.cues)
        doc.spans["entities"] = spans
        doc._.paperkg_undefined_acronyms = self._undefined_acronyms(doc, spans)
        return doc

    def _candidates(self, doc: Doc):
        lexicon = {(s.start, s.end): s for s in doc.spans.get("lexicon", [])}
        if doc._.paperkg_acronym_definitions:
            for short, long in doc._.paperkg_acronym_definitions:
                known = lexicon.get((long.start, long.end)) or lexicon.get((short.start, short.end))
                label = known.label_ if known else (self.head_nouns.label_of(long) or self._model_label(doc, long) or "Unknown")
                canonical = known.kb_id_ if known else long.text
                source = "lexicon" if known else "acronym"
                for part in (long, short):
                    yield Candidate(part.start, part.end, source, label, canonical, short.text)
            for record in doc._.paperkg_acronym_records:
                if record[KIND] == "resolved":
                    short, long = doc[record[START]:record[END]], doc[record[LONG_START]:record[LONG_END]]
                    known = lexicon.get((long.start, long.end))
                    label = known.label_ if known else (self.head_nouns.label_of(long) or "Unknown")
                    yield Candidate(short.start, short.end, "acronym", label,
                                    known.kb_id_ if known else long.text, short.text)
        for span in doc.spans.get("lexicon", []):
            yield Candidate(span.start, span.end, "lexicon", span.label_, span.kb_id_, span.id_ or None)
        for span in doc.spans.get("cue_datasets", []):
            yield Candidate(span.start, span.end, "cue", "Dataset")
        for span in doc.spans.get("names", []):
            yield Candidate(span.start, span.end, "name", span.label_, shape=span.kb_id_)
        for ent in doc.ents:
            label = self._map_model_label(doc, ent)
            if label and self._plausible_model_term(ent, label):
                yield Candidate(ent.start, ent.end, "model", label)

    def _model_label(self, doc: Doc, span: Span) -> str | None:
        """The model's label of the entity (doc.ents) that holds the span, if one does."""
        if doc[span.start].ent_iob_ not in ("B", "I"):
            return None
        start, end = span.start, span.start + 1
        while start > 0 and doc[start].ent_iob_ == "I":
            start -= 1
        while end < len(doc) and doc[end].ent_iob_ == "I":
            end += 1
        if span.end > end:
            return None
        return self._map_model_label(doc, Span(doc, start, end, label=doc[span.start].ent_type_))

    def _map_model_label(self, doc: Doc, ent: Span) -> str | None:
        """SciERC label -> graph label; Material is a Dataset only when it names one, Metric only
        when its head word is a measure (else both are Concepts)."""
        label = SCIERC_TO_GRAPH.get(ent.label_)
        if label == "Dataset" and not self._names_data(doc, ent):
            return "Concept"
        if label == "Metric" and self.head_nouns.label_of(ent) != "Metric":
            return "Concept"
        return label

    def _names_data(self, doc: Doc, span: Span) -> bool:
        """A span with a name-shaped token (CIFAR-10, DrivaerNet), or a capitalised one with a
        data noun in or right after it ('the ESP dataset')."""
        if any(name_kind(t.text) == "name" for t in span):
            return True
        after = doc[span.end].lower_ if span.end < len(doc) else ""
        data_noun = any(t.lower_ in self.cues.dataset_nouns for t in span) or after in self.cues.dataset_nouns
        return data_noun and any(t.text[:1].isupper() and not t.is_sent_start for t in span)

    def _plausible_model_term(self, span: Span, label: str) -> bool:
        """The model's span reads as a term: at most six word-like tokens, none of them a pronoun,
        verb or other word of not_in_terms.txt, and a lone lower-case word only when its head
        word agrees with the label ('summarization' Task, not 'revisiting')."""
        if len(span) > self.max_model_term or not all(_TERM_TOKEN.match(t.text) for t in span):
            return False
        if any(t.lower_ in self.not_in_terms for t in span):
            return False
        return len(span) > 1 or not span.text.islower() or self.head_nouns.label_of(span) == label

    def _resolve_overlaps(self, candidates: list[Candidate]) -> list[Candidate]:
        taken: set[int] = set()
        chosen = []
        for cand in sorted(candidates, key=lambda c: c.sort_key(self.source_priority)):
            tokens = set(range(cand.start, cand.end))
            if tokens & taken:
                continue
            taken |= tokens
            chosen.append(cand)
        return sorted(chosen, key=lambda c: c.start)

    def _to_span(self, doc: Doc, cand: Candidate) -> Span | None:
        start, end = cand.start, cand.end
        if cand.source in {"model", "cue"}:
            while start < end and (doc[start].lower_ in self.generic_words or doc[start].is_punct):
                start += 1
            while end > start and doc[end - 1].is_punct:
                end -= 1
        span = Span(doc, start, end, label=cand.label or "Unknown")
        if not self._is_term(span, cand.canonical):
            return None
        span._.paperkg_canonical = cand.canonical or span.text
        span._.paperkg_acronym = span.text if cand.shape == "caps" else cand.acronym
        span._.paperkg_source = cand.source
        span._.paperkg_confidence = self.source_confidence[cand.source]
        return span

    def _is_term(self, span: Span, canonical: str | None = None) -> bool:
        text = span.text.lower()
        if len(span) == 0 or len(text) < 2 or text in self.stop_phrases:
            return False
        if canonical is not None and canonical.lower() in self.stop_phrases:
            return False
        if all(t.lower_ in self.generic_words or t.lower_ in self.stop_phrases or t.is_punct for t in span):
            return False
        if all(t.like_num or t.is_punct for t in span):
            return False
        return not (span[0].is_punct or span[-1].lower_ in {"and", "or", "of", "for", "the"})

    @staticmethod
    def _keep_name(span: Span) -> bool:
        """Acronym-like and Title-Hyphenated names are kept only when proposed or typed by context."""
        weak = span._.paperkg_acronym is not None or name_kind(span.text) == "weak"
        return not weak or span._.paperkg_proposed or span.label_ == "Dataset"

    @staticmethod
    def _undefined_acronyms(doc: Doc, spans: list[Span]) -> list[Span]:
        """Undefined short forms that no entity covers (the graph may resolve them across papers)."""
        covered = {i for s in spans for i in range(s.start, s.end)}
        return [doc[r[START]:r[END]] for r in doc._.paperkg_acronym_records
                if r[KIND] == "undefined" and not covered.intersection(range(r[START], r[END]))]


ENTITY_FILES = {"cues": "cues.json", "head_nouns": "head_nouns.tsv", "stop_phrases": "stop_phrases.txt",
                "generic_words": "generic_words.txt", "not_in_terms": "not_in_terms.txt"}


@Language.factory(
    "paperkg_entities",
    assigns=["doc.spans", "span._.paperkg_canonical", "span._.paperkg_acronym", "span._.paperkg_source",
             "span._.paperkg_confidence", "span._.paperkg_proposed", "span._.paperkg_role",
             "doc._.paperkg_undefined_acronyms"],
    requires=["token.is_sent_start", "doc._.paperkg_acronym_records"],
    default_config={
        "files": ENTITY_FILES,
        "source_priority": ["acronym", "lexicon", "cue", "name", "model"],
        "source_confidence": {"acronym": 0.95, "lexicon": 0.9, "cue": 0.8, "name": 0.7, "model": 0.6},
        "max_model_term": 6, "proposal_window": 20, "apposition_span": 10,
    },
)
def make_entity_assembler(nlp: Language, name: str, files: dict[str, str], source_priority: list[str],
                          source_confidence: dict[str, float], max_model_term: int, proposal_window: int,
                          apposition_span: int) -> EntityAssembler:
    """Factory: the priorities, confidences and windows are settings; the word lists are data files."""
    return EntityAssembler(name, files, source_priority=source_priority, source_confidence=source_confidence,
                           max_model_term=max_model_term, proposal_window=proposal_window,
                           apposition_span=apposition_span)
