"""Node positions computed in Python, so big views open drawn instead of running physics in the page.

A force layout in the ForceAtlas2 family (springs along links weighted by their strength,
degree-weighted repulsion, gravity toward the centre), vectorised with NumPy. Repulsion is
exact between nodes a few spacings apart (pairs from a k-d tree) and comes from the centres
of mass of a 12 x 12 grid beyond that (updated every third step), so a step costs O(n + links) rather than O(n²):
networkx's spring_layout needed 80 s for 5,000 nodes on our machine. Seeded and sorted, so
the same graph gives the same positions.
"""
from __future__ import annotations

import numpy as np
import networkx as nx
from scipy.spatial import cKDTree

LAYOUT_SEED = 20250
ITERATIONS = 200
REPULSION = 1.0
GRAVITY = 0.02
CUTOFF = 3.0          # exact repulsion within this many mean node spacings, by grid cell beyond
GRID = 12             # cells per side of the far-repulsion grid
FAR_EVERY = 3         # steps between two updates of the far repulsion (it changes slowly)
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
    far = np.zeros_like(pos)
    for step in range(iterations):
        temperature = radius * 0.1 * (1.0 - step / iterations) + 0.01
        reach = _reach(pos)
        if step % FAR_EVERY == 0:
            far = _far_repulsion(pos, mass, reach)
        pos += _limited(far + _forces(pos, first, second, strength, mass, reach), temperature)
    fitted = _fitted(pos, width, height)
    if radii:
        fitted = _separated(fitted, np.array([radii.get(node, 0.0) for node in nodes]))
    return {node: (round(float(x), DECIMALS) + 0.0, round(float(y), DECIMALS) + 0.0)
            for node, (x, y) in zip(nodes, fitted)}


def _reach(pos: np.ndarray) -> float:
    """The distance within which repulsion is exact: CUTOFF mean node spacings."""
    spread = pos.std(axis=0)
    return float(CUTOFF * np.sqrt(4 * np.pi * max(spread[0] * spread[1], 1e-9) / len(pos)))


def _forces(pos: np.ndarray, first: np.ndarray, second: np.ndarray, strength: np.ndarray,
            mass: np.ndarray, reach: float) -> np.ndarray:
    """Repulsion between near nodes, springs along links and gravity toward the centre."""
    count = len(pos)
    force = np.zeros_like(pos)
    pairs = cKDTree(pos).query_pairs(reach, output_type="ndarray")
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


def _far_repulsion(pos: np.ndarray, mass: np.ndarray, reach: float) -> np.ndarray:
    """Repulsion from the mass of each grid cell whose centre of mass lies beyond `reach` (Barnes-Hut's idea, one level)."""
    low = pos.min(axis=0)
    span = np.maximum(pos.max(axis=0) - low, 1e-9)
    cell = np.minimum((GRID * (pos - low) / span).astype(np.int64), GRID - 1)
    flat = cell[:, 0] * GRID + cell[:, 1]
    cell_mass = np.bincount(flat, mass, GRID * GRID)
    filled = cell_mass > 0
    centre = np.stack([np.bincount(flat, mass * pos[:, 0], GRID * GRID),
                       np.bincount(flat, mass * pos[:, 1], GRID * GRID)], axis=1)[filled] / cell_mass[filled, None]
    across = pos[:, 0, None] - centre[None, :, 0]
    down = pos[:, 1, None] - centre[None, :, 1]
    distance2 = across * across + down * down
    weight = np.where(distance2 > reach * reach, cell_mass[filled][None, :] / np.maximum(distance2, 1e-9), 0.0)
    total = weight.sum(axis=1)
    push = np.stack([pos[:, 0] * total - weight @ centre[:, 0], pos[:, 1] * total - weight @ centre[:, 1]], axis=1)
    return REPULSION * mass[:, None] * push


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
