"""Page data for papers.html: papers with the entities they propose, address, evaluate on or mention.

Above a size the view keeps the most important entities and the papers that use most of them
(Paper nodes and the long tail are folded away), and says so on the page.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import networkx as nx

from paperkg.core import graph_model as model
from paperkg.core.schema import RelType
from paperkg.viz.clusters import Cluster, cluster_of, louvain, named_clusters
from paperkg.viz.entity_map import EntityIndex, link_graph
from paperkg.viz.labels import label_fonts
from paperkg.viz.layout import LayoutJob
from paperkg.viz.map_page import (MAP_HEIGHT, MAP_WIDTH, cluster_legend, node_colours, node_sizes, overlay_year,
                                  short_label, year_rows, year_span)
from paperkg.viz.page import PageData, folded_entries, legend_relations, node_types
from paperkg.viz.panel import PaperTable, entity_panel, evidence_item, paper_panel
from paperkg.viz.selection import Selection
from paperkg.viz.style import node_style, relation_style

MAX_PAPERS = 400
MAX_ENTITIES = 500
MAX_EDGE_EVIDENCE = 2


@dataclass
class PapersPlan:
    """The paper view decided before its layout: the entities and papers drawn, their links, sizes and named
    clusters; `simple` (the layout's springs) only while it is planned (a plan read back has its positions)."""

    entities: list[str]
    papers: list[str]
    paper_total: int        # papers of the selected entities, before the fold
    notes: list[str]
    edges: list[tuple[str, str, str]]
    degree: dict[str, float]
    sizes: dict[str, float]
    clusters: list[Cluster]
    simple: nx.Graph | None = None

    @property
    def nodes(self) -> list[str]:
        """Entities and papers, sorted."""
        return sorted([*self.entities, *self.papers])

    def layout(self) -> LayoutJob:
        """The view's layout: every link pulls alike."""
        if self.simple is None:
            raise ValueError("a papers plan read back has its positions, not its springs")
        return LayoutJob.of(self.simple, width=MAP_WIDTH, height=MAP_HEIGHT, radii=self.sizes, weight="none")


def plan_papers(index: EntityIndex, selection: Selection) -> PapersPlan:
    """The papers and entities the paper view draws, folded above a size, with their links and named clusters."""
    entities, notes = _entities(index, selection)
    papers, paper_total, paper_note = _papers(index, entities)
    is_paper = set(papers)
    entities = sorted({entity for entity in entities if is_paper.intersection(index.papers_of[entity])}
                      | _proposals(index, papers, {*selection.nodes, *selection.left_out}))
    nodes = sorted([*entities, *papers])
    kept = set(nodes)
    edges = sorted((s, t, k) for s, t, k in index.graph.edges(keys=True) if s in kept and t in kept and s != t)
    simple = nx.Graph()
    simple.add_nodes_from(nodes)
    simple.add_edges_from((s, t) for s, t, _ in edges)
    degree = {node: float(simple.degree(node)) for node in nodes}
    clusters = named_clusters(louvain(link_graph(index, entities)), index)
    return PapersPlan(entities, papers, paper_total, notes + paper_note, edges, degree,
                      node_sizes(degree, len(nodes)), clusters, simple)


def papers_page(index: EntityIndex, selection: Selection, *, title: str, colour_by: str,
                plan: PapersPlan, positions: dict[str, tuple[float, float]]) -> PageData:
    """The data of the paper-entity page, from plan_papers' plan and its layout's positions."""
    graph = index.graph
    entities, papers, nodes, degree, sizes = plan.entities, plan.papers, plan.nodes, plan.degree, plan.sizes
    is_paper, kept = set(papers), set(nodes)
    table = PaperTable(graph)
    texts = {node: short_label(table.rows[table.index(node)]["title"] if node in is_paper
                               else index.name(node)) for node in nodes}
    ranked = sorted(nodes, key=lambda node: (-degree[node], node))  # papers and entities named alike by their links
    fonts = label_fonts(ranked, positions, sizes, texts)
    first, last = (min(index.years.values()), max(index.years.values())) if index.years else (None, None)
    years = {node: (float(index.years[node]) if node in index.years else None) if node in is_paper
             else index.mean_year(node) for node in nodes}
    overlay = {node: years[node] if node in is_paper else overlay_year(index, node, years[node]) for node in nodes}
    in_cluster = papers_in_clusters(index, papers, cluster_of(plan.clusters))
    where = {node: i for i, node in enumerate(nodes)}
    colours = node_colours(index, nodes, in_cluster, overlay, (first, last))
    panels = [paper_panel(graph, node, table, where, index.papers_of) if node in is_paper else
              entity_panel(graph, node, list(index.papers_of[node]), years[node], table) for node in nodes]
    vis_nodes = []
    for i, node in enumerate(nodes):
        label = index.label(node)
        vis_nodes.append({
            "id": node, "text": texts[node], "x": positions[node][0], "y": positions[node][1],
            "size": sizes[node], "labelSize": fonts[node], "shape": node_style(label).shape,
            "color": colours[colour_by][i], "kind": label,
            "papers": 1 if node in is_paper else index.paper_count(node),
            "years": year_rows({index.years[node]: 1} if node in index.years else {}) if node in is_paper
            else year_rows(index.year_counts(node))})
    vis_edges, edge_panels = _paper_edges(graph, plan.edges, table)
    return PageData(
        view="papers", title=title, nodes=vis_nodes, edges=vis_edges, colours=colours,
        colour_by=colour_by, panels=panels, edge_panels=edge_panels, papers=table.rows,
        node_types=node_types(vis_nodes), relations=legend_relations(vis_edges),
        years=year_span(first, last), notes=plan.notes,
        sizes="Size: links on this page. Shape and colour: type. Arrows point from paper to entity.",
        clusters=cluster_legend(plan.clusters, in_cluster, positions, where),
        entity_total=len(selection.nodes) + len(selection.left_out), paper_total=plan.paper_total,
        folded=folded_entries(index, [e for e in selection.left_out if e not in entities])
        + folded_entries(index, [e for e in selection.nodes if e not in kept]),
        physics=False)


def _paper_edges(graph: nx.MultiDiGraph, edges: list[tuple[str, str, str]],
                 table: PaperTable) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    """The page's paper-to-entity edges and the side panel of each (its strongest evidence), by edge id."""
    vis_edges: list[dict[str, Any]] = []
    edge_panels: dict[str, dict[str, Any]] = {}
    for source, target, key in edges:
        data = model.edge_attrs(graph, source, target, key)
        assert data is not None
        style = relation_style(key)
        edge_id = f"{source}|{key}|{target}"
        vis_edges.append({"id": edge_id, "from": source, "to": target, "kinds": [key], "papers": 1, "arrows": "to",
                          "width": round(1.0 + 0.5 * math.log2(max(int(data.get("count", 1)), 1)), 2),
                          "dashes": style.dashed,
                          "color": {"color": style.colour, "highlight": style.colour, "hover": style.colour,
                                    "opacity": 0.6}})
        evidence = [item for ev in data.get("evidence", [])
                    for item in [evidence_item(graph, ev, None, table)] if item]
        evidence.sort(key=lambda item: (-item.confidence, item.paper, item.sentence))
        edge_panels[edge_id] = {"kinds": [style.name],
                                "papers": len({ev.get("paper") for ev in data.get("evidence", [])}),
                                "evidence": [item.shown() for item in evidence[:MAX_EDGE_EVIDENCE]]}
    return vis_edges, edge_panels


def _entities(index: EntityIndex, selection: Selection) -> tuple[list[str], list[str]]:
    """The selected entities, folded to the MAX_ENTITIES most important above that size."""
    notes = list(selection.notes)
    if len(selection.nodes) <= MAX_ENTITIES:
        return list(selection.nodes), notes
    kept = sorted(sorted(selection.nodes, key=index.importance_key)[:MAX_ENTITIES])
    notes.append(f"This view draws the {MAX_ENTITIES:,} most important (by PageRank) of the "
                 f"{len(selection.nodes):,} entities graph.html maps, with the papers' own proposals.")
    return kept, notes


def _papers(index: EntityIndex, entities: list[str]) -> tuple[list[str], int, list[str]]:
    """The papers of the drawn entities, how many there are, and above MAX_PAPERS those that use the
    most of them, newest first."""
    counts: dict[str, int] = {}
    for entity in entities:
        for paper in index.papers_of[entity]:
            counts[paper] = counts.get(paper, 0) + 1
    if len(counts) <= MAX_PAPERS:
        return sorted(counts), len(counts), []

    def rank(paper: str) -> tuple[int, int, str]:
        return (-counts[paper], -index.years.get(paper, 0), paper)
    kept = sorted(sorted(counts, key=rank)[:MAX_PAPERS])
    return kept, len(counts), [f"Paper nodes folded: showing the {MAX_PAPERS:,} of {len(counts):,} papers that "
                               "mention the most drawn entities. An entity's panel lists its papers."]


def papers_in_clusters(index: EntityIndex, papers: list[str], clusters: dict[str, Cluster]) -> dict[str, Cluster]:
    """The entities' named clusters (as on the map), and each paper in the cluster most of its clustered
    entities are in (ties: the larger cluster)."""
    placed = dict(clusters)
    for paper in papers:
        counts: dict[int, int] = {}
        found: dict[int, Cluster] = {}
        for entity in index.entities_of.get(paper, ()):
            if entity in clusters:
                cluster = clusters[entity]
                counts[cluster.number] = counts.get(cluster.number, 0) + 1
                found[cluster.number] = cluster
        if counts:
            placed[paper] = found[min(counts, key=lambda number: (-counts[number], number))]
    return placed


def _proposals(index: EntityIndex, papers: list[str], allowed: set[str]) -> set[str]:
    """What the drawn papers propose (among the `allowed` entities): never folded away from its paper."""
    graph = index.graph
    return {target for paper in papers for _, target, kind in graph.out_edges(paper, keys=True)
            if kind == RelType.PROPOSES.value and target in allowed}
