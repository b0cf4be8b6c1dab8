"""The scientific-term layer: doc.ents in SciERC's labels, the model's spans plus the rules' where the model has none.

This is the layer `paperkg eval scierc` scores. The statistical model's boundaries and labels
are kept; a rule span (acronym long form, lexicon term, data set named by a cue) is added
only where it overlaps no model span.
"""
from __future__ import annotations

from collections.abc import Iterator

from spacy.language import Language
from spacy.tokens import Doc, Span

from .candidates import DATASETS_KEY
from .lexicon import SPANS_KEY as LEXICON_KEY
from .resources import DataComponent, DataFiles
from .typing import HeadNouns

GRAPH_TO_SCIERC = {"Method": "Method", "Task": "Task", "Metric": "Metric", "Dataset": "Material"}


class TermLayer(DataComponent):
    """Adds non-overlapping rule spans to the model's doc.ents, in SciERC labels."""

    def __init__(self, name: str, acronym_long_forms: bool, spans_keys: tuple[str, ...], head_nouns: str) -> None:
        super().__init__(name, (head_nouns,))
        self.acronym_long_forms = acronym_long_forms
        self.spans_keys = spans_keys
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
        if self.acronym_long_forms:
            for _, long in doc._.paperkg_acronym_definitions:
                label = self.head_nouns.label_of(long)
                if label:
                    yield Span(doc, long.start, long.end, label=label)
        for key in self.spans_keys:
            yield from sorted(doc.spans.get(key, []), key=lambda s: (s.start - s.end, s.start))


@Language.factory("paperkg_terms", assigns=["doc.ents"], requires=["doc.spans"],
                  default_config={"acronym_long_forms": True, "lexicon_key": LEXICON_KEY, "datasets_key": DATASETS_KEY,
                                  "head_nouns": "head_nouns.tsv"})
def make_term_layer(nlp: Language, name: str, acronym_long_forms: bool, lexicon_key: str | None,
                    datasets_key: str | None, head_nouns: str) -> TermLayer:
    """Factory: the rule layers allowed to add terms where the model has none: acronym long forms,
    lexicon terms and data sets named by cues (the span groups the two keys name; null: not used)."""
    return TermLayer(name, acronym_long_forms, tuple(key for key in (lexicon_key, datasets_key) if key), head_nouns)
