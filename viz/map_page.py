"""Page data for graph.html and focus views: the entity map, laid out, sized, coloured and labelled.

Entities are circles sized by papers (or degree or PageRank), coloured by type, community or
mean publication year; links are as wide as the papers behind them and coloured by what ties
the two entities. Everything the page needs is built here as plain data for page.py.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import networkx as nx

from paperkg.viz.clusters import OTHER, Cluster, cluster_colour, cluster_of, louvain, named_clusters
from paperkg.viz.entity_map import EntityIndex, link_graph, shown_kinds
from paperkg.viz.labels import label_fonts
from paperkg.viz.layout import LayoutJob
from paperkg.viz.options import MIN_RELATION_CONFIDENCE, YEAR_MIN_PAPERS
from paperkg.viz.page import PageData, folded_entries, legend_relations, node_types
from paperkg.viz.panel import PaperTable, entity_panel, link_panel
from paperkg.viz.selection import Selection, thin_links
from paperkg.viz.style import NO_COMMUNITY_COLOUR, SHARED_PAPERS, node_style, relation_style, year_colour

MAP_WIDTH, MAP_HEIGHT = 1000.0, 620.0  # canvas units; about screen pixels at the opening zoom
LINKS_PER_ENTITY = 2                   # links drawn at most: this many times the entities
MAX_LABEL_CHARS = 40
MAX_RELATED = 12
NO_ARROWS = {"to": {"enabled": False}}  # map links have no direction (PyVis adds arrows otherwise)
CROSS_CLUSTER_PULL = 0.15              # a link between two clusters pulls this much of one inside a cluster


@dataclass
class MapPlan:
    """The entity map decided before its layout: the links drawn, node metric and sizes, each entity's strongest
    links (drawn or thinned away) and the named clusters; `springs` (the layout's) only while it is planned, a
    plan read back from a build's views.json comes with its positions."""

    links: nx.Graph
    link_notes: tuple[str, ...]
    metric: dict[str, float]
    sizes: dict[str, float]
    related: dict[str, list[tuple[str, int, tuple[str, ...]]]]
    clusters: list[Cluster]
    springs: nx.Graph | None = None  # every link, with its `pull`

    def layout(self, centre: str | None = None) -> LayoutJob:
        """The map's layout: every link pulls (around `centre` in a focus view)."""
        if self.springs is None:
            raise ValueError("a map plan read back has its positions, not its springs")
        return LayoutJob.of(self.springs, width=MAP_WIDTH, height=MAP_HEIGHT, radii=self.sizes, centre=centre,
                            weight="pull")


def plan_map(index: EntityIndex, selection: Selection, size_by: str) -> MapPlan:
    """The links, sizes, strongest links and named clusters of the entity map over the selected entities."""
    every_link = link_graph(index, selection.nodes)
    communities = louvain(every_link)
    links, link_notes = thin_links(every_link, LINKS_PER_ENTITY * max(len(selection.nodes), 1))
    metric = {node: _metric(index, links, node, size_by) for node in sorted(links.nodes)}
    return MapPlan(links, link_notes, metric, node_sizes(metric, len(metric)),
                   {node: _related(every_link, node) for node in sorted(links.nodes)},
                   named_clusters(communities, index), _springs(every_link, communities))


def _springs(links: nx.Graph, communities: list[set[str]]) -> nx.Graph:
    """The layout's springs: every link, its `pull` its strength, CROSS_CLUSTER_PULL as much between two of the
    `communities` (so that the clusters lie apart); nodes and links in the order of `links`."""
    community = {node: number for number, members in enumerate(communities) for node in members}
    springs = nx.Graph()
    springs.add_nodes_from(links.nodes)
    springs.add_edges_from((source, target, {"pull": data["strength"] * (
        1.0 if community[source] == community[target] else CROSS_CLUSTER_PULL)})
        for source, target, data in links.edges(data=True))
    return springs


def entity_map_page(index: EntityIndex, selection: Selection, *, title: str, colour_by: str, size_by: str,
                    plan: MapPlan, positions: dict[str, tuple[float, float]],
                    min_confidence: float = MIN_RELATION_CONFIDENCE, leaderboard: str | None = None) -> PageData:
    """The data of an entity-map page over the selected entities, from plan_map's plan and its layout's positions;
    typed relations drawn from `min_confidence` (the legend's slider moves it down to the graph's floor); the panels
    of tasks and data sets with results link to `leaderboard` (the page beside it; None: no link)."""
    graph = index.graph
    links, metric, sizes = plan.links, plan.metric, plan.sizes
    nodes = sorted(links.nodes)
    ranked = sorted(nodes, key=lambda node: (-metric[node], *index.rank_key(node)))
    texts = {node: short_label(index.name(node)) for node in nodes}
    fonts = label_fonts(ranked, positions, sizes, texts)
    years = {node: index.mean_year(node) for node in nodes}
    first, last = _year_span(index)
    in_cluster = cluster_of(plan.clusters)
    colours = node_colours(index, nodes, in_cluster, {node: overlay_year(index, node, years[node]) for node in nodes},
                           (first, last))
    where = {node: i for i, node in enumerate(nodes)}
    table = PaperTable(graph)
    panels = [entity_panel(graph, node, list(index.papers_of[node]), years[node], table, leaderboard)
              for node in nodes]
    for node, panel in zip(nodes, panels):
        panel["related"] = [{"node": where[other], "papers": papers, "kinds": shown_kinds(
                                kinds, index.confidence.get(tuple(sorted((node, other))), {}), min_confidence)}
                            for other, papers, kinds in plan.related[node]]
    vis_nodes = [{
        "id": node, "text": texts[node], "x": positions[node][0], "y": positions[node][1],
        "size": sizes[node], "labelSize": fonts[node], "shape": "dot",
        "color": colours[colour_by][i], "kind": index.label(node),
        "papers": index.paper_count(node), "years": year_rows(index.year_counts(node)),
    } for i, node in enumerate(nodes)]
    vis_edges, edge_panels = _map_edges(index, links, table, min_confidence)
    return PageData(
        view="entities", title=title, nodes=vis_nodes, edges=vis_edges, colours=colours,
        colour_by=colour_by, panels=panels, edge_panels=edge_panels, papers=table.rows,
        node_types=node_types(vis_nodes), relations=legend_relations(vis_edges, min_confidence),
        years=year_span(first, last), notes=[*selection.notes, *plan.link_notes],
        sizes=f"Circle size: {SIZE_WORDS[size_by]}. Link width: papers that tie the two entities.",
        clusters=cluster_legend(plan.clusters, in_cluster, positions, where),
        entity_total=len(selection.nodes) + len(selection.left_out),
        folded=folded_entries(index, selection.left_out),
        physics=False, min_confidence=min_confidence)


def node_colours(index: EntityIndex, nodes: list[str], in_cluster: dict[str, Cluster],
                 overlay: dict[str, float | None], span: tuple[int | None, int | None]) -> dict[str, list[str]]:
    """Each node's colour under each scheme: its type, its named cluster, its year overlay over `span`."""
    return {
        "type": [node_style(index.label(node)).colour for node in nodes],
        "community": [cluster_colour(in_cluster.get(node)) for node in nodes],
        "year": [year_colour(overlay[node], *span) for node in nodes],
    }


def year_rows(counts: dict[int, int]) -> list[dict[str, int]]:
    """An entity's papers per year as the page reads them."""
    return [{"year": year, "papers": papers} for year, papers in counts.items()]


def year_span(first: int | None, last: int | None) -> dict[str, int] | None:
    """The page's first and last publication year, None without years."""
    return {"first": first, "last": last} if first is not None and last is not None else None


def _map_edges(index: EntityIndex, links: nx.Graph, table: PaperTable,
               min_confidence: float) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    """The map's links, in (source, target) order, and the side panel of each, by link id."""
    max_papers = max((data["papers"] for *_, data in links.edges(data=True)), default=1)
    vis_edges, edge_panels = [], {}
    for source, target, data in sorted(links.edges(data=True), key=lambda e: (e[0], e[1])):
        edge = _map_edge(source, target, data, max_papers, min_confidence)
        vis_edges.append(edge)
        shared = set(index.papers_of[source]).intersection(index.papers_of[target])
        edge_panels[edge["id"]] = link_panel(index.graph, (source, target), shared,
                                             [kind for kind in data["kinds"] if kind != SHARED_PAPERS],
                                             data["papers"], table)
    return vis_edges, edge_panels


SIZE_WORDS = {"papers": "papers mentioning the entity", "degree": "links on this map",
              "pagerank": "PageRank in the whole graph"}


def _metric(index: EntityIndex, links: nx.Graph, node: str, size_by: str) -> float:
    if size_by == "degree":
        return float(links.degree(node))
    if size_by == "pagerank":
        return index.pagerank(node)
    return float(index.paper_count(node))


def node_sizes(metric: dict[str, float], count: int) -> dict[str, float]:
    """Radii in canvas units: the square root of the metric, between bounds that suit the map's density."""
    spacing = math.sqrt(MAP_WIDTH * MAP_HEIGHT / max(count, 1))
    largest_radius = min(max(spacing * 0.8, 5.0), 24.0)
    smallest_radius = min(max(spacing * 0.1, 1.0), 5.0)
    top = max(metric.values(), default=0.0) or 1.0
    return {node: round(smallest_radius + (largest_radius - smallest_radius) * math.sqrt(max(value, 0.0) / top), 2)
            for node, value in metric.items()}


def short_label(name: str) -> str:
    """The name drawn on the canvas, cut to a readable length (the panel has it whole)."""
    return name if len(name) <= MAX_LABEL_CHARS else name[: MAX_LABEL_CHARS - 1].rstrip() + "…"


def cluster_legend(clusters: list[Cluster], placed: dict[str, Cluster], positions: dict[str, tuple[float, float]],
                   where: dict[str, int]) -> list[dict[str, Any]]:
    """Legend rows of the named clusters (name, colour, the node indices `placed` in it and their count,
    where its name goes on the map: its members' median) and one row for "other"."""
    rows: list[dict[str, Any]] = []
    for cluster in clusters:
        xs = sorted(positions[member][0] for member in cluster.members)
        ys = sorted(positions[member][1] for member in cluster.members)
        members = [where[node] for node in where if placed.get(node) is cluster]
        rows.append({"name": cluster.name, "short": cluster.short, "colour": cluster.colour, "count": len(members),
                     "x": xs[len(xs) // 2], "y": ys[len(ys) // 2], "members": members})
    rest = len(where) - sum(row["count"] for row in rows)
    if rest:
        rows.append({"name": OTHER, "short": OTHER, "colour": NO_COMMUNITY_COLOUR, "count": rest, "x": None, "y": None,
                     "members": []})
    return rows


def overlay_year(index: EntityIndex, entity: str, year: float | None) -> float | None:
    """The mean year the overlay colours by: None (grey) for an entity in fewer than YEAR_MIN_PAPERS papers."""
    return year if index.paper_count(entity) >= YEAR_MIN_PAPERS else None


def _year_span(index: EntityIndex) -> tuple[int | None, int | None]:
    years = index.years.values()
    return (min(years), max(years)) if years else (None, None)


def _related(links: nx.Graph, node: str) -> list[tuple[str, int, tuple[str, ...]]]:
    """(entity, papers, kinds) of the entity's strongest links (drawn or thinned away)."""
    ranked = sorted(links[node].items(), key=lambda item: (-item[1]["papers"], -item[1]["strength"], item[0]))
    return [(other, data["papers"], tuple(data["kinds"])) for other, data in ranked[:MAX_RELATED]]


def _map_edge(source: str, target: str, data: dict[str, Any], max_papers: int, min_confidence: float) -> dict[str, Any]:
    """A link as vis-network draws it: styled by its first typed relation drawn at `min_confidence`; every kind and
    each typed one's confidence for the page's filters and slider."""
    kinds = list(data["kinds"])
    main = next((kind for kind in shown_kinds(kinds, data["confidence"], min_confidence) if kind != SHARED_PAPERS),
                SHARED_PAPERS)
    style = relation_style(main)
    return {"id": f"{source}|{target}", "from": source, "to": target, "kinds": kinds,
            "confidence": data["confidence"], "arrows": NO_ARROWS,
            "papers": data["papers"], "width": round(0.5 + 4.0 * math.sqrt(data["papers"] / max_papers), 2),
            "dashes": style.dashed,
            "color": {"color": style.colour, "highlight": style.colour, "hover": style.colour,
                      "opacity": 0.3 if main == SHARED_PAPERS else 0.8}}
