"""The views a build writes and `paperkg view` re-renders: graph.html, papers.html and focus views."""
from __future__ import annotations

from concurrent.futures import Executor, Future
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import networkx as nx

from paperkg.viz.entity_map import EntityIndex, index_entities
from paperkg.viz.options import (DEFAULT_MIN_PAPERS, DEFAULT_VIEW, FOCUS_MAX_NODES, FOLD_ABOVE, LEADERBOARD_FILE,
                                 MAP_FILE, PAPERS_FILE, ViewOptions)
from paperkg.viz.layout import LayoutJob
from paperkg.viz.map_page import MapPlan, entity_map_page, plan_map
from paperkg.viz.page import render_page
from paperkg.viz.papers_page import PapersPlan, papers_page, plan_papers
from paperkg.viz.selection import Selection, focus_entities, resolve_entity, select_entities
from paperkg.viz.view_layer import Positions, ViewLayer, plan_options


DEFAULT_TYPES_NOTE = ("Metrics are not drawn without --type: they share papers with nearly every entity and would tie "
                      "every cluster to the others. `paperkg view graph.json --type Method --type Task --type Dataset "
                      "--type Metric` draws them too.")


def render_views(graph: nx.MultiDiGraph, out_dir: Path, options: ViewOptions = DEFAULT_VIEW) -> list[Path]:
    """Write graph.html (the entity map) and papers.html (papers with their entities) into `out_dir`.

    Without `options.types` the views draw DEFAULT_TYPES; without `options.max_nodes` the long tail is
    folded: the FOLD_ABOVE entities in the most papers are drawn; with it, the `max_nodes` entities of
    highest PageRank.
    """
    return start_views(graph, out_dir, options).finish()


@dataclass
class PendingViews:
    """The two views, planned, the map's layout running (in `layouts`' process, or done); finish() writes them."""

    index: EntityIndex
    selection: Selection
    map_plan: MapPlan
    papers_plan: PapersPlan
    map_layout: Future[Positions]
    papers_layout: Future[Positions]
    out_dir: Path
    options: ViewOptions

    def finish(self) -> list[Path]:
        """Write papers.html, then graph.html once the map's layout is there (it may still run in a
        worker while papers.html is written; its panels link to the leaderboard.html written beside it); returns
        their paths."""
        written = [Path(self.out_dir) / MAP_FILE, Path(self.out_dir) / PAPERS_FILE]
        options = self.options
        render_page(papers_page(self.index, self.selection, title=f"{options.heading} · papers",
                                colour_by=options.colour_by, plan=self.papers_plan,
                                positions=self.papers_layout.result()), written[1])
        render_page(entity_map_page(self.index, self.selection, title=options.heading, size_by=options.size_by,
                                    colour_by=options.colour_by, plan=self.map_plan,
                                    positions=self.map_layout.result(), min_confidence=options.min_confidence,
                                    leaderboard=LEADERBOARD_FILE), written[0])
        return written

    def layer(self) -> ViewLayer:
        """The views as a build saves them (once their layouts are done)."""
        return ViewLayer(plan_options(self.options), self.selection, self.map_plan, self.map_layout.result(),
                         self.papers_plan, self.papers_layout.result())


def start_views(graph: nx.MultiDiGraph, out_dir: Path, options: ViewOptions, layouts: Executor | None = None,
                layer: ViewLayer | None = None) -> PendingViews:
    """render_views in two halves: plan both views and lay them out, the map (most of the views'
    time) on `layouts`, a process pool, so that the caller can write other files meanwhile (without
    it, here), the paper view here. With a build's `layer` made for these options, its plans and positions."""
    index = index_entities(graph)
    if layer is not None and layer.serves(options):
        return PendingViews(index, layer.selection, layer.map_plan, layer.papers_plan, _done(layer.map_positions),
                            _done(layer.papers_positions), Path(out_dir), options)
    selection = map_selection(index, options)
    map_plan, papers_plan = plan_map(index, selection, options.size_by), plan_papers(index, selection)
    return PendingViews(index, selection, map_plan, papers_plan, _run(map_plan.layout(), layouts),
                        _done(papers_plan.layout().run()), Path(out_dir), options)


def map_selection(index: EntityIndex, options: ViewOptions) -> Selection:
    """The entities graph.html and papers.html draw: of the options' types (DEFAULT_TYPES without --type, the
    page saying how to draw Metrics), in at least map_min_papers papers, folded (see fold)."""
    selection = select_entities(index, types=options.drawn_types, min_papers=map_min_papers(index, options),
                                **fold(options.max_nodes))
    return selection if options.types else replace(selection, notes=(*selection.notes, DEFAULT_TYPES_NOTE))


def map_min_papers(index: EntityIndex, options: ViewOptions) -> int:
    """The least papers of a drawn entity: --min-papers, else DEFAULT_MIN_PAPERS when at least half of
    FOLD_ABOVE entities of the drawn types are in that many papers, else 1 (a small input draws them all)."""
    if options.min_papers is not None:
        return options.min_papers
    types = set(options.drawn_types)
    enough = sum(1 for entity in index.entities if index.label(entity) in types
                 and index.paper_count(entity) >= DEFAULT_MIN_PAPERS)
    return DEFAULT_MIN_PAPERS if enough >= FOLD_ABOVE // 2 else 1


def _run(job: LayoutJob, layouts: Executor | None) -> Future[Positions]:
    """The job submitted to `layouts`, or run here into a done future."""
    if layouts is not None:
        return layouts.submit(job.run)
    return _done(job.run())


def _done(positions: Positions) -> Future[Positions]:
    done: Future[Positions] = Future()
    done.set_result(positions)
    return done


def render_focus(graph: nx.MultiDiGraph, path: Path, focus: str, options: ViewOptions = DEFAULT_VIEW) -> str:
    """Write the entity map around `focus` (name, alias or acronym), centred on it, at `path`; returns its key.

    Without `options.max_nodes`, the FOCUS_MAX_NODES entities closest to the focus are drawn.
    """
    index = index_entities(graph)
    entity = resolve_entity(index, focus)
    selection = focus_entities(index, entity, depth=options.depth, hub_degree=options.hub_degree,
                               types=options.types or None, min_papers=options.min_papers or 1,
                               max_nodes=options.max_nodes or FOCUS_MAX_NODES)
    plan = plan_map(index, selection, options.size_by)
    positions = plan.layout(centre=entity).run()
    cx, cy = positions[entity]  # separating circles may have moved it a little
    positions = {node: (round(x - cx, 1) + 0.0, round(y - cy, 1) + 0.0) for node, (x, y) in positions.items()}
    page = entity_map_page(index, selection, title=f"{options.heading} · {index.name(entity)}",
                           size_by=options.size_by, colour_by=options.colour_by, plan=plan, positions=positions,
                           min_confidence=options.min_confidence)
    page.focus = entity
    render_page(page, Path(path))
    return entity


def fold(max_nodes: int | None) -> dict[str, Any]:
    """An explicit --max-nodes keeps the top by PageRank; the default fold keeps the entities in the most papers."""
    if max_nodes is None:
        return {"max_nodes": FOLD_ABOVE, "rank": "papers"}
    return {"max_nodes": max_nodes, "rank": "pagerank"}

