"""What the side panel shows on click, as plain data: the page puts every string in with textContent.

Entities: name, type, acronym and long form, aliases, counts, their papers (title or first
words, year, venue, links) and evidence sentences with the mention's span. Papers are stored
once in a table that entities and evidence refer to by index. Every item is a named object
(the page's modules, viz/templates/page/panel.mjs, read fields by name, never by position).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple
from urllib.parse import quote as url_quote

import networkx as nx

from paperkg.core import graph_model as model
from paperkg.core.graph_model import EdgeAttrs, PaperNode, entity_forms, paper_key
from paperkg.core.schema import NodeLabel, RelType

MAX_ALIASES = 12
MAX_PAPERS = 30
MAX_EVIDENCE = 5
MAX_SENTENCE_CHARS = 360
MAX_ABSTRACT_CHARS = 4000
MAX_LINK_PAPERS = 8
MAX_LINK_EVIDENCE = 2
ROLES = ((RelType.PROPOSES.value, "proposes"), (RelType.ADDRESSES.value, "addresses"),
         (RelType.EVALUATES_ON.value, "evaluates on"), (RelType.MENTIONS.value, "mentions"))
SAFE_SCHEMES = ("https://", "http://")


class PaperTable:
    """Papers referred to by the page, each stored once; `index(key)` adds a paper on first use."""

    def __init__(self, graph: nx.MultiDiGraph) -> None:
        self.graph = graph
        self.rows: list[dict[str, Any]] = []
        self._where: dict[str, int] = {}

    def index(self, paper: str) -> int:
        """The row of `paper`, added to the table the first time it is asked for."""
        if paper not in self._where:
            self._where[paper] = len(self.rows)
            self.rows.append(paper_row(model.paper_attrs(self.graph, paper)))
        return self._where[paper]


def paper_row(attrs: PaperNode) -> dict[str, Any]:
    """A paper as the panel lists it: title (or first words), year, venue and its links."""
    row: dict[str, Any] = {"title": str(attrs.get("name") or attrs.get("title") or attrs.get("paper_id", ""))}
    year, venue = attrs.get("year"), attrs.get("venue")
    if year not in (None, ""):
        row["year"] = str(year)
    if venue not in (None, ""):
        row["venue"] = str(venue)
    url, code_url = attrs.get("url"), attrs.get("code_url")
    links = [{"name": _link_name(str(url)), "url": str(url)}] if _safe_url(url) else []
    if _safe_url(code_url):
        links.append({"name": "code", "url": str(code_url)})
    if links:
        row["links"] = links
    return row


def _safe_url(url: object) -> bool:
    """Only plain web links become links: never javascript:, data: or relative URLs."""
    return isinstance(url, str) and url.lower().startswith(SAFE_SCHEMES) and len(url) < 2000


def _link_name(url: str) -> str:
    lowered = url.lower()
    if "arxiv.org/" in lowered:
        return "arXiv"
    if "doi.org/" in lowered:
        return "DOI"
    return "link"


def newest_first(graph: nx.MultiDiGraph, papers: Iterable[str]) -> list[str]:
    """Papers with the most recent year first (undated last), then by key."""
    def key(paper: str) -> tuple[int, str]:
        year = str(model.paper_attrs(graph, paper).get("year", ""))
        return (-int(year) if year.isdigit() else 0, paper)
    return sorted(papers, key=key)


def entity_panel(graph: nx.MultiDiGraph, entity: str, papers: list[str], year: float | None,
                 table: PaperTable, leaderboard: str | None = None) -> dict[str, Any]:
    """The panel of an entity: names, counts, its newest papers and its best evidence sentences; for a task or data
    set with results, a link to its leaderboard in the page `leaderboard` (None: no link)."""
    attrs = model.entity_attrs(graph, entity)
    name = str(attrs.get("name", entity))
    info: dict[str, Any] = {"name": name, "type": str(attrs.get("label", "")),
                            "papers": len(papers), "mentions": int(attrs.get("mentions", 0))}
    if attrs.get("acronym") and attrs.get("long_form"):
        info["acronym"] = str(attrs["acronym"])
        info["long_form"] = str(attrs["long_form"])
    aliases = _other_forms(attrs.get("aliases", []), exclude={name, info.get("acronym", ""),
                                                               info.get("long_form", "")})
    if aliases:
        info["aliases"] = aliases[:MAX_ALIASES]
    if year is not None:
        info["mean_year"] = year
    listed = newest_first(graph, papers)
    shown = listed[:MAX_PAPERS]
    info["paper_rows"] = [table.index(paper) for paper in shown]
    evidence = [item for paper, ev in _incident_evidence(graph, entity, set(shown))
                for item in [evidence_item(graph, ev, paper, table)] if item]
    if evidence:
        info["evidence"] = [item.shown() for item in _best(evidence, entity_forms(attrs))]
    results = sum(1 for _, _, kind in graph.in_edges(entity, keys=True) if kind in _LEADERBOARD_EDGES)
    if leaderboard and results:
        info["leaderboard"] = {"href": f"{leaderboard}#{url_quote(entity, safe='')}", "results": results}
    return info


_LEADERBOARD_EDGES = frozenset({RelType.ON_TASK.value, RelType.ON_DATASET.value})


def paper_panel(graph: nx.MultiDiGraph, paper: str, table: PaperTable, drawn: dict[str, int],
                entities: Iterable[str]) -> dict[str, Any]:
    """The panel of a paper: its row in the paper table, its entities by role (proposes, addresses,
    evaluates on, mentions; each under its first role) and its abstract with their mentions marked.

    `entities` are those the view knows (of the shown types); `drawn` gives the node index of those
    on the page, so the panel can go to them.
    """
    attrs = model.paper_attrs(graph, paper)
    known = set(entities)
    info: dict[str, Any] = {"name": table.rows[table.index(paper)]["title"], "type": NodeLabel.PAPER.value,
                            "paper_rows": [table.index(paper)]}
    abstract = _clip(str(attrs.get("abstract") or ""), MAX_ABSTRACT_CHARS)
    roles: list[dict[str, Any]] = []
    marks: list[list[int]] = []
    listed: set[str] = set()
    edges = {(target, kind): data for _, target, kind, data in model.out_edges(graph, paper)}
    for number, (key, role) in enumerate(ROLES):
        members = sorted((target for target, kind in edges if kind == key and target in known and target not in listed),
                         key=lambda entity: (_name(graph, entity).casefold(), entity))
        listed.update(members)
        if members:
            roles.append({"role": role, "entities": [{"name": _name(graph, entity), "node": drawn.get(entity, -1)}
                                                     for entity in members]})
        marks += [[start, end, number] for entity in members
                  for start, end in _mention_spans(edges[entity, key], len(abstract))]
    if roles:
        info["roles"] = roles
    if abstract:
        info["abstract"] = abstract
        info["marks"] = [{"start": start, "end": end, "role": role} for start, end, role in _disjoint(marks)]
    return info


def _name(graph: nx.MultiDiGraph, node: str) -> str:
    return str(model.node_attrs(graph, node).get("name", node))


def _mention_spans(data: EdgeAttrs, length: int) -> list[tuple[int, int]]:
    """The (start, end) abstract offsets of an edge's evidence that lie inside the first `length` characters."""
    spans = {(int(ev.get("start", 0)), int(ev.get("end", 0))) for ev in data.get("evidence", [])}
    return sorted((start, end) for start, end in spans if 0 <= start < end <= length)


def _disjoint(marks: list[list[int]]) -> list[list[int]]:
    """Marks sorted by start, each dropped when it overlaps one kept before it (longest first at a start)."""
    kept: list[list[int]] = []
    for mark in sorted(marks, key=lambda mark: (mark[0], -mark[1], mark[2])):
        if not kept or mark[0] >= kept[-1][1]:
            kept.append(mark)
    return kept


def _incident_evidence(graph: nx.MultiDiGraph, entity: str, papers: set[str]) -> list[tuple[str, Mapping[str, Any]]]:
    """(paper key, evidence) for the evidence on the edges from the given papers to `entity`."""
    return [(source, ev) for source, _, _, data in sorted(model.in_edges(graph, entity), key=lambda e: e[0])
            if source in papers for ev in data.get("evidence", [])]


class Quote(NamedTuple):
    """A sentence of evidence as a panel shows it: its paper's row, the sentence (clipped) and its marked span."""

    paper: int
    sentence: str
    start: int
    end: int
    confidence: float

    def shown(self) -> dict[str, Any]:
        """The quote as the page reads it: paper row, sentence, the marked span (none when it is empty)."""
        return quote(self.paper, self.sentence, [[self.start, self.end]] if self.end > self.start else [])


def quote(paper: int, sentence: str, marks: list[list[int]]) -> dict[str, Any]:
    """A sentence of evidence as the page reads it: its paper's row in the paper table, the text, marked spans."""
    return {"paper": paper, "sentence": sentence, "marks": [{"start": start, "end": end} for start, end in marks]}


def evidence_item(graph: nx.MultiDiGraph, ev: Mapping[str, Any], paper: str | None, table: PaperTable) -> Quote | None:
    """The quote of one piece of evidence: the mention's span inside its sentence."""
    sentence = str(ev.get("sentence") or "")
    paper = paper or paper_key(str(ev.get("paper")))
    if not sentence or paper not in graph:
        return None
    start, end = _in_sentence(ev, len(sentence))
    sentence, start, end = _window(sentence, start, end)
    return Quote(table.index(paper), sentence, start, end, float(ev.get("confidence", 0.0)))


def _in_sentence(ev: Mapping[str, Any], length: int) -> tuple[int, int]:
    """The evidence's abstract offsets made relative to its sentence (of `length` characters), by the
    sentence's own start; (0, 0) when the span does not lie inside it."""
    offset = int(ev["sentence_start"])
    start, end = int(ev.get("start", 0)) - offset, int(ev.get("end", 0)) - offset
    return (start, end) if 0 <= start < end <= length else (0, 0)


def _window(sentence: str, start: int, end: int) -> tuple[str, int, int]:
    """Clip a long sentence around its mark, keeping the mark's offsets right."""
    if len(sentence) <= MAX_SENTENCE_CHARS:
        return sentence, start, end
    begin = max(0, min(start - MAX_SENTENCE_CHARS // 3, len(sentence) - MAX_SENTENCE_CHARS))
    clipped = sentence[begin:begin + MAX_SENTENCE_CHARS]
    prefix = "…" if begin else ""
    suffix = "…" if begin + MAX_SENTENCE_CHARS < len(sentence) else ""
    shift = len(prefix) - begin
    if start == end or end > begin + MAX_SENTENCE_CHARS or start < begin:
        return prefix + clipped + suffix, 0, 0
    return prefix + clipped + suffix, start + shift, end + shift


def _best(items: list[Quote], forms: set[str]) -> list[Quote]:
    """Up to MAX_EVIDENCE items, one per paper: marked and naming the node first, then most confident."""
    def rank(item: Quote) -> tuple:
        names = any(form in item.sentence.casefold() for form in forms)
        return (item.end <= item.start, not names, -item.confidence, item.paper, item.sentence)
    chosen: dict[int, Quote] = {}
    for item in sorted(items, key=rank):
        chosen.setdefault(item.paper, item)
    return sorted(chosen.values(), key=rank)[:MAX_EVIDENCE]


def _other_forms(forms: Iterable[str], exclude: set[str]) -> list[str]:
    """Forms that differ other than by case from each other and from `exclude`, sorted."""
    chosen: dict[str, str] = {form.casefold(): form for form in exclude if form}
    taken = set(chosen)
    for form in sorted(map(str, forms), key=lambda form: (form.casefold(), form.swapcase())):
        chosen.setdefault(form.casefold(), form)
    return sorted((form for key, form in chosen.items() if key not in taken), key=str.casefold)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def link_panel(graph: nx.MultiDiGraph, pair: tuple[str, str], shared: Iterable[str], typed: Iterable[str],
               papers: int, table: PaperTable) -> dict[str, Any]:
    """The panel of a map link: its relation names, the newest papers behind it and the sentences that tie
    the two entities (a typed relation's evidence first, then sentences of shared papers naming both,
    each name marked)."""
    first, second = pair
    listed = newest_first(graph, shared)
    evidence: list[dict[str, Any]] = []
    for kind in typed:
        for a, b in ((first, second), (second, first)):
            data = model.edge_attrs(graph, a, b, kind)
            for ev in data.get("evidence", []) if data is not None else []:
                item = evidence_item(graph, ev, None, table)
                if item and len(evidence) < MAX_LINK_EVIDENCE:
                    evidence.append(item.shown())
    for paper in listed:
        if len(evidence) >= MAX_LINK_EVIDENCE:
            break
        evidence.extend(_shared_sentences(graph, paper, pair, table)[:MAX_LINK_EVIDENCE - len(evidence)])
    return {"papers": papers, "paper_rows": [table.index(paper) for paper in listed[:MAX_LINK_PAPERS]],
            "evidence": evidence}


def _shared_sentences(graph: nx.MultiDiGraph, paper: str, pair: tuple[str, str],
                      table: PaperTable) -> list[dict[str, Any]]:
    """Quotes from one paper: a sentence naming both entities, else one naming each."""
    found: dict[tuple[int, str], dict[str, list[list[int]]]] = {}  # (sentence start, sentence) -> entity -> spans
    for entity in pair:
        for data in model.between(graph, paper, entity).values():
            for ev in data.get("evidence", []):
                sentence = str(ev.get("sentence") or "")
                if not sentence:
                    continue
                spans = found.setdefault((int(ev["sentence_start"]), sentence), {}).setdefault(entity, [])
                start, end = _in_sentence(ev, len(sentence))
                if end > start and [start, end] not in spans:
                    spans.append([start, end])
    ordered = sorted(found)
    both = [place for place in ordered if len(found[place]) == 2]
    chosen = both[:1] or [next(place for place in ordered if entity in found[place]) for entity in pair
                          if any(entity in found[place] for place in ordered)]
    row = table.index(paper)
    return [quote(row, *marked_window(place[1], sorted(span for spans in found[place].values() for span in spans)))
            for place in dict.fromkeys(chosen)]


def marked_window(text: str, spans: list[list[int]], limit: int = MAX_SENTENCE_CHARS) -> tuple[str, list[list[int]]]:
    """Clip `text` to `limit` characters around its first span; the spans that stay, shifted, not overlapping."""
    clean: list[list[int]] = []
    for start, end in sorted(spans):
        if not clean or start >= clean[-1][1]:
            clean.append([start, end])
    if len(text) <= limit:
        return text, clean
    begin = max(0, min((clean[0][0] if clean else 0) - limit // 3, len(text) - limit))
    prefix = "…" if begin else ""
    suffix = "…" if begin + limit < len(text) else ""
    shift = len(prefix) - begin
    kept = [[start + shift, end + shift] for start, end in clean if start >= begin and end <= begin + limit]
    return prefix + text[begin:begin + limit] + suffix, kept
