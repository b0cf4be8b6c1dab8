"""Which rows a push must send: every node and relationship carries the hash of its properties
(`paperkg_hash`) and every paper a digest over its node and relationships (`paperkg_digest`), so a
push reads the digests and the entities' hashes back and sends only what the server lacks or holds
differently. A paper whose digest matches is skipped whole; one whose digest differs (or is missing)
has its node's and relationships' hashes read and compared row by row. A re-push of an unchanged graph
reads one digest per paper and sends nothing; an --update sends its new papers' nodes and relationships
and the entities whose counts or metrics moved.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterator

import networkx as nx
from neo4j import Driver, Session

from paperkg.graph.trends import Trends
from paperkg.core import graph_model as model
from paperkg.cypher.rows import NODE_LABELS, PAPER, GraphRows, graph_rows, paper_digests

HASH_PROPERTY = "paperkg_hash"
DIGEST_PROPERTY = "paperkg_digest"
_ENTITY_LABELS = "|".join(label for label in NODE_LABELS if label != PAPER)
_LOOKUP_BATCH = 5000  # paper keys per query when their rows are compared one by one
# Pairs collected on the server (one record per label, per paper batch, per entity), so the driver
# decodes lists, not a million records.
_ENTITY_HASHES = (f"MATCH (n:{_ENTITY_LABELS}) WITH [label IN labels(n) WHERE label IN $labels][0] AS label, n "
                  f"RETURN label, collect([n.key, n.{HASH_PROPERTY}]) AS pairs")
_ENTITY_REL_HASHES = (f"MATCH (s:{_ENTITY_LABELS})-[r]->(t) "
                      f"RETURN s.key AS source, collect([type(r), t.key, r.{HASH_PROPERTY}]) AS rels")
_PAPER_DIGESTS = f"MATCH (p:{PAPER}) RETURN collect([p.key, p.{DIGEST_PROPERTY}]) AS pairs"
_PAPER_HASHES = f"""
UNWIND $keys AS key
MATCH (p:{PAPER} {{key: key}})
OPTIONAL MATCH (p)-[r]->(t)
RETURN p.key AS source, p.{HASH_PROPERTY} AS hash, collect([type(r), t.key, r.{HASH_PROPERTY}]) AS rels
"""


@dataclass
class Changes:
    """The rows to send, per label and relationship type how many the server already holds as they
    are, and the paper digests to store once the rows are written (`stale`: those the server holds
    for papers about to change, cleared before writing)."""

    rows: GraphRows
    same_nodes: Counter[str] = field(default_factory=Counter)
    same_rels: Counter[str] = field(default_factory=Counter)
    digests: dict[str, str] = field(default_factory=dict)
    stale: list[str] = field(default_factory=list)


def all_rows(graph: nx.MultiDiGraph, rows: GraphRows) -> Changes:
    """Every row to send, every digest to store: the push into a database without paperkg's data."""
    return Changes(rows, digests=dict(paper_digests(graph).values()))


def changed_rows(driver: Driver, database: str, graph: nx.MultiDiGraph, trends: Trends | None = None) -> Changes:
    """Compare the papers' digests with the server's, then build and compare row by row the rows of the
    papers that differ and of the entities; keep the rows that differ or are missing."""
    changes = Changes(GraphRows())
    with driver.session(database=database) as session:
        held_digests = dict(session.run(_PAPER_DIGESTS).single(strict=True)["pairs"])
        wanted = paper_digests(graph)
        checked = {node for node, (key, digest) in wanted.items() if held_digests.get(key) != digest}
        changes.digests = {wanted[node][0]: wanted[node][1] for node in checked}
        changes.stale = [key for key in changes.digests if held_digests.get(key) is not None]
        del held_digests
        for node in wanted.keys() - checked:
            changes.same_nodes[PAPER] += 1
            changes.same_rels.update(data.get("type", key) for *_, key, data in model.out_edges(graph, node))
        rows = graph_rows(graph, papers=checked, trends=trends)
        held_nodes = {key: value for _, pairs in session.run(_ENTITY_HASHES, labels=list(NODE_LABELS)).values()
                      for key, value in pairs}
        held_rels = dict(_entity_rel_hashes(session))
        held_rels.update(_paper_hashes(session, sorted(changes.digests), held_nodes))
        for group, row in _all_rows(rows):
            _compare(changes, group, row, held_nodes, held_rels)
    return changes


def _all_rows(rows: GraphRows) -> Iterator[tuple[Any, dict[str, Any]]]:
    """Every row with its group: the label for a node row, (type, source label, target label) for a relationship."""
    for label, label_rows in rows.nodes.items():
        yield from ((label, row) for row in label_rows)
    for group, group_rows in rows.rels.items():
        yield from ((group, row) for row in group_rows)


def _count_same(changes: Changes, group: Any, row: dict[str, Any]) -> None:
    """Count a row the server holds as it is under its label or relationship type."""
    if isinstance(group, str):
        changes.same_nodes[group] += 1
    else:
        changes.same_rels[group[0]] += 1


def _compare(changes: Changes, group: Any, row: dict[str, Any], held_nodes: dict[str, str],
             held_rels: dict[tuple[str, str, str], str]) -> None:
    """Count the row as the server's if its hash is the one held, else keep it to send."""
    if isinstance(group, str):
        same = held_nodes.get(row["key"]) == row["hash"]
    else:
        same = held_rels.get((group[0], row["source"], row["target"])) == row["hash"]
    if same:
        _count_same(changes, group, row)
    elif isinstance(group, str):
        changes.rows.nodes[group].append(row)
    else:
        changes.rows.rels[group].append(row)


def _entity_rel_hashes(session: Session) -> Iterator[tuple[tuple[str, str, str], str]]:
    """((type, source, target), hash) of every relationship leaving an entity node."""
    for source, rels in session.run(_ENTITY_REL_HASHES).values():
        for rel_type, target, value in rels:
            yield (rel_type, source, target), value


def _paper_hashes(session: Session, keys: list[str],
                  held_nodes: dict[str, str]) -> Iterator[tuple[tuple[str, str, str], str]]:
    """((type, source, target), hash) of the relationships of the papers `keys`, in batches; their nodes'
    hashes go into `held_nodes`."""
    for start in range(0, len(keys), _LOOKUP_BATCH):
        for source, value, rels in session.run(_PAPER_HASHES, keys=keys[start:start + _LOOKUP_BATCH]).values():
            held_nodes[source] = value
            for rel_type, target, rel_value in rels:
                if rel_type is not None:
                    yield (rel_type, source, target), rel_value
