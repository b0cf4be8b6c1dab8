"""Which entities and links a view draws: type and paper filters, the long-tail fold, focus views.

Every choice is deterministic (ranked by papers, then PageRank, then key) and comes with a
sentence for the page saying what was left out, so a reader knows what they are not seeing.
"""
from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass

import networkx as nx

from paperkg.core import graph_model as model
from paperkg.core.errors import ExitCode, PaperkgError
from paperkg.core.graph_model import entity_forms
from paperkg.viz.entity_map import EntityIndex, link_graph
from paperkg.viz.options import FOCUS_MAX_NODES, HUB_DEGREE

MAX_SUGGESTIONS = 5


@dataclass(frozen=True)
class Selection:
    """The entities a view draws, those it leaves out, and what the page says about it."""

    nodes: tuple[str, ...]
    left_out: tuple[str, ...]
    notes: tuple[str, ...]


def select_entities(index: EntityIndex, *, types: Iterable[str] | None = None, min_papers: int = 1,
                    max_nodes: int | None = None, rank: str = "pagerank") -> Selection:
    """The whole map, filtered by type and papers, folded to the `max_nodes` first by `rank` (pagerank or papers)."""
    return _filtered(index, index.entities, types=types, min_papers=min_papers, max_nodes=max_nodes,
                     rank=rank, keep=None, scope="")


def focus_entities(index: EntityIndex, focus: str, *, depth: int, hub_degree: int = HUB_DEGREE,
                   types: Iterable[str] | None = None, min_papers: int = 1,
                   max_nodes: int | None = FOCUS_MAX_NODES) -> Selection:
    """`focus` and the entities up to `depth` links away, filtered, then the `max_nodes` closest to it.

    The walk reaches hub entities (more than `hub_degree` neighbours; 0: no limit) but does not go on
    through them, so a focus view does not pull in the whole field through "language model"; the
    focus itself is always expanded. What is reached is ranked by personalised PageRank from the
    focus over the links among it, so the cap keeps what is nearest the focus, not what is biggest.
    """
    reached, frontier, hubs = {focus}, {focus}, set()
    for _ in range(depth):
        step = set()
        for entity in sorted(frontier):
            neighbours = index.neighbours(entity)
            if entity != focus and hub_degree and len(neighbours) > hub_degree:
                hubs.add(entity)
                continue
            step |= neighbours
        frontier = step - reached
        reached |= frontier
    name = index.name(focus)
    scope = f" within {depth} links of {name}"
    notes = [f"{len(hubs):,} hub {'entity' if len(hubs) == 1 else 'entities'} (more than {hub_degree:,} "
             "neighbours) reached but not gone through (--hub-degree)."] if hubs else []
    selection = _filtered(index, sorted(reached), types=types, min_papers=min_papers, max_nodes=None,
                          rank="papers", keep=focus, scope=scope)
    if max_nodes is None or len(selection.nodes) <= max_nodes:
        return Selection(selection.nodes, selection.left_out, (*selection.notes, *notes))
    closeness = personalised_rank(index, selection.nodes, focus)
    kept = set(sorted(selection.nodes, key=lambda entity: (-closeness[entity], entity))[:max_nodes])
    folded = tuple(entity for entity in selection.nodes if entity not in kept)
    notes.append(f"Showing the {len(kept):,} of {len(selection.nodes):,} entities{scope} closest to it "
                 f"(personalised PageRank from {name}): {len(folded):,} folded away. --max-nodes draws more.")
    return Selection(tuple(sorted(kept)), selection.left_out + folded, (*selection.notes, *notes))


def personalised_rank(index: EntityIndex, entities: Iterable[str], focus: str) -> dict[str, float]:
    """PageRank over the links among `entities` (weighted by shared papers), restarting at `focus`."""
    graph = link_graph(index, entities)
    ranks = nx.pagerank(graph, weight="papers", personalization={focus: 1.0}, tol=1e-10, max_iter=300)
    return {entity: round(rank, 9) for entity, rank in ranks.items()}  # last digits must not reorder ties


RANKINGS = {"pagerank": "by PageRank", "papers": "by papers, then PageRank"}


def _filtered(index: EntityIndex, candidates: list[str], *, types: Iterable[str] | None, min_papers: int,
              max_nodes: int | None, rank: str, keep: str | None, scope: str) -> Selection:
    wanted = set(types) if types else None
    notes = []
    passing = [entity for entity in candidates if entity == keep or (
        (wanted is None or index.label(entity) in wanted)
        and index.paper_count(entity) >= min_papers)]
    if len(passing) < len(candidates):
        what = []
        if wanted is not None:
            what.append("of type " + " or ".join(sorted(wanted)))
        if min_papers > 1:
            what.append(f"in at least {min_papers} papers")
        notes.append(f"Only entities {' and '.join(what)}{scope}: "
                     f"{len(candidates) - len(passing):,} others left out.")
    ranked = sorted(passing, key=index.importance_key if rank == "pagerank" else index.rank_key)
    if max_nodes is not None and len(ranked) > max_nodes:
        kept = ranked[:max_nodes]
        if keep is not None and keep not in kept:
            kept = [keep, *ranked[:max_nodes - 1]]
        folded = len(ranked) - len(kept)
        least = min(index.paper_count(entity) for entity in kept)
        notes.append(f"Showing the {len(kept):,} most important of {len(ranked):,} entities{scope} "
                     f"({RANKINGS[rank]}; the last in {least:,} papers): {folded:,} folded away. "
                     "Search still finds them; `paperkg view --focus NAME` draws one with its neighbours, "
                     "`--max-nodes N` more of them.")
        ranked = kept
    nodes = tuple(sorted(ranked))
    shown = set(nodes)
    return Selection(nodes=nodes, left_out=tuple(e for e in candidates if e not in shown),
                     notes=tuple(notes))


def thin_links(graph: nx.Graph, max_links: int) -> tuple[nx.Graph, tuple[str, ...]]:
    """Keep every entity's strongest link, then the strongest others, up to `max_links`: strength is the cosine
    of the two entities' paper sets, so the links kept lie mostly inside the map's clusters instead of tying
    every hub to every other across the map."""
    total = graph.number_of_edges()
    if total <= max_links:
        return graph, ()

    def by_strength(edge: tuple[str, str, dict]) -> tuple:
        return (-edge[2]["strength"], -edge[2]["papers"], edge[0], edge[1])

    edges = sorted(graph.edges(data=True), key=by_strength)
    best: dict[str, tuple] = {}
    for edge in edges:  # strongest first: an end's first link is its strongest
        for end in edge[:2]:
            best.setdefault(end, edge)
    kept = {(edge[0], edge[1]) for edge in best.values()}
    for source, target, _ in edges:
        if len(kept) >= max_links:
            break
        kept.add((source, target))
    thinned = nx.Graph()
    thinned.add_nodes_from(sorted(graph.nodes))
    thinned.add_edges_from((s, t, graph.edges[s, t]) for s, t in sorted(kept))
    note = (f"Showing {thinned.number_of_edges():,} of {total:,} links: each entity's strongest link, "
            "then the strongest others (the two entities' papers overlap most).")
    return thinned, (note,)


def resolve_entity(index: EntityIndex, name: str) -> str:
    """The entity a user means by `name` (name, alias, acronym or long form, any case), or a usage error."""
    wanted = name.strip().casefold()
    matches = sorted((entity for entity in index.entities
                      if wanted in entity_forms(model.entity_attrs(index.graph, entity))), key=index.rank_key)
    if matches:
        return matches[0]
    forms = sorted({index.name(entity) for entity in index.entities})
    close = difflib.get_close_matches(name, forms, n=MAX_SUGGESTIONS, cutoff=0.6) or \
        [form for form in forms if wanted and wanted in form.casefold()][:MAX_SUGGESTIONS]
    hint = f" Close matches: {', '.join(close)}." if close else ""
    raise PaperkgError(f"--focus {name!r}: no entity has that name, alias or acronym.{hint}",
                       ExitCode.USAGE)
