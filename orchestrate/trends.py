"""`paperkg trends`: the options checked, the trends of a saved graph (a build's trends.json, or computed with
the papers of the entities shown for other options or a graph that is no build's), and reported as terminal
tables, JSON or a line of summary."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.markup import escape
from rich.table import Table

from paperkg.core.errors import ExitCode, PaperkgError
from paperkg.viz.options import ENTITY_TYPES

if TYPE_CHECKING:
    from paperkg.graph.trends import EntityTrend, Trends


def check_trend_options(types: list[str], top: int, window: int, min_papers: int,
                        since: int | None, until: int | None, output: Path | None) -> None:
    """Usage errors for options trends cannot use, before the graph is read."""
    unknown = sorted(set(types) - set(ENTITY_TYPES))
    if unknown:
        raise PaperkgError(f"--type must be among {', '.join(ENTITY_TYPES)}, not {', '.join(unknown)}.")
    for option, value in (("--top", top), ("--window", window), ("--min-papers", min_papers)):
        if value < 1:
            raise PaperkgError(f"{option} must be 1 or more, not {value}.")
    if since is not None and until is not None and since > until:
        raise PaperkgError(f"--since {since} is after --until {until}.")
    if output is not None and output.suffix.lower() != ".html" and output.exists() and not output.is_dir():
        raise PaperkgError(f"-o {output}: name an .html file or a folder for trends.html.", ExitCode.USAGE)


def graph_trends(graph_file: Path, *, types: list[str], top: int, since: int | None, until: int | None,
                 window: int, min_papers: int, page: bool) -> Trends:
    """The trends of the graph in `graph_file`, with the papers of the entities the tables, the JSON
    and (with `page`) the trends page show (a build's trends.json has them all); an error when no paper has
    a year."""
    from paperkg.graph.trends import add_papers, compute_trends, is_default, occurrences
    from paperkg.orchestrate.artifact import trends_layer

    options: dict[str, Any] = {"since": since, "until": until, "window": window, "min_papers": min_papers}
    stored = trends_layer(graph_file) if is_default(options) else None
    if stored is not None:
        trends = stored
    else:
        from paperkg.graph.exports import read_graph

        found = occurrences(read_graph(graph_file))
        trends = compute_trends(found, **options, with_papers=False)
        keys = {entity.key for chosen in reported(trends, types, top).values() for entity in chosen}
        if page:  # the page's module (and the view code it imports) only when a page is asked for
            from paperkg.viz.trends_page import shown_keys

            keys |= shown_keys(trends, types, top)
        trends = add_papers(trends, found, sorted(keys))
    if not trends.years:
        span = f" in {since or '...'}-{until or '...'}" if since or until else ""
        raise PaperkgError(f"{graph_file}: no paper has a year{span}; trends need the papers' years "
                           "(a `year` field in the input).")
    return trends


def reported(trends: Trends, types: list[str], top: int) -> dict[str, list[EntityTrend]]:
    """The lists the tables and the JSON show: the top bursts, risers and fallers."""
    return {"bursts": trends.bursts(top, types), "rising": trends.rising(top, types),
            "fading": trends.fading(top, types)}


def report(trends: Trends, types: list[str], top: int) -> dict[str, object]:
    """The JSON report: years, the top bursts, risers and fallers, and the records of the entities they name."""
    lists = reported(trends, types, top)
    named = {entity.key: trends.entities[entity.key] for chosen in lists.values() for entity in chosen}
    return {**trends.to_dict(named[key] for key in sorted(named)),
            **{name: [entity.key for entity in chosen] for name, chosen in lists.items()}}


def tables(trends: Trends, types: list[str], top: int) -> list[Table]:
    """The three terminal tables: strongest bursts, steepest risers, steepest fallers."""
    burst_table = Table("entity", "type", "first", "papers", "burst", "strength",
                        title=f"Strongest bursts (Kleinberg, s={trends.parameters['s']:g}, "
                              f"gamma={trends.parameters['gamma']:g})")
    for entity in trends.bursts(top, types):
        burst = entity.strongest_burst
        assert burst is not None
        burst_table.add_row(escape(entity.name), entity.type, str(entity.first_year), f"{entity.papers:,}",
                            f"{burst.start}-{burst.end}", f"{burst.strength:.2f}")
    start, end = trends.window
    result = [burst_table]
    for title, chosen in ((f"Rising {start}-{end}", trends.rising(top, types)),
                          (f"Fading {start}-{end}", trends.fading(top, types))):
        table = Table("entity", "type", "first", "papers", f"share {start}", f"share {end}", "pp/yr",
                      title=f"{title}: share of each year's papers, least-squares slope in percentage points a year; "
                            f"papers in {start}-{end}")
        for entity in chosen:
            table.add_row(escape(entity.name), entity.type, str(entity.first_year),
                          f"{_papers_between(entity, start, end):,}", _percent(entity.share(start)),
                          _percent(entity.share(end)), f"{entity.slope:+.3f}")
        result.append(table)
    return result


def summary(trends: Trends, graph_file: Path) -> str:
    """One line: the years, papers and how many entities were followed."""
    undated = f"; {trends.undated:,} papers without a year left out" if trends.undated else ""
    years = f"of {trends.years[0]}" if len(trends.years) == 1 else f"{trends.years[0]}-{trends.years[-1]}"
    return f"{graph_file}: {sum(trends.year_papers):,} papers {years}, {len(trends.entities):,} entities{undated}."


def one_year(trends: Trends) -> str | None:
    """Why there are no tables when every paper followed is of one year (None when there are several)."""
    if len(trends.years) != 1:
        return None
    return (f"Every paper followed is of {trends.years[0]}, and bursts, risers and fallers compare years: trends "
            "need papers of two years or more.")


def _papers_between(entity: EntityTrend, start: int, end: int) -> int:
    return sum(point.papers for point in entity.years if start <= point.year <= end)


def _percent(share: float) -> str:
    return f"{100 * share:.2f}%"
