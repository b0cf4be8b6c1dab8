"""How the views look: colours and shapes per node type, names and colours per relationship type, scales.

One place for every colour, so the pages, their legends and the tests agree.
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
    "Result": NodeStyle("#76B7B2", "hexagon"),
}
UNKNOWN_NODE_STYLE = NodeStyle("#BAB0AC", "dot")


class RelationStyle(NamedTuple):
    name: str      # what the legend and the panel call it
    colour: str
    dashed: bool


SHARED_PAPERS = "SHARED_PAPERS"  # an entity-map link made by papers that mention both entities
RELATION_STYLES: dict[str, RelationStyle] = {  # legend order
    SHARED_PAPERS: RelationStyle("in the same papers", "#A9A9A9", False),
    "USED_FOR": RelationStyle("method used for task", "#1B9E77", False),
    "EVALUATED_ON": RelationStyle("method evaluated on dataset", "#7570B3", True),
    "TRAINED_ON": RelationStyle("method trained on dataset", "#A6761D", True),
    "BENCHMARK_FOR": RelationStyle("dataset is a benchmark for task", "#E7298A", True),
    "COMPARED_WITH": RelationStyle("compared with", "#D62728", False),
    "IS_A": RelationStyle("is a kind of", "#8C564B", True),
    "SUBTASK_OF": RelationStyle("task is a subtask of", "#6A3D9A", True),
    "PART_OF": RelationStyle("method is part of", "#17BECF", True),
    "PROPOSES": RelationStyle("paper proposes", "#1F77B4", False),
    "ADDRESSES": RelationStyle("paper addresses task", "#66A61E", False),
    "EVALUATES_ON": RelationStyle("paper evaluates on dataset", "#E6AB02", False),
    "MENTIONS": RelationStyle("paper mentions", "#C7C7C7", False),
    "REPORTS": RelationStyle("paper reports result", "#76B7B2", False),
    "FOR_METHOD": RelationStyle("result of method", "#4E9A96", True),
    "ON_DATASET": RelationStyle("result on dataset", "#9CCFCB", True),
    "WITH_METRIC": RelationStyle("result in metric", "#3A7F7B", True),
    "ON_TASK": RelationStyle("result for task", "#B5DEDB", True),
}
UNKNOWN_RELATION_STYLE = RelationStyle("other relation", "#C7C7C7", False)

# Named clusters of the map, one colour each (Paul Tol's colour-blind-safe "muted" set plus his
# vibrant orange); clusters beyond these are grouped as "other" in NO_COMMUNITY_COLOUR (viz/clusters.py).
CLUSTER_PALETTE = (
    "#332288", "#EE7733", "#44AA99", "#CC6677", "#117733", "#88CCEE",
    "#AA4499", "#999933", "#882255", "#DDCC77",
)
NO_COMMUNITY_COLOUR = "#D0D0D0"
NO_YEAR_COLOUR = "#D0D0D0"
# Viridis stops, as in VOSviewer's overlay: old years dark blue, recent years yellow.
YEAR_SCALE = ("#440154", "#3B528B", "#21918C", "#5EC962", "#FDE725")


def node_style(label: str) -> NodeStyle:
    """The style of a node label; labels outside the contract get a neutral style."""
    return NODE_STYLES.get(label, UNKNOWN_NODE_STYLE)


def relation_style(rel_type: str) -> RelationStyle:
    """The display name, colour and dash of a relationship type."""
    return RELATION_STYLES.get(rel_type, UNKNOWN_RELATION_STYLE._replace(name=rel_type.lower()))


def year_colour(year: float | None, first: float | None, last: float | None) -> str:
    """The overlay colour of a (mean) year on the scale from `first` to `last`."""
    if year is None or first is None or last is None:
        return NO_YEAR_COLOUR
    share = 0.5 if last <= first else min(max((year - first) / (last - first), 0.0), 1.0)
    position = share * (len(YEAR_SCALE) - 1)
    low = min(int(position), len(YEAR_SCALE) - 2)
    return _mix(YEAR_SCALE[low], YEAR_SCALE[low + 1], position - low)


def _mix(start: str, end: str, share: float) -> str:
    channels = [round(int(start[i:i + 2], 16) * (1 - share) + int(end[i:i + 2], 16) * share)
                for i in (1, 3, 5)]
    return "#" + "".join(f"{channel:02X}" for channel in channels)
