"""The trained relation component: typed relations between the entity mentions of one sentence.

spaCy's relation-extraction pattern: every ordered pair of mentions in a sentence whose labels some
relation type allows (core.schema.REL_ENDS) is a candidate; its features are the shared tok2vec's token
vectors (doc.tensor; the pipeline's tok2vec is frozen, so reading what it wrote is what a listener would
get) pooled over the head, the tail, the words between and around them, plus lexical cues (the words
between as a bag, the words at the pair's edges, the head words of the two mentions), the two labels,
their order and distance; the mean of a few Thinc classifiers gives a sigmoid per relation type and a type
is kept above its own threshold (tuned on dev, in the component's cfg) where the type allows the two
labels. A relation's confidence is the precision its type had on dev at that probability (the cfg's
`precision` table), which the graph's operating point reads. Acronym definitions become SYNONYM_OF
(short form -> long form) and cue relations (paperkg_relations) are kept for the types `cue_types` names.
Reads the mentions from the span group `entities_key` names (a setting of the pipeline, not of the
trained weights) and writes doc._.paperkg_relations (heads and tails index it).
"""
from __future__ import annotations

from bisect import bisect_right
from typing import Any, NamedTuple
from collections.abc import Callable, Iterable, Sequence

import numpy
from spacy.attrs import LOWER
from spacy.language import Language
from spacy.strings import hash_string  # type: ignore[attr-defined]  # Cython, no stub
from spacy.pipeline import TrainablePipe
from spacy.tokens import Doc, Span
from spacy.util import registry
from thinc.api import Model, Relu, Sigmoid, chain
from thinc.types import Floats2d

from paperkg.core.schema import REL_ENDS, SYMMETRIC_REL_TYPES, NodeLabel, Relation, RelType

from .entities import SPANS_KEY as ENTITIES_KEY
from .extensions import register_extensions
from .pair_encoder import PairTokens, pair_encoder, pair_tokens, stack_tokens

LABELS = tuple(kind.value for kind in REL_ENDS)  # the nine entity-entity types, schema order
NODE_LABELS = (NodeLabel.METHOD.value, NodeLabel.TASK.value, NodeLabel.DATASET.value, NodeLabel.METRIC.value)
NODE_INDEX = {label: i for i, label in enumerate(NODE_LABELS)}
GAP_BUCKETS = (0, 1, 2, 3, 4, 5, 8, 12, 20)      # lower bounds of the token-gap buckets
BETWEEN_BUCKETS = (0, 1, 2, 3)                   # mentions between the two: 0, 1, 2, 3+
CONTEXT = 2                                      # tokens of context before and after the pair
SYMMETRIC = numpy.array([RelType(kind) in SYMMETRIC_REL_TYPES for kind in LABELS])
ALLOWED = {(h, t) for ends in REL_ENDS.values() for h, t in ends}
ALLOWED_LABELS = {(h.value, t.value): numpy.array([(h, t) in REL_ENDS[RelType(kind)] for kind in LABELS])
                  for h, t in ALLOWED}
Pair = tuple[int, int]  # indices of head and tail in the entity span group


@registry.architectures("paperkg.RelationClassifier.v1")
def relation_classifier(hidden_width: int, dropout: float) -> Model[Floats2d, Floats2d]:
    """Pair features -> one sigmoid per relation type, through one hidden ReLU layer."""
    return chain(Relu(nO=hidden_width, dropout=dropout), Sigmoid())


@registry.architectures("paperkg.RelationEncoderClassifier.v1")
def relation_encoder_classifier(hidden_width: int, dropout: float, encoder_width: int,
                                max_position: int) -> Model[tuple[Floats2d, PairTokens], Floats2d]:
    """(pair features, the pairs' sentence tokens) -> one sigmoid per type: the classifier (RelationClassifier.v1)
    over the features and the piecewise CNN's (extract/pair_encoder.py) reading of the sentence."""
    return Model("encoded_classifier", _encoded_forward, init=_encoded_init,
                 layers=[pair_encoder(encoder_width, max_position), relation_classifier(hidden_width, dropout)])


def _encoded_forward(model: Model, X: tuple[Floats2d, PairTokens], is_train: bool) -> tuple[Floats2d, Callable]:
    features, tokens = X
    encoder, classifier = model.layers
    encoded, back_encoder = encoder(tokens, is_train)
    Y, back_classifier = classifier(numpy.hstack([numpy.asarray(features), encoded]), is_train)

    def backprop(dY: Floats2d) -> Floats2d:
        d_input = back_classifier(dY)
        back_encoder(d_input[:, features.shape[1]:])
        return d_input[:, :features.shape[1]]
    return Y, backprop


def _encoded_init(model: Model, X: tuple[Floats2d, PairTokens] | None = None, Y: Floats2d | None = None) -> None:
    encoder, classifier = model.layers
    if X is None:
        return
    features, tokens = X
    encoder.initialize(X=tokens)
    classifier.initialize(X=numpy.hstack([numpy.asarray(features), encoder.predict(tokens)]), Y=Y)


@registry.architectures("paperkg.RelationEnsemble.v1")
def relation_ensemble(members: int, hidden_width: int, dropout: float, encoder_width: int = 0,
                      max_position: int = 10) -> Model:
    """The mean of `members` classifiers, each trained on its own with its own seed: RelationClassifier.v1, or
    with `encoder_width` > 0 RelationEncoderClassifier.v1 (input: features and sentence tokens)."""
    if encoder_width:
        return mean_of([relation_encoder_classifier(hidden_width, dropout, encoder_width, max_position)
                        for _ in range(members)])
    return mean_of([relation_classifier(hidden_width, dropout) for _ in range(members)])


def encoder_positions(model: Model) -> int:
    """The distance buckets' bound of the model's pair encoder, 0 when it has none (the features alone)."""
    return next((layer.attrs["max_position"] for layer in model.walk() if layer.name == "pair_encoder"), 0)


def mean_of(layers: list[Model[Floats2d, Floats2d]]) -> Model[Floats2d, Floats2d]:
    """A layer whose output is the mean of its layers' outputs on the same input."""
    return Model("mean_of", _mean_forward, init=_mean_init, layers=layers)


def _mean_forward(model: Model, X: Floats2d, is_train: bool) -> tuple[Floats2d, Callable]:
    outputs = [layer(X, is_train) for layer in model.layers]
    Y = sum(Y for Y, _ in outputs) / len(outputs)

    def backprop(dY: Floats2d) -> Floats2d:
        return sum(back(dY / len(outputs)) for _, back in outputs)
    return Y, backprop


def _mean_init(model: Model, X: Any = None, Y: Floats2d | None = None) -> None:
    for layer in model.layers:
        layer.initialize(X=X, Y=Y)


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


class PairFeatures(NamedTuple):
    """The features of a set of pairs (layout: `feature_width`) as the dense columns and the set one-hot
    columns after them (row, column counted from the first one-hot column): most of a row is one-hot and 0;
    and the pairs' sentence tokens for a pair encoder (None without one)."""

    dense: numpy.ndarray
    hot_rows: numpy.ndarray
    hot_columns: numpy.ndarray
    tokens: PairTokens | None = None

    def rows(self, width: int) -> numpy.ndarray:
        """The full feature rows, `width` columns (for training)."""
        out = numpy.zeros((len(self.dense), width), dtype="f")
        out[:, :self.dense.shape[1]] = self.dense
        out[self.hot_rows, self.dense.shape[1] + self.hot_columns] = 1
        return out


def stack_features(parts: Sequence[PairFeatures]) -> PairFeatures:
    """The features of several sets of pairs, one after the other."""
    offsets = numpy.cumsum([0] + [len(part.dense) for part in parts])
    tokens = [part.tokens for part in parts if part.tokens is not None]
    return PairFeatures(numpy.vstack([part.dense for part in parts]),
                        numpy.concatenate([part.hot_rows + at for part, at in zip(parts, offsets)]),
                        numpy.concatenate([part.hot_columns for part in parts]),
                        stack_tokens(tokens) if len(tokens) == len(parts) else None)


def hashed(words: Sequence[str]) -> dict[int, int]:
    """A vocabulary keyed by the hash spaCy gives each lower-cased word (what doc.to_array(LOWER) holds)."""
    return {hash_string(word): i for i, word in enumerate(words)}


class _Bounds(NamedTuple):
    """Token bounds of each candidate pair (arrays, one entry per pair): between the two mentions (left, right),
    around both (first, last), their sentence, and where the head and the tail end."""

    left: numpy.ndarray
    right: numpy.ndarray
    first: numpy.ndarray
    last: numpy.ndarray
    sent_start: numpy.ndarray
    sent_end: numpy.ndarray
    h_end: numpy.ndarray
    t_end: numpy.ndarray


def end_tags(span: Span) -> list[str]:
    """What the pipeline knows of how good a mention is as an entity: its source, termhood rule, role, whether it
    is a node, an acronym, proposed, and its length in tokens (one-hot over the cfg's `end_tags`)."""
    known = span._  # one Underscore for the six reads
    flags = [name for name, on in (("node", known.paperkg_node), ("acronym", known.paperkg_acronym),
                                   ("proposed", known.paperkg_proposed)) if on]
    return [f"source:{known.paperkg_source}", f"termhood:{known.paperkg_termhood}", f"role:{known.paperkg_role}",
            f"length:{min(len(span), 4)}", *flags]


def pair_features(doc: Doc, entities: Sequence[Span], pairs: Sequence[Pair], vocab: dict[int, int],
                  starts: Sequence[int], head_vocab: dict[int, int] | None = None,
                  tag_vocab: dict[str, int] | None = None, max_position: int = 0) -> PairFeatures:
    """The features of the pairs (layout: `feature_width`): the tok2vec vectors of the head, the tail, the words
    between (mean and max), the CONTEXT tokens before the first and after the second mention (in the sentence),
    the head's and the tail's last token and the product of the two means; the labels and order; then one-hot:
    the gap, the mentions between, the between-words bag and, over the same words, the first and last word
    between and the words just before and after the pair; the last words of head and tail over `head_vocab`
    (both vocabularies `hashed`); the end_tags of head and tail over `tag_vocab`. With `max_position` > 0, the
    pairs' sentence tokens for the pair encoder (distances clipped there).
    Computed for all pairs at once from running sums (means) and a sparse table (maxima) of doc.tensor."""
    if not pairs:
        empty = numpy.zeros(0, dtype="i8")
        return PairFeatures(numpy.zeros((0, 0), dtype="f"), empty, empty)
    tensor = doc.tensor
    if tensor.ndim != 2 or tensor.shape[0] != len(doc):
        raise ValueError("relation_model reads doc.tensor: the pipeline's tok2vec must run before it.")
    spans = numpy.array([(e.start, e.end, NODE_INDEX.get(e.label_, -1)) for e in entities], dtype="i8")
    index = numpy.array(pairs, dtype="i8")
    (h_start, h_end, h_label), (t_start, t_end, t_label) = spans[index[:, 0]].T, spans[index[:, 1]].T
    first, last = numpy.minimum(h_start, t_start), numpy.maximum(h_end, t_end)
    sentence_bounds = numpy.array([*starts, len(doc)], dtype="i8")
    sentence = numpy.searchsorted(sentence_bounds, first, side="right") - 1
    bounds = _Bounds(numpy.minimum(h_end, t_end), numpy.maximum(h_start, t_start), first, last,
                     sentence_bounds[sentence], sentence_bounds[sentence + 1], h_end, t_end)
    labels = numpy.zeros((len(pairs), 9))
    every = numpy.arange(len(pairs))
    labels[every, h_label] = 1
    labels[every, 4 + t_label] = 1
    labels[:, 8] = h_start < t_start
    dense = numpy.hstack([*_vectors(tensor, bounds, h_start, t_start), labels]).astype("f")
    rows, columns = _one_hot(doc, numpy.sort(spans[:, 0]), bounds, vocab, head_vocab or {})
    if tag_vocab:
        at = _word_columns(len(vocab), len(head_vocab or {}))
        tags = numpy.zeros((len(entities), len(tag_vocab)), dtype=bool)
        for i, entity in enumerate(entities):
            tags[i, [tag_vocab[tag] for tag in end_tags(entity) if tag in tag_vocab]] = True
        for offset, end in enumerate((index[:, 0], index[:, 1])):
            tag_rows, tag_columns = numpy.nonzero(tags[end])
            rows = numpy.concatenate([rows, tag_rows])
            columns = numpy.concatenate([columns, at + offset * len(tag_vocab) + tag_columns])
    tokens = None
    if max_position:
        in_sentence = numpy.searchsorted(sentence_bounds, numpy.arange(len(doc)), side="right") - 1
        tokens = pair_tokens(tensor, sentence_bounds[in_sentence], sentence_bounds[in_sentence + 1],
                             numpy.stack([h_start, h_end], axis=1), numpy.stack([t_start, t_end], axis=1), max_position)
    return PairFeatures(dense, rows, columns, tokens)


def _vectors(tensor: numpy.ndarray, bounds: _Bounds, h_start: numpy.ndarray,
             t_start: numpy.ndarray) -> list[numpy.ndarray]:
    """The pairs' dense tok2vec blocks: head, tail, between (mean, max), context before and after, the two
    mentions' last tokens and the product of the head and tail means."""
    sums = numpy.zeros((len(tensor) + 1, tensor.shape[1]), dtype="f8")
    numpy.cumsum(tensor, axis=0, out=sums[1:])
    left, right, first, last = bounds.left, bounds.right, bounds.first, bounds.last
    before = numpy.maximum(bounds.sent_start, first - CONTEXT)
    after = numpy.minimum(bounds.sent_end, last + CONTEXT)
    head, tail = _mean(sums, h_start, bounds.h_end), _mean(sums, t_start, bounds.t_end)
    return [head, tail, _mean(sums, left, right), _range_max(tensor, left, right), _mean(sums, before, first),
            _mean(sums, last, after), tensor[bounds.h_end - 1], tensor[bounds.t_end - 1], head * tail]


def _one_hot(doc: Doc, mention_starts: numpy.ndarray, bounds: _Bounds, vocab: dict[int, int],
             head_vocab: dict[int, int]) -> tuple[numpy.ndarray, numpy.ndarray]:
    """(rows, columns) of the pairs' one-hot features after the dense ones: gap and mentions-between buckets,
    the between-words bag, the words at the pair's edges, the head's and the tail's last words."""
    left, right, first, last = bounds.left, bounds.right, bounds.first, bounds.last
    every = numpy.arange(len(left))
    lower = doc.to_array(LOWER).tolist()
    columns = numpy.array([vocab.get(key, -1) for key in lower] + [-1], dtype="i8")
    heads = numpy.array([head_vocab.get(key, -1) for key in lower] + [-1], dtype="i8")
    between = numpy.searchsorted(mention_starts, right) - numpy.searchsorted(mention_starts, left)
    hot = [(every, numpy.searchsorted(GAP_BUCKETS, right - left, side="right") - 1),
           (every, len(GAP_BUCKETS) + numpy.minimum(between, len(BETWEEN_BUCKETS) - 1))]
    at = len(GAP_BUCKETS) + len(BETWEEN_BUCKETS)
    counts = numpy.zeros((len(doc) + 1, len(vocab) + 1), dtype="i4")  # running counts of each word, last: none
    counts[numpy.arange(1, len(doc) + 1), columns[:-1]] = 1
    numpy.cumsum(counts, axis=0, out=counts)
    bag_rows, bag_columns = numpy.nonzero(counts[right, :-1] - counts[left, :-1])
    hot.append((bag_rows, at + bag_columns))
    at += len(vocab)
    has_between = right > left
    edges = ((left, has_between), (right - 1, has_between), (first - 1, first > bounds.sent_start),
             (last, last < bounds.sent_end))
    for offset, (position, valid) in enumerate(edges):
        hot.append(_set(numpy.where(valid, columns[position], -1), at + offset * len(vocab)))
    at += 4 * len(vocab)
    hot += [_set(heads[bounds.h_end - 1], at), _set(heads[bounds.t_end - 1], at + len(head_vocab))]
    return numpy.concatenate([r for r, _ in hot]), numpy.concatenate([c for _, c in hot])


def _set(columns: numpy.ndarray, at: int) -> tuple[numpy.ndarray, numpy.ndarray]:
    """(row, at + column) of each row whose column (in `columns`) is not -1."""
    rows = numpy.nonzero(columns >= 0)[0]
    return rows, at + columns[rows]


def _mean(sums: numpy.ndarray, start: numpy.ndarray, end: numpy.ndarray) -> numpy.ndarray:
    """The mean token vector over [start, end) of each row (zeros where the range is empty), from running sums."""
    size = numpy.maximum(end - start, 0)
    return (sums[numpy.maximum(end, start)] - sums[start]) / numpy.maximum(size, 1)[:, None]


def _range_max(tensor: numpy.ndarray, start: numpy.ndarray, end: numpy.ndarray) -> numpy.ndarray:
    """The elementwise max of the token vectors over [start, end) of each row (zeros where it is empty),
    from a sparse table: level k holds the max over 2**k tokens from each position."""
    size = end - start
    out = numpy.zeros((len(start), tensor.shape[1]), dtype=tensor.dtype)
    valid = size > 0
    level = numpy.zeros(len(start), dtype="i8")
    level[valid] = numpy.log2(size[valid]).astype("i8")
    table = [tensor]
    while len(table) <= level.max():
        step = 2 ** (len(table) - 1)
        table.append(numpy.maximum(table[-1][:-step], table[-1][step:]))
    for k in numpy.unique(level[valid]):
        rows = valid & (level == k)
        out[rows] = numpy.maximum(table[k][start[rows]], table[k][end[rows] - 2 ** k])
    return out


def dense_width(tensor_width: int) -> int:
    """The number of dense features of a pair (the vectors, labels and order)."""
    return 9 * tensor_width + 9


def feature_width(tensor_width: int, vocab_size: int, head_vocab_size: int = 0, tags_size: int = 0) -> int:
    """The number of features of a pair (without the pair encoder's, which follow them)."""
    return dense_width(tensor_width) + _word_columns(vocab_size, head_vocab_size) + 2 * tags_size


def _word_columns(vocab_size: int, head_vocab_size: int) -> int:
    """The one-hot columns before the end tags: gap, mentions between, the between words and the head words."""
    return len(GAP_BUCKETS) + len(BETWEEN_BUCKETS) + 5 * vocab_size + 2 * head_vocab_size


def one_direction(pairs: Sequence[Pair], scores: numpy.ndarray) -> numpy.ndarray:
    """The scores with each type kept for one direction of a pair of mentions, the more probable (ties: the first
    in order): an asymmetric type cannot hold both ways, and a symmetric one (COMPARED_WITH, SYNONYM_OF) holds with
    the mean of its two directions' probabilities (the classifier reads each order on its own)."""
    index = {pair: i for i, pair in enumerate(pairs)}
    forward = numpy.array([i for i, (a, b) in enumerate(pairs) if index.get((b, a), -1) > i], dtype="i8")
    if not len(forward):
        return scores
    backward = numpy.array([index[(pairs[i][1], pairs[i][0])] for i in forward], dtype="i8")
    out = scores.copy()
    first, second = scores[forward], scores[backward]
    out[forward] = numpy.where(first >= second, first, 0)
    out[backward] = numpy.where(first >= second, 0, second)
    mean = (first[:, SYMMETRIC] + second[:, SYMMETRIC]) / 2
    out[forward[:, None], SYMMETRIC] = numpy.where(first[:, SYMMETRIC] >= second[:, SYMMETRIC], mean, 0)
    out[backward[:, None], SYMMETRIC] = numpy.where(first[:, SYMMETRIC] >= second[:, SYMMETRIC], 0, mean)
    return out


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
                 acronym_confidence: float, entities_key: str) -> None:
        register_extensions()
        self.vocab = vocab
        self.model = model
        self.name = name
        self.entities_key = entities_key  # not in cfg: the weights' saved cfg must not override the pipeline's wiring
        self.cfg: dict[str, Any] = {"labels": list(LABELS), "thresholds": {label: 0.5 for label in LABELS},
                                    "precision": {}, "between_words": [], "head_words": [], "end_tags": [],
                                    "max_gap": max_gap,
                                    "cue_types": list(cue_types), "acronym_confidence": acronym_confidence}
        self._hashed: dict[str, tuple[list[str], dict[int, int]]] = {}
        self._tags: tuple[list[str] | None, dict[str, int], int] = (None, {}, 0)  # end_tags, their index, positions

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(self.cfg["labels"])

    def _vocab(self, key: str) -> dict[int, int]:
        """The cfg's word list `key` as a hashed vocabulary (made once per list)."""
        words = self.cfg.get(key, [])
        if self._hashed.get(key, (None,))[0] is not words:
            self._hashed[key] = (words, hashed(words))
        return self._hashed[key][1]

    def confidence(self, label: str, probability: float) -> float:
        """How sure a relation is: the precision measured on dev of this type's relations at least as probable
        (the component's `precision` table, set by training), or the probability itself without a table."""
        table = self.cfg["precision"].get(label)
        if not table:
            return round(probability, 4)
        at = bisect_right([threshold for threshold, _ in table], probability) - 1
        return table[max(at, 0)][1]

    def featurize(self, doc: Doc, entities: Sequence[Span]) -> tuple[list[Pair], PairFeatures]:
        """The candidate pairs of a doc and their features."""
        starts = sentence_starts(doc)
        pairs = candidate_pairs(doc, entities, self.cfg["max_gap"], starts)
        tags = self.cfg.get("end_tags", [])
        if self._tags[0] is not tags:  # made once per list, as _vocab
            self._tags = (tags, {tag: i for i, tag in enumerate(tags)}, encoder_positions(self.model))
        return pairs, pair_features(doc, entities, pairs, self._vocab("between_words"), starts,
                                    self._vocab("head_words"), self._tags[1], self._tags[2])

    def predict(self, docs: Iterable[Doc]) -> list[tuple[list[Pair], numpy.ndarray]]:
        """Per doc: its candidate pairs and their per-type probabilities (one classifier call for the batch)."""
        docs = list(docs)
        featurized = [self.featurize(doc, list(doc.spans.get(self.entities_key, []))) for doc in docs]
        parts = [features for pairs, features in featurized if pairs]
        if not parts:
            return [(pairs, numpy.zeros((0, len(self.labels)), dtype="f")) for pairs, _ in featurized]
        scores = self.score(stack_features(parts))
        out, at = [], 0
        for pairs, _ in featurized:
            out.append((pairs, one_direction(pairs, scores[at:at + len(pairs)])))
            at += len(pairs)
        return out

    def score(self, features: PairFeatures) -> numpy.ndarray:
        """Per-type probabilities of the pairs: the mean of the classifiers' outputs, each first layer's product
        with the one-hot columns taken as the sum of the weight columns that are set (the numbers
        model.predict gives on the full rows, for a fraction of the work: most columns are 0); a pair encoder's
        output meets the last columns."""
        members = self.model.layers if self.model.name == "mean_of" else [self.model]
        dense = features.dense
        order = numpy.argsort(features.hot_rows, kind="stable")  # every row has some (its gap bucket)
        columns = dense.shape[1] + features.hot_columns[order]
        row_starts = numpy.searchsorted(features.hot_rows[order], numpy.arange(len(dense)))
        total = numpy.zeros((len(dense), len(self.labels)), dtype="f")
        for member in members:
            hidden = next(layer for layer in member.walk() if layer.name == "relu")
            W, b = (self.model.ops.to_numpy(hidden.get_param(name)) for name in ("W", "b"))
            hot = numpy.ascontiguousarray(W.T)[columns]
            H = dense @ W[:, :dense.shape[1]].T + b + numpy.add.reduceat(hot, row_starts, axis=0)
            if member.name == "encoded_classifier" and features.tokens is not None:
                encoded = member.layers[0].predict(features.tokens)
                H += encoded @ W[:, W.shape[1] - encoded.shape[1]:].T
                member = member.layers[1]
            total += self.model.ops.to_numpy(member.layers[-1].predict(numpy.maximum(H, 0)))
        return total / len(members)

    def set_annotations(self, docs: Iterable[Doc], predictions: list[tuple[list[Pair], numpy.ndarray]]) -> None:
        thresholds = numpy.array([self.cfg["thresholds"][label] for label in self.labels], dtype="f")
        keep_cues = set(self.cfg["cue_types"])
        for doc, (pairs, scores) in zip(docs, predictions):
            entities = list(doc.spans.get(self.entities_key, []))
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
                    kind = RelType(self.labels[k])
                    confidence = self.confidence(kind.value, float(scores[i, k]))
                    key = (kind, a, b)
                    if key not in found or found[key].confidence < confidence:
                        found[key] = Relation(kind, a, b, sentence_index(doc, entities[a], starts), "model", confidence)
            doc._.paperkg_relations = sorted(found.values(), key=lambda r: (r.sentence, r.head, r.tail, r.type.value))

    def initialize(self, get_examples: Callable, *, nlp: Language | None = None, between_words: Sequence[str] = (),
                   head_words: Sequence[str] = (), tags: Sequence[str] = (), tensor_width: int = 96) -> None:
        """Size the classifier for the vocabularies and the tok2vec width (weights come from training)."""
        self.cfg["between_words"], self.cfg["head_words"] = list(between_words), list(head_words)
        self.cfg["end_tags"] = list(tags)
        width = feature_width(tensor_width, len(between_words), len(head_words), len(tags))
        X: Any = numpy.zeros((1, width), dtype="f")
        positions = encoder_positions(self.model)
        if positions:  # one pair of one-token mentions in a four-token sentence
            sentence = numpy.zeros(4, dtype="i8")
            X = (X, pair_tokens(numpy.zeros((4, tensor_width), dtype="f"), sentence, sentence + 4,
                                numpy.array([[0, 1]]), numpy.array([[2, 3]]), positions))
        self.model.initialize(X=X, Y=numpy.zeros((1, len(self.labels)), dtype="f"))


@Language.factory(
    "paperkg_relation_model",
    assigns=["doc._.paperkg_relations"],
    requires=["doc.tensor", "doc.spans", "doc._.paperkg_acronym_records"],
    default_config={"model": {"@architectures": "paperkg.RelationClassifier.v1", "hidden_width": 128, "dropout": 0.2},
                    "max_gap": 30, "cue_types": [], "acronym_confidence": 0.9, "entities_key": ENTITIES_KEY},
)
def make_relation_model(nlp: Language, name: str, model: Model, max_gap: int, cue_types: list[str],
                        acronym_confidence: float, entities_key: str) -> RelationModel:
    """Factory: the classifier's shape, the candidate window, the cue types kept and the entity span group
    are settings."""
    return RelationModel(nlp.vocab, model, name, max_gap, cue_types, acronym_confidence, entities_key)
