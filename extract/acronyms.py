"""spaCy component `paperkg_acronyms`: acronym definitions, resolved later mentions and
undefined acronyms, as a SpanGroup plus Span/Doc extensions that survive serialisation.

Per mention the Doc keeps one plain record in `doc._.acronym_records`
[start, end, kind, rule, confidence, long_start, long_end] (token offsets; -1 when there is
no long form); the Span extensions are getters over those records.
"""
from __future__ import annotations

from spacy.language import Language
from spacy.tokens import Doc, Span, SpanGroup

from .acronym_finder import AcronymFinder
from .acronym_rules import singular_plural_variants

SPAN_KEY = "acronyms"
LABEL = "ACRONYM"
RESOLVED_RULE = "later_mention"
RESOLVED_DISCOUNT = 0.95
UNDEFINED_CONFIDENCE = 0.5
# Rules too weak to redefine a short form the Doc already defined: there the mention resolves.
ONLY_IF_UNDEFINED = frozenset({"initials"})

_START, _END, _KIND, _RULE, _CONF, _LONG_START, _LONG_END = range(7)


def _record(span: Span) -> list | None:
    for rec in span.doc._.acronym_records:
        if rec[_START] == span.start and rec[_END] == span.end:
            return rec
    return None


def _long_form(span: Span) -> Span | None:
    rec = _record(span)
    if rec is None or rec[_LONG_START] < 0:
        return None
    return span.doc[rec[_LONG_START]:rec[_LONG_END]]


def _field(index: int):
    def getter(span: Span):
        rec = _record(span)
        return None if rec is None else rec[index]
    return getter


def _definitions(doc: Doc) -> list[tuple[Span, Span]]:
    return [
        (doc[r[_START]:r[_END]], doc[r[_LONG_START]:r[_LONG_END]])
        for r in doc._.acronym_records
        if r[_KIND] == "definition"
    ]


def register_extensions() -> None:
    """Declare the Doc/Span extensions of the acronym component (idempotent)."""
    if not Doc.has_extension("acronym_records"):
        Doc.set_extension("acronym_records", default=[])
    if not Doc.has_extension("acronym_definitions"):
        Doc.set_extension("acronym_definitions", getter=_definitions)
    for name, getter in (
        ("long_form", _long_form),
        ("acronym_kind", _field(_KIND)),
        ("acronym_rule", _field(_RULE)),
        ("acronym_confidence", _field(_CONF)),
    ):
        if not Span.has_extension(name):
            Span.set_extension(name, getter=getter)


register_extensions()


class AcronymComponent:
    """Finds acronym definitions per sentence, then resolves bare mentions of defined short
    forms (singular or plural) later in the same Doc."""

    def __init__(self, finder: AcronymFinder, resolve_unshaped: bool = True) -> None:
        self.finder = finder
        self.resolve_unshaped = resolve_unshaped

    def __call__(self, doc: Doc) -> Doc:
        sentences = list(doc.sents) if doc.has_annotation("SENT_START") else [doc[:]]
        records: list[list] = []
        defined: dict[str, list] = {}
        doc_texts = [t.text for t in doc]
        for sent in sentences:
            texts = doc_texts[sent.start:sent.end]
            found = self.finder.find(texts)
            offset = sent.start
            by_short = {(d.short_start, d.short_end): d for d in found.definitions}
            mentions = set(found.mentions)
            if self.resolve_unshaped and defined:
                mentions.update((i, i + 1) for i, t in enumerate(texts) if t in defined)
            for start, end in sorted(mentions):
                short = "".join(texts[start:end])
                d = by_short.get((start, end))
                if d is not None and d.rule in ONLY_IF_UNDEFINED and short in defined:
                    d = None
                if d is not None:
                    rec = [start + offset, end + offset, "definition", d.rule, d.confidence,
                           d.long_start + offset, d.long_end + offset]
                    for key in singular_plural_variants(short):
                        defined[key] = rec
                else:
                    rec = self._mention(short, start + offset, end + offset, defined)
                records.append(rec)
        doc._.acronym_records = records
        doc.spans[SPAN_KEY] = SpanGroup(doc, name=SPAN_KEY, spans=[
            Span(doc, r[_START], r[_END], label=LABEL) for r in records
        ])
        return doc

    @staticmethod
    def _mention(short: str, start: int, end: int, defined: dict[str, list]) -> list:
        source = defined.get(short)
        if source is None:
            return [start, end, "undefined", "shape", UNDEFINED_CONFIDENCE, -1, -1]
        confidence = round(source[_CONF] * RESOLVED_DISCOUNT, 3)
        return [start, end, "resolved", RESOLVED_RULE, confidence, source[_LONG_START], source[_LONG_END]]


@Language.factory(
    "paperkg_acronyms",
    default_config={"camel_case_names": False, "initials_rule": True, "resolve_unshaped": True},
)
def make_acronym_component(nlp: Language, name: str, camel_case_names: bool, initials_rule: bool,
                           resolve_unshaped: bool) -> AcronymComponent:
    """Factory of the acronym component (see the module docstring for what it writes)."""
    finder = AcronymFinder(camel_case_names=camel_case_names, initials_rule=initials_rule)
    return AcronymComponent(finder, resolve_unshaped=resolve_unshaped)


def bio_labels(doc: Doc) -> list[str]:
    """SDU-style per-token labels: B-/I-short for mentions, B-/I-long for long forms (a long
    form wins where it contains a short form, as in the SDU annotation)."""
    labels = ["O"] * len(doc)
    for rec in doc._.acronym_records:
        for k in range(rec[_START], rec[_END]):
            labels[k] = "B-short" if k == rec[_START] else "I-short"
    for rec in doc._.acronym_records:
        if rec[_KIND] == "definition":
            for k in range(rec[_LONG_START], rec[_LONG_END]):
                labels[k] = "B-long" if k == rec[_LONG_START] else "I-long"
    return labels
