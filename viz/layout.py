"""Node positions computed in Python, so big views open drawn instead of running physics in the page.

A force layout in the ForceAtlas2 family (springs along links weighted by their strength,
degree-weighted repulsion between nearby nodes, gravity toward the centre), vectorised with
NumPy. Repulsion is cut off beyond a few node spacings and nearby pairs come from a k-d tree
(Fruchterman and Reingold's grid variant), so a step costs O(n + links) rather than O(n²):
networkx's spring_layout needs about 80 s for 5,000 nodes on our machine, this about 3 s.
Seeded and sorted, so the same graph gives the same positions.
"""
from __future__ import annotations

import numpy as np
import networkx as nx
from scipy.spatial import cKDTree

LAYOUT_SEED = 20250
ITERATIONS = 200
REPULSION = 1.0
GRAVITY = 0.02
CUTOFF = 3.0          # repulsion reaches this many mean node spacings
SEPARATION_ROUNDS = 60
GAP = 1.0             # canvas units kept free between two circles
DECIMALS = 1          # positions are rounded so that tiny float noise never changes the page


def force_layout(graph: nx.Graph, *, width: float, height: float, radii: dict[str, float] | None = None,
                 weight: str = "strength", seed: int = LAYOUT_SEED,
                 iterations: int = ITERATIONS) -> dict[str, tuple[float, float]]:
    """Positions for every node of `graph` in a `width` x `height` box centred on 0; circles of `radii` do not overlap."""
    nodes = sorted(graph.nodes)
    if len(nodes) <= 1:
        return {node: (0.0, 0.0) for node in nodes}
    where = {node: i for i, node in enumerate(nodes)}
    links = sorted((where[a], where[b], float(w)) if where[a] < where[b] else (where[b], where[a], float(w))
                   for a, b, w in graph.edges(data=weight, default=1.0))
    first = np.array([link[0] for link in links], dtype=np.int64)
    second = np.array([link[1] for link in links], dtype=np.int64)
    strength = np.array([link[2] for link in links], dtype=np.float64)
    if len(strength):
        strength = strength / strength.max()
    mass = 1.0 + np.bincount(np.concatenate([first, second]), minlength=len(nodes)).astype(np.float64)
    rng = np.random.default_rng(seed)
    radius = np.sqrt(len(nodes))
    pos = rng.uniform(-radius, radius, size=(len(nodes), 2))
    for step in range(iterations):
        temperature = radius * 0.1 * (1.0 - step / iterations) + 0.01
        pos += _limited(_forces(pos, first, second, strength, mass), temperature)
    fitted = _fitted(pos, width, height)
    if radii:
        fitted = _separated(fitted, np.array([radii.get(node, 0.0) for node in nodes]))
    return {node: (round(float(x), DECIMALS) + 0.0, round(float(y), DECIMALS) + 0.0)
            for node, (x, y) in zip(nodes, fitted)}


def _forces(pos: np.ndarray, first: np.ndarray, second: np.ndarray, strength: np.ndarray,
            mass: np.ndarray) -> np.ndarray:
    """The net force on every node: repulsion from near nodes, springs along links, gravity."""
    count = len(pos)
    force = np.zeros_like(pos)
    spread = pos.std(axis=0)
    spacing = np.sqrt(4 * np.pi * max(spread[0] * spread[1], 1e-9) / count)
    pairs = cKDTree(pos).query_pairs(CUTOFF * spacing, output_type="ndarray")
    if len(pairs):
        a, b = pairs[:, 0], pairs[:, 1]
        delta = pos[a] - pos[b]
        distance2 = np.maximum((delta ** 2).sum(axis=1), 1e-4)
        push = delta * (REPULSION * mass[a] * mass[b] / distance2)[:, None]
        force += _summed(a, push, count) - _summed(b, push, count)
    if len(first):
        delta = pos[second] - pos[first]
        pull = delta * strength[:, None]
        force += _summed(first, pull, count) - _summed(second, pull, count)
    force -= GRAVITY * mass[:, None] * pos / np.maximum(np.linalg.norm(pos, axis=1), 1.0)[:, None]
    return force


def _summed(index: np.ndarray, values: np.ndarray, count: int) -> np.ndarray:
    """Per-node sums of pairwise vectors."""
    return np.stack([np.bincount(index, values[:, 0], count), np.bincount(index, values[:, 1], count)],
                    axis=1)


def _limited(force: np.ndarray, temperature: float) -> np.ndarray:
    """Each node moves along its force by at most `temperature` (the cooling of the layout)."""
    length = np.maximum(np.linalg.norm(force, axis=1), 1e-9)
    return force * (np.minimum(length, temperature) / length)[:, None]


def _fitted(pos: np.ndarray, width: float, height: float) -> np.ndarray:
    """Turn the layout so its long axis lies across the screen, then scale it into the box."""
    centred = pos - pos.mean(axis=0)
    _, vectors = np.linalg.eigh(np.cov(centred.T))
    turned = centred @ vectors[:, ::-1]
    turned *= np.where(turned[0] >= 0, 1.0, -1.0)  # eigenvector signs are arbitrary: fix them
    span = np.maximum(turned.max(axis=0) - turned.min(axis=0), 1e-9)
    scale = min(width / span[0], height / span[1])
    return (turned - (turned.max(axis=0) + turned.min(axis=0)) / 2) * scale


def _separated(pos: np.ndarray, radii: np.ndarray, rounds: int = SEPARATION_ROUNDS) -> np.ndarray:
    """Push apart circles that overlap (plus a small gap), a few rounds, moving each pair half way."""
    pos = pos.copy()
    reach = 2 * float(radii.max()) + GAP
    for _ in range(rounds):
        pairs = cKDTree(pos).query_pairs(reach, output_type="ndarray")
        if not len(pairs):
            break
        a, b = pairs[:, 0], pairs[:, 1]
        delta = pos[a] - pos[b]
        distance = np.maximum(np.linalg.norm(delta, axis=1), 1e-6)
        overlap = radii[a] + radii[b] + GAP - distance
        pushing = overlap > 0
        if not pushing.any():
            break
        shift = delta[pushing] * (overlap[pushing] / distance[pushing] / 2)[:, None]
        pos += _summed(a[pushing], shift, len(pos)) - _summed(b[pushing], shift, len(pos))
    return pos
