"""The build's refusals by name: for each name no node took (or each relation no edge took) the reasons, how
often and in which papers, so that `paperkg why NAME` can say why something is not in the graph.

Names are tallied under their canonical form, relations under their ends' canonical forms and type; a tally
keeps the count and the first MAX_PAPERS papers by id, so the table is the same whatever order the papers
came in. Saved as admission.json beside the graph, versioned.
"""
from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from paperkg.core.canonical import canonical_name
from paperkg.core.schema import read_versioned

from .records import NameRefusal, RelationRefusal

ADMISSION_KEY = "paperkg_admission"
ADMISSION_VERSION = 1
MAX_PAPERS = 5   # papers kept per name (or relation) and reason; the count says how many
MAX_FORMS = 5    # surface forms kept per name


@dataclass
class Tally:
    """How often a reason refused a name or relation, and in which papers (the first MAX_PAPERS by id)."""

    count: int = 0
    papers: set[str] = field(default_factory=set)

    def add(self, papers: Iterable[str], count: int = 1) -> None:
        """Count `count` more refusals, in `papers`."""
        self.count += count
        self.papers.update(papers)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON: the count and the first papers."""
        return {"count": self.count, "papers": sorted(self.papers)[:MAX_PAPERS]}


@dataclass
class NameEntry:
    """The refusals of one canonical name: its surface forms, labels seen and reasons."""

    forms: Counter[str] = field(default_factory=Counter)
    reasons: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))


@dataclass
class RelationEntry:
    """The refusals of one relation between two names (canonical forms) of one type."""

    type: str
    head: str
    tail: str
    reasons: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))


@dataclass
class RefusalTable:
    """Every refusal of a build, by name and by relation."""

    names: dict[str, NameEntry] = field(default_factory=lambda: defaultdict(NameEntry))
    relations: dict[tuple[str, str, str], RelationEntry] = field(default_factory=dict)

    def add_names(self, refusals: Iterable[NameRefusal]) -> None:
        """Tally refused mentions."""
        for refusal in refusals:
            entry = self.names[canonical_name(refusal.name)]
            entry.forms[refusal.name] += 1
            entry.reasons[refusal.reason].add((refusal.paper,))

    def add_relations(self, refusals: Iterable[RelationRefusal]) -> None:
        """Tally refused relations."""
        for refusal in refusals:
            self.add_relation(refusal.type, refusal.head, refusal.tail, refusal.reason, (refusal.paper,))

    def add_relation(self, kind: str, head: str, tail: str, reason: str, papers: Iterable[str],
                     count: int = 1) -> None:
        """Tally `count` refusals of the relation head -[kind]-> tail, stated in `papers`."""
        key = (canonical_name(head), kind, canonical_name(tail))
        entry = self.relations.get(key)
        if entry is None:
            entry = self.relations[key] = RelationEntry(kind, key[0], key[2])
        entry.reasons[reason].add(papers, count)

    def update(self, other: RefusalTable) -> None:
        """Add another part of the corpus' refusals, keeping the first MAX_PAPERS papers of each tally (all
        the table shows), so that a corpus' table costs its names, not its papers."""
        for name, entry in other.names.items():
            mine = self.names[name]
            mine.forms.update(entry.forms)
            _add_tallies(mine.reasons, entry.reasons)
        for key, relation in other.relations.items():
            if key not in self.relations:
                self.relations[key] = RelationEntry(relation.type, relation.head, relation.tail)
            _add_tallies(self.relations[key].reasons, relation.reasons)

    def about(self, name: str) -> tuple[NameEntry | None, list[RelationEntry]]:
        """The refusals of `name` (any case or plural): as a name, and of the relations it ends."""
        wanted = canonical_name(name)
        related = [self.relations[key] for key in sorted(self.relations) if wanted in (key[0], key[2])]
        return self.names.get(wanted), related

    def name_lines(self) -> Iterator[tuple[str, str]]:
        """Each refused name with its line of admission.json, in name order."""
        for name, entry in sorted(self.names.items()):
            yield name, json.dumps({"name": name, "forms": _forms(entry.forms), "reasons": _reasons(entry.reasons)},
                                   sort_keys=True, ensure_ascii=False)

    def relation_lines(self) -> Iterator[tuple[tuple[str, str, str], str]]:
        """Each refused relation's key (head, type, tail) with its line of admission.json, in key order."""
        for key, entry in sorted(self.relations.items()):
            yield key, json.dumps({"type": entry.type, "head": entry.head, "tail": entry.tail,
                                   "reasons": _reasons(entry.reasons)}, sort_keys=True, ensure_ascii=False)

    def to_json(self) -> str:
        """The table as JSON text, keys sorted, one name or relation a line."""
        text: list[str] = []
        write_admission((line for _, line in self.name_lines()), (line for _, line in self.relation_lines()),
                        text.append)
        return "".join(text)

    @classmethod
    def from_json(cls, text: str, where: str) -> RefusalTable:
        """The table from its JSON text; SchemaError naming `where` when it is not one of this version."""
        def make(data: dict[str, Any]) -> RefusalTable:
            table = cls()
            for item in data["names"]:
                table.names[item["name"]] = NameEntry(Counter(item["forms"]), _tallies(item["reasons"]))
            for item in data["relations"]:
                table.relations[item["head"], item["type"], item["tail"]] = RelationEntry(
                    item["type"], item["head"], item["tail"], _tallies(item["reasons"]))
            return table
        return read_versioned(text, ADMISSION_KEY, ADMISSION_VERSION, where, "admission table", make)


def write_admission(names: Iterable[str], relations: Iterable[str], write: Callable[[str], object]) -> None:
    """admission.json from its name lines and its relation lines (each in key order: RefusalTable.name_lines,
    relation_lines), a line at a time: a build at scale merges them from its buckets of names, never holding the
    corpus' table (graph/assembly.py)."""
    write(f'{{"{ADMISSION_KEY}": {ADMISSION_VERSION},\n"names": [\n')
    _joined(names, write)
    write('\n],\n"relations": [\n')
    _joined(relations, write)
    write("\n]}\n")


def _joined(lines: Iterable[str], write: Callable[[str], object]) -> None:
    for number, line in enumerate(lines):
        write(",\n" + line if number else line)


def _add_tallies(mine: dict[str, Tally], other: dict[str, Tally]) -> None:
    for reason, tally in other.items():
        kept = mine[reason]
        kept.add(tally.papers, tally.count)
        kept.papers = set(sorted(kept.papers)[:MAX_PAPERS])


def _forms(forms: Counter[str]) -> dict[str, int]:
    """The most used surface forms (ties by form)."""
    return dict(sorted(forms.items(), key=lambda item: (-item[1], item[0]))[:MAX_FORMS])


def _reasons(reasons: dict[str, Tally]) -> dict[str, dict[str, Any]]:
    return {reason: tally.to_dict() for reason, tally in sorted(reasons.items())}


def _tallies(data: dict[str, Any]) -> dict[str, Tally]:
    return {reason: Tally(int(item["count"]), set(map(str, item["papers"]))) for reason, item in data.items()}
