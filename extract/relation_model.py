"""The trained relation component: typed relations between the entity mentions of one sentence.

spaCy's relation-extraction pattern: every ordered pair of mentions in a sentence whose labels some
relation type allows (core.schema.REL_ENDS) is a candidate; its features are the shared tok2vec's
token vectors (doc.tensor; the pipeline's tok2vec is frozen, so reading what it wrote is what a
listener would get) pooled over the head, the tail and the words between, plus the words between
as a bag over a small vocabulary, the two labels, their order and distance; a Thinc classifier
gives a sigmoid per relation type and a type is kept above its own threshold (tuned on dev, in
the component's cfg) where the type allows the two labels. Acronym definitions become SYNONYM_OF
(short form -> long form) and cue relations (paperkg_relations) are kept for the types
`cue_types` names. Writes doc._.paperkg_relations (heads and tails index doc.spans["entities"]).
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Any
from collections.abc import Callable, Iterable, Sequence

import numpy
from spacy.attrs import LOWER
from spacy.language import Language
from spacy.pipeline import TrainablePipe
from spacy.tokens import Doc, Span
from spacy.util import registry
from thinc.api import Model, Relu, Sigmoid, chain
from thinc.types import Floats2d

from paperkg.core.schema import REL_ENDS, NodeLabel, Relation, RelType

from .extensions import register_extensions

LABELS = tuple(kind.value for kind in REL_ENDS)  # the nine entity-entity types, schema order
NODE_LABELS = (NodeLabel.METHOD.value, NodeLabel.TASK.value, NodeLabel.DATASET.value, NodeLabel.METRIC.value)
NODE_INDEX = {label: i for i, label in enumerate(NODE_LABELS)}
GAP_BUCKETS = (0, 1, 2, 3, 4, 5, 8, 12, 20)      # lower bounds of the token-gap buckets
BETWEEN_BUCKETS = (0, 1, 2, 3)                   # mentions between the two: 0, 1, 2, 3+
CONTEXT = 2                                      # tokens of context before and after the pair
ALLOWED = {(h, t) for ends in REL_ENDS.values() for h, t in ends}
ALLOWED_LABELS = {(h.value, t.value): numpy.array([(h, t) in REL_ENDS[RelType(kind)] for kind in LABELS])
                  for h, t in ALLOWED}
Pair = tuple[int, int]  # indices of head and tail in doc.spans["entities"]


@registry.architectures("paperkg.RelationClassifier.v1")
def relation_classifier(hidden_width: int, dropout: float) -> Model[Floats2d, Floats2d]:
    """Pair features -> one sigmoid per relation type, through one hidden ReLU layer."""
    return chain(Relu(nO=hidden_width, dropout=dropout), Sigmoid())


def sentence_starts(doc: Doc) -> list[int]:
    """The first token of every sentence, in order (computed once per doc: Span.sent walks the tokens); a doc
    without sentence boundaries (the model loaded on its own) is one sentence."""
    return [sent.start for sent in doc.sents] if doc.has_annotation("SENT_START") else [0]


def candidate_pairs(doc: Doc, entities: Sequence[Span], max_gap: int,
                    starts: Sequence[int] | None = None) -> list[Pair]:
    """Ordered pairs of mentions in one sentence, at most `max_gap` tokens apart, whose labels a type allows."""
    starts = sentence_starts(doc) if starts is None else starts
    mentions = [(e.start, e.end, e.label_) for e in entities]
    by_sentence: dict[int, list[int]] = {}
    for i, (start, _, _) in enumerate(mentions):
        by_sentence.setdefault(bisect_right(starts, start), []).append(i)
    pairs = []
    for members in by_sentence.values():
        found = []
        by_start = sorted(members, key=lambda m: mentions[m][0])
        for position, a in enumerate(by_start):  # each mention meets only those starting within max_gap of its end
            for later in range(position + 1, len(by_start)):
                b = by_start[later]
                (a_start, a_end, a_label), (b_start, b_end, b_label) = mentions[a], mentions[b]
                if b_start - a_end > max_gap:
                    break
                if not (a_start < b_end and b_start < a_end) and max(a_start, b_start) - min(a_end, b_end) <= max_gap:
                    found += [pair for pair, labels in (((a, b), (a_label, b_label)), ((b, a), (b_label, a_label)))
                              if labels in ALLOWED_LABELS]
        pairs += sorted(found)  # in the order of the mentions, as the pairs of a sentence always were
    return pairs


def pair_features(doc: Doc, entities: Sequence[Span], pairs: Sequence[Pair], vocab: dict[str, int],
                  starts: Sequence[int]) -> numpy.ndarray:
    """One row per pair: head, tail, between (mean and max) vectors, the vectors of the CONTEXT tokens
    before the first and after the second mention (in the sentence), labels, order, gap, mentions
    between, and the between-words bag. Means come from running sums of doc.tensor."""
    if not pairs:
        return numpy.zeros((0, 0), dtype="f")
    tensor = doc.tensor
    if tensor.ndim != 2 or tensor.shape[0] != len(doc):
        raise ValueError("relation_model reads doc.tensor: the pipeline's tok2vec must run before it.")
    width = tensor.shape[1]
    sums = numpy.zeros((len(doc) + 1, width), dtype="f8")
    numpy.cumsum(tensor, axis=0, out=sums[1:])
    ends = [*starts[1:], len(doc)]
    mentions = [(e.start, e.end, NODE_INDEX.get(e.label_, -1)) for e in entities]  # pairs have node labels
    mention_starts = sorted(start for start, _, _ in mentions)
    strings = doc.vocab.strings
    columns = {strings.add(word): column for word, column in vocab.items()}
    lower = doc.to_array(LOWER).tolist()
    rows = numpy.zeros((len(pairs), feature_width(width, len(vocab))), dtype="f")
    labels_at = 6 * width
    gaps_at = labels_at + 9
    between_at = gaps_at + len(GAP_BUCKETS)
    words_at = between_at + len(BETWEEN_BUCKETS)
    for row, (a, b) in zip(rows, pairs):
        (h_start, h_end, h_label), (t_start, t_end, t_label) = mentions[a], mentions[b]
        left, right = min(h_end, t_end), max(h_start, t_start)
        first, last = min(h_start, t_start), max(h_end, t_end)
        sentence = bisect_right(starts, first) - 1
        sent_start, sent_end = starts[sentence], ends[sentence]
        row[:width] = (sums[h_end] - sums[h_start]) / (h_end - h_start)
        row[width:2 * width] = (sums[t_end] - sums[t_start]) / (t_end - t_start)
        if right > left:
            row[2 * width:3 * width] = (sums[right] - sums[left]) / (right - left)
            row[3 * width:4 * width] = tensor[left:right].max(axis=0)
        if first > sent_start:
            before = max(sent_start, first - CONTEXT)
            row[4 * width:5 * width] = (sums[first] - sums[before]) / (first - before)
        if last < sent_end:
            after = min(sent_end, last + CONTEXT)
            row[5 * width:6 * width] = (sums[after] - sums[last]) / (after - last)
        row[labels_at + h_label] = 1
        row[labels_at + 4 + t_label] = 1
        row[labels_at + 8] = h_start < t_start
        row[gaps_at + bisect_right(GAP_BUCKETS, right - left) - 1] = 1
        between = bisect_left(mention_starts, right) - bisect_left(mention_starts, left)
        row[between_at + min(between, len(BETWEEN_BUCKETS) - 1)] = 1
        for key in lower[left:right]:
            column = columns.get(key)
            if column is not None:
                row[words_at + column] = 1
    return rows


def feature_width(tensor_width: int, vocab_size: int) -> int:
    """The number of features of a pair."""
    return 6 * tensor_width + 9 + len(GAP_BUCKETS) + len(BETWEEN_BUCKETS) + vocab_size


def acronym_synonyms(doc: Doc, entities: Sequence[Span], confidence: float) -> list[Relation]:
    """SYNONYM_OF from the doc's acronym definitions whose short and long form are both mentions."""
    index = {(e.start, e.end): i for i, e in enumerate(entities)}
    out = []
    for short, long in doc._.paperkg_acronym_definitions:
        head, tail = index.get((short.start, short.end)), index.get((long.start, long.end))
        if head is not None and tail is not None and entities[head].label_ == entities[tail].label_:
            out.append(Relation(RelType.SYNONYM_OF, head, tail, sentence_index(doc, short), "acronym", confidence))
    return out


def sentence_index(doc: Doc, span: Span, starts: Sequence[int] | None = None) -> int:
    """The number of the sentence a span starts in."""
    return bisect_right(sentence_starts(doc) if starts is None else starts, span.start) - 1


class RelationModel(TrainablePipe):
    """Writes doc._.paperkg_relations from the trained classifier, acronym definitions and kept cue rules."""

    def __init__(self, vocab, model: Model, name: str, max_gap: int, cue_types: list[str],
                 acronym_confidence: float) -> None:
        register_extensions()
        self.vocab = vocab
        self.model = model
        self.name = name
        self.cfg: dict[str, Any] = {"labels": list(LABELS), "thresholds": {label: 0.5 for label in LABELS},
                                    "between_words": [],
                    "max_gap": max_gap, "cue_types": list(cue_types), "acronym_confidence": acronym_confidence}

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(self.cfg["labels"])

    def _vocab(self) -> dict[str, int]:
        return {word: i for i, word in enumerate(self.cfg["between_words"])}

    def featurize(self, doc: Doc, entities: Sequence[Span]) -> tuple[list[Pair], numpy.ndarray]:
        """The candidate pairs of a doc and their feature rows."""
        starts = sentence_starts(doc)
        pairs = candidate_pairs(doc, entities, self.cfg["max_gap"], starts)
        return pairs, pair_features(doc, entities, pairs, self._vocab(), starts)

    def predict(self, docs: Iterable[Doc]) -> list[tuple[list[Pair], numpy.ndarray]]:
        """Per doc: its candidate pairs and their per-type probabilities (one classifier call for the batch)."""
        docs = list(docs)
        featurized = [self.featurize(doc, list(doc.spans.get("entities", []))) for doc in docs]
        rows = [features for _, features in featurized if len(features)]
        if not rows:
            return [(pairs, numpy.zeros((0, len(self.labels)), dtype="f")) for pairs, _ in featurized]
        scores = self.model.ops.to_numpy(self.model.predict(numpy.vstack(rows)))
        out, at = [], 0
        for pairs, _ in featurized:
            out.append((pairs, scores[at:at + len(pairs)]))
            at += len(pairs)
        return out

    def set_annotations(self, docs: Iterable[Doc], predictions: list[tuple[list[Pair], numpy.ndarray]]) -> None:
        thresholds = numpy.array([self.cfg["thresholds"][label] for label in self.labels], dtype="f")
        keep_cues = set(self.cfg["cue_types"])
        for doc, (pairs, scores) in zip(docs, predictions):
            entities = list(doc.spans.get("entities", []))
            starts = sentence_starts(doc)
            found: dict[tuple[RelType, int, int], Relation] = {}
            for relation in (r for r in doc._.paperkg_relations or [] if r.type.value in keep_cues):
                found[(relation.type, relation.head, relation.tail)] = relation
            for relation in acronym_synonyms(doc, entities, self.cfg["acronym_confidence"]):
                found.setdefault((relation.type, relation.head, relation.tail), relation)
            if len(pairs):
                labels = [(entities[a].label_, entities[b].label_) for a, b in pairs]
                hits = (scores >= thresholds) & numpy.array([ALLOWED_LABELS[pair] for pair in labels])
                for i, k in zip(*numpy.nonzero(hits)):
                    a, b = pairs[i]
                    kind, confidence = RelType(self.labels[k]), round(float(scores[i, k]), 4)
                    key = (kind, a, b)
                    if key not in found or found[key].confidence < confidence:
                        found[key] = Relation(kind, a, b, sentence_index(doc, entities[a], starts), "model", confidence)
            doc._.paperkg_relations = sorted(found.values(), key=lambda r: (r.sentence, r.head, r.tail, r.type.value))

    def initialize(self, get_examples: Callable, *, nlp: Language | None = None,
                   between_words: Sequence[str] = (), tensor_width: int = 96) -> None:
        """Size the classifier for the between-words vocabulary and the tok2vec width (weights come from training)."""
        self.cfg["between_words"] = list(between_words)
        width = feature_width(tensor_width, len(self.cfg["between_words"]))
        self.model.initialize(X=numpy.zeros((2, width), dtype="f"), Y=numpy.zeros((2, len(self.labels)), dtype="f"))


@Language.factory(
    "paperkg_relation_model",
    assigns=["doc._.paperkg_relations"],
    requires=["doc.tensor", "doc.spans", "doc._.paperkg_acronym_records"],
    default_config={"model": {"@architectures": "paperkg.RelationClassifier.v1", "hidden_width": 128, "dropout": 0.2},
                    "max_gap": 30, "cue_types": [], "acronym_confidence": 0.9},
)
def make_relation_model(nlp: Language, name: str, model: Model, max_gap: int, cue_types: list[str],
                        acronym_confidence: float) -> RelationModel:
    """Factory: the classifier's shape, the candidate window and the cue types kept are settings."""
    return RelationModel(nlp.vocab, model, name, max_gap, cue_types, acronym_confidence)
