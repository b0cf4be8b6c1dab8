"""A build's artifact: the graph (graph.json, graph.graphml, core/graph_model.py) and the layers the build
derived from it once, committed with it under the manifest: trends.json (every entity's trends, graph/trends.py),
views.json (the views' plans and positions, viz/view_layer.py), admission.json (every refusal with its
reason, admit/refusals.py) and leaderboards.json (every task's and data set's leaderboard, graph/leaderboard.py).
Metrics and communities are on the graph's nodes. The commands read the layers here and never derive them again;
a graph that is no build's (an exported file, a hand-made one) has none, and the commands then compute what they
need from the graph itself.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperkg.core.atomic import atomic_write, atomic_write_text
from paperkg.core.manifest import read_manifest
from paperkg.core.output_folder import checked_output

if TYPE_CHECKING:
    from paperkg.admit.refusals import RefusalTable
    from paperkg.graph.leaderboard import Leaderboards
    from paperkg.graph.trends import Trends
    from paperkg.viz.view_layer import ViewLayer

TRENDS, VIEWS, ADMISSION, LEADERBOARDS = "trends.json", "views.json", "admission.json", "leaderboards.json"
LAYERS = (TRENDS, VIEWS, ADMISSION, LEADERBOARDS)


def write_layers(folder: Path, trends: Trends, views: ViewLayer, refusals: RefusalTable | None,
                 leaderboards: Leaderboards) -> None:
    """The build's layers into `folder` (its staging folder); admission.json only with `refusals` (a build at
    scale merges it from its buckets of names: graph/assembly.py)."""
    for name, text in ((TRENDS, trends.to_json()), (VIEWS, views.to_json())):
        atomic_write_text(folder / name, text)
    atomic_write(folder / LEADERBOARDS,
                 lambda out: out.writelines(piece.encode("utf8") for piece in leaderboards.json_pieces()))
    if refusals is not None:
        atomic_write_text(folder / ADMISSION, refusals.to_json())


def layer_file(graph_file: Path, name: str) -> Path | None:
    """The layer `name` of the build `graph_file` is part of: the file beside it, when the folder's manifest
    lists both (checked against the manifest); None for a graph that is no build's."""
    manifest = read_manifest(graph_file.parent)
    if manifest is None or graph_file.name not in manifest.files or name not in manifest.files:
        return None
    path = graph_file.parent / name
    checked_output(path)
    return path


def trends_layer(graph_file: Path) -> Trends | None:
    """The build's trends (default parameters), None when the graph is no build's."""
    from paperkg.graph.trends import Trends

    path = layer_file(graph_file, TRENDS)
    return Trends.from_json(path.read_text(encoding="utf8"), str(path)) if path else None


def views_layer(graph_file: Path) -> ViewLayer | None:
    """The build's views (plans and positions for its view options), None when the graph is no build's."""
    from paperkg.viz.view_layer import ViewLayer

    path = layer_file(graph_file, VIEWS)
    return ViewLayer.from_json(path.read_text(encoding="utf8"), str(path)) if path else None


def refusals_layer(graph_file: Path) -> RefusalTable | None:
    """The build's refusals, None when the graph is no build's."""
    from paperkg.admit.refusals import RefusalTable

    path = layer_file(graph_file, ADMISSION)
    return RefusalTable.from_json(path.read_text(encoding="utf8"), str(path)) if path else None


def leaderboards_layer(graph_file: Path) -> Leaderboards | None:
    """The build's leaderboards, None when the graph is no build's."""
    from paperkg.graph.leaderboard import Leaderboards

    path = layer_file(graph_file, LEADERBOARDS)
    return Leaderboards.from_json(path.read_text(encoding="utf8"), str(path)) if path else None


def read_trends(path: Path, **options: Any) -> Trends:
    """The trends of a saved graph (options as for `compute_trends`): a build's trends.json when the options are
    the defaults, else computed from the graph; one sentence naming the file when it is missing or not a
    paperkg graph."""
    from paperkg.graph.exports import graph_path, read_graph
    from paperkg.graph.trends import compute_trends, is_default, occurrences

    path = graph_path(Path(path))
    stored = trends_layer(path) if is_default(options) else None
    return stored if stored is not None else compute_trends(occurrences(read_graph(path)), **options)
