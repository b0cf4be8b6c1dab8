"""The contract between the stages: node labels, relationship types, their properties, and the
records that travel from the readers to extraction and from extraction to the graph.

extract/ writes `Extraction` records, graph/ reads them (also from extractions.jsonl, without
spaCy); graph/, viz/ and cypher/ take their labels and relationship types from here (the attributes
of the graph's nodes and edges: core/graph_model.py).
`SCHEMA_VERSION` is written into every extraction line and into graph.json and checked when
they are read back, so an old file is refused with a sentence rather than misread.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, fields
from enum import Enum
from typing import Any, Callable, TypeVar

from paperkg.core.errors import ExitCode, PaperkgError

SCHEMA_VERSION = 5  # 3: no Concept label, a mention of none of the four types has label null;
# 4: sentence spans in the extraction record, sentence_start in the evidence; 5: reported results in the
# extraction record, Result nodes in the graph
SCHEMA_KEY = "paperkg_schema"  # the field (extraction line) and graph attribute (graph.json) holding it


class NodeLabel(str, Enum):
    """Node labels of the graph (Neo4j labels, GraphML `label`)."""

    PAPER = "Paper"
    METHOD = "Method"
    TASK = "Task"
    DATASET = "Dataset"
    METRIC = "Metric"
    RESULT = "Result"


ENTITY_LABELS: tuple[NodeLabel, ...] = (NodeLabel.METHOD, NodeLabel.TASK, NodeLabel.DATASET, NodeLabel.METRIC)
TERM_LABELS: tuple[NodeLabel, ...] = ENTITY_LABELS  # the types a mention can have to become a node


class RelType(str, Enum):
    """Relationship types: a paper's role towards an entity, and typed relations between entities."""

    PROPOSES = "PROPOSES"
    EVALUATES_ON = "EVALUATES_ON"
    ADDRESSES = "ADDRESSES"
    MENTIONS = "MENTIONS"
    USED_FOR = "USED_FOR"
    EVALUATED_ON = "EVALUATED_ON"
    TRAINED_ON = "TRAINED_ON"
    BENCHMARK_FOR = "BENCHMARK_FOR"
    COMPARED_WITH = "COMPARED_WITH"
    IS_A = "IS_A"
    SUBTASK_OF = "SUBTASK_OF"
    PART_OF = "PART_OF"
    SYNONYM_OF = "SYNONYM_OF"  # another name of the same thing: merges two names, never an edge
    REPORTS = "REPORTS"          # (:Paper)-[:REPORTS]->(:Result)
    FOR_METHOD = "FOR_METHOD"    # (:Result)-[:FOR_METHOD]->(:Method)
    ON_DATASET = "ON_DATASET"    # (:Result)-[:ON_DATASET]->(:Dataset)
    WITH_METRIC = "WITH_METRIC"  # (:Result)-[:WITH_METRIC]->(:Metric)
    ON_TASK = "ON_TASK"          # (:Result)-[:ON_TASK]->(:Task)


class Role(str, Enum):
    """What a paper does with an entity it names; each role is one Paper -> entity relationship type."""

    PROPOSES = "proposes"
    EVALUATES_ON = "evaluates_on"
    ADDRESSES = "addresses"
    MENTIONS = "mentions"

    @property
    def rel_type(self) -> RelType:
        """The relationship type of this role."""
        return _ROLE_TYPES[self]


_ROLE_TYPES: dict[Role, RelType] = {role: RelType[role.name] for role in Role}  # looked up once per mention


# Weakest first: a paper keeps one edge to an entity, of its strongest role.
ROLE_STRENGTH: tuple[RelType, ...] = (RelType.MENTIONS, RelType.ADDRESSES, RelType.EVALUATES_ON, RelType.PROPOSES)
PAPER_REL_TYPES: frozenset[RelType] = frozenset(ROLE_STRENGTH)

_M, _T, _D = NodeLabel.METHOD, NodeLabel.TASK, NodeLabel.DATASET
_SAME_LABEL = frozenset((label, label) for label in TERM_LABELS)

# The (head, tail) labels each entity-entity relationship type allows; an edge outside them is never written.
REL_ENDS: dict[RelType, frozenset[tuple[NodeLabel, NodeLabel]]] = {
    RelType.USED_FOR: frozenset({(_M, _T), (_M, _M)}),
    RelType.EVALUATED_ON: frozenset({(_M, _D)}),
    RelType.TRAINED_ON: frozenset({(_M, _D)}),
    RelType.BENCHMARK_FOR: frozenset({(_D, _T)}),
    RelType.COMPARED_WITH: frozenset({(_M, _M)}),
    RelType.IS_A: _SAME_LABEL,
    RelType.SUBTASK_OF: frozenset({(_T, _T)}),
    RelType.PART_OF: frozenset({(_M, _M)}),
    RelType.SYNONYM_OF: _SAME_LABEL,
}
SYMMETRIC_REL_TYPES: frozenset[RelType] = frozenset({RelType.COMPARED_WITH, RelType.SYNONYM_OF})
# A result's relationships: the paper reporting it, and what it is of (each part's type, the label of its end).
RESULT_REL_TYPES: dict[RelType, NodeLabel] = {RelType.REPORTS: NodeLabel.PAPER, RelType.FOR_METHOD: NodeLabel.METHOD,
                                              RelType.ON_DATASET: NodeLabel.DATASET,
                                              RelType.WITH_METRIC: NodeLabel.METRIC, RelType.ON_TASK: NodeLabel.TASK}
# How sure a typed edge is: calibrated from all the mentions that state it across papers (admit/edge_confidence.py).
# The graph keeps every typed edge at RELATION_FLOOR and up (graph.json, GraphML, Neo4j, each with its confidence
# and support); the views, the layout weights of the exports and the query library show those at
# DEFAULT_MIN_CONFIDENCE and up unless the user sets another (--min-confidence, the `min_confidence` setting).
# A mention below MENTION_FLOOR adds nothing to an edge (admission refuses it).
RELATION_FLOOR = 0.25
DEFAULT_MIN_CONFIDENCE = 0.8
MENTION_FLOOR = 0.05
# Entity-entity types in the graph, in legend order (SYNONYM_OF merges nodes instead).
ENTITY_REL_TYPES: tuple[RelType, ...] = tuple(kind for kind in REL_ENDS if kind is not RelType.SYNONYM_OF)


def relation_allowed(kind: RelType, head: NodeLabel | str, tail: NodeLabel | str) -> bool:
    """Whether an entity-entity relation of this type may join a head and a tail of these labels."""
    try:
        return (NodeLabel(head), NodeLabel(tail)) in REL_ENDS.get(kind, frozenset())
    except ValueError:
        return False


class SchemaError(PaperkgError):
    """A saved record or graph that does not follow this schema; the message names the file."""

    def __init__(self, message: str) -> None:
        super().__init__(message, ExitCode.USAGE)


@dataclass
class PaperRecord:
    """One paper: stable id, normalised abstract and whatever metadata the input had."""

    id: str                    # the input's id (arXiv without version, DOI without resolver), else "h" + a hash
    abstract: str              # normalised: markup, LaTeX and HTML read as text
    title: str | None = None
    year: int | None = None
    venue: str | None = None
    authors: list[str] = field(default_factory=list)
    url: str | None = None
    code_url: str | None = None  # a GitHub or project URL taken out of the text
    source: str | None = None  # "path:line" where the record starts

    def to_dict(self) -> dict[str, Any]:
        """Plain-JSON form, keys in a fixed order."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PaperRecord:
        """The record from its plain-JSON form (unknown keys are an error)."""
        return cls(**data)


@dataclass(frozen=True)
class Mention:
    """An entity mention in a paper, with the sentence and character span that are its evidence."""

    text: str            # as written
    name: str            # the name the graph canonicalises (the long form for an acronym)
    label: NodeLabel | None  # None: a term of none of the entity types (never a node)
    start: int           # character offsets into the abstract
    end: int
    sentence: int        # index into Extraction.sentences
    source: str          # which extractor: acronym, lexicon, cue, name, model
    confidence: float
    role: Role = Role.MENTIONS  # what the paper does with it
    proposed: bool = False  # the paper proposes it
    acronym: str | None = None  # its short form, where the paper defines one
    node: bool = True       # the mention becomes a graph node (it reads as a term)
    termhood: str = ""      # the rule that made it a node, or the reason it is not one


@dataclass(frozen=True)
class AcronymDefinition:
    """A short form defined in the text by its long form."""

    short: str
    long: str
    start: int           # the short form's offsets
    end: int
    long_start: int      # the long form's offsets
    long_end: int
    sentence: int
    rule: str            # the pattern that found it (extract/acronym_finder.py RULES)
    confidence: float


@dataclass(frozen=True)
class UndefinedAcronym:
    """A short form seen without a definition in this paper (resolved later by the graph, if it can)."""

    text: str
    start: int
    end: int
    sentence: int


@dataclass(frozen=True)
class Relation:
    """A typed relation between two mentions (indices into Extraction.entities) found in one sentence."""

    type: RelType
    head: int            # index into Extraction.entities
    tail: int
    sentence: int
    source: str          # model, acronym (SYNONYM_OF from a definition) or cue
    confidence: float    # for the model's: its type's precision at that probability


class ResultKind(str, Enum):
    """What a reported value is: a level reached ('28.4 BLEU') or a change ('by 2.1 points')."""

    ABSOLUTE = "absolute"
    CHANGE = "change"


@dataclass(frozen=True)
class ResultPart:
    """What a result is of (its metric, data set, method, task or comparison) as the abstract writes it: the text,
    where (character offsets into the abstract; None for a name the title gives), and the entity mention it is
    or holds (an index into Extraction.entities; None when it is none)."""

    text: str
    start: int | None = None
    end: int | None = None
    entity: int | None = None


@dataclass(frozen=True)
class ResultStatement:
    """A result the abstract reports: the value with its evidence (sentence, character span) and what it is of."""

    value: str               # its numbers as written, without unit marks ('9-19' of '9%-19%')
    start: int               # the value as written, with its sign and unit, in the abstract
    end: int
    sentence: int            # index into Extraction.sentences
    kind: ResultKind
    unit: str | None = None  # '%', 'points', 'x' or None
    relative: bool = False   # a relative change, a multiplier, or a share of a compared figure
    direction: str | None = None  # for a change: 'up' or 'down'
    split: str | None = None  # the split the sentence names ('test', 'dev', 'validation', ...)
    proposed: bool = True    # the paper's own method's figure
    confidence: float = 0.0  # the result model's probability
    metric: ResultPart | None = None
    dataset: ResultPart | None = None
    method: ResultPart | None = None  # a named method (the paper's own named one, when proposed); None: unnamed
    task: ResultPart | None = None
    comparison: ResultPart | None = None

    @property
    def numbers(self) -> list[float]:
        """The value's numbers (a range has two), thousands commas removed."""
        return [float(n) for n in re.findall(r"\d+(?:\.\d+)?", re.sub(r"(?<=\d),(?=\d{3})", "", self.value))]


RESULT_PARTS = ("metric", "dataset", "method", "task", "comparison")


@dataclass
class Extraction:
    """Everything extracted from one paper: one line of extractions.jsonl.

    `sentence_spans[i]` is where `sentences[i]` lies in the abstract, so that evidence is placed by
    offsets, never found again by searching text (a repeated sentence would be found at its first place).
    """

    paper: PaperRecord
    sentences: list[str]
    entities: list[Mention] = field(default_factory=list)  # every typed mention, nodes or not
    acronyms: list[AcronymDefinition] = field(default_factory=list)
    undefined_acronyms: list[UndefinedAcronym] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)  # every relation found, at any confidence
    sentence_spans: list[tuple[int, int]] = field(default_factory=list)  # (start, end) of each sentence
    results: list[ResultStatement] = field(default_factory=list)  # the results it reports

    def __post_init__(self) -> None:
        """Every sentence has its span, and the span holds that sentence (ValueError otherwise)."""
        if len(self.sentence_spans) != len(self.sentences):
            raise ValueError(f"{len(self.sentences)} sentences but {len(self.sentence_spans)} sentence spans")
        for sentence, (start, end) in zip(self.sentences, self.sentence_spans):
            if self.paper.abstract[start:end] != sentence:
                raise ValueError(f"sentence span {start}-{end} does not hold the sentence {sentence[:40]!r}")

    def to_dict(self) -> dict[str, Any]:
        """Plain-JSON form with the schema version."""
        return {
            SCHEMA_KEY: SCHEMA_VERSION,
            "paper": self.paper.to_dict(),
            "sentences": self.sentences,
            "sentence_spans": [list(span) for span in self.sentence_spans],
            "entities": [_plain(m) for m in self.entities],
            "acronyms": [_plain(a) for a in self.acronyms],
            "undefined_acronyms": [_plain(u) for u in self.undefined_acronyms],
            "relations": [_plain(r) for r in self.relations],
            "results": [_result_plain(r) for r in self.results],
        }

    def to_json(self) -> str:
        """One JSON line (no newline), keys sorted, so equal records give equal bytes."""
        return json.dumps(self.to_dict(), ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str) -> Extraction:
        """The record from its JSON form; SchemaError naming `where` when it is not one of this schema."""
        version = data.get(SCHEMA_KEY) if isinstance(data, dict) else None
        if version != SCHEMA_VERSION:
            raise SchemaError(f"{where}: extraction record of schema {version!r}, this paperkg reads schema "
                              f"{SCHEMA_VERSION}; extract it again with this version.")
        try:
            return cls(
                paper=PaperRecord.from_dict(data["paper"]),
                sentences=list(data["sentences"]),
                entities=[_frozen(Mention, {**m, "label": m["label"] and enum_member(NodeLabel, m["label"]),
                                            "role": enum_member(Role, m["role"])}) for m in data["entities"]],
                acronyms=[_frozen(AcronymDefinition, {**a}) for a in data["acronyms"]],
                undefined_acronyms=[_frozen(UndefinedAcronym, {**u}) for u in data["undefined_acronyms"]],
                relations=[_frozen(Relation, {**r, "type": enum_member(RelType, r["type"])})
                           for r in data["relations"]],
                sentence_spans=[(int(start), int(end)) for start, end in data["sentence_spans"]],
                results=[_result(r) for r in data.get("results", [])],
            )
        except (KeyError, TypeError, ValueError) as error:
            raise SchemaError(f"{where}: not a paperkg extraction record ({error}).") from None

    @classmethod
    def from_json(cls, line: str, where: str) -> Extraction:
        """The record from one line of extractions.jsonl."""
        try:
            data = json.loads(line)
        except json.JSONDecodeError as error:
            raise SchemaError(f"{where}: not valid JSON ({error.msg} at column {error.colno}).") from None
        return cls.from_dict(data, where)


_R = TypeVar("_R")
_E = TypeVar("_E", bound=Enum)
_FIELD_NAMES: dict[type, frozenset[str]] = {cls: frozenset(f.name for f in fields(cls))
                                            for cls in (Mention, AcronymDefinition, UndefinedAcronym, Relation)}
_MEMBERS: dict[type[Enum], dict[Any, Enum]] = {kind: {member.value: member for member in kind}
                                               for kind in (NodeLabel, Role, RelType, ResultKind)}


def _frozen(cls: type[_R], values: dict[str, Any]) -> _R:
    """cls(**values) for one of the frozen records above, made without its __init__ (which sets each field
    through object.__setattr__, the larger part of reading a line) when `values`, a dict of its own, names
    exactly its fields; otherwise cls(**values), whose TypeError says what is wrong."""
    if values.keys() != _FIELD_NAMES[cls]:
        return cls(**values)
    record = object.__new__(cls)
    object.__setattr__(record, "__dict__", values)
    return record


def enum_member(kind: type[_E], value: Any) -> _E:
    """kind(value), found in a dict first for the schema's enums (an Enum call costs a microsecond, and lines
    and graph edges name millions of them); kind(value) raises as it would."""
    try:
        return _MEMBERS[kind][value]  # type: ignore[return-value]
    except (KeyError, TypeError):
        return kind(value)


def _plain(record: Any) -> dict[str, Any]:
    """A frozen record's fields as plain JSON values (enums as their values)."""
    return {f.name: _value(getattr(record, f.name)) for f in fields(record)}


def _result_plain(result: ResultStatement) -> dict[str, Any]:
    """A result as plain JSON: its parts as objects (or null)."""
    plain = {f.name: _value(getattr(result, f.name)) for f in fields(result)}
    for name in RESULT_PARTS:
        part = getattr(result, name)
        plain[name] = None if part is None else _plain(part)
    return plain


def _result(data: dict[str, Any]) -> ResultStatement:
    """A result from its plain JSON (TypeError or ValueError when it is not one)."""
    parts = {name: None if data.get(name) is None else ResultPart(**data[name]) for name in RESULT_PARTS}
    return ResultStatement(**{**data, **parts, "kind": enum_member(ResultKind, data["kind"])})


def _value(value: Any) -> Any:
    return value.value if isinstance(value, Enum) else value


def read_versioned(text: str, key: str, version: int, where: str, what: str, make: Callable[[Any], _R]) -> _R:
    """`make` of the JSON in `text` whose field `key` is `version` (a build's layer file); SchemaError naming
    `where` and saying `what` it should be when it is not one of this version or not of that shape."""
    try:
        data = json.loads(text)
        if data.get(key) != version:
            raise ValueError(f"version {data.get(key)!r}, this paperkg reads {version}")
        return make(data)
    except (ValueError, KeyError, TypeError, AttributeError, IndexError) as error:
        raise SchemaError(f"{where} is not a paperkg {what} ({error}); build again.") from None


def check_graph_schema(version: Any, where: str) -> None:
    """Refuse a saved graph written under another schema version, naming the file."""
    if version != SCHEMA_VERSION:
        raise SchemaError(f"{where} was written with paperkg graph schema {version!r}; this paperkg reads "
                          f"schema {SCHEMA_VERSION}: build it again (paperkg build, or build --from-extractions).")
