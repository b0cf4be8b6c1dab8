"""How each node and edge type looks in the HTML view: colour, shape, legend order.

Shapes are vis-network shapes whose size follows the node's `size`, so degree or PageRank
can scale them; the legend draws the same shapes as inline SVG (see templates/page.html.j2).
"""
from __future__ import annotations

from typing import NamedTuple


class NodeStyle(NamedTuple):
    colour: str
    shape: str


NODE_STYLES: dict[str, NodeStyle] = {  # legend order
    "Paper": NodeStyle("#4E79A7", "square"),
    "Method": NodeStyle("#E15759", "dot"),
    "Task": NodeStyle("#59A14F", "triangle"),
    "Dataset": NodeStyle("#F28E2B", "diamond"),
    "Metric": NodeStyle("#B07AA1", "star"),
    "Concept": NodeStyle("#9C9C9C", "hexagon"),
}
UNKNOWN_NODE_STYLE = NodeStyle("#BAB0AC", "dot")

EDGE_COLOURS: dict[str, str] = {  # legend order
    "PROPOSES": "#4E79A7",
    "ADDRESSES": "#59A14F",
    "EVALUATES_ON": "#F28E2B",
    "MENTIONS": "#C7C7C7",
    "USED_FOR": "#2E7D32",
    "EVALUATED_ON": "#C25B00",
    "COMPARED_WITH": "#C62828",
    "IS_A": "#6D4C41",
}
UNKNOWN_EDGE_COLOUR = "#C7C7C7"

# Colour-blind-friendly categorical palette for community colouring, cycled by community id.
COMMUNITY_PALETTE = (
    "#4E79A7", "#F28E2B", "#E15759", "#76B7B2", "#59A14F", "#EDC948",
    "#B07AA1", "#FF9DA7", "#9C755F", "#BAB0AC", "#1F77B4", "#8C564B",
)
NO_COMMUNITY_COLOUR = "#D0D0D0"

MIN_NODE_SIZE = 8.0
MAX_NODE_SIZE = 40.0


def node_style(label: str) -> NodeStyle:
    """The style of a node label; labels outside the contract get a neutral style."""
    return NODE_STYLES.get(label, UNKNOWN_NODE_STYLE)


def edge_colour(rel_type: str) -> str:
    """The colour of a relationship type."""
    return EDGE_COLOURS.get(rel_type, UNKNOWN_EDGE_COLOUR)


def community_colour(community: int | None) -> str:
    """A stable colour for a community id (None or negative: the node has no community)."""
    if community is None or community < 0:
        return NO_COMMUNITY_COLOUR
    return COMMUNITY_PALETTE[community % len(COMMUNITY_PALETTE)]
