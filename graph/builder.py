"""Grow a MultiDiGraph from extraction records: canonical entity nodes (from the mentions that read as
terms), paper nodes, evidence on edges.

Papers are taken in as they come; entity nodes are made once all are in (`finalize`), so that what
a bare short form stands for, which names are one entity, its type and its name are decided by the
whole corpus (graph/resolve.py), the same whatever order the papers came in.
"""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import NamedTuple

import networkx as nx

from paperkg.core.schema import (GRAPH_MIN_RELATION_CONFIDENCE, PAPER_REL_TYPES, ROLE_STRENGTH, SCHEMA_KEY,
                                 SCHEMA_VERSION, SYMMETRIC_REL_TYPES, Extraction, Mention, NodeLabel, PaperRecord,
                                 Relation, RelType, enum_member, relation_allowed)

from .canonical import acronym_key, canonical_name, display_name, entity_key, match_form, paper_key
from .evidence import CompactEvidence, EvidenceFactory
from .metrics import add_metrics
from .names import clean_name
from .relation_ends import end_refusal, mention_refusal, purpose_refusal
from .resolve import ShortForms, UnionFind, type_weight, vote_label, vote_name

# the rest of a word a line-break hyphen cut; not a conjunction after a suspended hyphen ("closed- and open-source")
_BROKEN_WORD = re.compile(r"\s+(?!(?:and|or|nor|to|vs)\b)([a-z]+)\b")
MAX_EVIDENCE = 10  # evidence items kept per edge; `count` keeps the full number
SYNONYM_MIN_CONFIDENCE = 0.8  # a SYNONYM_OF relation merges its two names only when at least this sure
MAX_MERGE_PAPERS = 5  # papers listed per merge on a node's `merged_from`; the count says how many
PAPER_FIELDS = ("title", "year", "venue", "url", "code_url", "source")


class _Use(NamedTuple):
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


class _Undefined(NamedTuple):
    """A short form seen without a definition in a paper."""

    short: str
    text: str
    evidence: CompactEvidence


@dataclass
class _Paper:
    """What one paper contributes, kept until `finalize`."""

    key: str
    uses: list[_Use | None]      # aligned with the record's entities; None: not a node
    relations: list[tuple[int, int, RelType, CompactEvidence]]
    undefined: list[_Undefined]
    defines: dict[str, tuple[str, str]] = field(default_factory=dict)  # short form -> its long form's (form, name)


class GraphBuilder:
    """Adds papers once each (by id); `finalize` decides the entity nodes from all of them and computes metrics."""

    def __init__(self, graph: nx.MultiDiGraph | None = None,
                 min_confidence: float = GRAPH_MIN_RELATION_CONFIDENCE) -> None:
        """`min_confidence`: the operating point below which a relation makes no edge (benches lower it to see
        the relation model's every edge)."""
        self.graph = graph if graph is not None else nx.MultiDiGraph()
        self.min_confidence = min_confidence
        self.graph.graph[SCHEMA_KEY] = SCHEMA_VERSION
        self.papers: dict[str, _Paper] = {}
        self.merges: list[tuple[str, str, str, str]] = []  # (name, into, rule, paper)
        self.evidence = EvidenceFactory()

    def add(self, record: Extraction) -> bool:
        """Add one paper's extraction record; False (and no change) if the paper is already in the graph."""
        paper = record.paper
        pkey = paper_key(paper.id)
        if pkey in self.graph:
            return False
        self._add_paper(pkey, paper)
        sentences = self.evidence.spans(paper.abstract, record.sentence_spans)
        evidence = self.evidence.make
        cut = _hyphenated_names(record)
        uses = [_use(mention, cut, evidence(paper.id, sentences[mention.sentence], mention.start, mention.end,
                                       mention.source, mention.confidence)) if mention.node else None
                for mention in record.entities]
        kept: list[Relation] = []
        for rel in record.relations:
            head, tail = record.entities[rel.head], record.entities[rel.tail]
            if rel.type is RelType.SYNONYM_OF:  # another name of the same thing: one node, not an edge
                if _merges(rel, uses[rel.head], uses[rel.tail]):
                    self.merge(head.name, tail.name, "synonym-of", paper.id)
            elif rel.confidence >= self.min_confidence:  # the graph's operating point (core/schema.py)
                kept.append(rel)
        ends = {i for rel in kept for i in (rel.head, rel.tail)}  # each mention judged once
        refused = {i for i in ends  # a piece of a longer noun phrase where written (relation_ends.py)
                   if mention_refusal(paper.abstract, record.entities[i])}
        relations: list[tuple[int, int, RelType, CompactEvidence]] = []
        for rel in kept:
            head, tail = record.entities[rel.head], record.entities[rel.tail]
            if rel.head not in refused and rel.tail not in refused and not purpose_refusal(rel.type, tail):
                relations.append((rel.head, rel.tail, rel.type, evidence(
                    paper.id, sentences[rel.sentence], min(head.start, tail.start), max(head.end, tail.end),
                    rel.source, rel.confidence)))
        undefined = [_Undefined(acronym_key(item.text), item.text, evidence(
            paper.id, sentences[item.sentence], item.start, item.end, "acronym-resolution", 0.6))
            for item in record.undefined_acronyms]
        entry = _Paper(pkey, uses, relations, undefined)
        for use in uses:
            if use is not None and use.short and not use.bare:
                entry.defines.setdefault(use.short, (use.form, use.name))
        self.papers[pkey] = entry
        return True

    def add_all(self, records: Iterable[Extraction]) -> int:
        """Add many records; returns how many papers were new."""
        return sum(self.add(record) for record in records)

    def merge(self, name: str, into: str, rule: str, paper: str = "") -> None:
        """Make the entities named `name` and `into` one node (e.g. a SYNONYM_OF relation), noting
        `rule` and the paper that says so as merge evidence on the node."""
        self.merges.append((name, into, rule, paper))

    def finalize(self) -> nx.MultiDiGraph:
        """Decide the entity nodes from every paper added, add them and their edges, then compute metrics."""
        order = sorted(self.papers)
        shorts = self._short_forms(order)
        groups = UnionFind()
        evidence: dict[str, dict[tuple[str, str], set[str]]] = defaultdict(lambda: defaultdict(set))
        for fold in shorts.fold_variants():
            if not fold.local:  # a local fold is taken paper by paper (`_targets`)
                groups.union(fold.variant, fold.into)
                evidence[fold.variant][shorts.name(fold.variant), "acronym-variant"] |= shorts.defined_in[
                    fold.short, fold.variant]
        targets: dict[str, list[str | None]] = {}
        for pkey in order:
            targets[pkey] = self._targets(self.papers[pkey], shorts, evidence)
        for name, into, rule, paper in self.merges:
            a, b = _form(name), _form(into)
            if rule == "synonym-of" and not shorts.may_be_synonyms(name, a, into, b):
                continue
            groups.union(a, b)
            evidence[a][name, rule].add(paper)
            evidence[b][into, rule].add(paper)
        existing = self._existing_nodes(groups)
        nodes = self._decide_nodes(order, targets, groups, evidence, existing)
        for pkey in order:
            self._add_edges(self.papers[pkey], [nodes[groups.find(t)] if t else None for t in targets[pkey]],
                            shorts, groups, nodes)
        self.papers.clear()
        self.merges.clear()
        self._drop_misfit_relations()
        papers = Counter(key for node, label in self.graph.nodes(data="label") if label == NodeLabel.PAPER
                         for key in self.graph.succ[node])  # an entity's papers: the papers with an edge to it
        for key, data in self.graph.nodes(data=True):
            if data["label"] != NodeLabel.PAPER:
                data["papers"] = papers[key]
        add_metrics(self.graph)
        return self.graph

    def _short_forms(self, order: list[str]) -> ShortForms:
        """Every short form's definitions: by the papers defining it, and an earlier graph's nodes."""
        shorts = ShortForms()
        for _key, data in self.graph.nodes(data=True):
            if data.get("acronym") and data.get("long_form"):
                shorts.define(data["acronym"], _form(data["long_form"]), data["long_form"], (),
                              weight=data.get("papers", 1))
        for pkey in order:
            entry = self.papers[pkey]
            context = {use.form for use in entry.uses if use is not None}
            for short, (form, name) in sorted(entry.defines.items()):
                shorts.define(short, form, name, context, pkey.removeprefix("paper:"))
        return shorts

    def _targets(self, entry: _Paper, shorts: ShortForms,
                 evidence: dict[str, dict[tuple[str, str], set[str]]]) -> list[str | None]:
        """The group form each use of a paper goes to: its own, or for a bare short form the paper's own
        definition, else the one the corpus gives it; repairs and resolutions noted as merge evidence."""
        context = {use.form for use in entry.uses if use is not None}
        qualified = _qualified_forms(entry.uses)
        targets: list[str | None] = []
        for use in entry.uses:
            if use is None:
                targets.append(None)
                continue
            target, rule = use.form, use.rule
            if use.bare and use.short:
                found = _resolve(use.short, entry, shorts, context)
                if found:
                    target, rule = found
            elif use.short and (use.short, use.form) in shorts.redirect:
                target, rule = shorts.redirect[use.short, use.form], "acronym-paper-variant"
            elif len(qualified.get(use.form, ())) == 1:
                target, rule = next(iter(qualified[use.form])), "head-ellipsis"
            if rule and rule != "acronym-own-definition":
                evidence[target][use.raw, rule].add(entry.key.removeprefix("paper:"))
            targets.append(target)
        return targets

    def _existing_nodes(self, groups: UnionFind) -> dict[str, str]:
        """An earlier graph's entity nodes by group root (the API's `build_graph(records, graph)`): new
        mentions of their names, long forms or repaired names join them as they are."""
        forms: dict[str, list[str]] = {}
        for key, data in self.graph.nodes(data=True):
            if data.get("label") != NodeLabel.PAPER:
                forms[key] = sorted({_form(data["canonical"]), _form(data.get("long_form") or data["name"])})
                groups.union(forms[key][0], forms[key][-1])
        existing: dict[str, str] = {}
        for key in sorted(forms):
            existing.setdefault(groups.find(forms[key][0]), key)
        return existing

    def _decide_nodes(self, order: list[str], targets: dict[str, list[str | None]], groups: UnionFind,
                      evidence: dict[str, dict[tuple[str, str], set[str]]], existing: dict[str, str]) -> dict[str, str]:
        """One node per group of forms: its type by vote, its name by use; returns group root -> node key."""
        votes: dict[str, defaultdict[str, float]] = defaultdict(lambda: defaultdict(float))
        names: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        plain: dict[str, set[str]] = defaultdict(set)
        acronyms: dict[str, Counter[tuple[str, str]]] = defaultdict(Counter)
        for pkey in order:
            for use, target in zip(self.papers[pkey].uses, targets[pkey]):
                if use is None or target is None:
                    continue
                root = groups.find(target)
                votes[root][use.label] += use.vote
                if target == use.form or use.bare:  # a head standing for its qualified term names nothing
                    names[root][use.name].add(pkey)
                if not use.rule:
                    plain[root].add(use.name)
                if use.short and not use.bare:
                    acronyms[root][use.short, use.name] += 1
        nodes: dict[str, str] = {}
        for root in sorted(votes):
            if root in existing:
                nodes[root] = existing[root]
                continue
            label = vote_label(votes[root])
            name = display_name(vote_name(names[root], plain[root]), label)
            key = entity_key(label, name)
            nodes[root] = key
            definition = {}
            if root in acronyms:
                short, long = min(acronyms[root], key=lambda pair: (-acronyms[root][pair], pair))
                definition = {"acronym": short, "long_form": display_name(long, label)}
            if key in self.graph:  # another group goes by the same name ('XLM-R'): one node, both groups
                for field_name, value in definition.items():
                    self.graph.nodes[key].setdefault(field_name, value)
                continue
            self.graph.add_node(key, label=label, key=key, name=name, canonical=canonical_name(name, label),
                                aliases=[], mentions=0, **definition)
        for form, items in sorted(evidence.items()):
            root = groups.find(form)
            if root in nodes:
                _note_merges(self.graph.nodes[nodes[root]], items)
        return nodes

    def _add_edges(self, entry: _Paper, keys: list[str | None], shorts: ShortForms, groups: UnionFind,
                   nodes: dict[str, str]) -> None:
        """A paper's edges to its entities (one per entity, its strongest role), its relations, and
        MENTIONS edges for the short forms it leaves undefined that the corpus resolves."""
        strongest: dict[str, RelType] = {}
        for use, key in zip(entry.uses, keys):
            if use is not None and key is not None:
                strongest[key] = max(use.role, strongest.get(key, RelType.MENTIONS), key=ROLE_STRENGTH.index)
                node = self.graph.nodes[key]
                node["mentions"] += 1
                if not use.rule:  # a repaired name is no name it goes by; merged_from keeps it
                    _add_alias(node, use.text)
                if use.short and not use.bare and node.get("acronym"):
                    _add_alias(node, use.short_text)
        for use, key in zip(entry.uses, keys):
            if use is not None and key is not None:
                self._add_edge(entry.key, key, strongest[key], use.evidence)
        self._add_relations(entry, keys)
        context = {use.form for use in entry.uses if use is not None}
        for item in entry.undefined:
            found = _resolve(item.short, entry, shorts, context)
            key = nodes.get(groups.find(found[0])) if found else None
            if key and not self.graph.has_edge(entry.key, key):
                self.graph.nodes[key]["mentions"] += 1
                _add_alias(self.graph.nodes[key], item.text)
                self._add_edge(entry.key, key, RelType.MENTIONS, item.evidence)

    def _add_relations(self, entry: _Paper, keys: list[str | None]) -> None:
        """A paper's entity-entity edges: symmetric types in key order, and `papers` counting each paper
        once per edge."""
        touched: set[tuple[str, str, str]] = set()
        for head, tail, kind, evidence in entry.relations:
            source, target = keys[head], keys[tail]
            if source is None or target is None or source == target:
                continue
            if kind in SYMMETRIC_REL_TYPES:
                source, target = sorted((source, target))
            self._add_edge(source, target, kind, evidence)
            touched.add((source, target, kind.value))
        for edge in sorted(touched):
            data = self.graph.get_edge_data(*edge)
            data["papers"] = data.get("papers", 0) + 1

    def _drop_misfit_relations(self) -> None:
        """Remove entity-entity edges whose end labels their type does not allow, or with an end that is no
        thing to relate (a quality, a language in a Dataset slot: relation_ends.py); entity types are final now."""
        labels = dict(self.graph.nodes(data="label"))
        refused = {node for node, data in self.graph.nodes(data=True)
                   if data["label"] != NodeLabel.PAPER and end_refusal(data["name"], data["label"])}
        misfits = [(u, v, k) for u, v, k in self.graph.edges(keys=True)
                   if (kind := enum_member(RelType, k)) not in PAPER_REL_TYPES
                   and (not relation_allowed(kind, labels[u], labels[v]) or u in refused or v in refused)]
        self.graph.remove_edges_from(misfits)

    def _add_paper(self, pkey: str, paper: PaperRecord) -> None:
        attrs = {"label": NodeLabel.PAPER.value, "key": pkey, "paper_id": paper.id, "abstract": paper.abstract,
                 "authors": list(paper.authors), "name": paper.title or _short(paper.abstract)}
        attrs.update({f: getattr(paper, f) for f in PAPER_FIELDS if getattr(paper, f) not in (None, "")})
        self.graph.add_node(pkey, **attrs)

    def _add_edge(self, source: str, target: str, kind: RelType, evidence: CompactEvidence) -> None:
        data = self.graph.get_edge_data(source, target, kind.value)  # the edge's own dict, found once
        if data is not None:
            data["count"] += 1
            data["confidence"] = max(data["confidence"], evidence.confidence)
            if len(data["evidence"]) < MAX_EVIDENCE and evidence not in data["evidence"]:
                data["evidence"].append(evidence)
        else:
            self.graph.add_edge(source, target, key=kind.value, type=kind.value, count=1,
                                confidence=evidence.confidence, evidence=[evidence])


def _merges(rel: Relation, head: _Use | None, tail: _Use | None) -> bool:
    """Whether a SYNONYM_OF relation merges its two names: sure enough, both nodes of one type, two names that
    are not one already, and neither a short form (what a short form stands for is the acronym resolution's call,
    which checks its letters: the model pairs 'FedKD (Federated Distillation)' too)."""
    return (rel.confidence >= SYNONYM_MIN_CONFIDENCE and head is not None and tail is not None
            and head.label == tail.label and head.form != tail.form and not head.bare and not tail.bare)


def _hyphenated_names(record: Extraction) -> dict[str, str]:
    """Names cut at a line-break hyphen in this paper, joined with the word that goes on after the break:
    'natural language process-' (before ' ing') -> 'natural language processing'."""
    spans = [(m.name, m.end) for m in record.entities if m.name.endswith("-") and m.text == m.name]
    spans += [(a.long, a.long_end) for a in record.acronyms if a.long.endswith("-")]
    joined = {}
    for name, end in spans:
        rest = _BROKEN_WORD.match(record.paper.abstract, end)
        if rest:
            joined[name] = name[:-1] + rest.group(1)
    return joined


def _use(mention: Mention, hyphenated: dict[str, str], evidence: CompactEvidence) -> _Use | None:
    """The mention as the builder keeps it, or None when its name is no name (a number, a cut word); the
    short form of a definition whose long form is no name stays, as a bare short form."""
    name, rule = hyphenated.get(mention.name, mention.name), "hyphenation" if mention.name in hyphenated else ""
    cleaned = clean_name(name)
    if cleaned is None and mention.acronym and mention.text == mention.acronym:
        cleaned = clean_name(mention.acronym)
        mention = replace(mention, name=mention.acronym)
    if cleaned is None or mention.label is None:  # junk, or a term of none of the four types
        return None
    name, rule = cleaned.name, cleaned.rule or rule
    label = mention.label.value
    short = acronym_key(mention.acronym) if mention.acronym else None
    bare = _is_short_form(name) and (short is None or canonical_name(mention.acronym) == canonical_name(name))
    if bare:
        short = acronym_key(name)
    return _Use(_form(name), name, mention.name, mention.text, label,
                type_weight(label, mention.source, mention.confidence), short, mention.acronym or name, bare, rule,
                mention.role.rel_type, evidence)


def _resolve(short: str, entry: _Paper, shorts: ShortForms, context: set[str]) -> tuple[str, str] | None:
    """(group form, rule) a bare short form stands for in this paper: its own definition, else the corpus'."""
    if short in entry.defines:
        form = entry.defines[short][0]
        return shorts.redirect.get((short, form), form), "acronym-own-definition"
    return shorts.resolve(short, context)


def _qualified_forms(uses: list[_Use | None]) -> dict[str, set[str]]:
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


def _note_merges(node: dict, items: dict[tuple[str, str], set[str]]) -> None:
    """Add 'name [rule: papers]' lines to the node's `merged_from` for the other names merged into it."""
    lines = set(node.get("merged_from", []))
    for (name, rule), papers in items.items():
        if name == node["name"]:
            continue
        listed = sorted(p for p in papers if p)
        more = f" +{len(listed) - MAX_MERGE_PAPERS}" if len(listed) > MAX_MERGE_PAPERS else ""
        lines.add(f"{name} [{rule}: {', '.join(listed[:MAX_MERGE_PAPERS])}{more}]")
    if lines:
        node["merged_from"] = sorted(lines)


@lru_cache(maxsize=1 << 16)  # names repeat across papers
def _form(name: str) -> str:
    """The form names are grouped under: canonical, singular, without hyphens and spaces."""
    return match_form(canonical_name(name))


@lru_cache(maxsize=1 << 16)
def _is_short_form(name: str) -> bool:
    """A one-word name with two capitals or a capital and a digit ('NLP', 'mBERT', 'XLM-R', 'T5')."""
    if " " in name or len(name) > 15:
        return False
    capitals = sum(c.isupper() for c in name)
    return capitals >= 2 or (capitals == 1 and any(c.isdigit() for c in name))


def _add_alias(node: dict, alias: str) -> None:
    aliases = node["aliases"]
    if alias not in aliases:
        aliases.append(alias)
        aliases.sort()


def _short(text: str, words: int = 10) -> str:
    parts = text.split()
    return " ".join(parts[:words]) + ("…" if len(parts) > words else "")
