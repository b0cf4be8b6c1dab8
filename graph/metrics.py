"""Graph metrics a view needs: degree, PageRank and Louvain community, deterministic for a given graph.

Both are computed on the graph's edges summed per node pair (weight = evidence count), nodes and
pairs in sorted order, so the result depends on the graph, not on the order it was built in.
PageRank runs on a sparse matrix (NetworkX's algorithm, without a DiGraph copy of the graph);
Louvain is NetworkX's, seeded, on node numbers without copies of the graph (louvain.py).
"""
from __future__ import annotations

from collections import defaultdict

import networkx as nx
import numpy as np
from scipy import sparse

from .louvain import louvain_communities

SEED = 42
ALPHA, MAX_ITER, TOL = 0.85, 100, 1.0e-6  # nx.pagerank's defaults


def add_metrics(graph: nx.MultiDiGraph) -> None:
    """Set degree, pagerank and community on every node (community ids: 0 = largest community)."""
    nodes = sorted(graph.nodes)
    index = {node: position for position, node in enumerate(nodes)}
    directed: dict[tuple[int, int], int] = defaultdict(int)
    for u, v, data in graph.edges(data=True):
        directed[index[u], index[v]] += data["count"]
    pagerank = _pagerank(len(nodes), directed)
    pairs: dict[tuple[int, int], int] = defaultdict(int)
    for (u, v), weight in directed.items():
        pairs[min(u, v), max(u, v)] += weight
    del directed
    communities = louvain_communities(len(nodes), pairs, SEED)
    del pairs
    ordered = sorted(([nodes[u] for u in members] for members in communities), key=lambda c: (-len(c), min(c)))
    community_of = {node: number for number, members in enumerate(ordered) for node in members}
    for key, data in graph.nodes(data=True):
        data["degree"] = int(graph.degree(key))
        data["pagerank"] = round(float(pagerank[index[key]]), 8)
        data["community"] = community_of.get(key, -1)


def _pagerank(size: int, weights: dict[tuple[int, int], int]) -> np.ndarray:
    """PageRank of a weighted directed graph given as {(source, target): weight} over nodes 0..size-1."""
    if not size:
        return np.zeros(0)
    pairs = sorted(weights)
    rows = np.fromiter((u for u, _ in pairs), dtype=np.int64, count=len(pairs))
    cols = np.fromiter((v for _, v in pairs), dtype=np.int64, count=len(pairs))
    values = np.fromiter((weights[pair] for pair in pairs), dtype=float, count=len(pairs))
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
