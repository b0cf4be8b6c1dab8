"""The scientific-term layer: doc.ents in SciERC's labels, the model's spans plus the rules' where the model has none.

This is the layer `paperkg eval scierc` scores. The statistical model's boundaries and labels
are kept; a rule span (acronym long form, lexicon term, data set named by a cue) is added
only where it overlaps no model span. The graph's entity layer (`paperkg_entities`) is then
built from these terms, the acronyms and the name shapes.
"""
from __future__ import annotations

from spacy.language import Language
from spacy.tokens import Doc, Span

from .typing import label_from_head

GRAPH_TO_SCIERC = {"Method": "Method", "Task": "Task", "Metric": "Metric", "Dataset": "Material"}


class TermLayer:
    """Adds non-overlapping rule spans to the model's doc.ents, in SciERC labels."""

    def __init__(self, sources: list[str]) -> None:
        self.sources = sources

    def __call__(self, doc: Doc) -> Doc:
        ents = list(doc.ents)
        taken = {i for ent in ents for i in range(ent.start, ent.end)}
        for span in self._rule_spans(doc):
            tokens = set(range(span.start, span.end))
            if span.label_ in GRAPH_TO_SCIERC and not tokens & taken:
                ents.append(Span(doc, span.start, span.end, label=GRAPH_TO_SCIERC[span.label_]))
                taken |= tokens
        doc.ents = sorted(ents, key=lambda s: s.start)
        return doc

    def _rule_spans(self, doc: Doc):
        if "acronyms" in self.sources and doc.has_extension("acronym_definitions"):
            for _, long in doc._.acronym_definitions:
                label = label_from_head(long)
                if label:
                    yield Span(doc, long.start, long.end, label=label)
        for key in ("lexicon", "cue_datasets"):
            if key in self.sources:
                yield from sorted(doc.spans.get(key, []), key=lambda s: (s.start - s.end, s.start))


@Language.factory("paperkg_terms", default_config={"sources": ["acronyms", "lexicon", "cue_datasets"]})
def make_term_layer(nlp: Language, name: str, sources: list[str]) -> TermLayer:
    """Factory: `sources` lists the rule layers allowed to add terms where the model has none."""
    return TermLayer(sources)
