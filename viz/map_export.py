"""The entity map of graph.html as a graph another program opens: `paperkg export --map`.

The same entities, links, communities and positions as the page draws (the default fold, the
links thinned as on the page, the named clusters of the map (viz/clusters.py), the layout of the page with
its y axis turned upwards, as Gephi's is), as a GraphTable that graph/exports.py writes as
GraphML, GEXF or CSV. A link's kind is the relation the page colours it by (a typed relation,
else SHARED_PAPERS, "in the same papers"); its weight is the number of papers behind it.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator

import networkx as nx

from paperkg.core import graph_model as model
from paperkg.graph.interchange import (CYTOSCAPE_NAME, INTERACTION, NODE_LABEL, NODE_TYPE, WEIGHT, EdgeRow,
                                       GraphTable, NodeRow)
from paperkg.viz.entity_map import index_entities
from paperkg.viz.clusters import cluster_of
from paperkg.viz.map_page import plan_map
from paperkg.viz.options import ViewOptions
from paperkg.viz.style import SHARED_PAPERS
from paperkg.viz.view_layer import ViewLayer
from paperkg.viz.views import map_selection


def entity_map_table(graph: nx.MultiDiGraph, *, types: Iterable[str] | None = None, min_papers: int | None = None,
                     max_nodes: int | None = None, size_by: str = "papers",
                     layer: ViewLayer | None = None) -> GraphTable:
    """The entity map graph.html draws for these options, as rows: entities labelled by name with
    type, papers, community (number and name, as the page's legend names it), x, y and size; undirected links
    with their kind, papers and relations. A build's `layer` made for these options gives the map as it is."""
    index = index_entities(graph)
    options = ViewOptions(size_by=size_by, types=tuple(types or ()), min_papers=min_papers, max_nodes=max_nodes)
    if layer is not None and layer.serves(options):
        selection, plan, positions = layer.selection, layer.map_plan, layer.map_positions
    else:
        selection = map_selection(index, options)
        plan = plan_map(index, selection, size_by)
        positions = plan.layout().run()
    clusters = cluster_of(plan.clusters)

    def nodes() -> Iterator[NodeRow]:
        for node in sorted(plan.links.nodes):
            data = model.entity_attrs(graph, node)
            name = str(data.get("name", node))
            x, y = positions[node]
            yield NodeRow(node, {NODE_LABEL: name, "name": name, CYTOSCAPE_NAME: name, NODE_TYPE: data.get("label"),
                                 "papers": index.paper_count(node), "pagerank": data.get("pagerank"),
                                 "mean_year": index.mean_year(node),
                                 "community": clusters[node].number if node in clusters else None,
                                 "cluster": clusters[node].name if node in clusters else None,
                                 "x": x, "y": -y + 0.0, "size": plan.sizes[node]})

    def edges() -> Iterator[EdgeRow]:
        for source, target in sorted(tuple(sorted(pair)) for pair in plan.links.edges):
            data = plan.links.edges[source, target]
            kinds = list(data["kinds"])
            kind = next((name for name in kinds if name != SHARED_PAPERS), SHARED_PAPERS)
            yield EdgeRow(f"{source}|{target}", source, target, kind,
                          {INTERACTION: kind, "relations": "|".join(kinds), WEIGHT: data["papers"],
                           "papers": data["papers"], "shared_papers": data["shared"], "strength": data["strength"]})

    return GraphTable(directed=False, nodes=nodes, edges=edges,
                      attributes={"paperkg_view": "entity map",
                                  "notes": " ".join([*selection.notes, *plan.link_notes])})
