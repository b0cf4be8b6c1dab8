"""Graph metrics a view needs: degree, PageRank and Louvain community, deterministic for a given graph."""
from __future__ import annotations

import networkx as nx

SEED = 42


def add_metrics(graph: nx.MultiDiGraph) -> None:
    """Set degree, pagerank and community on every node (community ids: 0 = largest community)."""
    simple = nx.DiGraph()
    simple.add_nodes_from(sorted(graph.nodes))
    for u, v, data in sorted(graph.edges(data=True), key=lambda e: (e[0], e[1], e[2]["type"])):
        weight = simple.get_edge_data(u, v, {}).get("weight", 0) + data["count"]
        simple.add_edge(u, v, weight=weight)
    pagerank = nx.pagerank(simple, weight="weight") if len(simple) else {}
    undirected = nx.Graph()
    undirected.add_nodes_from(sorted(graph.nodes))
    for u, v, data in sorted(simple.edges(data=True)):
        previous = undirected.get_edge_data(u, v, {}).get("weight", 0)
        undirected.add_edge(u, v, weight=previous + data["weight"])
    communities = nx.community.louvain_communities(undirected, weight="weight", seed=SEED) if len(undirected) else []
    ordered = sorted(communities, key=lambda c: (-len(c), min(c)))
    community_of = {node: index for index, members in enumerate(ordered) for node in members}
    for key, data in graph.nodes(data=True):
        data["degree"] = int(graph.degree(key))
        data["pagerank"] = round(float(pagerank.get(key, 0.0)), 8)
        data["community"] = community_of.get(key, -1)
