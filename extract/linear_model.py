"""A logistic model over named binary features, read from a JSON data file: the trained part of the result
finder (is a number a result; is a result a change). Training: extract/training/result_models.py."""
from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class LinearModel:
    """Weights per feature name, a bias, and the probability from which the answer is yes."""

    weights: dict[str, float]
    bias: float
    threshold: float

    def probability(self, features: Iterable[str]) -> float:
        """The model's probability of yes for a candidate with these features (unknown features weigh nothing)."""
        weights = self.weights
        score = self.bias + sum(weights.get(name, 0.0) for name in features)
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, score))))

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON: the weights sorted by name, rounded to 4 decimals (the same training gives the same file)."""
        return {"bias": round(self.bias, 4), "threshold": round(self.threshold, 4),
                "weights": {name: round(value, 4) for name, value in sorted(self.weights.items()) if round(value, 4)}}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LinearModel:
        """The model of `to_dict` output."""
        return cls({str(k): float(v) for k, v in data["weights"].items()}, float(data["bias"]),
                   float(data["threshold"]))
