"""Page data for papers.html: papers with the entities they propose, address, evaluate on or mention.

Above a size the view keeps the most important entities and the papers that use most of them
(Paper nodes and the long tail are folded away), and says so on the page.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import networkx as nx

from paperkg.viz.clusters import Cluster, cluster_of, louvain, named_clusters
from paperkg.viz.entity_map import EntityIndex, link_graph
from paperkg.viz.labels import label_fonts
from paperkg.viz.layout import LayoutJob
from paperkg.viz.map_page import (MAP_HEIGHT, MAP_WIDTH, cluster_legend, node_colours, node_sizes, overlay_year,
                                  short_label)
from paperkg.viz.page import PageData, folded_entries, legend_relations, node_types
from paperkg.viz.panel import PaperTable, entity_panel, evidence_item, paper_panel
from paperkg.viz.selection import Selection
from paperkg.viz.style import node_style, relation_style

MAX_PAPERS = 400
MAX_ENTITIES = 500
MAX_EDGE_EVIDENCE = 2


@dataclass
class PapersPlan:
    """The paper view before its layout: the entities and papers drawn, their links and sizes."""

    entities: list[str]
    papers: list[str]
    paper_total: int        # papers of the selected entities, before the fold
    nodes: list[str]        # entities and papers, sorted
    notes: list[str]
    edges: list[tuple[str, str, str]]
    simple: nx.Graph
    degree: dict[str, float]
    sizes: dict[str, float]

    def layout(self) -> LayoutJob:
        """The view's layout: every link pulls alike."""
        return LayoutJob.of(self.simple, width=MAP_WIDTH, height=MAP_HEIGHT, radii=self.sizes, weight="none")


def plan_papers(index: EntityIndex, selection: Selection) -> PapersPlan:
    """The papers and entities the paper view draws, folded above a size, with their links."""
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
    return PapersPlan(entities, papers, paper_total, nodes, notes + paper_note, edges, simple, degree,
                      node_sizes(degree, len(nodes)))


def papers_page(index: EntityIndex, selection: Selection, *, title: str, colour_by: str,
                plan: PapersPlan | None = None, positions: dict[str, tuple[float, float]] | None = None) -> PageData:
    """The data of the paper-entity page (`plan` and `positions`, when given, are plan_papers' and its layout's)."""
    graph = index.graph
    plan = plan or plan_papers(index, selection)
    entities, papers, nodes, notes, edges, degree, sizes = (plan.entities, plan.papers, plan.nodes, plan.notes,
                                                            plan.edges, plan.degree, plan.sizes)
    is_paper, kept = set(papers), set(nodes)
    positions = positions if positions is not None else plan.layout().run()
    table = PaperTable(graph)
    texts = {node: short_label(table.rows[table.index(node)]["title"] if node in is_paper
                               else str(graph.nodes[node].get("name", node))) for node in nodes}
    ranked = sorted(nodes, key=lambda node: (-degree[node], node))  # papers and entities named alike by their links
    fonts = label_fonts(ranked, positions, sizes, texts)
    first, last = (min(index.years.values()), max(index.years.values())) if index.years else (None, None)
    years = {node: (float(index.years[node]) if node in index.years else None) if node in is_paper
             else index.mean_year(node) for node in nodes}
    overlay = {node: years[node] if node in is_paper else overlay_year(index, node, years[node]) for node in nodes}
    clusters = named_clusters(louvain(link_graph(index, entities)), index)
    in_cluster = papers_in_clusters(index, papers, cluster_of(clusters))
    where = {node: i for i, node in enumerate(nodes)}
    colours = node_colours(graph, nodes, in_cluster, overlay, (first, last))
    panels = [paper_panel(graph, node, table, where, index.papers_of) if node in is_paper else
              entity_panel(graph, node, list(index.papers_of[node]), years[node], table) for node in nodes]
    vis_nodes = []
    for i, node in enumerate(nodes):
        label = str(graph.nodes[node].get("label"))
        vis_nodes.append({
            "id": node, "text": texts[node], "x": positions[node][0], "y": positions[node][1],
            "size": sizes[node], "labelSize": fonts[node], "shape": node_style(label).shape,
            "color": colours[colour_by][i], "kind": label,
            "papers": 1 if node in is_paper else index.paper_count(node),
            "years": ([[index.years[node], 1]] if node in index.years else []) if node in is_paper
            else [[y, n] for y, n in index.year_counts(node).items()]})
    vis_edges, edge_panels = _paper_edges(graph, edges, table)
    return PageData(
        view="papers", title=title, nodes=vis_nodes, edges=vis_edges, colours=colours,
        colour_by=colour_by, panels=panels, edge_panels=edge_panels, papers=table.rows,
        node_types=node_types(vis_nodes), relations=legend_relations(vis_edges),
        years=[first, last] if first is not None and last is not None else None, notes=notes,
        sizes="Size: links on this page. Shape and colour: type. Arrows point from paper to entity.",
        clusters=cluster_legend(clusters, in_cluster, positions, where),
        entity_total=len(selection.nodes) + len(selection.left_out), paper_total=plan.paper_total,
        folded=folded_entries(graph, [e for e in selection.left_out if e not in entities], index.paper_count)
        + folded_entries(graph, [e for e in selection.nodes if e not in kept], index.paper_count),
        physics=False)



def _paper_edges(graph: nx.MultiDiGraph, edges: list[tuple[str, str, str]],
                 table: PaperTable) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    """The page's paper-to-entity edges and the side panel of each (its strongest evidence), by edge id."""
    vis_edges: list[dict[str, Any]] = []
    edge_panels: dict[str, dict[str, Any]] = {}
    for source, target, key in edges:
        data = graph.edges[source, target, key]
        style = relation_style(key)
        edge_id = f"{source}|{key}|{target}"
        vis_edges.append({"id": edge_id, "from": source, "to": target, "kinds": [key], "papers": 1, "arrows": "to",
                          "width": round(1.0 + 0.5 * math.log2(max(int(data.get("count", 1)), 1)), 2),
                          "dashes": style.dashed,
                          "color": {"color": style.colour, "highlight": style.colour, "hover": style.colour,
                                    "opacity": 0.6}})
        evidence = [item for ev in data.get("evidence", [])
                    for item in [evidence_item(graph, ev, None, table)] if item]
        evidence.sort(key=lambda item: (-item[4], item[0], item[1]))
        edge_panels[edge_id] = {"kinds": [style.name],
                                "papers": len({ev.get("paper") for ev in data.get("evidence", [])}),
                                "evidence": [item[:4] for item in evidence[:MAX_EDGE_EVIDENCE]]}
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
            if kind == "PROPOSES" and target in allowed}
