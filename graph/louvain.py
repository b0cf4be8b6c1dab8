"""Louvain communities of an undirected graph with integer weights, the same partition that
`networkx.community.louvain_communities(graph, weight="weight", seed=seed)` finds.

NetworkX's implementation holds three copies of the graph's adjacency at once (the graph it is
given, its own copy and a neighbour table), which was the peak of a 100k-paper build's memory,
and spends a third of its time in generic graph code. This one runs the same steps on one
adjacency table over node numbers: the nodes visited in the order of the same seeded shuffle,
the neighbour communities met in the same order, the same floating-point expressions for the
gains and the modularity, so it moves the same nodes and stops at the same level. Weights must
be integers (edge counts): their sums are then exact, whatever order they are added in.
"""
from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable

RESOLUTION = 1
THRESHOLD = 0.0000001  # networkx's default


class _Level:
    """One level of the graph: neighbours (no self-loops, in NetworkX's adjacency order), self-loop
    weights, and the original nodes inside each node."""

    def __init__(self, adjacency: list[dict[int, int]], loops: list[int], members: list[list[int]]) -> None:
        self.adjacency, self.loops, self.members = adjacency, loops, members
        self.degrees = [sum(nbrs.values()) + 2 * loop for nbrs, loop in zip(adjacency, loops)]

    def modularity(self, communities: list[set[int]]) -> float:
        """networkx.community.modularity of the partition, summed community by community as it does."""
        degree_sum = sum(self.degrees)
        m, norm = degree_sum / 2, 1 / degree_sum**2

        def contribution(community: set[int]) -> float:
            inside = sum(self.loops[u] + sum(w for v, w in self.adjacency[u].items() if v > u and v in community)
                         for u in community)
            degree = sum(self.degrees[u] for u in community)
            return inside / m - RESOLUTION * degree * degree * norm
        return sum(map(contribution, communities))


def louvain_communities(size: int, edges: Iterable[tuple[int, int, int]], seed: int) -> list[set[int]]:
    """The communities of nodes 0..size-1 (numbered in the order NetworkX's graph would hold them)
    linked by `edges` (u, v, weight), u <= v, each pair once and in sorted order (the order the
    edges were added to the NetworkX graph decides the order it visits neighbours in)."""
    adjacency: list[dict[int, int]] = [{} for _ in range(size)]
    loops = [0] * size
    for u, v, weight in edges:
        if u == v:
            loops[u] = weight
        else:
            adjacency[u][v] = weight
            adjacency[v][u] = weight
    level = _Level(adjacency, loops, [[u] for u in range(size)])
    partition = [{u} for u in range(size)]
    if not any(adjacency) and not any(loops):
        return partition
    rng = random.Random(seed)
    mod = level.modularity([{u} for u in range(size)])
    m = sum(level.degrees) / 2
    partition, inner, improvement = _one_level(level, m, partition, rng)
    while True:
        found = partition
        new_mod = level.modularity(inner)
        if new_mod - mod <= THRESHOLD:
            return found
        mod = new_mod
        level = _next_level(level, inner)
        partition, inner, improvement = _one_level(level, m, partition, rng)
        if not improvement:
            return found


def _one_level(level: _Level, m: float, partition: list[set[int]],
               rng: random.Random) -> tuple[list[set[int]], list[set[int]], bool]:
    """networkx.algorithms.community.louvain._one_level, undirected, on node numbers."""
    size = len(level.adjacency)
    node2com = list(range(size))
    inner = [{u} for u in range(size)]
    degrees = level.degrees
    stot = list(degrees)
    order = list(range(size))
    rng.shuffle(order)
    moves, improvement = 1, False
    while moves > 0:
        moves = 0
        for u in order:
            best_mod = 0
            best_com = node2com[u]
            weights2com: defaultdict[int, float] = defaultdict(float)
            for nbr, wt in level.adjacency[u].items():
                weights2com[node2com[nbr]] += wt
            degree = degrees[u]
            stot[best_com] -= degree
            remove_cost = -weights2com[best_com] / m + RESOLUTION * (stot[best_com] * degree) / (2 * m**2)
            for nbr_com, wt in weights2com.items():
                gain = remove_cost + wt / m - RESOLUTION * (stot[nbr_com] * degree) / (2 * m**2)
                if gain > best_mod:
                    best_mod = gain
                    best_com = nbr_com
            stot[best_com] += degree
            if best_com != node2com[u]:
                members = level.members[u]
                partition[node2com[u]].difference_update(members)
                inner[node2com[u]].remove(u)
                partition[best_com].update(members)
                inner[best_com].add(u)
                improvement = True
                moves += 1
                node2com[u] = best_com
    return list(filter(len, partition)), list(filter(len, inner)), improvement


def _next_level(level: _Level, inner: list[set[int]]) -> _Level:
    """networkx's _gen_graph: one node per community, edges summed, in the order NetworkX adds them."""
    community = [0] * len(level.adjacency)
    members: list[list[int]] = []
    for number, part in enumerate(inner):
        members.append([original for node in part for original in level.members[node]])
        for node in part:
            community[node] = number
    adjacency: list[dict[int, int]] = [{} for _ in inner]
    loops = [0] * len(inner)
    for u, nbrs in enumerate(level.adjacency):
        loops[community[u]] += level.loops[u]
        for v, weight in nbrs.items():
            if v > u:  # each edge once, from its first node, as Graph.edges() reports it
                a, b = community[u], community[v]
                if a == b:
                    loops[a] += weight
                else:
                    adjacency[a][b] = adjacency[a].get(b, 0) + weight
                    adjacency[b][a] = adjacency[b].get(a, 0) + weight
    return _Level(adjacency, loops, members)
