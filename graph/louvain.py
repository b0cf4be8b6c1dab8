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
from collections.abc import Iterable

RESOLUTION = 1
THRESHOLD = 0.0000001  # networkx's default


class _Level:
    """One level of the graph: neighbours (no self-loops, in NetworkX's adjacency order), self-loop
    weights, and the original nodes inside each node."""

    def __init__(self, adjacency: list[dict[int, int]], loops: list[int], members: list[list[int]]) -> None:
        self.adjacency, self.loops, self.members = adjacency, loops, members
        self.degrees = [sum(nbrs.values()) + 2 * loop for nbrs, loop in zip(adjacency, loops)]

    def modularity(self, node2com: list[int], count: int) -> float:
        """networkx.community.modularity of the partition into communities 0..count-1, summed
        community by community as it does (the counts inside are integers, so exact)."""
        degree_sum = sum(self.degrees)
        m, norm = degree_sum / 2, 1 / degree_sum**2
        inside, degree = [0] * count, [0] * count
        for u, nbrs in enumerate(self.adjacency):
            community = node2com[u]
            degree[community] += self.degrees[u]
            inside[community] += self.loops[u] + sum(w for v, w in nbrs.items() if v > u and node2com[v] == community)
        return sum(inside[c] / m - RESOLUTION * degree[c] * degree[c] * norm for c in range(count))

    def communities(self, node2com: list[int], count: int) -> list[set[int]]:
        """The original nodes of each community."""
        found: list[set[int]] = [set() for _ in range(count)]
        for u, community in enumerate(node2com):
            found[community].update(self.members[u])
        return found


def louvain_communities(size: int, edges: Iterable[tuple[int, ...]], seed: int) -> list[set[int]]:
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
    if not any(adjacency) and not any(loops):
        return [{u} for u in range(size)]
    rng = random.Random(seed)
    mod = level.modularity(list(range(size)), size)
    m = sum(level.degrees) / 2
    node2com, count, _ = _one_level(level, m, rng)
    while True:
        found = level.communities(node2com, count)
        new_mod = level.modularity(node2com, count)
        if new_mod - mod <= THRESHOLD:
            return found
        mod = new_mod
        level = _next_level(level, node2com, count)
        node2com, count, improvement = _one_level(level, m, rng)
        if not improvement:
            return found


def _one_level(level: _Level, m: float, rng: random.Random) -> tuple[list[int], int, bool]:
    """networkx.algorithms.community.louvain._one_level, undirected, on node numbers: each node's
    community, renumbered 0..count-1 in the order of NetworkX's (filtered) partition list, the
    count, and whether any node moved. The same expressions for the gains (the weights summed as
    ints, exact, so equal to NetworkX's float sums), the neighbour communities in the same order
    and a node's own community last when no neighbour is in it, as its defaultdict adds it."""
    size = len(level.adjacency)
    node2com = list(range(size))
    stot = list(level.degrees)
    order = list(range(size))
    rng.shuffle(order)
    visits = [(u, level.adjacency[u].items(), level.degrees[u]) for u in order]
    scale = 2 * m**2
    moves, improvement = 1, False
    while moves > 0:
        moves = 0
        for u, neighbours, degree in visits:
            weights2com: dict[int, int] = {}
            for nbr, wt in neighbours:
                community = node2com[nbr]
                weights2com[community] = weights2com.get(community, 0) + wt
            best_mod = 0.0
            best_com = own = node2com[u]
            stot[own] -= degree
            remove_cost = -weights2com.setdefault(own, 0) / m + RESOLUTION * (stot[own] * degree) / scale
            for nbr_com, com_weight in weights2com.items():
                gain = remove_cost + com_weight / m - RESOLUTION * (stot[nbr_com] * degree) / scale
                if gain > best_mod:
                    best_mod = gain
                    best_com = nbr_com
            stot[best_com] += degree
            if best_com != own:
                improvement = True
                moves += 1
                node2com[u] = best_com
    numbers = {community: number for number, community in enumerate(sorted(set(node2com)))}
    return [numbers[community] for community in node2com], len(numbers), improvement


def _next_level(level: _Level, node2com: list[int], count: int) -> _Level:
    """networkx's _gen_graph: one node per community, edges summed, in the order NetworkX adds them."""
    members: list[list[int]] = [[] for _ in range(count)]
    for u, community in enumerate(node2com):
        members[community].extend(level.members[u])
    adjacency: list[dict[int, int]] = [{} for _ in range(count)]
    loops = [0] * count
    for u, nbrs in enumerate(level.adjacency):
        loops[node2com[u]] += level.loops[u]
        for v, weight in nbrs.items():
            if v > u:  # each edge once, from its first node, as Graph.edges() reports it
                a, b = node2com[u], node2com[v]
                if a == b:
                    loops[a] += weight
                else:
                    adjacency[a][b] = adjacency[a].get(b, 0) + weight
                    adjacency[b][a] = adjacency[b].get(a, 0) + weight
    return _Level(adjacency, loops, members)
