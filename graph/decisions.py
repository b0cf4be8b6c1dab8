"""The builder's decisions as small pure functions over compact tables, shared by both ways of building.

The one-process builder (builder.py) and the assembly on Dask (assembly.py) take a paper in the same way
(`intake`), send each of its names to the same group form (`paper_targets`), gather the same per-name
tables (`NameVotes`, one per group of forms), decide the same node from them (`decide_node`), and turn a
paper into the same edges (`paper_edges`), and decide each typed edge from all its mentions the same way
(`relation_edge`). The
builder holds every table in one process; the assembly holds a partition's or a bucket's at a time.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple, cast

from paperkg.admit.edge_confidence import Calibration, RelationMention, edge_fact
from paperkg.admit.records import Admitted, AdmittedName
from paperkg.admit.relation_ends import edge_refusal, end_refusal
from paperkg.core.canonical import acronym_key, canonical_name, display_name, entity_key
from paperkg.core.graph_model import EdgeAttrs, EntityNode, Evidence, PaperNode, paper_key
from paperkg.core.schema import ROLE_STRENGTH, SYMMETRIC_REL_TYPES, NodeLabel, PaperRecord, RelType

from .evidence import CompactEvidence, EvidenceFactory
from .node_types import decide_label
from .resolve import ShortForms, type_weight, vote_name
from .results import PendingResult, pending_results

MAX_EVIDENCE = 10  # evidence items kept per edge; `count` keeps the full number
MAX_MERGE_PAPERS = 5  # papers listed per merge on a node's `merged_from`; the count says how many
PAPER_FIELDS = ("title", "year", "venue", "url", "code_url", "source")


class Use(NamedTuple):
    """One entity mention as the builder keeps it until the corpus has decided its node."""

    form: str            # the group form of its (repaired) name
    name: str            # the repaired name
    raw: str             # the name as extracted
    text: str
    label: str
    vote: float          # its weight in the type vote
    short: str | None    # the short form it defines (with `form` its long form) or, bare, stands for
    short_text: str      # that short form as written ('LLMs')
    bare: bool           # the mention is the short form alone
    rule: str            # the repair its name needed ('' for none)
    role: RelType
    evidence: CompactEvidence


class Undefined(NamedTuple):
    """A short form seen without a definition in a paper."""

    short: str
    text: str
    evidence: CompactEvidence


@dataclass
class PaperUses:
    """What one paper contributes to the graph, kept until its names are decided."""

    key: str
    id: str
    uses: list[Use | None]      # aligned with the record's entities; None: not a node
    relations: list[tuple[int, int, RelType, CompactEvidence]]
    undefined: list[Undefined]
    defines: dict[str, tuple[str, str]] = field(default_factory=dict)  # short form -> its long form's (form, name)
    results: list[PendingResult] = field(default_factory=list)  # its reported results (results.py)

    def context(self) -> set[str]:
        """The group forms of the paper's names (what chooses between the senses of a short form)."""
        return {use.form for use in self.uses if use is not None}


def intake(admitted: Admitted, evidence: EvidenceFactory) -> PaperUses:
    """One admitted paper as the builder keeps it: its names with their votes and evidence, its relations, the
    short forms it leaves undefined and those it defines."""
    record, paper = admitted.record, admitted.record.paper
    sentences = evidence.spans(paper.abstract, record.sentence_spans)
    make = evidence.make
    uses = [_use(name, make(paper.id, sentences[name.mention.sentence], name.mention.start, name.mention.end,
                            name.mention.source, name.mention.confidence)) if name else None
            for name in admitted.names]
    relations: list[tuple[int, int, RelType, CompactEvidence]] = []
    for rel in admitted.relations:
        head, tail = record.entities[rel.head], record.entities[rel.tail]
        relations.append((rel.head, rel.tail, rel.type, make(
            paper.id, sentences[rel.sentence], min(head.start, tail.start), max(head.end, tail.end),
            rel.source, rel.confidence)))
    undefined = [Undefined(acronym_key(item.text), item.text, make(
        paper.id, sentences[item.sentence], item.start, item.end, "acronym-resolution", 0.6))
        for item in record.undefined_acronyms]
    entry = PaperUses(paper_key(paper.id), paper.id, uses, relations, undefined,
                      results=pending_results(paper, record.results, sentences,
                                              lambda i: record.entities[i].sentence, evidence))
    for use in uses:
        if use is not None and use.short and not use.bare:
            entry.defines.setdefault(use.short, (use.form, use.name))
    return entry


def paper_node(paper: PaperRecord) -> PaperNode:
    """A paper's node attributes (metrics to come)."""
    attrs = PaperNode(label=NodeLabel.PAPER.value, key=paper_key(paper.id), paper_id=paper.id,
                      abstract=paper.abstract, authors=list(paper.authors), name=paper.title or _short(paper.abstract),
                      degree=0, pagerank=0.0, community=-1)
    attrs.update({f: getattr(paper, f) for f in PAPER_FIELDS if getattr(paper, f) not in (None, "")})  # type: ignore[typeddict-item]
    return attrs


def define_short_forms(shorts: ShortForms, entry: PaperUses) -> None:
    """Add the short forms a paper defines to the corpus' definitions."""
    context = entry.context()
    for short, (form, name) in sorted(entry.defines.items()):
        shorts.define(short, form, name, context, entry.id)


def resolve_short(short: str, entry: PaperUses, shorts: ShortForms, context: set[str]) -> tuple[str, str] | None:
    """(group form, rule) a bare short form stands for in this paper: its own definition, else the corpus'."""
    if short in entry.defines:
        form = entry.defines[short][0]
        return shorts.redirect.get((short, form), form), "acronym-own-definition"
    return shorts.resolve(short, context)


class Note(NamedTuple):
    """A name merged into another form's node, by a rule (merge evidence on the node)."""

    form: str
    name: str
    rule: str
    paper: str


def paper_targets(entry: PaperUses, shorts: ShortForms) -> tuple[list[str | None], list[Note]]:
    """The group form each use of a paper goes to: its own, or for a bare short form the paper's own
    definition, else the one the corpus gives it; with the repairs and resolutions as merge notes."""
    context = entry.context()
    qualified = _qualified_forms(entry.uses)
    targets: list[str | None] = []
    notes: list[Note] = []
    for use in entry.uses:
        if use is None:
            targets.append(None)
            continue
        target, rule = use.form, use.rule
        if use.bare and use.short:
            found = resolve_short(use.short, entry, shorts, context)
            if found:
                target, rule = found
        elif use.short and (use.short, use.form) in shorts.redirect:
            target, rule = shorts.redirect[use.short, use.form], "acronym-paper-variant"
        elif len(qualified.get(use.form, ())) == 1:
            target, rule = next(iter(qualified[use.form])), "head-ellipsis"
        if rule and rule != "acronym-own-definition":
            notes.append(Note(target, use.raw, rule, entry.id))
        targets.append(target)
    return targets, notes


VOTE_UNIT = 1e12  # type votes are summed as whole units of 1e-12: exactly, so in any order and by parts


class NameVotes:
    """What the corpus says about one group of forms: type votes, the names used and by which papers, the
    names used unrepaired, the short forms defined for it, and the names merged into it (the last two made
    on first use: most groups have none)."""

    __slots__ = ("votes", "names", "plain", "acronyms", "merged")

    def __init__(self) -> None:
        self.votes: dict[str, int] = {}
        self.names: dict[str, set[str]] = {}
        self.plain: set[str] = set()
        self.acronyms: Counter[tuple[str, str]] | None = None
        self.merged: dict[tuple[str, str], set[str]] | None = None

    def add(self, use: Use, target: str, paper: str) -> None:
        """One use of the group, by `paper` (its node key)."""
        self.votes[use.label] = self.votes.get(use.label, 0) + round(use.vote * VOTE_UNIT)
        if target == use.form or use.bare:  # a head standing for its qualified term names nothing
            self.names.setdefault(use.name, set()).add(paper)
        if not use.rule:
            self.plain.add(use.name)
        if use.short and not use.bare:
            if self.acronyms is None:
                self.acronyms = Counter()
            self.acronyms[use.short, use.name] += 1

    def note(self, name: str, rule: str, papers: set[str]) -> None:
        """`name` merged into the group by `rule` in `papers`."""
        if self.merged is None:
            self.merged = {}
        self.merged.setdefault((name, rule), set()).update(papers)

    def update(self, other: NameVotes) -> None:
        """Add another partition's table of the same group."""
        for label, votes in other.votes.items():
            self.votes[label] = self.votes.get(label, 0) + votes
        for name, papers in other.names.items():
            self.names.setdefault(name, set()).update(papers)
        self.plain |= other.plain
        if other.acronyms:
            self.acronyms = (self.acronyms or Counter()) + other.acronyms
        for (name, rule), papers in (other.merged or {}).items():
            self.note(name, rule, papers)

    def __getstate__(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __setstate__(self, state: tuple[object, ...]) -> None:
        for name, value in zip(self.__slots__, state):
            setattr(self, name, value)


class NodeChoice(NamedTuple):
    """A group's node: its key, type and name, and the short form most of its papers define for it."""

    key: str
    label: str
    name: str
    acronym: tuple[str, str] | None  # (short form, long form)


def decide_node(table: NameVotes) -> NodeChoice | None:
    """The node of a group: its type from what the thing is (node_types.decide_label: its names' shape, the
    training lexicon, else the vote, each label's votes summed exactly, so in any order), its name by use; None
    for a group only merge notes name (votes are exact sums: see VOTE_UNIT)."""
    if not table.votes:
        return None
    label = decide_label({label: votes / VOTE_UNIT for label, votes in table.votes.items()}, table.names)[0]
    name = display_name(vote_name(table.names, table.plain), label)
    acronym = None
    counts = table.acronyms
    if counts:
        short, long = min(counts, key=lambda pair: (-counts[pair], pair))
        acronym = short, display_name(long, label)
    return NodeChoice(entity_key(label, name), label, name, acronym)


def entity_node(choices: list[tuple[str, NodeChoice, NameVotes]]) -> EntityNode:
    """The node of the groups (root, choice, table) whose choices share a key ('XLM-R' and 'XLM-r'), in root
    order: the first names it, the first with a short form gives it; every merge noted (counts to come)."""
    _, first, _ = choices[0]
    node = EntityNode(label=first.label, key=first.key, name=first.name, aliases=[], mentions=0,
                      canonical=canonical_name(first.name, first.label), papers=0, degree=0, pagerank=0.0,
                      community=-1)
    acronym = next((choice.acronym for _, choice, _ in choices if choice.acronym), None)
    if acronym:
        node["acronym"], node["long_form"] = acronym
    lines = set()
    for _, _, table in choices:
        lines |= merge_lines(node["name"], table.merged or {})
    if lines:
        node["merged_from"] = sorted(lines)
    return node


def merge_lines(node_name: str, items: dict[tuple[str, str], set[str]]) -> set[str]:
    """'name [rule: papers]' lines for the other names merged into a node."""
    lines = set()
    for (name, rule), papers in items.items():
        if name == node_name:
            continue
        listed = sorted(p for p in papers if p)
        more = f" +{len(listed) - MAX_MERGE_PAPERS}" if len(listed) > MAX_MERGE_PAPERS else ""
        lines.add(f"{name} [{rule}: {', '.join(listed[:MAX_MERGE_PAPERS])}{more}]")
    return lines


class Target(NamedTuple):
    """A use's node as a paper's edges need it."""

    key: str
    acronym: bool  # the node has a short form (a defining use adds it as an alias)


@dataclass
class PaperEdges:
    """A paper's part of the graph: its edges to its entities, its relations (one item each, to be
    aggregated across papers), what it adds to its entities (mentions, aliases), and relations both of
    whose ends are one node."""

    roles: dict[tuple[str, str], EdgeAttrs] = field(default_factory=dict)  # (entity key, type) -> edge
    relations: list[tuple[str, str, str, CompactEvidence]] = field(default_factory=list)
    mentions: Counter[str] = field(default_factory=Counter)
    aliases: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    one_node: list[tuple[str, str, str, str]] = field(default_factory=list)  # (type, head, tail, paper)


def paper_edges(entry: PaperUses, targets: list[Target | None], undefined: list[Target | None]) -> PaperEdges:
    """A paper's edges to its entities (one per entity, its strongest role), its relations (symmetric types
    in key order), and MENTIONS edges for the short forms it leaves undefined that the corpus resolves
    (`undefined`: their nodes)."""
    out = PaperEdges()
    strongest: dict[str, RelType] = {}
    for use, target in zip(entry.uses, targets):
        if use is not None and target is not None:
            strongest[target.key] = max(use.role, strongest.get(target.key, RelType.MENTIONS), key=ROLE_STRENGTH.index)
            out.mentions[target.key] += 1
            if not use.rule:  # a repaired name is no name it goes by; merged_from keeps it
                out.aliases[target.key].add(use.text)
            if use.short and not use.bare and target.acronym:
                out.aliases[target.key].add(use.short_text)
    for use, target in zip(entry.uses, targets):
        if use is not None and target is not None:
            kind = strongest[target.key].value
            out.roles[target.key, kind] = add_evidence(out.roles.get((target.key, kind)), kind, use.evidence)
    for head, tail, kind, evidence in entry.relations:
        source, target = targets[head], targets[tail]
        if source is None or target is None or source.key == target.key:
            out.one_node.append((kind.value, entry.uses[head].raw, entry.uses[tail].raw,  # type: ignore[union-attr]
                                 evidence.paper))
            continue
            # (an end that is no node never reaches here: admission kept only relations between names)
        ends = (source.key, target.key)
        if kind in SYMMETRIC_REL_TYPES:
            ends = min(ends), max(ends)
        out.relations.append((*ends, kind.value, evidence))
    for item, found in zip(entry.undefined, undefined):
        if found is not None and not any(key == found.key for key, _ in out.roles):
            out.mentions[found.key] += 1
            out.aliases[found.key].add(item.text)
            out.roles[found.key, RelType.MENTIONS.value] = add_evidence(None, RelType.MENTIONS.value, item.evidence)
    return out


def add_evidence(data: EdgeAttrs | None, kind: str, evidence: CompactEvidence) -> EdgeAttrs:
    """An edge with one more piece of evidence (a new edge for None): the count, the highest confidence, and
    the first MAX_EVIDENCE distinct items."""
    item = cast(Evidence, evidence)  # a read-only mapping with the Evidence fields (evidence.py)
    if data is None:
        return EdgeAttrs(type=kind, count=1, confidence=evidence.confidence, evidence=[item])
    data["count"] += 1
    data["confidence"] = max(data["confidence"], evidence.confidence)
    if len(data["evidence"]) < MAX_EVIDENCE and item not in data["evidence"]:
        data["evidence"].append(item)
    return data


class RelationRefused(NamedTuple):
    """A direction of a typed relation refused as an edge (its ends, or below the floor), for the refusal table."""

    kind: str
    head: str            # the ends' names
    tail: str
    reason: str
    papers: frozenset[str]
    mentions: int


def relation_edge(kind: RelType, items: Iterable[tuple[str, str, Mapping[str, Any]]],
                  ends: Mapping[str, tuple[str, str]], calibration: Calibration, floor: float,
                  refused: Callable[[str, str], str | None] = end_refusal,
                  ) -> tuple[tuple[str, str, EdgeAttrs] | None, list[RelationRefused]]:
    """The typed edge of one type between two nodes from every mention stating it, in any paper: `items`
    (source key, target key, evidence) either way, in any order; `ends` each node's (name, final label). A
    direction the type does not allow between the labels, or with an end that is no thing to relate
    (admit/relation_ends.py), is refused; the rest make the edge (admit/edge_confidence.py: direction,
    support, calibrated confidence), kept from `floor` on, with each paper's best sentence first."""
    ordered = sorted(items, key=lambda item: (item[2]["paper"], item[2]["start"], item[2]["end"],
                                              item[2]["sentence_start"], item[0], item[1], item[2]["confidence"]))
    refusals, allowed = [], []
    for direction in sorted({(source, target) for source, target, _ in ordered}):
        stating = [item for item in ordered if item[:2] == direction]
        head, tail = ends[direction[0]], ends[direction[1]]
        reason = edge_refusal(kind, head, tail, refused)
        if reason:
            refusals.append(RelationRefused(kind.value, head[0], tail[0], reason,
                                            frozenset(item[2]["paper"] for item in stating), len(stating)))
        else:
            allowed += stating
    if not allowed:
        return None, refusals
    symmetric = kind in SYMMETRIC_REL_TYPES
    fact = edge_fact(kind.value, [RelationMention(source, target, ev["paper"], float(ev["confidence"]))
                                  for source, target, ev in allowed], symmetric, calibration)
    stating = [item for item in allowed if symmetric or item[:2] == (fact.source, fact.target)]
    if fact.confidence < floor:
        refusals.append(RelationRefused(kind.value, ends[fact.source][0], ends[fact.target][0], "below-floor",
                                        frozenset(item[2]["paper"] for item in stating), len(stating)))
        return None, refusals
    ranked = sorted(stating, key=lambda item: -float(item[2]["confidence"]))  # stable: paper order within a tie
    firsts: dict[str, Mapping[str, Any]] = {}
    for _, _, item in ranked:
        firsts.setdefault(item["paper"], item)
    evidence: list[Evidence] = []
    for item in [*firsts.values(), *(item for _, _, item in ranked)]:
        if len(evidence) < MAX_EVIDENCE and item not in evidence:
            evidence.append(cast(Evidence, item))
    return (fact.source, fact.target, EdgeAttrs(type=kind.value, count=fact.mentions, confidence=fact.confidence,
                                                evidence=evidence, papers=fact.papers, against=fact.against)), refusals


def add_aliases(node: EntityNode, aliases: set[str]) -> None:
    """More surface forms of a node (kept sorted, once each)."""
    if not aliases <= set(node["aliases"]):
        node["aliases"] = sorted(set(node["aliases"]) | aliases)


def _use(name: AdmittedName, evidence: CompactEvidence) -> Use:
    """An admitted name as the builder keeps it, with its type vote and evidence."""
    mention = name.mention
    label = mention.label.value if mention.label is not None else ""
    return Use(name.form, name.name, mention.name, mention.text, label,
               type_weight(label, mention.source, mention.confidence), name.short, name.short_text, name.bare,
               name.rule, mention.role.rel_type, evidence)


def _qualified_forms(uses: list[Use | None]) -> dict[str, set[str]]:
    """For each one-word name of a paper that ends another of its names ('translation', 'machine
    translation'), the forms of the shortest such names: a paper's bare head stands for its qualified
    term when it has one ('neural machine translation' is a kind of it, not another reading)."""
    names = {canonical_name(use.name): use.form for use in uses if use is not None and not use.bare}
    longer: dict[str, list[str]] = defaultdict(list)
    for name in names:
        head = name.rpartition(" ")[2]
        if head != name and head in names:
            longer[head].append(name)
    return {names[head]: {names[name] for name in found
                          if not any(name.endswith(" " + other) for other in found)}
            for head, found in longer.items()}


def _short(text: str, words: int = 10) -> str:
    parts = text.split()
    return " ".join(parts[:words]) + ("…" if len(parts) > words else "")

