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
from .cues import Cues, load_cues
from .extensions import ensure_extensions
from .proposals import mark_proposals
from .resources import read_lines
from .roles import assign_roles
from .typing import SCIERC_TO_GRAPH, label_from_head

SOURCE_PRIORITY = ["acronym", "lexicon", "cue", "name", "model"]
_MAX_MODEL_TERM = 6
_TERM_TOKEN = re.compile(r"^\w[\w'’./+-]*$")
SOURCE_CONFIDENCE = {"acronym": 0.95, "lexicon": 0.9, "cue": 0.8, "name": 0.7, "model": 0.6}


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

    def sort_key(self) -> tuple[int, int, int]:
        return (SOURCE_PRIORITY.index(self.source), self.start - self.end, self.start)


class EntityAssembler:
    """Collects candidates, resolves overlaps, types, filters stop phrases, marks proposals and roles."""

    def __init__(self, cues: Cues, stop_phrases: set[str], generic_words: set[str], not_in_terms: set[str]) -> None:
        ensure_extensions()
        self.cues = cues
        self.not_in_terms = not_in_terms
        self.stop_phrases = stop_phrases
        self.generic_words = generic_words

    def __call__(self, doc: Doc) -> Doc:
        chosen = self._resolve_overlaps(list(self._candidates(doc)))
        spans = [span for span in (self._to_span(doc, c) for c in chosen) if span is not None]
        mark_proposals(doc, spans, self.cues)
        spans = [s for s in spans if s._.source != "name" or self._keep_name(s)]
        for span in spans:
            if span.label_ == "Unknown":
                span.label_ = "Method" if span._.proposed else "Concept"
        assign_roles(doc, spans, self.cues)
        doc.spans["entities"] = spans
        doc._.undefined_acronyms = self._undefined_acronyms(doc, spans)
        return doc

    def _candidates(self, doc: Doc):
        lexicon = {(s.start, s.end): s for s in doc.spans.get("lexicon", [])}
        if doc.has_extension("acronym_definitions") and doc._.acronym_definitions:
            for short, long in doc._.acronym_definitions:
                known = lexicon.get((long.start, long.end)) or lexicon.get((short.start, short.end))
                label = known.label_ if known else (label_from_head(long) or self._model_label(doc, long) or "Unknown")
                canonical = known.kb_id_ if known else long.text
                source = "lexicon" if known else "acronym"
                for part in (long, short):
                    yield Candidate(part.start, part.end, source, label, canonical, short.text)
            for short in doc.spans.get("acronyms", []):
                if short._.acronym_kind == "resolved" and short._.long_form is not None:
                    long = short._.long_form
                    known = lexicon.get((long.start, long.end))
                    label = known.label_ if known else (label_from_head(long) or "Unknown")
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
        for ent in doc.ents:
            if ent.start <= span.start and span.end <= ent.end:
                return self._map_model_label(doc, ent)
        return None

    def _map_model_label(self, doc: Doc, ent: Span) -> str | None:
        """SciERC label -> graph label; Material is a Dataset only when it names one, Metric only
        when its head word is a measure (else both are Concepts)."""
        label = SCIERC_TO_GRAPH.get(ent.label_)
        if label == "Dataset" and not self._names_data(doc, ent):
            return "Concept"
        if label == "Metric" and label_from_head(ent) != "Metric":
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
        if len(span) > _MAX_MODEL_TERM or not all(_TERM_TOKEN.match(t.text) for t in span):
            return False
        if any(t.lower_ in self.not_in_terms for t in span):
            return False
        return len(span) > 1 or not span.text.islower() or label_from_head(span) == label

    @staticmethod
    def _resolve_overlaps(candidates: list[Candidate]) -> list[Candidate]:
        taken: set[int] = set()
        chosen = []
        for cand in sorted(candidates, key=Candidate.sort_key):
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
        span._.canonical = cand.canonical or span.text
        span._.acronym = span.text if cand.shape == "caps" else cand.acronym
        span._.source = cand.source
        span._.confidence = SOURCE_CONFIDENCE[cand.source]
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
        weak = span._.acronym is not None or name_kind(span.text) == "weak"
        return not weak or span._.proposed or span.label_ == "Dataset"

    @staticmethod
    def _undefined_acronyms(doc: Doc, spans: list[Span]) -> list[dict]:
        covered = {i for s in spans for i in range(s.start, s.end)}
        found = []
        for short in doc.spans.get("acronyms", []):
            if short._.acronym_kind == "undefined" and not covered & set(range(short.start, short.end)):
                found.append({"text": short.text, "start": short.start_char, "end": short.end_char})
        return found


@Language.factory(
    "paperkg_entities",
    default_config={"cues": "cues.json", "stop_phrases": "stop_phrases.txt", "generic_words": "generic_words.txt",
                    "not_in_terms": "not_in_terms.txt"},
)
def make_entity_assembler(
    nlp: Language, name: str, cues: str, stop_phrases: str, generic_words: str, not_in_terms: str
) -> EntityAssembler:
    """Factory: cue words and the word lists are data files under extract/data/."""
    return EntityAssembler(load_cues(cues), {p.lower() for p in read_lines(stop_phrases)},
                           {w.lower() for w in read_lines(generic_words)},
                           {w.lower() for w in read_lines(not_in_terms)})
