"""The views' layer of a build: what graph.html and papers.html draw, decided once by the build and saved beside
the graph (views.json), so that `paperkg view` and `paperkg export --map` with the build's options draw from it
instead of selecting, counting links, laying out and clustering again.

It holds the options it was made for (size, types, papers, fold), the selection, each view's plan (links drawn,
sizes, strongest links, named clusters) and its layout's positions. Positions keep every digit (JSON writes a
float's repr), so a page drawn from the layer is the page the build drew.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

import networkx as nx

from paperkg.core.schema import read_versioned
from paperkg.viz.clusters import Cluster
from paperkg.viz.map_page import MapPlan
from paperkg.viz.options import ViewOptions
from paperkg.viz.papers_page import PapersPlan
from paperkg.viz.selection import Selection

VIEWS_KEY = "paperkg_views"  # the version field of views.json
VIEWS_VERSION = 2  # 2: a link's typed relations with their confidence
Positions = dict[str, tuple[float, float]]


def plan_options(options: ViewOptions) -> dict[str, Any]:
    """The options that decide the views' plans (colour and title only change how they are drawn)."""
    return {"size_by": options.size_by, "types": list(options.types), "min_papers": options.min_papers,
            "max_nodes": options.max_nodes}


@dataclass
class ViewLayer:
    """Both views of a build, planned and laid out, for the options `options` (plan_options)."""

    options: dict[str, Any]
    selection: Selection
    map_plan: MapPlan
    map_positions: Positions
    papers_plan: PapersPlan
    papers_positions: Positions

    def serves(self, options: ViewOptions) -> bool:
        """Whether views drawn with `options` are the ones this layer holds."""
        return self.options == plan_options(options)

    def to_json(self) -> str:
        """views.json: the version, options, selection, plans and positions, keys sorted."""
        plan = self.map_plan
        data = {VIEWS_KEY: VIEWS_VERSION, "options": self.options, "selection": asdict(self.selection),
                "map": {"links": [[a, b, _link(d)] for a, b, d in sorted(plan.links.edges(data=True))],
                        "nodes": sorted(plan.links.nodes), "link_notes": list(plan.link_notes),
                        "metric": plan.metric, "sizes": plan.sizes,
                        "related": {node: [list(item) for item in items] for node, items in plan.related.items()},
                        "clusters": [asdict(cluster) for cluster in plan.clusters], "positions": self.map_positions},
                "papers": {**_papers_plan(self.papers_plan), "positions": self.papers_positions}}
        return json.dumps(data, sort_keys=True, ensure_ascii=False) + "\n"

    @classmethod
    def from_json(cls, text: str, where: str) -> ViewLayer:
        """The layer of a views.json; SchemaError naming `where` when it is not one of this version."""
        def make(data: dict[str, Any]) -> ViewLayer:
            selection = Selection(*(tuple(data["selection"][name]) for name in ("nodes", "left_out", "notes")))
            return cls(data["options"], selection, _map_plan(data["map"]), _positions(data["map"]["positions"]),
                       _read_papers_plan(data["papers"]), _positions(data["papers"]["positions"]))
        return read_versioned(text, VIEWS_KEY, VIEWS_VERSION, where, "views file", make)


def _link(data: dict[str, Any]) -> dict[str, Any]:
    return {"papers": data["papers"], "shared": data["shared"], "kinds": list(data["kinds"]),
            "confidence": data["confidence"], "strength": data["strength"]}


def _map_plan(data: dict[str, Any]) -> MapPlan:
    """A map plan read back: its drawn links rebuilt as plan_map makes them (nodes, then links, sorted)."""
    links = nx.Graph()
    links.add_nodes_from(data["nodes"])
    links.add_edges_from((a, b, {**attrs, "kinds": tuple(attrs["kinds"])}) for a, b, attrs in data["links"])
    related = {node: [(other, papers, tuple(kinds)) for other, papers, kinds in items]
               for node, items in data["related"].items()}
    return MapPlan(links, tuple(data["link_notes"]), data["metric"], data["sizes"], related,
                   [_cluster(item) for item in data["clusters"]])


def _papers_plan(plan: PapersPlan) -> dict[str, Any]:
    return {"entities": plan.entities, "papers": plan.papers, "paper_total": plan.paper_total, "notes": plan.notes,
            "edges": [list(edge) for edge in plan.edges], "degree": plan.degree, "sizes": plan.sizes,
            "clusters": [asdict(cluster) for cluster in plan.clusters]}


def _read_papers_plan(data: dict[str, Any]) -> PapersPlan:
    return PapersPlan(list(data["entities"]), list(data["papers"]), data["paper_total"], list(data["notes"]),
                      [(s, t, k) for s, t, k in data["edges"]], data["degree"], data["sizes"],
                      [_cluster(item) for item in data["clusters"]])


def _cluster(data: dict[str, Any]) -> Cluster:
    return Cluster(data["number"], data["name"], data["short"], data["colour"], tuple(data["members"]))


def _positions(data: dict[str, list[float]]) -> Positions:
    return {node: (x, y) for node, (x, y) in data.items()}
