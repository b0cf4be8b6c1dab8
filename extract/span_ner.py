"""`paperkg_span_ner`: spaCy's transition-based NER whose gold and predictions live in doc.spans[key].

Why: the shipped model has two NER heads on one tok2vec. SciERC's six labels go to doc.ents (the
term layer `paperkg eval scierc` scores, spaCy's own `ner`), paperkg's four types to
doc.spans["types"] (this component). Two stock `ner` components cannot share doc.ents: the
second would be forced to repeat the first one's entities.

Gold (training): reference.spans[key] are the entities, reference.spans[key + "_missing"] regions
whose annotation is unknown (no loss there: spaCy's missing BILUO value), every other token is O.
A reference without the key is all unknown for this head and skipped. Prediction: the Doc's own
entity annotation is neither read nor changed.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

from spacy.attrs import ENT_IOB, ENT_TYPE
from spacy.language import Language
from spacy.pipeline.ner import DEFAULT_NER_MODEL, EntityRecognizer
from spacy.tokens import Doc, Span
from spacy.training import Example
from spacy.util import registry
from thinc.api import Model

TYPES_KEY = "types"


class SpanEntityRecognizer(EntityRecognizer):
    """EntityRecognizer reading gold from, and writing predictions to, doc.spans[spans_key]."""

    def __init__(self, vocab: Any, model: Model, name: str = "types_ner", moves: Any = None, *,
                 spans_key: str = TYPES_KEY, **kwargs: Any) -> None:
        super().__init__(vocab, model, name=name, moves=moves, **kwargs)
        self.spans_key = spans_key
        self.cfg["spans_key"] = spans_key

    def _as_ents(self, examples: Iterable[Example]) -> list[Example]:
        """Examples whose reference carries this head's gold as doc.ents (unknown regions missing)."""
        out = []
        for eg in examples:
            ref = eg.reference
            if self.spans_key not in ref.spans:
                continue
            gold = Doc(ref.vocab, words=[t.text for t in ref], spaces=[bool(t.whitespace_) for t in ref],
                       sent_starts=[bool(t.is_sent_start) for t in ref])
            ents = [Span(gold, s.start, s.end, label=s.label_) for s in ref.spans[self.spans_key]]
            missing = [Span(gold, s.start, s.end) for s in ref.spans.get(self.spans_key + "_missing", [])]
            gold.set_ents(ents, missing=missing, default="outside")
            out.append(Example(eg.predicted, gold))
        return out

    def initialize(self, get_examples: Callable[[], Iterable[Example]], nlp: Language | None = None,
                   labels: Any = None) -> None:
        return super().initialize(lambda: self._as_ents(get_examples()), nlp=nlp, labels=labels)

    def update(self, examples: Iterable[Example], *, drop: float = 0.0, sgd: Any = None,
               losses: dict[str, float] | None = None) -> dict[str, float]:
        losses = {} if losses is None else losses
        losses.setdefault(self.name, 0.0)
        converted = self._as_ents(examples)
        if not converted:
            return losses
        return super().update(converted, drop=drop, sgd=sgd, losses=losses)

    def predict(self, docs: Iterable[Doc] | Doc) -> Any:
        docs = [docs] if isinstance(docs, Doc) else list(docs)
        saved = [doc.to_array([ENT_IOB, ENT_TYPE]) for doc in docs]
        for doc in docs:
            if len(doc):
                doc.set_ents([], default="missing")
        try:
            return super().predict(docs)
        finally:
            for doc, array in zip(docs, saved):
                if len(doc):
                    doc.from_array([ENT_IOB, ENT_TYPE], array)  # type: ignore[arg-type]  # to_array's numpy array

    def set_annotations(self, docs: Iterable[Doc], states_or_beams: Any) -> None:
        docs = list(docs)
        saved = [doc.to_array([ENT_IOB, ENT_TYPE]) for doc in docs]
        for doc in docs:
            if len(doc):
                doc.set_ents([], default="missing")
        super().set_annotations(docs, states_or_beams)
        for doc, array in zip(docs, saved):
            doc.spans[self.spans_key] = list(doc.ents)
            if len(doc):
                doc.from_array([ENT_IOB, ENT_TYPE], array)  # type: ignore[arg-type]  # to_array's numpy array


@registry.scorers("paperkg.types_scorer.v1")
def make_types_scorer(spans_key: str = TYPES_KEY) -> Callable[..., dict[str, float]]:
    """Scores for spaCy's training loop: exact F1 per benchmark source (reference.user_data["source"])
    on the labels that source annotates, and `<key>_f`, the mean of the TDMSci and SciER figures."""
    from paperkg.extract.evaluate.entities import SCORED, merge_acronym_pairs, score

    def scorer(examples: Iterable[Example], **kwargs: Any) -> dict[str, float]:
        gold: dict[str, list] = defaultdict(list)
        predicted: dict[str, list] = defaultdict(list)
        for n, eg in enumerate(examples):
            source = eg.reference.user_data.get("source")
            if source not in SCORED or spans_key not in eg.reference.spans:
                continue
            gold[source] += [(n, s.start, s.end, s.label_) for s in eg.reference.spans[spans_key]]
            spans = [(s.start, s.end, s.label_) for s in eg.predicted.spans.get(spans_key, [])]
            if source == "tdmsci":
                spans = merge_acronym_pairs(spans, [t.text for t in eg.predicted])
            predicted[source] += [(n, *span) for span in spans]
        out: dict[str, float] = {}
        for source in sorted(gold):
            exact = score(gold[source], predicted[source], SCORED[source])["exact"]
            out.update({f"{spans_key}_{source}_{k}": exact[k] for k in ("p", "r")})
            out[f"{spans_key}_{source}_f"] = exact["f1"]
        main = [out[f"{spans_key}_{s}_f"] for s in ("tdmsci", "scier") if f"{spans_key}_{s}_f" in out]
        out[f"{spans_key}_f"] = sum(main) / len(main) if main else 0.0
        return out

    return scorer


@Language.factory(
    "paperkg_span_ner",
    assigns=["doc.spans"],
    default_config={
        "model": DEFAULT_NER_MODEL,
        "moves": None,
        "update_with_oracle_cut_size": 100,
        "incorrect_spans_key": None,
        "spans_key": TYPES_KEY,
        "scorer": {"@scorers": "paperkg.types_scorer.v1"},
    },
    default_score_weights={f"{TYPES_KEY}_f": 1.0},
)
def make_span_ner(nlp: Language, name: str, model: Model, moves: Any, update_with_oracle_cut_size: int,
                  incorrect_spans_key: str | None, spans_key: str, scorer: Callable | None) -> SpanEntityRecognizer:
    """Factory: the NER model architecture as spaCy's `ner`, predictions into doc.spans[spans_key]."""
    return SpanEntityRecognizer(nlp.vocab, model, name=name, moves=moves, spans_key=spans_key,
                                update_with_oracle_cut_size=update_with_oracle_cut_size,
                                incorrect_spans_key=incorrect_spans_key, scorer=scorer)
