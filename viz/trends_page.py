"""trends.html: CiteSpace's "strongest bursts" chart, small multiples of the top risers and fallers per
type, and a panel per entity with the papers of its first year and of its bursts; one offline file.

Like the other views: everything inlined, a Content-Security-Policy that forbids any fetch, and text
from the corpus reaching the page only as JSON, put into the DOM with `textContent`.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict
from importlib import resources
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape

from paperkg.core.atomic import atomic_write_text
from paperkg.graph.trends import EntityTrend, Trends
from paperkg.viz.page import inline_asset, inline_text
from paperkg.viz.page_script import page_script
from paperkg.viz.style import node_style

MULTIPLES = 8          # small multiples per type and direction
MAX_SENTENCE_CHARS = 400
_TEMPLATES = resources.files("paperkg.viz") / "templates"
_ENV = Environment(loader=PackageLoader("paperkg.viz", "templates"),
                   autoescape=select_autoescape(default=True), keep_trailing_newline=True)


def page_entities(trends: Trends, types: Iterable[str] | None = None,
                  top: int = 25) -> tuple[list[EntityTrend], dict[str, list[str]], dict[str, list[str]]]:
    """The entities the page shows: the strongest bursts, and the top risers and fallers per type."""
    types = list(types or ())
    kinds = sorted({entity.type for entity in trends.of_type(types)}, key=_type_order)
    rising = {kind: [e.key for e in trends.rising(MULTIPLES, [kind])] for kind in kinds}
    fading = {kind: [e.key for e in trends.fading(MULTIPLES, [kind])] for kind in kinds}
    return trends.bursts(top, types), rising, fading


def shown_keys(trends: Trends, types: Iterable[str] | None = None, top: int = 25) -> set[str]:
    """Keys of every entity the page shows (their papers and sentences must be filled in)."""
    bursts, rising, fading = page_entities(trends, types, top)
    return {e.key for e in bursts} | {k for chosen in (*rising.values(), *fading.values()) for k in chosen}


def trends_data(trends: Trends, *, types: Iterable[str] | None = None, top: int = 25,
                title: str = "paperkg trends") -> dict[str, Any]:
    """What the page shows, as plain data: years, the bursting entities, risers and fallers per type, records."""
    bursts, rising, fading = page_entities(trends, types, top)
    kinds = list(rising)
    keys = shown_keys(trends, types, top)
    return {"title": title, "years": list(trends.years), "year_papers": list(trends.year_papers),
            "window": list(trends.window), "parameters": dict(trends.parameters), "undated": trends.undated,
            "bursts": [e.key for e in sorted(bursts, key=_burst_order)],
            "rising": {k: v for k, v in rising.items() if v}, "fading": {k: v for k, v in fading.items() if v},
            "colours": {kind: node_style(kind).colour for kind in kinds},
            "entities": {key: _record(trends.entities[key]) for key in sorted(keys)}}


def write_trends_page(trends: Trends, path: Path, **options: Any) -> None:
    """Write trends.html at `path` atomically; the same trends give the same bytes."""
    data = trends_data(trends, **options)
    html = _ENV.get_template("trends.html.j2").render(
        data=data, title=data["title"],
        page_js=inline_text(page_script(_TEMPLATES / "trends", "trends.mjs", "startTrends"), "script", "trends.mjs"),
        page_css=inline_asset(_TEMPLATES / "trends.css", "style"))
    atomic_write_text(Path(path), html)


def _record(entity: EntityTrend) -> dict[str, Any]:
    """An entity's record with its sentences clipped."""
    record = asdict(entity)
    for paper in [*record["first_papers"], *(p for burst in record["bursts"] for p in burst["papers"])]:
        sentence = paper["sentence"]
        paper["sentence"] = sentence if len(sentence) <= MAX_SENTENCE_CHARS else sentence[:MAX_SENTENCE_CHARS - 1] + "…"
    return record


def _burst_order(entity: EntityTrend) -> tuple[int, float, str]:
    """CiteSpace lists the strongest bursts by the year they begin."""
    burst = entity.strongest_burst
    assert burst is not None
    return (burst.start, -burst.strength, entity.key)


def _type_order(kind: str) -> tuple[int, str]:
    order = ["Method", "Task", "Dataset", "Metric", "Concept"]
    return (order.index(kind) if kind in order else len(order), kind)
