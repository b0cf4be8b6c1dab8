"""The scientific-term layer: doc.ents in SciERC's labels, the model's spans plus the rules' where the model has none.

This is the layer `paperkg eval scierc` scores. The statistical model's boundaries and labels
are kept; a rule span (acronym long form, lexicon term, data set named by a cue) is added
only where it overlaps no model span.
"""
from __future__ import annotations

from collections.abc import Iterator

from spacy.language import Language
from spacy.tokens import Doc, Span

from .resources import DataComponent, DataFiles
from .typing import HeadNouns

GRAPH_TO_SCIERC = {"Method": "Method", "Task": "Task", "Metric": "Metric", "Dataset": "Material"}


class TermLayer(DataComponent):
    """Adds non-overlapping rule spans to the model's doc.ents, in SciERC labels."""

    def __init__(self, name: str, sources: list[str], head_nouns: str) -> None:
        super().__init__(name, (head_nouns,))
        self.sources = list(sources)
        self.head_nouns_file = head_nouns

    def build(self, data: DataFiles) -> None:
        self.head_nouns = HeadNouns.from_data(data, self.head_nouns_file)

    def process(self, doc: Doc) -> Doc:
        ents = list(doc.ents)
        taken = {i for ent in ents for i in range(ent.start, ent.end)}
        for span in self._rule_spans(doc):
            tokens = set(range(span.start, span.end))
            if span.label_ in GRAPH_TO_SCIERC and not tokens & taken:
                ents.append(Span(doc, span.start, span.end, label=GRAPH_TO_SCIERC[span.label_]))
                taken |= tokens
        doc.ents = sorted(ents, key=lambda s: s.start)
        return doc

    def _rule_spans(self, doc: Doc) -> Iterator[Span]:
        if "acronyms" in self.sources:
            for _, long in doc._.paperkg_acronym_definitions:
                label = self.head_nouns.label_of(long)
                if label:
                    yield Span(doc, long.start, long.end, label=label)
        for key in ("lexicon", "cue_datasets"):
            if key in self.sources:
                yield from sorted(doc.spans.get(key, []), key=lambda s: (s.start - s.end, s.start))


@Language.factory("paperkg_terms", assigns=["doc.ents"], requires=["doc.spans"],
                  default_config={"sources": ["acronyms", "lexicon", "cue_datasets"], "head_nouns": "head_nouns.tsv"})
def make_term_layer(nlp: Language, name: str, sources: list[str], head_nouns: str) -> TermLayer:
    """Factory: `sources` lists the rule layers allowed to add terms where the model has none."""
    return TermLayer(name, sources, head_nouns)
