"""Node positions computed in Python, so views open drawn instead of running physics in the page.

A Fruchterman-Reingold spring layout in numpy, seeded, over every link of the map weighted
by its strength, so that entities sharing papers cluster as in VOSviewer's maps; a weak pull to
the centre keeps small unlinked groups near the map instead of on a far ring. Every pair of
nodes repels, computed in blocks of the n x n distances (the map keeps at most 2,000 entities,
so this takes a few seconds where networkx's spring_layout took half a minute). Hub entities
pile up in the centre of such layouts, so the radii are then compressed (a fisheye that keeps
every node's direction and order from the centre), the map is turned so its long axis lies
across the screen and scaled into the page's box, and overlapping circles are pushed apart.
Same graph, same positions: nodes and links are added in sorted order and the seed is fixed.
"""
from __future__ import annotations

from dataclasses import dataclass

import networkx as nx
import numpy as np
from scipy.spatial import cKDTree

LAYOUT_SEED = 20250
ITERATIONS = 120
GRAVITY = 0.05        # pull to the centre, relative to the springs
BLOCK = 256           # rows and columns of the pairwise repulsion computed at once
FISHEYE = 0.55        # radii become radius ** FISHEYE (1 keeps the layout as it is)
SEPARATION_ROUNDS = 60
GAP = 1.0             # canvas units kept free between two circles
DECIMALS = 1          # positions are rounded so that tiny float noise never changes the page


def force_layout(graph: nx.Graph, *, width: float, height: float, radii: dict[str, float] | None = None,
                 weight: str = "strength", seed: int = LAYOUT_SEED, iterations: int = ITERATIONS,
                 centre: str | None = None) -> dict[str, tuple[float, float]]:
    """Positions for every node of `graph` in a `width` x `height` box centred on 0; circles of `radii` do not overlap.

    With `centre` (a focus view), the fisheye and the fit are around that node, which lands at 0.
    """
    nodes = sorted(graph.nodes)
    if len(nodes) <= 1:
        return {node: (0.0, 0.0) for node in nodes}
    where = {node: i for i, node in enumerate(nodes)}
    links = sorted((min(where[a], where[b]), max(where[a], where[b]), float(w))
                   for a, b, w in graph.edges(data=weight, default=1.0) if a != b)
    spring = _spring(len(nodes), np.array(links, dtype=np.float64).reshape(-1, 3), seed, iterations)
    origin = where.get(centre) if centre is not None else None
    fitted = _fitted(_fisheye(spring, origin), width, height, origin)
    if radii:
        fitted = _separated(fitted, np.array([radii.get(node, 0.0) for node in nodes]))
    return {node: (round(float(x), DECIMALS) + 0.0, round(float(y), DECIMALS) + 0.0)
            for node, (x, y) in zip(nodes, fitted)}


def _spring(count: int, links: np.ndarray, seed: int, iterations: int) -> np.ndarray:
    """Fruchterman-Reingold from seeded random positions in the unit square, cooling linearly.

    Each step every node moves along its net force (pairwise repulsion k^2/d, attraction
    weight * d^2/k along its links, a pull of GRAVITY * d/k to the centroid) by at most the
    temperature, which falls from a tenth of the square to nothing.
    """
    pos = np.random.default_rng(seed).random((count, 2))
    a, b, w = links[:, 0].astype(np.intp), links[:, 1].astype(np.intp), links[:, 2]
    k = 1 / np.sqrt(count)
    temperature = 0.1
    cooling = temperature / (iterations + 1)
    for _ in range(iterations):
        force = _repulsion(pos, k * k)
        delta = pos[a] - pos[b]
        pull = delta * (w * np.hypot(delta[:, 0], delta[:, 1]) / k)[:, None]
        force -= _summed(a, pull, count) - _summed(b, pull, count)
        centred = pos - pos.mean(axis=0)
        force -= centred * (GRAVITY * np.hypot(centred[:, 0], centred[:, 1]) / k)[:, None]
        length = np.maximum(np.hypot(force[:, 0], force[:, 1]), 1e-12)
        pos += force * (np.minimum(length, temperature) / length)[:, None]
        temperature -= cooling
    return pos


def _repulsion(pos: np.ndarray, k2: float) -> np.ndarray:
    """The summed repulsion k2 * (p_i - p_j) / |p_i - p_j|^2 on every node, in BLOCK x BLOCK tiles (each pair once).

    The tiles are float32, twice as fast; positions and the totals over tiles stay float64 and it is as
    deterministic (the layout needs the direction of each push, not its last digits).
    """
    x, y = pos[:, 0].astype(np.float32), pos[:, 1].astype(np.float32)
    k2 = np.float32(k2)
    force = np.zeros_like(pos)
    starts = range(0, len(pos), BLOCK)
    for i in starts:
        xi, yi = x[i:i + BLOCK, None], y[i:i + BLOCK, None]
        for j in starts:
            if j < i:
                continue
            dx, dy = xi - x[None, j:j + BLOCK], yi - y[None, j:j + BLOCK]
            scale = dx * dx
            scale += dy * dy
            np.maximum(scale, np.float32(1e-12), out=scale)
            np.divide(k2, scale, out=scale)
            fx, fy = dx * scale, dy * scale
            force[i:i + BLOCK, 0] += fx.sum(axis=1)
            force[i:i + BLOCK, 1] += fy.sum(axis=1)
            if j != i:
                force[j:j + BLOCK, 0] -= fx.sum(axis=0)
                force[j:j + BLOCK, 1] -= fy.sum(axis=0)
    return force


@dataclass(frozen=True)
class LayoutJob:
    """One view's force_layout call as plain data (its nodes and weighted links), so that it can run
    in another process while the build writes its other files."""

    nodes: tuple[str, ...]
    links: tuple[tuple[str, str, float], ...]
    radii: dict[str, float]
    width: float
    height: float
    centre: str | None = None

    @classmethod
    def of(cls, graph: nx.Graph, *, width: float, height: float, radii: dict[str, float],
           weight: str = "strength", centre: str | None = None) -> LayoutJob:
        """The job force_layout(graph, ...) does: it reads only the nodes and the links' `weight`."""
        return cls(tuple(graph.nodes), tuple(graph.edges(data=weight, default=1.0)), radii, width, height, centre)

    def run(self) -> dict[str, tuple[float, float]]:
        """The positions force_layout gives the graph."""
        graph = nx.Graph()
        graph.add_nodes_from(self.nodes)
        graph.add_weighted_edges_from(self.links)
        return force_layout(graph, width=self.width, height=self.height, radii=self.radii, weight="weight",
                            centre=self.centre)


def _fisheye(pos: np.ndarray, origin: int | None = None) -> np.ndarray:
    """Compress distances from the centre (the mean, or node `origin`): the crowded middle opens up and far
    outliers come in."""
    centred = pos - (pos.mean(axis=0) if origin is None else pos[origin])
    radius = np.linalg.norm(centred, axis=1)
    typical = float(np.percentile(radius, 90)) or 1.0
    scaled = np.where(radius > 0, (radius / typical) ** FISHEYE * typical / np.maximum(radius, 1e-12), 1.0)
    return centred * scaled[:, None]


def _fitted(pos: np.ndarray, width: float, height: float, origin: int | None = None) -> np.ndarray:
    """Turn the layout so its long axis lies across the screen, then scale it into the box (centred on
    node `origin` when given: the box then fits the farthest node on either side of it)."""
    centred = pos - pos.mean(axis=0)
    _, vectors = np.linalg.eigh(np.cov(centred.T))
    turned = centred @ vectors[:, ::-1]
    turned *= np.where(turned[0] >= 0, 1.0, -1.0)  # eigenvector signs are arbitrary: fix them
    if origin is not None:
        turned -= turned[origin]
        span = np.maximum(2 * np.abs(turned).max(axis=0), 1e-9)
        return turned * min(width / span[0], height / span[1])
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


def _summed(index: np.ndarray, values: np.ndarray, count: int) -> np.ndarray:
    """Per-node sums of pairwise vectors."""
    return np.stack([np.bincount(index, values[:, 0], count), np.bincount(index, values[:, 1], count)], axis=1)
