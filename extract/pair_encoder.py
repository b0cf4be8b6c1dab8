"""A position-aware piecewise CNN over a candidate pair's sentence: what the words around and between two mentions
say, read in order, for the relation component (extract/relation_model.py).

Each token's convolution over its neighbours' tok2vec vectors (three taps, the sentence's edges padded with zeros)
is computed once per token; a pair adds, per token of its window (the sentence from WINDOW tokens before the first
mention to WINDOW after the second), the learned vectors of the token's distance to the head and to the tail
(table lookups), then a ReLU and the maximum over each of the three segments (up to the end of the first mention,
between the two, from the start of the second): 3 * width features per pair, learned with the classifier.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, cast

import numpy
from thinc.api import Model
from thinc.types import Floats2d

WINDOW = 5  # tokens of the sentence read before the first mention and after the second


class PairTokens(NamedTuple):
    """The tokens the encoder reads for a set of pairs: the token vectors (a zero row last: the padding), per token
    row its neighbours' rows (the padding outside its sentence), and per read token (an entry, grouped by pair and
    segment in order) its row, its distance buckets to the head and the tail and its group (pair * 3 + segment)."""

    tensor: numpy.ndarray
    before: numpy.ndarray
    after: numpy.ndarray
    token: numpy.ndarray
    head_position: numpy.ndarray
    tail_position: numpy.ndarray
    group: numpy.ndarray
    pairs: int


def pair_tokens(tensor: numpy.ndarray, sentence_start: numpy.ndarray, sentence_end: numpy.ndarray,
                heads: numpy.ndarray, tails: numpy.ndarray, max_position: int) -> PairTokens:
    """The encoder's input for the pairs of one doc: `heads` and `tails` are (start, end) token bounds per pair,
    the sentence bounds are per token."""
    n = len(tensor)
    padded = numpy.vstack([tensor, numpy.zeros((1, tensor.shape[1]), dtype=tensor.dtype)]).astype("f")
    rows = numpy.arange(n)
    before = numpy.append(numpy.where(rows - 1 >= sentence_start, rows - 1, n), n)
    after = numpy.append(numpy.where(rows + 1 < sentence_end, rows + 1, n), n)
    (h_start, h_end), (t_start, t_end) = heads.T, tails.T
    first, last = numpy.minimum(h_start, t_start), numpy.maximum(h_end, t_end)
    low = numpy.maximum(sentence_start[first], first - WINDOW)
    high = numpy.minimum(sentence_end[first], last + WINDOW)
    sizes = high - low
    pair = numpy.repeat(numpy.arange(len(heads)), sizes)
    token = low[pair] + numpy.arange(sizes.sum()) - numpy.repeat(numpy.cumsum(sizes) - sizes, sizes)
    left, right = numpy.minimum(h_end, t_end)[pair], numpy.maximum(h_start, t_start)[pair]
    segment = (token >= left).astype("i8") + (token >= numpy.maximum(right, left))
    return PairTokens(padded, before, after, token, _bucket(token, h_start[pair], h_end[pair], max_position),
                      _bucket(token, t_start[pair], t_end[pair], max_position), pair * 3 + segment, len(heads))


def _bucket(token: numpy.ndarray, start: numpy.ndarray, end: numpy.ndarray, max_position: int) -> numpy.ndarray:
    """The token's signed distance to a mention (0 inside it), clipped to +-max_position and shifted to >= 0."""
    distance = numpy.where(token < start, token - start, numpy.where(token >= end, token - end + 1, 0))
    return numpy.clip(distance, -max_position, max_position) + max_position


def stack_tokens(parts: Sequence[PairTokens]) -> PairTokens:
    """The encoder input of several sets of pairs, one after the other."""
    rows = numpy.cumsum([0] + [len(part.tensor) for part in parts])
    pairs = numpy.cumsum([0] + [part.pairs for part in parts])
    return PairTokens(numpy.vstack([part.tensor for part in parts]),
                      numpy.concatenate([part.before + at for part, at in zip(parts, rows)]),
                      numpy.concatenate([part.after + at for part, at in zip(parts, rows)]),
                      numpy.concatenate([part.token + at for part, at in zip(parts, rows)]),
                      numpy.concatenate([part.head_position for part in parts]),
                      numpy.concatenate([part.tail_position for part in parts]),
                      numpy.concatenate([part.group + 3 * at for part, at in zip(parts, pairs)]), int(pairs[-1]))


def select_pairs(tokens: PairTokens, chosen: numpy.ndarray) -> PairTokens:
    """The encoder input of the `chosen` pairs (in that order) of a set (for training batches)."""
    starts = numpy.searchsorted(tokens.group, chosen * 3)
    ends = numpy.searchsorted(tokens.group, chosen * 3 + 3)
    sizes = ends - starts
    owner = numpy.repeat(numpy.arange(len(chosen)), sizes)
    entry = starts[owner] + numpy.arange(sizes.sum()) - numpy.repeat(numpy.cumsum(sizes) - sizes, sizes)
    return tokens._replace(token=tokens.token[entry], head_position=tokens.head_position[entry],
                           tail_position=tokens.tail_position[entry], group=owner * 3 + tokens.group[entry] % 3,
                           pairs=len(chosen))


def pair_encoder(width: int, max_position: int) -> Model[PairTokens, Floats2d]:
    """The piecewise CNN: PairTokens -> (pairs, 3 * width)."""
    return Model("pair_encoder", _forward, init=_init, dims={"nO": 3 * width, "nI": None},
                 attrs={"width": width, "max_position": max_position})


def _init(model: Model, X: PairTokens | None = None, Y: Floats2d | None = None) -> None:
    width, positions = model.attrs["width"], 2 * model.attrs["max_position"] + 1
    n_in = X.tensor.shape[1] if X is not None else model.get_dim("nI")
    model.set_dim("nI", n_in)
    rng = numpy.random  # seeded by thinc's fix_random_seed, as thinc's own layers are
    params: dict[str, Any] = {"W": rng.standard_normal((3 * n_in, width)) * numpy.sqrt(2 / (3 * n_in)),
                              "b": numpy.zeros(width), "E_head": rng.standard_normal((positions, width)) * 0.1,
                              "E_tail": rng.standard_normal((positions, width)) * 0.1}
    for name, value in params.items():
        model.set_param(name, value.astype("f"))


def _forward(model: Model, X: PairTokens, is_train: bool) -> tuple[Floats2d, Callable]:
    W, b, E_head, E_tail = (numpy.asarray(model.get_param(name)) for name in ("W", "b", "E_head", "E_tail"))
    width = W.shape[1]
    rows, entry_row = numpy.unique(X.token, return_inverse=True)
    windows = numpy.hstack([X.tensor[X.before[rows]], X.tensor[rows], X.tensor[X.after[rows]]])
    positions = (E_head[:, None, :] + E_tail[None, :, :] + b).reshape(-1, width)  # both distances and the bias
    pre = (windows @ W)[entry_row] + positions[X.head_position * len(E_tail) + X.tail_position]
    hidden = numpy.maximum(pre, 0)
    pooled = _segment_max(hidden, X.group, 3 * X.pairs)
    Y = pooled.reshape(X.pairs, 3 * width)

    def backprop(dY: Floats2d) -> PairTokens:
        d_pooled = numpy.asarray(dY).reshape(3 * X.pairs, width)
        d_pre = numpy.where((hidden == pooled[X.group]) & (pre > 0), d_pooled[X.group], 0).astype("f")
        d_rows = numpy.zeros((len(rows), width), dtype="f")
        numpy.add.at(d_rows, entry_row, d_pre)
        grads: dict[str, Any] = {"W": (windows.T @ d_rows).astype("f"), "b": d_rows.sum(axis=0)}
        for name, position in (("E_head", X.head_position), ("E_tail", X.tail_position)):
            grads[name] = numpy.zeros_like(E_head)
            numpy.add.at(grads[name], position, d_pre)
        for name, grad in grads.items():
            model.inc_grad(name, grad)
        return X
    return cast(Floats2d, Y), backprop


def _segment_max(hidden: numpy.ndarray, group: numpy.ndarray, groups: int) -> numpy.ndarray:
    """The maximum of the rows of each group (`group` sorted; 0 for an empty one: the rows are ReLU outputs)."""
    starts = numpy.searchsorted(group, numpy.arange(groups))
    filled = starts < numpy.append(starts[1:], len(group))
    out = numpy.zeros((groups, hidden.shape[1]), dtype="f")
    if filled.any():
        out[filled] = numpy.maximum.reduceat(hidden, starts[filled], axis=0)
    return out
