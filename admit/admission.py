"""One paper's admission: which mentions are node names and which relations may be edges, paper by paper.

In order: the user thesaurus renames or drops mentions; a mention extraction did not take for a term (its
termhood reason) is no node unless it is the paper's own term (in its title, or used three times), nor is one
whose name is no name (a number, a cut word; a name cut at a line- break hyphen is joined first, and a defined
short form whose long form is no name stays as the short form) or of none of the four types, nor a thing
outside the schema (an organisation, a venue, a law, a gene, a disease, an adjective or generic word:
not_entities.py), nor two terms joined by 'and'. A SYNONYM_OF relation says two admitted names are one thing
when it is sure enough, both have one type and neither is a short form; a typed relation counts towards an
edge (which the graph decides from all its mentions) when it reaches the mention floor, both ends are
admitted, neither end is a piece of a longer noun phrase where the abstract writes it, and a USED_FOR states
a purpose. Every refusal is kept with its reason (records.py). Corpus-level decisions (what a short form
stands for, which names are one node, its type) are the graph's.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import replace

from paperkg.core.canonical import acronym_key, canonical_name, group_form
from paperkg.core.schema import MENTION_FLOOR, Extraction, Mention, Relation, RelType

from .names import clean_name, coordination, hyphenated_names, is_short_form
from .not_entities import kind_of
from .records import Admitted, AdmittedName, NameRefusal, RelationRefusal
from .relation_ends import mention_refusal, purpose_refusal
from .thesaurus import apply_thesaurus

SYNONYM_MIN_CONFIDENCE = 0.8  # a SYNONYM_OF relation merges its two names only when at least this sure
# Sources whose names are one term even with 'and' inside: a curated entry, an acronym's long form
# ('question and answering (Q&A)').
KEEPS_COORDINATION = frozenset({"lexicon", "acronym"})
# A paper's own term is a node even where the corpus statistics call it rare or vague: in its title, or used
# this often in its abstract.
OWN_TERM_REASONS = frozenset({"rare", "vague"})
OWN_TERM_USES = 3


def admit(record: Extraction, thesaurus: dict[str, str] | None = None,
          min_confidence: float = MENTION_FLOOR) -> Admitted:
    """The paper's admitted names and relations, and its refusals (`min_confidence`: the least confidence a
    relation's mention needs to count towards an edge, which the graph decides from all its mentions)."""
    record, dropped = apply_thesaurus(record, thesaurus or {})
    paper = record.paper.id
    admitted = Admitted(record, [], refused_names=[NameRefusal(paper, m.name, _label(m), "thesaurus")
                                                   for m in dropped])
    cut = hyphenated_names(record)
    own = own_terms(record)
    for mention in record.entities:
        name, reason = admitted_name(replace(mention, node=True) if mention.name.lower() in own else mention, cut)
        admitted.names.append(name)
        if reason:
            admitted.refused_names.append(NameRefusal(paper, mention.name, _label(mention), reason))
    _admit_relations(admitted, min_confidence)
    return admitted


def admit_all(records: Iterable[Extraction], thesaurus: dict[str, str] | None = None,
              min_confidence: float = MENTION_FLOOR) -> Iterator[Admitted]:
    """Each record admitted."""
    return (admit(record, thesaurus, min_confidence) for record in records)


def own_terms(record: Extraction) -> frozenset[str]:
    """The paper's own terms that the corpus statistics found too rare or vague (lower case): a phrase of its
    title ('network alignment', 'Petri net model') or one its abstract uses OWN_TERM_USES times or more; a
    paper's central term is a node however rare it is in the corpus."""
    title = f" {' '.join((record.paper.title or '').lower().split())} "
    uses = Counter(m.name.lower() for m in record.entities if m.termhood in OWN_TERM_REASONS and m.label is not None)
    return frozenset(name for name, count in uses.items()
                     if " " in name and (count >= OWN_TERM_USES or f" {name} " in title))


def admitted_name(mention: Mention, hyphenated: dict[str, str]) -> tuple[AdmittedName | None, str]:
    """The mention as a node's name, or (None, why not)."""
    if not mention.node:
        return None, mention.termhood
    name, rule = hyphenated.get(mention.name, mention.name), "hyphenation" if mention.name in hyphenated else ""
    cleaned = clean_name(name)
    if cleaned is None and mention.acronym and mention.text == mention.acronym:
        cleaned = clean_name(mention.acronym)
        mention = replace(mention, name=mention.acronym)
    if cleaned is None or mention.label is None:
        return None, "no-name" if cleaned is None else "no-type"
    name, rule = cleaned.name, cleaned.rule or rule
    refusal = kind_of(name) or kind_of(mention.text) or (mention.acronym and kind_of(mention.acronym)) or (
        mention.source not in KEEPS_COORDINATION and coordination(name))
    if refusal:
        return None, refusal
    short = acronym_key(mention.acronym) if mention.acronym else None
    bare = is_short_form(name) and (short is None or canonical_name(mention.acronym) == canonical_name(name))
    if bare:
        short = acronym_key(name)
    return AdmittedName(mention, name, rule, group_form(name), short, mention.acronym or name, bare), ""


def _admit_relations(admitted: Admitted, min_confidence: float) -> None:
    """Sort the record's relations into synonyms, relations that may be edges and refusals."""
    record, names = admitted.record, admitted.names
    kept: list[Relation] = []
    for rel in record.relations:
        if rel.type is RelType.SYNONYM_OF:  # another name of the same thing: one node, not an edge
            reason = synonym_refusal(rel, names[rel.head], names[rel.tail])
            if not reason:
                admitted.synonyms.append((record.entities[rel.head].name, record.entities[rel.tail].name))
            elif reason != "one-name":
                _refuse(admitted, rel, reason)
        elif rel.confidence >= min_confidence:  # the mention floor (core/schema.py)
            kept.append(rel)
        else:
            _refuse(admitted, rel, "below-floor")
    ends = {i for rel in kept for i in (rel.head, rel.tail) if names[i] is not None}  # each mention judged once
    written = {i: found for i in ends if (found := mention_refusal(record.paper.abstract, record.entities[i]))}
    for rel in kept:
        why = ("end-not-a-node" if names[rel.head] is None or names[rel.tail] is None
                  else written.get(rel.head) or written.get(rel.tail)
                  or purpose_refusal(rel.type, record.entities[rel.tail]))
        if why:
            _refuse(admitted, rel, why)
        else:
            admitted.relations.append(rel)


def synonym_refusal(rel: Relation, head: AdmittedName | None, tail: AdmittedName | None) -> str:
    """Why a SYNONYM_OF relation merges nothing ('' when it merges its two names): not sure enough, an end no
    node, two types, one name already ('one-name'), or a short form (what a short form stands for is the acronym
    resolution's call, which checks its letters: the model pairs 'FedKD (Federated Distillation)' too)."""
    if rel.confidence < SYNONYM_MIN_CONFIDENCE:
        return "synonym-unsure"
    if head is None or tail is None:
        return "end-not-a-node"
    if head.mention.label != tail.mention.label:
        return "synonym-types-differ"
    if head.form == tail.form:
        return "one-name"
    return "synonym-short-form" if head.bare or tail.bare else ""


def _refuse(admitted: Admitted, rel: Relation, reason: str) -> None:
    entities = admitted.record.entities
    admitted.refused_relations.append(RelationRefusal(admitted.record.paper.id, rel.type.value,
                                                      entities[rel.head].name, entities[rel.tail].name, reason))


def _label(mention: Mention) -> str:
    return mention.label.value if mention.label is not None else ""
