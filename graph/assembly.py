"""The graph assembled by parts: each step a function of one partition of papers or one bucket of names,
reading and writing files in a work folder, so that no process holds the corpus (orchestrate/dask_assembly.py
runs the steps on Dask). The decisions are decisions.py's, the builder's own:

1. `read_definitions` (a partition): the short forms its papers define, its synonym pairs, its refusals; its
   papers parsed and admitted once, saved for steps 2 and 5.
   The client joins them into the corpus' short forms and groups of forms (builder.corpus_groups).
2. `vote_partition` (a partition): its papers' per-name tables (decisions.NameVotes), one file per bucket of
   group roots, with the roots it will ask for.
3. `decide_bucket` (a bucket of roots): each root's node choice (decisions.decide_node), sent to the bucket
   of its node key.
4. `node_bucket` (a bucket of keys): the entity node of the roots sharing each key (decisions.entity_node),
   and for each partition the nodes of the roots it asked for.
5. `edge_partition` (a partition): its paper nodes and edges (decisions.paper_edges), its papers' result nodes
   and edges (results.result_graph), what it adds to each entity (mentions, aliases, papers) and its relations,
   by key bucket.
6. `entity_bucket` (a bucket of keys): entity nodes, and the typed edges between a pair of nodes whose lower key
   is in the bucket, each decided from all its mentions across partitions (decisions.relation_edge).
7. `write_parts` (a partition or bucket): its nodes with their metrics (computed on the client from the
   edges' numbers only: metrics.node_metrics) and its edges as Parquet (graph/parquet_graph.py).
8. `admission_bucket` (a bucket of names): the refusals steps 1, 5 and 6 found for its names (dump_refusals),
   joined into its lines of admission.json, which the client merges in key order (admission_lines).

Papers are in one partition each; files hold pickles of the records decisions.py works on.
"""
from __future__ import annotations

import hashlib
import heapq
import json
import pickle
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from paperkg.admit.admission import admit
from paperkg.admit.refusals import RefusalTable, write_admission
from paperkg.admit.edge_confidence import shipped_calibration
from paperkg.admit.relation_ends import end_refusal
from paperkg.core.atomic import atomic_write
from paperkg.core.graph_model import EdgeAttrs, EntityNode, PaperNode, ResultNode
from paperkg.core.schema import RELATION_FLOOR, RESULT_REL_TYPES, Extraction, NodeLabel, RelType, enum_member

from .decisions import (NameVotes, NodeChoice, PaperUses, Target, add_aliases, decide_node, define_short_forms,
                        entity_node, intake, paper_edges, paper_node, paper_targets, relation_edge,
                        resolve_short)
from .evidence import EvidenceFactory
from .resolve import ShortForms, UnionFind
from .results import result_graph

_RESULT_EDGES = frozenset(kind.value for kind in RESULT_REL_TYPES)


def key_hash(key: str) -> int:
    """A node key's 64-bit number (the metrics step joins edges to nodes by it)."""
    return int.from_bytes(hashlib.blake2b(key.encode("utf8"), digest_size=8).digest(), "little", signed=True)


def bucket_of(text: str, buckets: int) -> int:
    """The bucket a root or a key goes to."""
    return key_hash(text) % buckets


def _dump(path: Path, value: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as handle:
        pickle.dump(value, handle, protocol=pickle.HIGHEST_PROTOCOL)


def _load(path: Path) -> Any:
    with open(path, "rb") as handle:
        return pickle.load(handle)


@lru_cache(maxsize=2)
def _corpus(path: str) -> tuple[ShortForms, UnionFind]:
    """The corpus' short forms and groups (written once by the client), loaded once per worker process."""
    return _load(Path(path))


@dataclass(frozen=True)
class Work:
    """Where a run's files go, how many buckets the names are spread over, and how many the refusals are (known
    before the papers are counted: one per partition)."""

    folder: Path
    buckets: int
    tables: int = 1

    @property
    def corpus(self) -> Path:
        return self.folder / "corpus.pkl"

    def votes(self, bucket: int, part: str) -> Path:
        return self.folder / "votes" / f"b{bucket:04d}-{part}.pkl"

    def choices(self, key_bucket: int, bucket: int) -> Path:
        return self.folder / "choices" / f"k{key_bucket:04d}-b{bucket:04d}.pkl"

    def answers(self, part: int, key_bucket: int) -> Path:
        return self.folder / "answers" / f"p{part:05d}-k{key_bucket:04d}.pkl"

    def entities(self, key_bucket: int) -> Path:
        return self.folder / "entities" / f"k{key_bucket:04d}.pkl"

    def adds(self, key_bucket: int, part: int) -> Path:
        return self.folder / "adds" / f"k{key_bucket:04d}-p{part:05d}.pkl"

    def papers(self, part: int) -> Path:
        return self.folder / "papers" / f"p{part:05d}.pkl"

    def final(self, name: str) -> Path:
        return self.folder / "final" / f"{name}.pkl"

    def intake(self, part: int) -> Path:
        return self.folder / "intake" / f"p{part:05d}.pkl"

    def refusals(self, table: int, task: str) -> Path:
        return self.folder / "refusals" / f"t{table:04d}-{task}.pkl"

    def admission(self, table: int, kind: str) -> Path:
        return self.folder / "admission" / f"t{table:04d}-{kind}.pkl"


def papers_of(shard: Path, thesaurus: dict[str, str]) -> Iterator[tuple[Extraction, Any]]:
    """A shard's records in paper-id order (as the builder takes them), each with its admission."""
    with open(shard, encoding="utf8") as handle:
        lines = [(str(json.loads(line)["paper"]["id"]), number, line)
                 for number, line in enumerate(handle, start=1) if line.strip()]
    lines.sort()
    for _, number, line in lines:
        record = Extraction.from_json(line, f"{shard}:{number}")
        yield record, admit(record, thesaurus)


@dataclass
class Definitions:
    """What step 1 sends the client: a partition's short forms, synonym pairs and paper ids' numbers."""

    shorts: ShortForms
    merges: list[tuple[str, str, str, str]]
    ids: np.ndarray


def read_definitions(part: int, shard: Path, thesaurus: dict[str, str], work: Work) -> Definitions:
    """Step 1 on one partition; its papers, parsed and admitted once, saved for the later steps (each paper's node
    and uses, pickled one after the other: read back a paper at a time, about four times as fast as parsing), its
    refusals by bucket (dump_refusals)."""
    shorts, merges, refusals, ids = ShortForms(), [], RefusalTable(), []
    evidence = EvidenceFactory()
    work.intake(part).parent.mkdir(parents=True, exist_ok=True)
    with open(work.intake(part), "wb") as handle:
        pickler = pickle.Pickler(handle, protocol=pickle.HIGHEST_PROTOCOL)
        for record, admitted in papers_of(shard, thesaurus):
            ids.append(key_hash(record.paper.id))
            refusals.add_names(admitted.refused_names)
            refusals.add_relations(admitted.refused_relations)
            merges += [(name, other, "synonym-of", record.paper.id) for name, other in admitted.synonyms]
            entry = intake(admitted, evidence)
            define_short_forms(shorts, entry)
            pickler.dump((paper_node(record.paper), entry))
            pickler.clear_memo()
    empty = RefusalTable()
    empty.update(refusals)  # tallies cut to what the table shows
    dump_refusals(work, empty, f"d{part:05d}")
    return Definitions(shorts, merges, np.array(ids, dtype=np.int64))


def dump_refusals(work: Work, refusals: RefusalTable, task: str) -> None:
    """A task's refusals into the buckets of their names (a relation: of its head's), for admission_bucket: the
    client never holds the corpus' table, which grows with its long tail of names."""
    tables = [RefusalTable() for _ in range(work.tables)]
    for name, entry in refusals.names.items():
        tables[bucket_of(name, work.tables)].names[name] = entry
    for key, relation in refusals.relations.items():
        tables[bucket_of(key[0], work.tables)].relations[key] = relation
    for table, found in enumerate(tables):
        _dump(work.refusals(table, task), found)


def admission_bucket(table: int, work: Work) -> None:
    """The refusals of one bucket of names joined across the tasks that found them, as its lines of
    admission.json (names, then relations, each in key order), pickled one after the other."""
    joined = RefusalTable()
    for path in sorted(work.refusals(table, "").parent.glob(f"t{table:04d}-*.pkl")):
        joined.update(_load(path))
    for kind, lines in (("names", joined.name_lines()), ("relations", joined.relation_lines())):
        work.admission(table, kind).parent.mkdir(parents=True, exist_ok=True)
        with open(work.admission(table, kind), "wb") as handle:
            pickler = pickle.Pickler(handle, protocol=pickle.HIGHEST_PROTOCOL)
            for line in lines:
                pickler.dump(line)
                pickler.clear_memo()


def write_admission_file(work: Work, path: Path) -> None:
    """admission.json (admit/refusals.py) merged in key order from the buckets' lines (admission_bucket), one line
    per bucket in memory: the same bytes as the one-process build's table."""
    def lines(kind: str) -> Iterator[str]:
        streams = [_pickled(work.admission(table, kind)) for table in range(work.tables)]
        return (line for _, line in heapq.merge(*streams, key=lambda item: item[0]))

    atomic_write(path, lambda handle: write_admission(lines("names"), lines("relations"),
                                                      lambda text: handle.write(text.encode("utf8"))))


def _pickled(path: Path) -> Iterator[Any]:
    """The values pickled one after the other in a file."""
    with open(path, "rb") as handle:
        while handle.peek(1):
            yield pickle.load(handle)


class PaperTargets:
    """One paper of a partition with its uses' target forms and group roots, its merge notes (by root) and
    the roots of the short forms it leaves undefined."""

    def __init__(self, node: PaperNode, entry: PaperUses, shorts: ShortForms, groups: UnionFind) -> None:
        self.node, self.entry = node, entry
        self.targets, notes = paper_targets(entry, shorts)
        self.roots = [groups.find(target) if target else None for target in self.targets]
        self.notes = [(groups.find(note.form), note) for note in notes]
        context = entry.context()
        self.undefined: list[str | None] = []
        for item in entry.undefined:
            found = resolve_short(item.short, entry, shorts, context)
            self.undefined.append(groups.find(found[0]) if found else None)


def _partition(part: int, work: Work) -> Iterator[PaperTargets]:
    """A partition's papers as step 1 saved them, with their targets in the corpus."""
    shorts, groups = _corpus(str(work.corpus))
    for node, entry in _pickled(work.intake(part)):  # each paper pickled on its own (read_definitions)
        yield PaperTargets(node, entry, shorts, groups)


def vote_partition(part: int, work: Work) -> None:
    """Step 2 on one partition: per bucket of roots, the tables of its roots and the roots it will ask for."""
    tables: list[dict[str, NameVotes]] = [{} for _ in range(work.buckets)]
    asked: list[set[str]] = [set() for _ in range(work.buckets)]
    for paper in _partition(part, work):
        for use, target, root in zip(paper.entry.uses, paper.targets, paper.roots):
            if use is not None and root is not None and target is not None:
                bucket = bucket_of(root, work.buckets)
                table = tables[bucket].get(root)
                if table is None:
                    table = tables[bucket][root] = NameVotes()
                table.add(use, target, paper.entry.key)
                asked[bucket].add(root)
        for root, note in paper.notes:
            tables[bucket_of(root, work.buckets)].setdefault(root, NameVotes()).note(note.name, note.rule,
                                                                                     {note.paper})
        for root in paper.undefined:
            if root is not None:
                asked[bucket_of(root, work.buckets)].add(root)
    for bucket in range(work.buckets):
        _dump(work.votes(bucket, f"p{part:05d}"), (tables[bucket], asked[bucket]))


def corpus_notes(notes: list[Any], groups: UnionFind, work: Work) -> None:
    """The client's merge notes (folds and synonym pairs: builder.corpus_groups) into the buckets of their roots."""
    tables: list[dict[str, NameVotes]] = [{} for _ in range(work.buckets)]
    for note in notes:
        root = groups.find(note.form)
        tables[bucket_of(root, work.buckets)].setdefault(root, NameVotes()).note(note.name, note.rule, {note.paper})
    for bucket in range(work.buckets):
        _dump(work.votes(bucket, "corpus"), (tables[bucket], set()))


def decide_bucket(bucket: int, parts: int, work: Work) -> None:
    """Step 3 on one bucket of roots: the roots' tables joined across partitions, each root's node choice,
    sent with its merge notes and the partitions asking for it to the bucket of its key."""
    tables: dict[str, NameVotes] = {}
    askers: dict[str, list[int]] = defaultdict(list)
    for part in [*range(parts), -1]:
        found, asked = _load(work.votes(bucket, "corpus" if part < 0 else f"p{part:05d}"))
        for root, table in found.items():
            if root in tables:
                tables[root].update(table)
            else:
                tables[root] = table
        for root in asked:
            askers[root].append(part)
    out: list[list[tuple[str, NodeChoice, NameVotes, list[int]]]] = [[] for _ in range(work.buckets)]
    for root in sorted(tables):
        choice = decide_node(tables[root])
        if choice is not None:
            kept = NameVotes()
            kept.merged = tables[root].merged
            out[bucket_of(choice.key, work.buckets)].append((root, choice, kept, askers.get(root, [])))
    for key_bucket in range(work.buckets):
        _dump(work.choices(key_bucket, bucket), out[key_bucket])


def node_bucket(key_bucket: int, parts: int, work: Work) -> None:
    """Step 4 on one bucket of keys: the entity node of each key (the roots choosing it, in root order), and
    for each partition the nodes of the roots it asked for: root -> (key, name, label, has a short form)."""
    by_key: dict[str, list[tuple[str, NodeChoice, NameVotes, list[int]]]] = defaultdict(list)
    for bucket in range(work.buckets):
        for item in _load(work.choices(key_bucket, bucket)):
            by_key[item[1].key].append(item)
    nodes: dict[str, EntityNode] = {}
    answers: list[dict[str, tuple[str, str, str, bool]]] = [{} for _ in range(parts)]
    for key, choices in by_key.items():
        choices.sort(key=lambda item: item[0])
        node = nodes[key] = entity_node([item[:3] for item in choices])
        for root, _, _, askers in choices:
            for part in askers:
                answers[part][root] = (key, node["name"], node["label"], "acronym" in node)
    _dump(work.entities(key_bucket), nodes)
    for part in range(parts):
        _dump(work.answers(part, key_bucket), answers[part])


@dataclass
class Adds:
    """What a partition adds to the entities of one key bucket: mentions, aliases, papers, and the mentions of
    the relations whose lower end key is in the bucket, by (type, lower key, higher key), with their ends' names
    and labels (for the end check)."""

    mentions: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    aliases: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    papers: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    relations: dict[tuple[str, str, str], list[tuple[str, str, dict[str, Any]]]] = field(
        default_factory=lambda: defaultdict(list))
    ends: dict[str, tuple[str, str]] = field(default_factory=dict)


def edge_partition(part: int, work: Work) -> None:
    """Step 5 on one partition: its paper nodes and their edges (as they will be written), by key bucket what it
    adds to entities and relations, and its one-node refusals (dump_refusals)."""
    answers: dict[str, tuple[str, str, str, bool]] = {}
    for key_bucket in range(work.buckets):
        answers.update(_load(work.answers(part, key_bucket)))
    adds = [Adds() for _ in range(work.buckets)]
    nodes: list[tuple[str, PaperNode | ResultNode]] = []  # its papers and their results
    edges: list[tuple[str, str, str, dict[str, Any]]] = []
    refusals = RefusalTable()

    def target(root: str | None) -> Target | None:
        found = answers.get(root) if root is not None else None
        return Target(found[0], found[3]) if found else None

    for paper in _partition(part, work):
        entry = paper.entry
        nodes.append((entry.key, paper.node))
        found = paper_edges(entry, [target(root) for root in paper.roots], [target(root) for root in paper.undefined])
        for key, count in found.mentions.items():
            add = adds[bucket_of(key, work.buckets)]
            add.mentions[key] += count
            add.aliases[key] |= found.aliases.get(key, set())
        for (key, kind), data in found.roles.items():
            adds[bucket_of(key, work.buckets)].papers[key] += 1
            edges.append((entry.key, key, kind, edge_dict(data)))
        for kind, head, tail, paper_id in found.one_node:
            refusals.add_relation(kind, head, tail, "one-node", (paper_id,))
        ends = {}
        for root in paper.roots:
            if root in answers:
                key, name, label, _ = answers[root]
                ends[key] = (name, label)
        results, result_edges = result_graph(entry.key, entry.results, [
            (answers[root][0], answers[root][2]) if root is not None and root in answers else None
            for root in paper.roots])
        nodes += results
        edges += [(source, end, kind, edge_dict(data)) for source, end, kind, data in result_edges]
        for source, end, kind, evidence in found.relations:
            low, high = sorted((source, end))
            add = adds[bucket_of(low, work.buckets)]
            add.relations[kind, low, high].append((source, end, dict(evidence)))
            add.ends[source], add.ends[end] = ends[source], ends[end]
    for key_bucket in range(work.buckets):
        _dump(work.adds(key_bucket, part), adds[key_bucket])
    _dump(work.papers(part), (sorted(nodes), sorted(edges)))
    dump_refusals(work, refusals, f"e{part:05d}")


def edge_dict(data: EdgeAttrs) -> dict[str, Any]:
    """An edge's attributes as plain data (evidence items as dicts), as files and graph.json hold them."""
    return {**data, "evidence": [dict(item) for item in data["evidence"]]}


def entity_bucket(key_bucket: int, parts: int, work: Work) -> None:
    """Step 6 on one bucket of keys: its entity nodes with their mentions, aliases and papers, and the typed
    edges of the pairs of nodes whose lower key is in it, each from its mentions in every partition
    (decisions.relation_edge, with the shipped calibration and the graph's floor, as the builder's default); its
    refusals (dump_refusals)."""
    nodes: dict[str, EntityNode] = _load(work.entities(key_bucket))
    parts_relations: dict[tuple[str, str, str], list[tuple[str, str, dict[str, Any]]]] = defaultdict(list)
    ends: dict[str, tuple[str, str]] = {}
    for part in range(parts):
        add: Adds = _load(work.adds(key_bucket, part))
        for key, count in add.mentions.items():
            nodes[key]["mentions"] += count
            add_aliases(nodes[key], add.aliases[key])
        for key, count in add.papers.items():
            nodes[key]["papers"] += count
        for pair, items in add.relations.items():
            parts_relations[pair] += items
        ends.update(add.ends)
    refusals = RefusalTable()
    refused = lru_cache(maxsize=None)(end_refusal)
    edges = []
    calibration = shipped_calibration()
    for (kind, _, _), items in sorted(parts_relations.items()):
        made, refused_here = relation_edge(enum_member(RelType, kind), items, ends, calibration, RELATION_FLOOR,
                                           refused)
        for no in refused_here:
            refusals.add_relation(no.kind, no.head, no.tail, no.reason, no.papers, no.mentions)
        if made is not None:
            edges.append((made[0], made[1], kind, edge_dict(made[2])))
    _dump(work.final(f"k{key_bucket:04d}"), (sorted(nodes.items()), sorted(edges, key=lambda edge: edge[:3])))
    dump_refusals(work, refusals, f"r{key_bucket:04d}")


def final_names(work: Work, parts: int) -> list[Path]:
    """The files step 7 reads: each partition's papers, each key bucket's entities."""
    return [work.papers(part) for part in range(parts)] + [work.final(f"k{b:04d}") for b in range(work.buckets)]


LABELS = tuple(label.value for label in NodeLabel)  # a node's label as its number here (label_numbers)


def metric_numbers(path: Path) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A final file's node keys with their labels' numbers, and its edges as key numbers and counts (what the
    metrics and the outputs drawn from them need: results and their edges left out, as metrics.add_metrics
    leaves them)."""
    nodes, edges = _load(path)
    nodes = [(key, attrs) for key, attrs in nodes if attrs["label"] != NodeLabel.RESULT]
    edges = [edge for edge in edges if edge[2] not in _RESULT_EDGES]
    labels = np.array([LABELS.index(attrs["label"]) for _, attrs in nodes], dtype=np.int8)
    heads = np.array([key_hash(source) for source, *_ in edges], dtype=np.int64)
    tails = np.array([key_hash(target) for _, target, *_ in edges], dtype=np.int64)
    counts = np.array([data["count"] for *_, data in edges], dtype=np.int64)
    return [key for key, _ in nodes], labels, heads, tails, counts


def write_parts(path: Path, metrics_file: Path, folder: Path) -> dict[str, int]:
    """Step 7: a final file's nodes with their metrics and its edges as Parquet parts in `folder`."""
    from .parquet_graph import write_part

    nodes, edges = with_metrics(path, metrics_file)
    return write_part(folder, path.stem, nodes, edges)


def dump_corpus(work: Work, shorts: ShortForms, groups: UnionFind) -> None:
    """The corpus' short forms and groups, for the partitions' steps."""
    _dump(work.corpus, (shorts, groups))


def with_metrics(path: Path, metrics_file: Path) -> tuple[list[tuple[str, dict[str, Any]]],
                                                          list[tuple[str, str, str, dict[str, Any]]]]:
    """A final file's nodes with their metrics (the client's arrays by key number), and its edges."""
    nodes, edges = _load(path)
    numbers, degree, pagerank, community, _ = _metrics(str(metrics_file))
    measured = [(key, attrs) for key, attrs in nodes if attrs["label"] != NodeLabel.RESULT]
    where = np.searchsorted(numbers, np.array([key_hash(key) for key, _ in measured], dtype=np.int64))
    for (_, attrs), at in zip(measured, where.tolist()):
        attrs["degree"], attrs["pagerank"], attrs["community"] = (
            int(degree[at]), round(float(pagerank[at]), 8), int(community[at]))
    return nodes, edges


@lru_cache(maxsize=1)
def _metrics(path: str) -> tuple[np.ndarray, ...]:
    with np.load(path) as data:
        return tuple(data[name] for name in ("numbers", "degree", "pagerank", "community", "label"))


def labels_of(keys: list[str], metrics_file: Path) -> list[str]:
    """The labels of nodes of any part, by their keys (from the metrics file's numbers)."""
    numbers, *_, labels = _metrics(str(metrics_file))
    where = np.searchsorted(numbers, np.array([key_hash(key) for key in keys], dtype=np.int64))
    return [LABELS[number] for number in labels[where].tolist()]


def json_line(item: dict[str, Any]) -> str:
    """One node or edge as graph.json writes it."""
    return json.dumps(item, sort_keys=True, ensure_ascii=False)
