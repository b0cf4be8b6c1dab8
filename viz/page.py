"""One self-contained offline HTML page from a view's data, with PyVis and vis-network inlined.

vis-network (shipped inside PyVis), the page's CSS and JS and the data are all inlined, and a
Content-Security-Policy forbids any fetch, so the page works with no network. Text from the
corpus reaches the page only as JSON and is put into the DOM with `textContent`.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, fields
from importlib import resources
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup
from pyvis.network import Network

from paperkg.core.atomic import atomic_write_text
from paperkg.core import graph_model as model
from paperkg.core.schema import NodeLabel
from paperkg.viz.entity_map import EntityIndex
from paperkg.viz.labels import DRAW_THRESHOLD, LABEL_GAP, MAX_VISIBLE
from paperkg.viz.options import YEAR_MIN_PAPERS
from paperkg.viz.page_script import page_script
from paperkg.viz.style import NODE_STYLES, RELATION_STYLES, node_style, relation_style

FONT_FACE = "DejaVu Sans, system-ui, Arial, sans-serif"
_VIS_ASSETS = resources.files("pyvis") / "templates" / "lib" / "vis-9.1.2"
_TEMPLATES = resources.files("paperkg.viz") / "templates"
_ENV = Environment(loader=PackageLoader("paperkg.viz", "templates"),
                   autoescape=select_autoescape(default=True), keep_trailing_newline=True)


@dataclass
class PageData:
    """Everything one page shows: vis-network nodes and edges, and the data of panel, legend and filters."""

    view: str                           # "entities" or "papers"
    title: str
    nodes: list[dict[str, Any]]         # vis-network nodes, with kind, papers and years for the filters
    edges: list[dict[str, Any]]         # vis-network edges, with kinds and papers
    colours: dict[str, list[str]]       # node colours per colour mode, aligned with nodes
    colour_by: str
    panels: list[dict[str, Any]]        # side-panel data, aligned with nodes
    edge_panels: dict[str, dict[str, Any]]
    papers: list[dict[str, Any]]        # the paper table that panels refer to
    node_types: list[dict[str, Any]]    # legend and filter rows: label, shape, colour, count
    relations: list[dict[str, Any]]     # legend and filter rows: type, name, colour, dashed, count
    years: dict[str, int] | None        # first and last publication year, None without years
    notes: list[str]                    # what was left out, said on the page
    sizes: str                          # what size and width mean
    clusters: list[dict[str, Any]]      # legend rows: name, colour, count, x, y (where its name goes), members
    entity_total: int                   # entities the view chose from (the header says "N of entity_total")
    folded: list[dict[str, Any]]        # name, type, papers and acronym of entities not drawn
    physics: bool
    focus: str | None = None            # the node a focus view opens on, centred and selected with its panel
    paper_total: int = 0                # papers the paper view chose from
    year_min_papers: int = YEAR_MIN_PAPERS  # the year overlay colours entities in at least this many papers


def render_page(page: PageData, path: Path) -> None:
    """Write the page at `path` atomically; the same data gives the same bytes."""
    network = Network(directed=True, cdn_resources="in_line")
    for node in page.nodes:
        network.add_node(node["id"], **{key: value for key, value in node.items() if key != "id"})
        del network.node_map[node["id"]]["label"]  # PyVis labels every node; the page script draws the names
    for edge in page.edges:
        network.add_edge(edge["from"], edge["to"],
                         **{key: value for key, value in edge.items() if key not in ("from", "to")})
    shallow = {field.name: getattr(page, field.name) for field in fields(page)}  # asdict's deep copy took seconds
    data = {**shallow, "nodes": network.nodes, "edges": network.edges,
            "options": vis_options(page), "paper_label": NodeLabel.PAPER.value,
            "labels": {"threshold": DRAW_THRESHOLD, "max": MAX_VISIBLE, "gap": LABEL_GAP, "face": FONT_FACE}}
    html = _ENV.get_template("page.html.j2").render(
        page=page, data=data, summary=summary(page),
        vis_js=inline_asset(_VIS_ASSETS / "vis-network.min.js", "script"),
        vis_css=inline_asset(_VIS_ASSETS / "vis-network.css", "style"),
        page_js=inline_text(page_script(_TEMPLATES / "page", "view.mjs", "startView"), "script", "page.mjs"),
        page_css=inline_asset(_TEMPLATES / "page.css", "style"))
    atomic_write_text(Path(path), html)


def vis_options(page: PageData) -> dict[str, Any]:
    """vis-network options: positions come from Python, so physics stays off and the first frame is final."""
    big = len(page.nodes) > 1000
    return {
        "layout": {"improvedLayout": False},
        "physics": {"enabled": page.physics},
        "nodes": {"borderWidth": 1, "borderWidthSelected": 3},
        "edges": {"arrows": {"to": {"enabled": page.view == "papers", "scaleFactor": 0.4}},
                  "smooth": False, "selectionWidth": 2, "hoverWidth": 0.5},
        "interaction": {"hover": not big, "hideEdgesOnDrag": big, "hideEdgesOnZoom": big,
                        "tooltipDelay": 200, "keyboard": False, "navigationButtons": False},
    }


def summary(page: PageData) -> str:
    """The header line as the page script (templates/page/filters.mjs) first writes it: papers and
    entities drawn of those the view chose from (the legend's notes give the same totals), and links."""
    kinds = Counter(node["kind"] for node in page.nodes)
    papers = kinds.pop(NodeLabel.PAPER.value, 0)
    entities = sum(kinds.values())
    parts = [_of(papers, max(page.paper_total, papers), "paper", "papers")] if page.view == "papers" else []
    parts += [_of(entities, max(page.entity_total, entities), "entity", "entities"),
              _of(len(page.edges), len(page.edges), "link", "links")]
    return "Showing " + " · ".join(parts)


def _of(shown: int, total: int, one: str, many: str) -> str:
    return f"{shown:,} of {total:,} {one if total == 1 else many}"


def node_types(nodes: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Legend rows for the node types on the page, in style order, with counts and the shape drawn."""
    nodes = list(nodes)
    counts = Counter(node["kind"] for node in nodes)
    shapes = {node["kind"]: node["shape"] for node in nodes}
    order = [*NODE_STYLES, *sorted(set(counts) - set(NODE_STYLES))]
    return [{"label": label, "count": counts[label], "shape": shapes.get(label, "dot"),
             "colour": node_style(label).colour} for label in order if counts[label]]


def legend_relations(edges: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Legend rows for the relationship types on the page, in style order, with counts."""
    counts = Counter(kind for edge in edges for kind in edge["kinds"])
    order = [*RELATION_STYLES, *sorted(set(counts) - set(RELATION_STYLES))]
    return [{"type": kind, "name": relation_style(kind).name, "colour": relation_style(kind).colour,
             "dashed": relation_style(kind).dashed, "count": counts[kind]}
            for kind in order if counts[kind]]


def folded_entries(index: EntityIndex, left_out: Iterable[str]) -> list[dict[str, Any]]:
    """The name, type, papers and acronym of entities left off the page, so search can say where they went."""
    rows = []
    for entity in left_out:
        attrs = model.entity_attrs(index.graph, entity)
        rows.append({"name": str(attrs.get("name", entity)), "type": str(attrs.get("label", "")),
                     "papers": index.paper_count(entity), "acronym": str(attrs.get("acronym") or "")})
    return sorted(rows, key=lambda row: (-row["papers"], row["name"]))


def inline_asset(asset: Any, tag: str) -> Markup:
    """An asset's text, checked safe to place verbatim inside a <script> or <style> element."""
    return inline_text(asset.read_text(encoding="utf-8"), tag, str(asset))


def inline_text(text: str, tag: str, source: str) -> Markup:
    """Text checked safe to place verbatim inside a <script> or <style> element (`source` names it in the error)."""
    if re.search(rf"</{tag}", text, re.IGNORECASE):
        raise RuntimeError(f"{source} contains '</{tag}' and cannot be inlined.")
    return Markup(text)
