"""spaCy component `paperkg_acronyms`: acronym definitions, resolved later mentions and
undefined acronyms, as a span group (doc.spans["acronyms"] by default) and the records behind the
`paperkg_` acronym extensions (see extensions.py).
"""
from __future__ import annotations

from dataclasses import asdict

from spacy.language import Language
from spacy.tokens import Doc, Span, SpanGroup

from .acronym_finder import RULE_BASE_CONFIDENCE, RULES, STRICT_MIN_CONFIDENCE, AcronymFinder
from .acronym_rules import ACRONYM_FILES, Costs, load_lexicon, singular_plural_variants
from .extensions import AcronymRecord, acronym_records, register_extensions, set_acronym_records
from .resources import DataComponent, DataFiles

SPAN_KEY = "acronyms"  # the default of the spans_key setting
LABEL = "ACRONYM"
RESOLVED_RULE = "later_mention"
UNDEFINED_RULE = "shape"


class AcronymComponent(DataComponent):
    """Finds acronym definitions per sentence, then resolves bare mentions of defined short
    forms (singular or plural) later in the same Doc."""

    def __init__(self, name: str, *, finder_options: dict, costs: Costs, resolve_unshaped: bool,
                 resolved_discount: float, undefined_confidence: float, spans_key: str) -> None:
        super().__init__(name, ACRONYM_FILES)
        register_extensions()
        self.finder_options = finder_options
        self.costs = costs
        self.resolve_unshaped = resolve_unshaped
        self.resolved_discount = resolved_discount
        self.undefined_confidence = undefined_confidence
        self.spans_key = spans_key
        self.finder: AcronymFinder | None = None

    def build(self, data: DataFiles) -> None:
        self.finder = AcronymFinder(load_lexicon(data), self.costs, **self.finder_options)

    def process(self, doc: Doc) -> Doc:
        sentences = list(doc.sents) if doc.has_annotation("SENT_START") else [doc[:]]
        records: list[AcronymRecord] = []
        defined: dict[str, AcronymRecord] = {}
        doc_texts = [t.text for t in doc]
        for sent in sentences:
            texts = doc_texts[sent.start:sent.end]
            if self.finder is None:  # DataComponent.__call__ builds before process(); a direct call may not
                raise ValueError(f"pipeline component {self.name!r} has no data files: call nlp.initialize().")
            found = self.finder.find(texts)
            offset = sent.start
            by_short = {(d.short_start, d.short_end): d for d in found.definitions}
            mentions = set(found.mentions)
            if self.resolve_unshaped and defined:
                mentions.update((i, i + 1) for i, t in enumerate(texts) if t in defined)
            for start, end in sorted(mentions):
                short = "".join(texts[start:end])
                d = by_short.get((start, end))
                if d is not None and RULES[d.rule].only_if_undefined and short in defined:
                    d = None  # too weak to redefine a short form: the mention resolves instead
                if d is not None:
                    record = AcronymRecord(start + offset, end + offset, "definition", d.rule, d.confidence,
                                           d.long_start + offset, d.long_end + offset)
                    for key in singular_plural_variants(short):
                        defined[key] = record
                else:
                    record = self._mention(short, start + offset, end + offset, defined)
                records.append(record)
        set_acronym_records(doc, records)
        doc.spans[self.spans_key] = SpanGroup(doc, name=self.spans_key, spans=[
            Span(doc, r.start, r.end, label=LABEL) for r in records
        ])
        return doc

    def _mention(self, short: str, start: int, end: int, defined: dict[str, AcronymRecord]) -> AcronymRecord:
        source = defined.get(short)
        if source is None:
            return AcronymRecord(start, end, "undefined", UNDEFINED_RULE, self.undefined_confidence)
        confidence = round(source.confidence * self.resolved_discount, 3)
        return AcronymRecord(start, end, "resolved", RESOLVED_RULE, confidence, source.long_start, source.long_end)


@Language.factory(
    "paperkg_acronyms",
    assigns=["doc.spans", "doc._.paperkg_acronym_records", "doc._.paperkg_acronym_index", "span._.paperkg_long_form"],
    requires=["token.is_sent_start"],
    default_config={
        "camel_case_names": False, "initials_rule": True, "min_lowercase_initials": 3,
        "resolve_unshaped": True, "resolved_discount": 0.95, "undefined_confidence": 0.5,
        "strict_min_confidence": STRICT_MIN_CONFIDENCE, "rule_confidence": RULE_BASE_CONFIDENCE,
        "costs": asdict(Costs()), "spans_key": SPAN_KEY,
    },
)
def make_acronym_component(nlp: Language, name: str, camel_case_names: bool, initials_rule: bool,
                           min_lowercase_initials: int, resolve_unshaped: bool, resolved_discount: float,
                           undefined_confidence: float, strict_min_confidence: float,
                           rule_confidence: dict[str, float], costs: dict[str, float],
                           spans_key: str) -> AcronymComponent:
    """Factory: every threshold and the span group written are settings; the word lists are data files."""
    options = {"camel_case_names": camel_case_names, "initials_rule": initials_rule,
               "min_lowercase_initials": min_lowercase_initials, "strict_min_confidence": strict_min_confidence,
               "rule_confidence": dict(rule_confidence)}
    return AcronymComponent(name, finder_options=options, costs=Costs(**costs), resolve_unshaped=resolve_unshaped,
                            resolved_discount=resolved_discount, undefined_confidence=undefined_confidence,
                            spans_key=spans_key)


def bio_labels(doc: Doc) -> list[str]:
    """SDU-style per-token labels: B-/I-short for mentions, B-/I-long for long forms (a long
    form wins where it contains a short form, as in the SDU annotation)."""
    labels = ["O"] * len(doc)
    records = acronym_records(doc)
    for record in records:
        for k in range(record.start, record.end):
            labels[k] = "B-short" if k == record.start else "I-short"
    for record in records:
        if record.kind == "definition":
            for k in range(record.long_start, record.long_end):
                labels[k] = "B-long" if k == record.long_start else "I-long"
    return labels
