"""Graph metrics a view needs: degree, PageRank and Louvain community, deterministic for a given graph.

Both are computed on the graph's edges summed per node pair (weight = evidence count), nodes and
pairs in sorted order, so the result depends on the graph, not on the order it was built in.
PageRank runs on a sparse matrix (NetworkX's algorithm, without a DiGraph copy of the graph);
Louvain is NetworkX's, seeded, on node numbers without copies of the graph (louvain.py).
"""
from __future__ import annotations

from array import array
from collections.abc import Iterator
from typing import NamedTuple

import networkx as nx
import numpy as np
from scipy import sparse

from paperkg.core.schema import NodeLabel

from .louvain import louvain_communities

SEED = 42
ALPHA, MAX_ITER, TOL = 0.85, 100, 1.0e-6  # nx.pagerank's defaults


def add_metrics(graph: nx.MultiDiGraph) -> None:
    """Set degree, pagerank and community on every paper and entity node (community ids: 0 = largest community);
    result nodes and their edges are left out (a result is a record of its paper, not a term of the field)."""
    nodes = sorted(node for node, label in graph.nodes(data="label") if label != NodeLabel.RESULT)
    index = {node: position for position, node in enumerate(nodes)}
    sources, targets, counts = array("q"), array("q"), array("q")  # 8 bytes an edge, not a tuple and a dict entry
    for u, v, count in graph.edges(data="count"):
        if u in index and v in index:
            sources.append(index[u])
            targets.append(index[v])
            counts.append(count)
    heads, tails, weights = (np.frombuffer(column, dtype=np.int64) for column in (sources, targets, counts))
    found = node_metrics(len(nodes), heads, tails, weights)
    del sources, targets, counts, heads, tails, weights
    for key, position in index.items():
        data = graph.nodes[key]
        data["degree"], data["pagerank"], data["community"] = found.of(position)


class Metrics(NamedTuple):
    """Degree, PageRank and community of nodes 0..n-1 (numbered in key order)."""

    degrees: list[int]
    pagerank: list[float]
    community: list[int]

    def of(self, node: int) -> tuple[int, float, int]:
        """A node's (degree, pagerank rounded as the graph holds it, community)."""
        return self.degrees[node], round(self.pagerank[node], 8), self.community[node]


def node_metrics(size: int, heads: np.ndarray, tails: np.ndarray, weights: np.ndarray,
                 communities_of: np.ndarray | None = None) -> Metrics:
    """The metrics of nodes 0..size-1 (numbered in key order) joined by the edges heads[i] -> tails[i] with
    count weights[i], in any order. `communities_of` (a mask of edges) limits Louvain to those edges: the
    nodes of no such edge get community -1 (docs/guides/large-corpora.md: the entity graph at scale)."""
    degrees = (np.bincount(heads, minlength=size) + np.bincount(tails, minlength=size)).tolist()
    pagerank = _pagerank(size, *_summed_pairs(heads, tails, weights, size)).tolist()  # Python floats
    if communities_of is not None:
        heads, tails, weights = heads[communities_of], tails[communities_of], weights[communities_of]
    low, high, pair_weights = _summed_pairs(np.minimum(heads, tails), np.maximum(heads, tails), weights, size)
    members = np.unique(np.concatenate([low, high])) if communities_of is not None else np.arange(size)
    numbers = np.searchsorted(members, low), np.searchsorted(members, high)  # Louvain over the members only
    found = louvain_communities(len(members), _as_ints(*numbers, pair_weights), SEED)
    ordered = sorted((sorted(members[list(c)].tolist()) for c in found), key=lambda c: (-len(c), c[0]))
    community = [-1] * size
    for number, nodes in enumerate(ordered):
        for node in nodes:
            community[node] = number
    return Metrics(degrees, pagerank, community)


def _summed_pairs(rows: np.ndarray, cols: np.ndarray, weights: np.ndarray,
                 size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The (row, col) pairs of nodes 0..size-1 in sorted order, once each, with their weights summed."""
    keys, where = np.unique(rows * size + cols, return_inverse=True)
    totals = np.zeros(len(keys), dtype=np.int64)
    np.add.at(totals, where, weights)
    return keys // size, keys % size, totals


def _as_ints(*columns: np.ndarray, chunk: int = 1 << 16) -> Iterator[tuple[int, ...]]:
    """The rows of equal-length columns as tuples of Python ints, a chunk at a time (not three lists
    of a million ints at once)."""
    for begin in range(0, len(columns[0]), chunk):
        yield from zip(*(column[begin:begin + chunk].tolist() for column in columns))


def _pagerank(size: int, rows: np.ndarray, cols: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """PageRank of a weighted directed graph over nodes 0..size-1, its edges given as sorted, distinct
    (row, col) pairs and their weights."""
    if not size:
        return np.zeros(0)
    values = weights.astype(float)
    matrix = sparse.csr_array((values, (rows, cols)), shape=(size, size))
    out_weight = matrix.sum(axis=1)
    scale = np.divide(1.0, out_weight, out=np.zeros(size), where=out_weight != 0)
    matrix = sparse.diags_array(scale).tocsr() @ matrix
    start = np.full(size, 1.0 / size)
    dangling = np.where(out_weight == 0)[0]
    rank = start
    for _ in range(MAX_ITER):
        previous = rank
        rank = ALPHA * (rank @ matrix + rank[dangling].sum() * start) + (1 - ALPHA) * start
        if np.abs(rank - previous).sum() < size * TOL:
            return rank
    raise nx.PowerIterationFailedConvergence(MAX_ITER)
