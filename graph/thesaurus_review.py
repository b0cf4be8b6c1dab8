"""The merges a graph made and the ones it did not, as a thesaurus file a user reviews, edits and builds
with (`paperkg thesaurus`, then `paperkg build --thesaurus`).

Rows are VOSviewer's 'label<TAB>replace by'. The merges made are active rows (keeping them changes
nothing; deleting one does not undo it, a row 'name<TAB>name' does not either: the builder's rules
still apply); candidate merges not made are commented rows, to uncomment: names spelt almost alike,
and a short form beside the multi-word names its letters spell.
"""
from __future__ import annotations

import re
from collections import defaultdict
from difflib import SequenceMatcher

import networkx as nx

from paperkg.core import graph_model as model
from paperkg.core.graph_model import EntityNode

from paperkg.core.canonical import match_form

HEADER = "label\treplace by"
SIMILAR = 0.9          # SequenceMatcher ratio of two names' compared forms for a candidate
MIN_SIMILAR_CHARS = 8  # shorter names differ too often by one meaningful letter ('GPT-3', 'GPT-4')
PER_PAPER = frozenset({"acronym-context", "acronym-paper-variant", "head-ellipsis"})  # merges decided per paper
_MERGED = re.compile(r"^(?P<name>.*) \[(?P<rule>[\w-]+): (?P<papers>.*)\]$")
_WORD = re.compile(r"^[^\W\d_][a-z]*$")  # a word ('graph', 'Neural'), not a name ('BERT', 'iPhone')
_SHORT = re.compile(r"^[A-Z][A-Za-z]*[A-Z]s?$")  # letters only, two capitals or more: 'GNN', 'LLMs'


def thesaurus_text(graph: nx.MultiDiGraph) -> str:
    """The thesaurus file of a graph: header, merges made (active), candidate merges (commented)."""
    entities = dict(model.entities(graph))
    made = merges_made(entities)
    lines = [HEADER, f"# merges made ({len(made)}), each after the rule and papers that made it; a merge "
                     "made paper by paper is commented (as a row it would apply to every paper)"]
    for name, into, rule, papers in made:
        lines += [f"# {rule}: {papers}", f"{'# ' if rule in PER_PAPER else ''}{name}\t{into}"]
    candidates = sorted(set(similar_names(entities)) | set(acronym_letters(entities)))
    lines.append(f"# candidate merges not made ({len(candidates)}): remove the '# ' before a row to merge")
    for name, into, why in candidates:
        lines += [f"# ({why})", f"# {name}\t{into}"]
    return "\n".join(lines) + "\n"


def merges_made(entities: dict[str, EntityNode]) -> list[tuple[str, str, str, str]]:
    """(name, node name, rule, papers) for each name the builder merged into a node."""
    rows = []
    for data in entities.values():
        for line in data.get("merged_from", []):
            found = _MERGED.match(line)
            if found:
                rows.append((found["name"], data["name"], found["rule"], found["papers"]))
    return sorted(rows)


def similar_names(entities: dict[str, EntityNode]) -> list[tuple[str, str, str]]:
    """(smaller node's name, larger node's name, why) for names spelt almost alike, compared within the
    names sharing their first three letters."""
    buckets: dict[str, list[EntityNode]] = defaultdict(list)
    for data in entities.values():
        form = match_form(data["canonical"])
        if len(form) >= MIN_SIMILAR_CHARS:
            buckets[form[:3]].append(data)
    found = []
    for bucket in buckets.values():
        bucket.sort(key=lambda d: d["key"])
        for i, a in enumerate(bucket):
            for b in bucket[i + 1:]:
                ratio = SequenceMatcher(None, match_form(a["canonical"]), match_form(b["canonical"])).ratio()
                if ratio >= SIMILAR and _digits(a) == _digits(b) and _letters(a) != _letters(b):
                    small, large = sorted((a, b), key=lambda d: (d.get("papers", 0), d["key"]))
                    found.append((small["name"], large["name"], f"similar names, {ratio:.2f}"))
    return found


def acronym_letters(entities: dict[str, EntityNode]) -> list[tuple[str, str, str]]:
    """(short form, multi-word name, why) where a bare short-form node's letters are the initials of
    another node's name and no definition joined them."""
    by_initials: dict[str, list[EntityNode]] = defaultdict(list)
    for data in entities.values():
        words = data["name"].replace("-", " ").split()
        if len(words) >= 2 and all(_WORD.match(word) for word in words):
            by_initials["".join(word[0] for word in words).lower()].append(data)
    found = []
    for data in entities.values():
        name = data["name"]
        if not _SHORT.match(name) or data.get("long_form"):
            continue
        letters = name[:-1] if name.endswith("s") and name[-2:-1].isupper() else name
        for other in by_initials.get(letters.lower(), []):
            found.append((name, other["name"], "shared acronym letters"))
    return found


def _letters(data: EntityNode) -> str:
    """The letters of a name: names that differ in symbols only ('DrivaerNet', 'DrivaerNet++') are versions."""
    return "".join(c for c in data["canonical"] if c.isalpha())


def _digits(data: EntityNode) -> str:
    """The digits of a name: 'GPT-3.5' and 'GPT-4' or 'WMT14' and 'WMT16' are different things."""
    return "".join(c for c in data["canonical"] if c.isdigit())
