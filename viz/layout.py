"""Node positions computed in Python, so views open drawn instead of running physics in the page.

networkx's spring layout (Fruchterman-Reingold), seeded, over every link of the map weighted
by its strength, so that entities sharing papers cluster as in VOSviewer's maps. Hub entities
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
ITERATIONS = 50
FISHEYE = 0.55        # radii become radius ** FISHEYE (1 keeps the layout as it is)
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
    ordered = nx.Graph()
    ordered.add_nodes_from(nodes)
    ordered.add_edges_from(sorted((min(a, b), max(a, b), {"weight": float(w)})
                                  for a, b, w in graph.edges(data=weight, default=1.0)))
    spring = nx.spring_layout(ordered, weight="weight", seed=seed, iterations=iterations)
    fitted = _fitted(_fisheye(np.array([spring[node] for node in nodes], dtype=np.float64)), width, height)
    if radii:
        fitted = _separated(fitted, np.array([radii.get(node, 0.0) for node in nodes]))
    return {node: (round(float(x), DECIMALS) + 0.0, round(float(y), DECIMALS) + 0.0)
            for node, (x, y) in zip(nodes, fitted)}


@dataclass(frozen=True)
class LayoutJob:
    """One view's force_layout call as plain data (its nodes and weighted links), so that it can run
    in another process while the build writes its other files."""

    nodes: tuple[str, ...]
    links: tuple[tuple[str, str, float], ...]
    radii: dict[str, float]
    width: float
    height: float

    @classmethod
    def of(cls, graph: nx.Graph, *, width: float, height: float, radii: dict[str, float],
           weight: str = "strength") -> LayoutJob:
        """The job force_layout(graph, ...) does: it reads only the nodes and the links' `weight`."""
        return cls(tuple(graph.nodes), tuple(graph.edges(data=weight, default=1.0)), radii, width, height)

    def run(self) -> dict[str, tuple[float, float]]:
        """The positions force_layout gives the graph."""
        graph = nx.Graph()
        graph.add_nodes_from(self.nodes)
        graph.add_weighted_edges_from(self.links)
        return force_layout(graph, width=self.width, height=self.height, radii=self.radii, weight="weight")


def _fisheye(pos: np.ndarray) -> np.ndarray:
    """Compress distances from the centre: the crowded middle opens up and far outliers come in."""
    centred = pos - pos.mean(axis=0)
    radius = np.linalg.norm(centred, axis=1)
    typical = float(np.percentile(radius, 90)) or 1.0
    scaled = np.where(radius > 0, (radius / typical) ** FISHEYE * typical / np.maximum(radius, 1e-12), 1.0)
    return centred * scaled[:, None]


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


def _summed(index: np.ndarray, values: np.ndarray, count: int) -> np.ndarray:
    """Per-node sums of pairwise vectors."""
    return np.stack([np.bincount(index, values[:, 0], count), np.bincount(index, values[:, 1], count)], axis=1)
