"""A typed edge as a corpus-level fact: its direction, support and calibrated confidence from every mention
that states it, in every paper.

Each mention of a relation (one sentence relating the two nodes) carries the relation model's per-mention
confidence. An edge between two nodes of one type is decided from all of them, whatever order the papers came in:

- **direction** (asymmetric types): the one whose mentions' confidences sum higher (ties: more mentions, then
  the node keys' order); the mentions stating the other direction are the edge's `against`;
- **score**: a noisy-or over the papers of the winning direction, each paper counted by its best
  `paper_cap` mentions (shipped: 1, a paper repeating itself is one witness), each paper after the strongest with the
  weight `repeat_weight` (papers of one field repeat one another's mistakes), times the winning direction's
  share of the summed confidence (a disputed direction is less sure);
- **confidence**: the score through the type's calibration curve, an increasing map fitted on hand-judged
  edges (a logistic curve of the score's logit, given as knots: `fit_calibration`, bench/edges_calibrate.py),
  shipped as data/edge_calibration.json.

Pure functions of per-edge tables, so any engine that can group mentions by (type, unordered pair) can apply them.
"""
from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import repeat
from importlib import resources
from typing import Any, NamedTuple

CALIBRATION_FILE = "edge_calibration.json"
CALIBRATION_KEY = "paperkg_edge_calibration"
CALIBRATION_VERSION = 1
GRID = tuple(round(0.05 * step, 2) for step in range(21))  # the knots a fitted curve is given at: 0, 0.05, ... 1
PRIOR_EDGES = 10.0  # the weight pulling a type's curve towards the curve of all types
MIN_SLOPE = 0.1  # a fitted curve's least slope in logit space


class RelationMention(NamedTuple):
    """One mention of a typed relation between two nodes: which way it reads, where, how sure."""

    source: str          # the node key of its head
    target: str          # the node key of its tail
    paper: str
    confidence: float    # the relation model's per-mention confidence


class EdgeFact(NamedTuple):
    """A typed edge decided from all its mentions."""

    source: str
    target: str
    confidence: float    # calibrated, 4 decimals
    score: float         # before calibration, 4 decimals
    mentions: int        # mentions stating it in this direction
    papers: int          # papers stating it in this direction
    against: int         # mentions stating the other direction


@dataclass(frozen=True)
class Calibration:
    """How mentions add up (`paper_cap`, `repeat_weight`) and each type's curve from score to confidence
    (knots (score, confidence), increasing; a type without a curve takes the `all` curve, else the score)."""

    paper_cap: int = 1
    repeat_weight: float = 0.5
    curves: Mapping[str, tuple[tuple[float, float], ...]] = field(default_factory=dict)
    fitted_on: str = ""  # what the curves were fitted on: the model and the judged edges

    def confidence(self, kind: str, score: float) -> float:
        """The calibrated confidence of an edge of this type with this score."""
        knots = self.curves.get(kind) or self.curves.get("all")
        return round(interpolate(knots, score) if knots else score, 4)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON, versioned."""
        return {CALIBRATION_KEY: CALIBRATION_VERSION, "paper_cap": self.paper_cap,
                "repeat_weight": self.repeat_weight, "fitted_on": self.fitted_on,
                "curves": {kind: [list(knot) for knot in knots] for kind, knots in sorted(self.curves.items())}}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str) -> Calibration:
        """The calibration of a JSON object written by to_dict; ValueError naming `where` when it is not one."""
        try:
            if data[CALIBRATION_KEY] != CALIBRATION_VERSION:
                raise ValueError(f"version {data[CALIBRATION_KEY]!r}, this paperkg reads {CALIBRATION_VERSION}")
            curves = {str(kind): tuple((float(x), float(y)) for x, y in knots)
                      for kind, knots in data["curves"].items()}
            calibration = cls(int(data["paper_cap"]), float(data["repeat_weight"]), curves, str(data["fitted_on"]))
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"{where} is no paperkg edge calibration ({error})") from None
        for kind, knots in curves.items():
            if any(b[0] <= a[0] or b[1] < a[1] for a, b in zip(knots, knots[1:])):
                raise ValueError(f"{where}: the curve of {kind} does not increase")
        if calibration.paper_cap < 1 or not 0 <= calibration.repeat_weight <= 1:
            raise ValueError(f"{where}: paper_cap must be 1 or more and repeat_weight between 0 and 1")
        return calibration


@lru_cache(maxsize=1)
def shipped_calibration() -> Calibration:
    """The calibration shipped in paperkg/admit/data/."""
    text = (resources.files("paperkg.admit") / "data" / CALIBRATION_FILE).read_text(encoding="utf8")
    return Calibration.from_dict(json.loads(text), CALIBRATION_FILE)


def interpolate(knots: Sequence[tuple[float, float]], x: float) -> float:
    """The piecewise-linear curve through `knots` at x (flat beyond the first and last knot)."""
    if x <= knots[0][0]:
        return knots[0][1]
    for (x0, y0), (x1, y1) in zip(knots, knots[1:]):
        if x <= x1:
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0)
    return knots[-1][1]


def noisy_or(probabilities: Iterable[float], weights: Iterable[float] | None = None) -> float:
    """1 - prod (1 - p)^w: the chance that at least one of several witnesses is right (w = 1: independent ones)."""
    weights = weights if weights is not None else repeat(1.0)
    return 1.0 - math.prod((1.0 - min(p, 1.0)) ** w for p, w in zip(probabilities, weights))


def support_score(mentions: Iterable[RelationMention], paper_cap: int, repeat_weight: float) -> float:
    """The noisy-or of the papers stating a relation, each by its best `paper_cap` mentions, every paper after
    the strongest weighted `repeat_weight`."""
    by_paper: dict[str, list[float]] = defaultdict(list)
    for mention in mentions:
        by_paper[mention.paper].append(mention.confidence)
    papers = sorted((noisy_or(sorted(found, reverse=True)[:paper_cap]) for found in by_paper.values()), reverse=True)
    return noisy_or(papers, [1.0] + [repeat_weight] * (len(papers) - 1))


def edge_fact(kind: str, mentions: Sequence[RelationMention], symmetric: bool,
              calibration: Calibration) -> EdgeFact:
    """The edge the mentions of one type between two nodes make (see the module doc); for a symmetric type
    every mention supports it, read in key order (so is a tie of an asymmetric one)."""
    if not mentions:
        raise ValueError("an edge needs at least one mention")
    low, high = sorted((mentions[0].source, mentions[0].target))
    forward = [m for m in mentions if (m.source, m.target) == (low, high)]
    backward = [m for m in mentions if (m.source, m.target) != (low, high)]
    if symmetric:
        winning, losing, source, target = list(mentions), [], low, high
    else:
        if (sum(m.confidence for m in backward), len(backward)) > (sum(m.confidence for m in forward), len(forward)):
            forward, backward = backward, forward
        winning, losing, source, target = forward, backward, forward[0].source, forward[0].target
    won, lost = sum(m.confidence for m in winning), sum(m.confidence for m in losing)
    share = won / (won + lost) if won + lost > 0 else 1.0 / (1 + bool(losing))
    score = support_score(winning, calibration.paper_cap, calibration.repeat_weight) * share
    return EdgeFact(source, target, calibration.confidence(kind, score), round(score, 4), len(winning),
                    len({m.paper for m in winning}), len(losing))


def logit(probability: float) -> float:
    """log(p / (1 - p)), p kept inside [0.001, 0.999]."""
    p = min(max(probability, 0.001), 0.999)
    return math.log(p / (1 - p))


def fit_logistic(points: Sequence[tuple[float, bool]], prior: tuple[float, float], strength: float,
                 steps: int = 50) -> tuple[float, float]:
    """(a, b) of P(right) = sigmoid(a * logit(score) + b) for judged (score, right) points (Platt's scaling),
    pulled towards `prior` with the weight `strength` (a ridge penalty); Newton's method. `a` is kept at
    MIN_SLOPE or more, so the curve keeps increasing: more support is never less sure."""
    a, b = prior
    for _ in range(steps):
        ga, gb = strength * (a - prior[0]), strength * (b - prior[1])
        haa, hab, hbb = strength, 0.0, strength
        for score, right in points:
            x = logit(score)
            p = 1 / (1 + math.exp(-(a * x + b)))
            ga, gb = ga + (p - right) * x, gb + (p - right)
            w = p * (1 - p)
            haa, hab, hbb = haa + w * x * x, hab + w * x, hbb + w
        det = haa * hbb - hab * hab
        if det <= 0:
            break
        step_a, step_b = (hbb * ga - hab * gb) / det, (haa * gb - hab * ga) / det
        a, b = a - step_a, b - step_b
        if abs(step_a) + abs(step_b) < 1e-9:
            break
    return max(a, MIN_SLOPE), b


def logistic_curve(a: float, b: float, grid: Sequence[float] = GRID) -> tuple[tuple[float, float], ...]:
    """The curve sigmoid(a * logit(x) + b) at the grid's knots."""
    return tuple((x, round(1 / (1 + math.exp(-(a * logit(x) + b))), 4)) for x in grid)


def fit_calibration(judged: Iterable[tuple[str, float, bool]], paper_cap: int, repeat_weight: float,
                    fitted_on: str, prior_edges: float = PRIOR_EDGES) -> Calibration:
    """A calibration from judged edges (type, score, right): a logistic curve of all types (pulled lightly
    towards the score as it is), and per type its own, pulled towards that one as if `prior_edges` of its
    edges agreed with it (a type with few judged edges stays near the pooled curve)."""
    by_type: dict[str, list[tuple[float, bool]]] = defaultdict(list)
    for kind, score, right in judged:
        by_type[kind].append((score, right))
    pooled = [point for points in by_type.values() for point in points]
    if not pooled:
        raise ValueError("no judged edges to fit a calibration on")
    shared = fit_logistic(pooled, (1.0, 0.0), 1.0)
    curves = {"all": logistic_curve(*shared)}
    for kind, points in sorted(by_type.items()):
        curves[kind] = logistic_curve(*fit_logistic(points, shared, prior_edges))
    return Calibration(paper_cap, repeat_weight, curves, fitted_on)
