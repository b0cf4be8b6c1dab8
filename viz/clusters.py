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
NAME_TERMS = 3
TERM_CHARS = 28
OTHER = "other (small clusters)"


@dataclass(frozen=True)
class Cluster:
    """A named cluster: its number (0 is the largest), name, colour and members."""

    number: int
    name: str
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
    return [Cluster(number, cluster_name(links, members, names, papers), CLUSTER_PALETTE[number],
                    tuple(sorted(members)))
            for number, members in enumerate(chosen)]


def cluster_name(links: nx.Graph, members: set[str], names: dict[str, str], papers: dict[str, int]) -> str:
    """The NAME_TERMS members most tied to the rest of their cluster, joined with " · "."""
    def inside(node: str) -> int:
        return sum(data["papers"] for other, data in links[node].items() if other in members)
    central = sorted(members, key=lambda node: (-inside(node), -papers[node], node))[:NAME_TERMS]
    return " · ".join(_short(names[node]) for node in central)


def cluster_of(clusters: list[Cluster]) -> dict[str, Cluster]:
    """Each clustered entity's named cluster (entities in "other" are absent)."""
    return {member: cluster for cluster in clusters for member in cluster.members}


def cluster_colour(cluster: Cluster | None) -> str:
    """The colour of a named cluster, or the grey of "other"."""
    return cluster.colour if cluster is not None else NO_COMMUNITY_COLOUR


def _short(name: str) -> str:
    return name if len(name) <= TERM_CHARS else name[: TERM_CHARS - 1].rstrip() + "…"
