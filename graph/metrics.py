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
TOP_ENTITIES = 10_000  # communities at scale: Louvain on this many entities (top_communities)
PAIRS_PER_PAPER = 30  # ... joined by the first this many of a paper's top entities


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
                 papers: np.ndarray | None = None) -> Metrics:
    """The metrics of nodes 0..size-1 (numbered in key order) joined by the edges heads[i] -> tails[i] with
    count weights[i], in any order. With `papers` (a mask of the nodes that are papers), communities at scale:
    Louvain on the top entities' co-occurrence, the others labelled from it (top_communities)."""
    degrees = (np.bincount(heads, minlength=size) + np.bincount(tails, minlength=size)).tolist()
    pagerank = _pagerank(size, *_summed_pairs(heads, tails, weights, size)).tolist()  # Python floats
    if papers is not None:
        return Metrics(degrees, pagerank, top_communities(size, heads, tails, weights, papers).tolist())
    low, high, pair_weights = _summed_pairs(np.minimum(heads, tails), np.maximum(heads, tails), weights, size)
    found = louvain_communities(size, _as_ints(low, high, pair_weights), SEED)
    return Metrics(degrees, pagerank, _numbered(size, np.arange(size), found).tolist())


def _numbered(size: int, members: np.ndarray, found: list[set[int]]) -> np.ndarray:
    """Each node's community (0 = the largest, ties by their first node; -1: none) from Louvain's communities of
    `members` (numbered among themselves)."""
    ordered = sorted((sorted(members[list(c)].tolist()) for c in found), key=lambda c: (-len(c), c[0]))
    community = np.full(size, -1, dtype=np.int64)
    for number, nodes in enumerate(ordered):
        community[nodes] = number
    return community


def top_communities(size: int, heads: np.ndarray, tails: np.ndarray, weights: np.ndarray, papers: np.ndarray,
                    top: int = TOP_ENTITIES, per_paper: int = PAIRS_PER_PAPER) -> np.ndarray:
    """Communities at scale (docs/guides/large-corpora.md): Louvain on the `top` entities in the most papers,
    joined by the papers they share (the first `per_paper` of a paper's top entities) and by their relations;
    then each paper takes the community most of its top entities are in, each other entity the one most of its
    papers are in, and a paper without a top entity the one most of its entities are in (ties: the lower
    number). Nodes in none: -1. Memory: a few arrays of the edges' length; Louvain holds the reduced graph."""
    from_paper = papers[heads] & ~papers[tails]
    paper_of, entity_of = heads[from_paper], tails[from_paper]
    pairs = np.unique(paper_of * size + entity_of)  # a paper's entity once, whatever its roles
    paper_of, entity_of = pairs // size, pairs % size
    counts = np.bincount(entity_of, minlength=size)
    ranked = np.lexsort((np.arange(size), -counts))
    chosen = ranked[:min(top, int((counts > 0).sum()))]
    members = np.sort(chosen)
    is_top = np.zeros(size, dtype=bool)
    is_top[members] = True
    keep = is_top[entity_of]
    low, high = _shared_papers(paper_of[keep], entity_of[keep], per_paper)
    related = ~from_paper & is_top[heads] & is_top[tails] & (heads != tails)
    low = np.concatenate([low, np.minimum(heads, tails)[related]])
    high = np.concatenate([high, np.maximum(heads, tails)[related]])
    together = np.concatenate([np.ones(len(low) - int(related.sum()), dtype=np.int64), weights[related]])
    low, high, together = _summed_pairs(low, high, together, size)
    numbers = np.searchsorted(members, low), np.searchsorted(members, high)
    community = _numbered(size, members, louvain_communities(len(members), _as_ints(*numbers, together), SEED))
    community[~is_top] = -1
    _take_most_common(community, paper_of[keep], community[entity_of[keep]], size)
    rest = ~is_top[entity_of]
    _take_most_common(community, entity_of[rest], community[paper_of[rest]], size)
    _take_most_common(community, paper_of, community[entity_of], size)
    return community


def _shared_papers(paper_of: np.ndarray, entity_of: np.ndarray, per_paper: int) -> tuple[np.ndarray, np.ndarray]:
    """The pairs (lower, higher) of entities named by one paper (sorted by paper then entity), once per paper
    and pair, among the first `per_paper` entities of each paper."""
    lows, highs = [], []
    for step in range(1, per_paper):
        same = paper_of[step:] == paper_of[:-step]
        if not same.any():
            break
        lows.append(entity_of[:-step][same])
        highs.append(entity_of[step:][same])
    if not lows:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    return np.concatenate(lows), np.concatenate(highs)


def _take_most_common(community: np.ndarray, nodes: np.ndarray, found: np.ndarray, size: int) -> None:
    """Nodes with no community (-1) take the community most of their `found` (one per pair) are in."""
    known = (found >= 0) & (community[nodes] < 0)
    if not known.any():
        return
    votes, tally = np.unique(nodes[known] * size + found[known], return_counts=True)
    node, number = votes // size, votes % size
    order = np.lexsort((number, -tally, node))
    first = np.ones(len(order), dtype=bool)
    first[1:] = node[order][1:] != node[order][:-1]
    community[node[order][first]] = number[order][first]


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
