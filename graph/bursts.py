"""Kleinberg's burst detection on batched counts: the two-state automaton CiteSpace runs over yearly counts.

Kleinberg (2002), "Bursty and hierarchical structure in streams", section 4 (enumerating bursts in
batches): in batch t, r[t] of d[t] documents are relevant. State 0 emits relevant documents at the
overall rate p0 = sum(r) / sum(d), state 1 at p1 = s * p0. Being in state i at t costs
-ln(p_i^r (1 - p_i)^(d - r)) (the binomial coefficient is the same in both states and left out);
moving up a state costs gamma * ln(n) for n batches, moving down is free; the automaton starts in
state 0. The cheapest state sequence (Viterbi) gives the bursts: maximal runs of state 1. A burst's
strength (CiteSpace's "strength", Kleinberg's weight) is what state 1 saves over state 0 across it.
CiteSpace's defaults are s = 2 and gamma = 1.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

STATE_RATIO = 2.0  # s: how much more often the burst state emits (CiteSpace's default)
GAMMA = 1.0        # the cost of entering the burst state, in units of ln(batches) (CiteSpace's default)
_HIGHEST_RATE = 1.0 - 1e-9  # p1 stays a probability when s * p0 would reach 1


@dataclass(frozen=True)
class BurstSpan:
    """One burst over batches `first`..`last` (indices, both included) and its strength."""

    first: int
    last: int
    strength: float


def burst_states(relevant: Sequence[int], totals: Sequence[int], s: float = STATE_RATIO,
                 gamma: float = GAMMA) -> list[int]:
    """The cheapest state sequence (0 or 1 per batch); ties go to state 0, so the answer is deterministic."""
    rates = _rates(relevant, totals, s)
    if rates is None:
        return [0] * len(relevant)
    enter = gamma * math.log(len(relevant)) if len(relevant) > 1 else 0.0
    cost = (0.0, math.inf)  # before the first batch the automaton is in state 0
    back: list[tuple[int, int]] = []  # per batch: the state each state came from (ties: from state 0)
    for r, d in zip(relevant, totals):
        low, high = cost[0], cost[1]
        back.append((0 if low <= high else 1, 0 if low + enter <= high else 1))
        cost = (min(low, high) + _fit(r, d, rates[0]), min(low + enter, high) + _fit(r, d, rates[1]))
    states = [0 if cost[0] <= cost[1] else 1]
    for step in range(len(back) - 1, 0, -1):
        states.append(back[step][states[-1]])
    return states[::-1]


def detect_bursts(relevant: Sequence[int], totals: Sequence[int], s: float = STATE_RATIO,
                  gamma: float = GAMMA) -> list[BurstSpan]:
    """The bursts of a series (runs of state 1), each with its strength, in time order."""
    if len(relevant) != len(totals):
        raise ValueError("relevant and totals differ in length")
    if sum(relevant) * math.log(s) <= gamma * math.log(max(len(relevant), 1)):
        return []  # even every relevant document in state 1 could not pay for entering it
    rates = _rates(relevant, totals, s)
    states = burst_states(relevant, totals, s, gamma)
    spans, start = [], None
    for index, state in enumerate([*states, 0]):
        if state == 1 and start is None:
            start = index
        elif state == 0 and start is not None:
            assert rates is not None
            strength = sum(_fit(relevant[t], totals[t], rates[0]) - _fit(relevant[t], totals[t], rates[1])
                           for t in range(start, index))
            spans.append(BurstSpan(start, index - 1, strength))
            start = None
    return spans


def _rates(relevant: Sequence[int], totals: Sequence[int], s: float) -> tuple[float, float] | None:
    """(p0, p1), or None when no burst state can exist (nothing relevant, or everything is)."""
    r, d = sum(relevant), sum(totals)
    if r <= 0 or d <= 0 or r >= d:
        return None
    base = r / d
    return base, min(s * base, _HIGHEST_RATE)


def _fit(r: int, d: int, rate: float) -> float:
    """-ln of the probability of r relevant of d at `rate`, without the binomial coefficient."""
    return -(r * math.log(rate) + (d - r) * math.log1p(-rate))
