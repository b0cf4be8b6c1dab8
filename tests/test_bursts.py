"""Burst detection against Kleinberg (2002) written out independently: every state sequence of a short
series is scored by the paper's cost function and the cheapest one taken, on synthetic series whose
bursts are known and on seeded random ones.

(The `burst_detection` package on PyPI was read and not used as the oracle: it picks each state
greedily from the previous one rather than by dynamic programming over the whole sequence, so it
is not Kleinberg's optimum, and it calls `np.float`, which NumPy removed in 1.24.)
"""
from __future__ import annotations

import itertools
import math
import random

import pytest

from paperkg.graph.bursts import detect_bursts


def kleinberg_exhaustive(r: list[int], d: list[int], s: float = 2.0, gamma: float = 1.0) -> tuple[list[int], list]:
    """The optimal state sequence by brute force, and the bursts (first, last, weight) it gives."""
    n = len(r)
    p0 = sum(r) / sum(d)
    p1 = min(s * p0, 1 - 1e-9)
    p = (p0, p1)

    def sigma(i: int, t: int) -> float:  # -ln of the binomial probability, with the coefficient
        return -(math.log(math.comb(d[t], r[t])) + r[t] * math.log(p[i]) + (d[t] - r[t]) * math.log(1 - p[i]))

    def tau(i: int, j: int) -> float:
        return (j - i) * gamma * math.log(n) if j > i else 0.0

    best = None
    for states in itertools.product((0, 1), repeat=n):
        cost = sum(sigma(q, t) for t, q in enumerate(states))
        cost += sum(tau(a, b) for a, b in zip((0, *states), states))
        if best is None or cost < best[0] - 1e-12:
            best = (cost, list(states))
    states = best[1]
    bursts, t = [], 0
    while t < n:
        if states[t] == 1:
            start = t
            while t < n and states[t] == 1:
                t += 1
            bursts.append((start, t - 1, sum(sigma(0, u) - sigma(1, u) for u in range(start, t))))
        else:
            t += 1
    return states, bursts


KNOWN = [
    # (relevant per year, papers per year, the bursts a reader sees)
    ([1, 1, 2, 1, 12, 15, 14, 2, 1, 1], [100] * 10, [(4, 6)]),
    ([0, 0, 0, 0, 0, 0, 0, 8, 9, 10], [50] * 10, [(7, 9)]),
    ([9, 10, 1, 1, 1, 1, 1, 1, 1, 1], [40] * 10, [(0, 1)]),
    ([2, 2, 2, 2, 2, 2, 2, 2, 2, 2], [100] * 10, []),
    ([1, 2, 4, 8, 16, 32, 64, 128], [10, 20, 40, 80, 160, 320, 640, 1280], []),  # grows with the field: no burst
    ([0, 1, 1, 10, 1, 1, 0, 1, 12, 1, 1], [60] * 11, [(3, 3), (8, 8)]),
]


@pytest.mark.parametrize(("relevant", "totals", "expected"), KNOWN)
def test_known_bursts(relevant: list[int], totals: list[int], expected: list[tuple[int, int]]) -> None:
    found = detect_bursts(relevant, totals)
    assert [(b.first, b.last) for b in found] == expected
    _, oracle = kleinberg_exhaustive(relevant, totals)
    assert [(b.first, b.last) for b in found] == [(a, b) for a, b, _ in oracle]
    assert [b.strength for b in found] == pytest.approx([w for _, _, w in oracle], rel=1e-9)
    assert all(b.strength > 0 for b in found)


def test_agrees_with_the_exhaustive_optimum_on_random_series() -> None:
    rng = random.Random(2002)
    bursting = 0
    for _ in range(300):
        n = rng.randint(2, 9)
        totals = [rng.randint(5, 200) for _ in range(n)]
        base = rng.uniform(0.005, 0.2)
        relevant = [min(d, int(rng.random() * 4 * base * d)) for d in totals]
        if rng.random() < 0.5:  # plant a burst
            start = rng.randrange(n)
            for t in range(start, min(n, start + rng.randint(1, 3))):
                relevant[t] = min(totals[t], relevant[t] + int(totals[t] * base * 3))
        if sum(relevant) == 0 or sum(relevant) >= sum(totals):
            continue
        found = detect_bursts(relevant, totals)
        _, oracle = kleinberg_exhaustive(relevant, totals)
        assert [(b.first, b.last) for b in found] == [(a, b) for a, b, _ in oracle], (relevant, totals)
        assert [b.strength for b in found] == pytest.approx([w for _, _, w in oracle], rel=1e-9)
        bursting += bool(found)
    assert bursting > 50  # the planted bursts were found, not only quiet series compared


def test_deterministic_and_parameters_matter() -> None:
    relevant, totals = [1, 1, 2, 1, 6, 7, 2, 1], [100] * 8
    assert detect_bursts(relevant, totals) == detect_bursts(list(relevant), list(totals))
    assert detect_bursts(relevant, totals, gamma=3.0) == []  # a dearer burst state: none
    assert detect_bursts(relevant, totals, gamma=0.5)       # a cheaper one: found
    _, oracle = kleinberg_exhaustive(relevant, totals, gamma=0.5)
    assert [(b.first, b.last) for b in detect_bursts(relevant, totals, gamma=0.5)] == [(a, b) for a, b, _ in oracle]


def test_empty_years_and_edges() -> None:
    assert detect_bursts([0, 0, 0], [10, 0, 10]) == []
    assert detect_bursts([3, 0, 3], [3, 0, 3]) == []  # in every paper: no higher rate exists
    with pytest.raises(ValueError):
        detect_bursts([1, 2], [3])
