"""`paperkg why NAME`: why a name is a node (which one, under what names) or is not one, and why the relations
it ends are not edges, answered from a build's graph and its refusal table (admission.json)."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperkg.core import graph_model as model
from paperkg.core.canonical import canonical_name
from paperkg.core.errors import ExitCode, PaperkgError

if TYPE_CHECKING:
    import networkx as nx

MAX_RELATIONS = 20  # refused relations listed (the most refused first)


@dataclass
class NodeAnswer:
    """A node the name is one of the names of."""

    key: str
    label: str
    name: str
    papers: int
    merged: list[str] = field(default_factory=list)  # its merged_from lines naming the name


@dataclass
class Refused:
    """A reason that refused the name (or a relation it ends), how often, in which papers, what it means."""

    what: str
    reason: str
    meaning: str
    count: int
    papers: list[str]


@dataclass
class Answer:
    """Everything a build says about one name."""

    name: str
    nodes: list[NodeAnswer]
    refused: list[Refused]
    relations: list[Refused]

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON."""
        return asdict(self)


def why(graph_file: Path, name: str) -> Answer:
    """What the build of `graph_file` did with `name`; one sentence when the graph has no refusal table."""
    from paperkg.admit.records import NAME_REASONS, RELATION_REASONS
    from paperkg.graph.exports import read_graph
    from paperkg.orchestrate.artifact import ADMISSION, refusals_layer

    if not name.strip():
        raise PaperkgError("why: name a term (a name, alias or acronym), not an empty string.", ExitCode.USAGE)
    table = refusals_layer(graph_file)
    if table is None:
        raise PaperkgError(f"{graph_file} has no {ADMISSION} beside it in a build's manifest: `paperkg why` answers "
                           "from a build's output folder (paperkg build -o FOLDER).", ExitCode.USAGE)
    entry, relations = table.about(name)
    refused = [Refused(name, reason, NAME_REASONS.get(reason, reason), tally.count, sorted(tally.papers))
               for reason, tally in sorted(entry.reasons.items(), key=lambda item: -item[1].count)] if entry else []
    ends = [Refused(f"{rel.head} -[{rel.type}]-> {rel.tail}", reason, RELATION_REASONS.get(reason, reason),
                    tally.count, sorted(tally.papers)) for rel in relations for reason, tally in rel.reasons.items()]
    ends.sort(key=lambda item: (-item.count, item.what, item.reason))
    return Answer(name, nodes_named(read_graph(graph_file), name), refused, ends[:MAX_RELATIONS])


def nodes_named(graph: nx.MultiDiGraph, name: str) -> list[NodeAnswer]:
    """The entity nodes `name` is a name of: its name, acronym, long form or an alias, or a name merged into it."""
    canonical = canonical_name(name)
    found = []
    for key, attrs in model.entities(graph):
        if model.answers_to(model.name_forms(attrs), attrs["label"], name):
            merged = [line for line in attrs.get("merged_from", [])
                      if canonical_name(line.partition(" [")[0]) == canonical]
            found.append(NodeAnswer(key, attrs["label"], attrs["name"], attrs["papers"], merged))
    return sorted(found, key=lambda node: (-node.papers, node.key))


def answer_lines(answer: Answer, graph_file: Path) -> list[str]:
    """The answer as lines of text."""
    lines = [f"{node.name!r} is a node: {node.key} ({node.label}, {_papers(node.papers)})"
             + (f"; merged into it: {'; '.join(node.merged)}" if node.merged else "") for node in answer.nodes]
    if answer.refused:
        mentions = _papers(sum(r.count for r in answer.refused), "mention")
        lines.append(f"{answer.name!r} was refused as a node ({mentions}):")
        lines += [f"  {r.reason} ({r.count}x; {', '.join(r.papers)}): {r.meaning}" for r in answer.refused]
    if answer.relations:
        lines.append("relations it ends that are no edge:")
        lines += [f"  {r.what}: {r.reason} ({r.count}x; {', '.join(r.papers)}): {r.meaning}" for r in answer.relations]
    if not lines:
        lines.append(f"{answer.name!r}: no node has that name, alias or acronym and no mention by that name was "
                     f"refused in {graph_file} (extraction did not find it).")
    return lines


def _papers(count: int, word: str = "paper") -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"
