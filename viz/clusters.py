"""Clusters of the entity map, named by their most central terms (as VOSviewer and CiteSpace label them).

Louvain on the drawn links (weighted by papers, seeded). The NAMED_CLUSTERS largest clusters of at
least MIN_CLUSTER entities get a name, made of the NAME_TERMS members with the strongest ties
inside their own cluster (summed papers of their links to other members, then papers, then key),
and a colour of their own; every smaller cluster is grouped as "other", in one grey, so that no
two clusters on a map share a colour.
"""
from __future__ import annotations

from dataclasses import dataclass

import networkx as nx

from paperkg.viz.layout import LAYOUT_SEED
from paperkg.viz.style import CLUSTER_PALETTE, NO_COMMUNITY_COLOUR

NAMED_CLUSTERS = len(CLUSTER_PALETTE)
MIN_CLUSTER = 3
NAME_TERMS = 3             # terms in a cluster's name in the legend
MAP_TERMS = 2              # of which the map draws the first (the most central)
TERM_CHARS = 28
OTHER = "other (small clusters)"


@dataclass(frozen=True)
class Cluster:
    """A named cluster: its number (0 is the largest), name, colour and members."""

    number: int
    name: str
    short: str             # the name drawn on the map
    colour: str
    members: tuple[str, ...]


def louvain(links: nx.Graph) -> list[set[str]]:
    """Louvain clusters of the map, largest first (ties: smallest key first)."""
    if links.number_of_edges() == 0:
        return []
    found = nx.community.louvain_communities(links, weight="papers", seed=LAYOUT_SEED)
    return sorted(found, key=lambda members: (-len(members), min(members)))


def named_clusters(links: nx.Graph, names: dict[str, str], papers: dict[str, int]) -> list[Cluster]:
    """The map's large clusters, named by their most central terms; the rest are "other"."""
    chosen = [members for members in louvain(links) if len(members) >= MIN_CLUSTER][:NAMED_CLUSTERS]
    clusters = []
    for number, members in enumerate(chosen):
        terms = central_terms(links, members, names, papers)
        clusters.append(Cluster(number, " · ".join(terms), " · ".join(terms[:MAP_TERMS]), CLUSTER_PALETTE[number],
                                tuple(sorted(members))))
    return clusters


def central_terms(links: nx.Graph, members: set[str], names: dict[str, str], papers: dict[str, int]) -> list[str]:
    """The names of the NAME_TERMS members most tied to the rest of their cluster (cut to TERM_CHARS)."""
    def inside(node: str) -> int:
        return sum(data["papers"] for other, data in links[node].items() if other in members)
    central = sorted(members, key=lambda node: (-inside(node), -papers[node], node))[:NAME_TERMS]
    return [_short(names[node]) for node in central]


def cluster_of(clusters: list[Cluster]) -> dict[str, Cluster]:
    """Each clustered entity's named cluster (entities in "other" are absent)."""
    return {member: cluster for cluster in clusters for member in cluster.members}


def cluster_colour(cluster: Cluster | None) -> str:
    """The colour of a named cluster, or the grey of "other"."""
    return cluster.colour if cluster is not None else NO_COMMUNITY_COLOUR


def _short(name: str) -> str:
    return name if len(name) <= TERM_CHARS else name[: TERM_CHARS - 1].rstrip() + "…"
