"""What admission hands the builder: one paper's admitted names and relations, and its refusals with reasons."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from paperkg.core.schema import Extraction, Mention, Relation


class AdmittedName(NamedTuple):
    """A mention admitted as a node's name: the name it goes by (repaired) and what the builder groups it by."""

    mention: Mention     # as extracted (its evidence); its `name` the name as extracted
    name: str            # the repaired name
    rule: str            # the repair its name needed ('' for none)
    form: str            # the group form of the repaired name (core.canonical.group_form)
    short: str | None    # the short form it defines (with `form` its long form) or, bare, stands for
    short_text: str      # that short form as written ('LLMs')
    bare: bool           # the mention is the short form alone


class NameRefusal(NamedTuple):
    """A mention that is no node, and why (a reason of NAME_REASONS)."""

    paper: str
    name: str
    label: str
    reason: str


class RelationRefusal(NamedTuple):
    """A relation that is no edge (or a SYNONYM_OF that merges nothing), and why (a reason of RELATION_REASONS)."""

    paper: str
    type: str
    head: str
    tail: str
    reason: str


@dataclass
class Admitted:
    """One paper after admission: its record, its admitted names (aligned with the record's entities; None:
    refused), the typed relations that may make edges, the pairs of names said to be one thing, and the
    refusals."""

    record: Extraction
    names: list[AdmittedName | None]
    relations: list[Relation] = field(default_factory=list)
    synonyms: list[tuple[str, str]] = field(default_factory=list)
    refused_names: list[NameRefusal] = field(default_factory=list)
    refused_relations: list[RelationRefusal] = field(default_factory=list)


# Why a mention is no node: the extraction's termhood reasons (extract/entities.py, extract/junk_names.py),
# then admission's own.
NAME_REASONS = {
    "rare": "a description made up for one paper: the field's abstracts do not use the phrase",
    "vague": "a kind of procedure named by its purpose ('alignment process')",
    "common-word": "one word too common in the field's abstracts to name anything",
    "generic": "a phrase with an evaluative or generic word ('real-world application')",
    "modifier": "shaped like a modifier ('Token-Guided', 'ResNet-style')",
    "verb-phrase": "a clause, not a noun phrase ('predict Gaussian')",
    "possessive": "a possessive ('Greenland's')",
    "quantity": "a measured change ('2x speedup')",
    "untyped": "a term of none of the four entity types",
    "no-name": "its name is no name (a number, a word cut at a hyphen)",
    "no-type": "a term of none of the four entity types",
    "thesaurus": "the --thesaurus drops it",
    "organisation": "an organisation or company ('OpenAI', 'AMD')",
    "product": "a product or service ('GitHub repository')",
    "law": "a law or regulation ('GDPR')",
    "venue": "a venue or conference ('COLING 2025', 'SemEval 2017')",
    "biomedical": "a gene, protein or receptor ('HER2', 'estrogen receptor')",
    "disease": "a disease ('breast cancer')",
    "material": "a material ('graphene')",
    "instrument": "hardware, a sensor or an imaging modality ('GPU', 'LiDAR', 'MRI')",
    "not-a-thing": "an adjective, dimension or colour word, a bare generic word or a property ('Three-dimensional', "
                   "'RGB', 'AI', 'robustness')",
    "coordination": "two terms joined by 'and' or 'or' ('question answering and summarization')",
}
# Why a relation is no edge: admission's rules on the mentions (paper by paper), then the graph's on the
# nodes (corpus-level, once the entity types are final).
RELATION_REASONS = {
    "below-floor": "its confidence (a mention's, or the edge's from all its mentions) is below the graph's floor",
    "end-not-a-node": "one of its mentions is no node",
    "fragment": "an end is a piece of a longer noun phrase where the abstract writes it",
    "verb-phrase": "an end is a gerund with its object ('embedding agents directly into ...')",
    "no-purpose": "a USED_FOR whose sentence states no purpose for the task",
    "synonym-unsure": "a SYNONYM_OF below the confidence a merge needs",
    "synonym-types-differ": "a SYNONYM_OF between names of two types",
    "synonym-short-form": "a SYNONYM_OF with a short form, which acronym resolution decides",
    "not-synonyms": "the corpus reads the two names as different things",
    "one-node": "both ends are one node",
    "ends-not-allowed": "its type does not allow the labels of its ends",
    "generic": "an end names nothing in particular ('misuse')",
    "quality": "an end is a quality, no thing to relate ('computational efficiency')",
    "no-task": "a Task end whose head is no task noun ('3D scenes')",
    "not-dataset": "a Dataset end that is a language, an organisation or a toolkit",
}
