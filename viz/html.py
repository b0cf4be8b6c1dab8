"""The offline HTML view of a paperkg graph: one self-contained file built with PyVis.

vis-network (shipped inside PyVis), the page's CSS and JS and the graph data are all inlined,
and a Content-Security-Policy forbids any fetch, so the page works with no network. Text from
the corpus only reaches the page as JSON and is put into the DOM with `textContent`.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Any

import networkx as nx
from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup
from pyvis.network import Network

from paperkg.core.errors import ExitCode, PaperkgError
from paperkg.core.atomic import atomic_write_text
from paperkg.viz.hover import edge_card, node_card
from paperkg.viz.style import (EDGE_COLOURS, MAX_NODE_SIZE, MIN_NODE_SIZE, NODE_STYLES,
                               community_colour, edge_colour, node_style)

SIZE_METRICS = ("degree", "pagerank")
COLOUR_SCHEMES = ("type", "community")
LAYOUT_SEED = 20250
MAX_LABEL_CHARS = {"Paper": 32}
DEFAULT_MAX_LABEL_CHARS = 40
# Label font sizes follow node size; a label smaller than drawThreshold on screen is not drawn.
LABEL_SCALING = {"enabled": True, "min": 10, "max": 26, "maxVisible": 24, "drawThreshold": 8}
# Paper labels (often an abstract's first words) stay smaller than entity names at any size.
LABEL_SCALING_BY_TYPE = {"Paper": {**LABEL_SCALING, "min": 9, "max": 15}}
NEUTRAL_LEGEND_COLOUR = "#777777"
_VIS_ASSETS = resources.files("pyvis") / "templates" / "lib" / "vis-9.1.2"
_ENV = Environment(loader=PackageLoader("paperkg.viz", "templates"),
                   autoescape=select_autoescape(default=True), keep_trailing_newline=True)


def render_html(graph: nx.MultiDiGraph, path: Path, *, size_by: str = "degree",
                show_concepts: bool = False, title: str = "paperkg",
                colour_by: str = "type") -> None:
    """Write `graph` as one offline HTML page at `path` (atomically; same graph, same bytes).

    Nodes are coloured by type (or by Louvain community with colour_by="community") and shaped
    by type, sized by `size_by` ("degree" or "pagerank"); Concept nodes are left out unless
    `show_concepts`.
    """
    _check_choice("size_by", size_by, SIZE_METRICS)
    _check_choice("colour_by", colour_by, COLOUR_SCHEMES)
    shown = sorted(node for node, label in graph.nodes(data="label")
                   if show_concepts or label != "Concept")
    network = Network(directed=True, cdn_resources="in_line")
    for node in shown:
        network.add_node(node, **_node_options(graph, node, size_by, colour_by))
    kept = set(shown)
    for source, target, key in sorted(graph.edges(keys=True)):
        if source in kept and target in kept:
            network.add_edge(source, target, **_edge_options(graph, source, target, key))
    page = _ENV.get_template("page.html.j2").render(
        title=title, size_by=size_by, summary=_summary(network),
        legend=_legend(graph, network, colour_by), data=_page_data(network),
        vis_js=_inline_asset(_VIS_ASSETS / "vis-network.min.js", "script"),
        vis_css=_inline_asset(_VIS_ASSETS / "vis-network.css", "style"),
        page_js=_inline_asset(resources.files("paperkg.viz") / "templates" / "page.js", "script"),
        page_css=_inline_asset(resources.files("paperkg.viz") / "templates" / "page.css", "style"))
    atomic_write_text(Path(path), page)


def _check_choice(setting: str, value: str, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise PaperkgError(f"{setting} must be one of {', '.join(allowed)}, not {value!r}.",
                           ExitCode.USAGE)


def _label_text(name: str, label: str) -> str:
    """The name drawn on the canvas, cut to a readable length (the hover card has it whole)."""
    limit = MAX_LABEL_CHARS.get(label, DEFAULT_MAX_LABEL_CHARS)
    return name if len(name) <= limit else name[: limit - 1].rstrip() + "…"


def _size_value(graph: nx.MultiDiGraph, node: str, size_by: str) -> float:
    """The square root of the node's metric, so hubs stand out without dwarfing the rest."""
    attrs = graph.nodes[node]
    fallback = graph.degree(node) if size_by == "degree" else 0.0
    return round(math.sqrt(max(float(attrs.get(size_by, fallback)), 0.0)), 6)


def _node_options(graph: nx.MultiDiGraph, node: str, size_by: str,
                  colour_by: str) -> dict[str, Any]:
    attrs = graph.nodes[node]
    label = str(attrs.get("label", "Node"))
    style = node_style(label)
    colour = style.colour if colour_by == "type" else community_colour(attrs.get("community"))
    options = {"label": _label_text(str(attrs.get("name", node)), label), "shape": style.shape,
               "color": colour, "value": _size_value(graph, node, size_by), "kind": label,
               "card": node_card(graph, node)}
    if label in LABEL_SCALING_BY_TYPE:
        options["scaling"] = {"label": LABEL_SCALING_BY_TYPE[label]}
    return options


def _edge_options(graph: nx.MultiDiGraph, source: str, target: str, key: str) -> dict[str, Any]:
    data = graph.edges[source, target, key]
    rel_type = str(data.get("type", key))
    colour = edge_colour(rel_type)
    count = int(data.get("count", 1))
    return {"id": f"{source}|{rel_type}|{target}", "kind": rel_type,
            "color": {"color": colour, "highlight": colour, "hover": colour, "opacity": 0.6},
            "width": round(1.0 + 0.5 * math.log2(max(count, 1)), 3),
            "card": edge_card(graph, source, target, key)}


def _vis_options(node_count: int) -> dict[str, Any]:
    """vis-network options: a seeded ForceAtlas2 layout that settles, then physics stops."""
    return {
        "layout": {"randomSeed": LAYOUT_SEED, "improvedLayout": node_count <= 150},
        "physics": {
            "enabled": True, "solver": "forceAtlas2Based",
            "forceAtlas2Based": {"gravitationalConstant": -50, "centralGravity": 0.015,
                                 "springLength": 70, "springConstant": 0.06,
                                 "damping": 0.5, "avoidOverlap": 0.3},
            "maxVelocity": 60, "minVelocity": 1.0, "timestep": 0.45,
            "stabilization": {"enabled": True, "iterations": 700, "updateInterval": 25,
                              "fit": True},
        },
        "nodes": {
            "borderWidth": 1,
            "font": {"size": 12, "face": "system-ui, DejaVu Sans, Arial, sans-serif",
                     "color": "#222222", "strokeWidth": 3, "strokeColor": "#ffffff"},
            "scaling": {"min": MIN_NODE_SIZE, "max": MAX_NODE_SIZE, "label": LABEL_SCALING},
        },
        "edges": {"arrows": {"to": {"enabled": True, "scaleFactor": 0.4}}, "smooth": False,
                  "selectionWidth": 1.5, "hoverWidth": 0.5},
        "interaction": {"hover": True, "tooltipDelay": 120, "hideEdgesOnDrag": node_count > 300,
                        "keyboard": False, "navigationButtons": False},
    }


def _page_data(network: Network) -> dict[str, Any]:
    return {"nodes": network.nodes, "edges": network.edges,
            "options": _vis_options(len(network.nodes))}


def _summary(network: Network) -> str:
    papers = sum(1 for node in network.nodes if node["kind"] == "Paper")
    return (f"{papers:,} papers · {len(network.nodes) - papers:,} entities · "
            f"{len(network.edges):,} relationships")


def _legend(graph: nx.MultiDiGraph, network: Network, colour_by: str) -> dict[str, Any]:
    """Legend rows for the node and edge types on the page, in style order, with counts."""
    node_counts = Counter(node["kind"] for node in network.nodes)
    edge_counts = Counter(edge["kind"] for edge in network.edges)
    node_labels = [*NODE_STYLES, *sorted(set(node_counts) - set(NODE_STYLES))]
    edge_labels = [*EDGE_COLOURS, *sorted(set(edge_counts) - set(EDGE_COLOURS))]
    notes = []
    if colour_by == "community":
        communities = {graph.nodes[node["id"]].get("community") for node in network.nodes}
        count = sum(1 for community in communities if community is not None and community >= 0)
        notes.append(f"Colour: community ({count} communities); shape: type.")
    left_out = sum(1 for _, label in graph.nodes(data="label") if label == "Concept") - \
        node_counts["Concept"]
    if left_out:
        notes.append(f"{left_out:,} Concept nodes not shown (use --show-concepts).")
    return {
        "nodes": [{"label": label, "count": f"{node_counts[label]:,}",
                   "shape": node_style(label).shape,
                   "colour": node_style(label).colour if colour_by == "type"
                   else NEUTRAL_LEGEND_COLOUR}
                  for label in node_labels if node_counts[label]],
        "edges": [{"label": label, "count": f"{edge_counts[label]:,}",
                   "colour": edge_colour(label)} for label in edge_labels if edge_counts[label]],
        "notes": notes,
    }


def _inline_asset(asset: Any, tag: str) -> Markup:
    """An asset's text, checked safe to place verbatim inside a <script> or <style> element."""
    text = asset.read_text(encoding="utf-8")
    if re.search(rf"</{tag}", text, re.IGNORECASE):
        raise RuntimeError(f"{asset} contains '</{tag}' and cannot be inlined.")
    return Markup(text)
