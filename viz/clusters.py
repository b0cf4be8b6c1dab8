"""Clusters of the entity map, each named by its most characteristic tasks and methods.

Louvain on the map's links weighted by their strength (the cosine of the two entities' paper sets, so a
hub that shares papers with everything ties nothing in particular), seeded. The NAMED_CLUSTERS largest
clusters of at least MIN_CLUSTER entities that can be named get a colour of their own and a name; every
other cluster is grouped as "other", in one grey, so that no two clusters on a map share a colour.

A name is made of the members most distinctive of the cluster, a class-based TF-IDF (as BERTopic's
c-TF-IDF, Grootendorst 2022) with the clusters as classes and the entities as terms: each paper belongs
to the cluster most of its drawn entities are in; a member scores p log(p / q), p the share of its
cluster's papers that mention it and q the share of all the map's papers that do (its term of the
Kullback-Leibler divergence of the cluster's mentions from the map's). A term the cluster's papers
mention no more often than the others do scores nothing, and so does one in more than FIELD_SHARE of
the other clusters' papers (a field's generic "natural language processing"); one frequent in its
cluster and rare elsewhere scores most. Tasks name a cluster first, then Methods (Datasets where it has
neither); Metrics never do: "accuracy" characterises no part of a field.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

import networkx as nx

from paperkg.core.schema import NodeLabel
from paperkg.viz.entity_map import EntityIndex
from paperkg.viz.layout import LAYOUT_SEED
from paperkg.viz.style import CLUSTER_PALETTE, NO_COMMUNITY_COLOUR

NAMED_CLUSTERS = len(CLUSTER_PALETTE)
MIN_CLUSTER = 3
NAME_TERMS = 3             # terms in a cluster's name in the legend
MAP_TERMS = 2              # of which the map draws the first (the most characteristic)
TERM_CHARS = 28
OTHER = "other (small clusters)"
NAME_TASKS = 2             # of which at most this many Tasks, first
FIELD_SHARE = 0.1          # a term in more of the other clusters' papers names the field, not a part of it


@dataclass(frozen=True)
class Cluster:
    """A named cluster: its number (0 is the largest), name, colour and members."""

    number: int
    name: str
    short: str             # the name drawn on the map
    colour: str
    members: tuple[str, ...]


def louvain(links: nx.Graph) -> list[set[str]]:
    """Louvain clusters of the map's links (all of them, not only those drawn), largest first (ties: smallest
    key first)."""
    if links.number_of_edges() == 0:
        return []
    found = nx.community.louvain_communities(links, weight="strength", seed=LAYOUT_SEED)
    return sorted(found, key=lambda members: (-len(members), min(members)))


def named_clusters(communities: list[set[str]], index: EntityIndex) -> list[Cluster]:
    """The map's large clusters (of `communities`, Louvain's, largest first) that a Method, Task or Dataset
    can name, named by their most characteristic ones; the rest are "other"."""
    found = [members for members in communities if len(members) >= MIN_CLUSTER]
    clusters: list[Cluster] = []
    for members, score in zip(found, characteristic_scores(found, index)):
        terms = _naming_terms(members, score, index)
        if terms and len(clusters) < NAMED_CLUSTERS:
            number = len(clusters)
            clusters.append(Cluster(number, " · ".join(terms), " · ".join(terms[:MAP_TERMS]), CLUSTER_PALETTE[number],
                                    tuple(sorted(members))))
    return clusters


def characteristic_scores(classes: list[set[str]], index: EntityIndex) -> list[dict[str, float]]:
    """Each class's members' distinctiveness p log(p / q): p the share of the class's papers mentioning the
    member, q the share of all the map's papers mentioning it, a paper being in the class most of its drawn
    entities are in (in each, on a tie). 0 when p is not above q, or when the member is in more than
    FIELD_SHARE of the other classes' papers (it belongs to the whole field)."""
    class_of = {member: number for number, members in enumerate(classes) for member in members}
    papers = sorted({paper for member in class_of for paper in index.papers_of[member]})
    sizes = [0] * len(classes)
    mentions: list[Counter[str]] = [Counter() for _ in classes]
    for paper in papers:
        drawn = [entity for entity in index.entities_of[paper] if entity in class_of]
        votes = Counter(class_of[entity] for entity in drawn)
        most = max(votes.values())
        for number in (number for number, count in votes.items() if count == most):
            sizes[number] += 1
            mentions[number].update(drawn)
    total = sum(sizes)
    scores = []
    for number, members in enumerate(classes):
        score = {}
        rest = total - sizes[number]
        for member in members:
            everywhere = sum(counts[member] for counts in mentions)
            p = mentions[number][member] / sizes[number] if sizes[number] else 0.0
            q = everywhere / total if total else 0.0
            elsewhere = (everywhere - mentions[number][member]) / rest if rest > 0 else 0.0
            score[member] = p * math.log(p / q) if p > q and elsewhere <= FIELD_SHARE else 0.0
        scores.append(score)
    return scores


def _naming_terms(members: set[str], score: dict[str, float], index: EntityIndex) -> list[str]:
    """The names of the cluster's best-scored terms: its NAME_TASKS best Tasks, then its best Methods up to
    NAME_TERMS (Datasets where it has neither), cut to TERM_CHARS; none for a cluster of Metrics only. Tasks
    first: they say which part of a field it is."""
    def best(label: NodeLabel) -> list[str]:
        candidates = [member for member in members if index.label(member) == label.value and score[member] > 0]
        return sorted(candidates, key=lambda node: (-score[node], -index.paper_count(node), node))

    tasks = best(NodeLabel.TASK)[:NAME_TASKS]
    chosen = tasks + best(NodeLabel.METHOD)[:NAME_TERMS - len(tasks)] or best(NodeLabel.DATASET)
    return [_short(index.name(node)) for node in chosen[:NAME_TERMS]]


def cluster_of(clusters: list[Cluster]) -> dict[str, Cluster]:
    """Each clustered entity's named cluster (entities in "other" are absent)."""
    return {member: cluster for cluster in clusters for member in cluster.members}


def cluster_colour(cluster: Cluster | None) -> str:
    """The colour of a named cluster, or the grey of "other"."""
    return cluster.colour if cluster is not None else NO_COMMUNITY_COLOUR


def _short(name: str) -> str:
    return name if len(name) <= TERM_CHARS else name[: TERM_CHARS - 1].rstrip() + "…"
