"""Which rows a push must send: every node and relationship carries the hash of its properties
(`paperkg_hash`), so a push reads the hashes back and sends only what the server lacks or holds
differently. A re-push of an unchanged graph sends nothing; an --update sends its new papers'
nodes and relationships and the entities whose counts or metrics moved.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from neo4j import Driver

from paperkg.cypher.rows import NODE_LABELS, GraphRows

HASH_PROPERTY = "paperkg_hash"
# Pairs collected on the server: one record per label, and per source node for relationships
# (a paper's relationships in one list), so the driver decodes lists, not a million records.
_NODE_HASHES = (f"MATCH (n:{'|'.join(NODE_LABELS)}) WITH [label IN labels(n) WHERE label IN $labels][0] AS label, n "
                f"RETURN label, collect([n.key, n.{HASH_PROPERTY}]) AS pairs")
_REL_HASHES = (f"MATCH (s)-[r:{{rel_type}}]->(t) "
               f"RETURN s.key AS source, collect([t.key, r.{HASH_PROPERTY}]) AS pairs")


@dataclass
class Changes:
    """The rows to send, and per label and relationship type how many the server already holds as they are."""

    rows: GraphRows
    same_nodes: Counter[str] = field(default_factory=Counter)
    same_rels: Counter[str] = field(default_factory=Counter)


def changed_rows(driver: Driver, database: str, rows: GraphRows) -> Changes:
    """Compare the rows' hashes with the server's (one read per relationship type) and keep the rows
    that differ or are missing."""
    changes = Changes(GraphRows())
    with driver.session(database=database) as session:
        held = {key: value for _, pairs in session.run(_NODE_HASHES, labels=list(NODE_LABELS)).values()
                for key, value in pairs}
        if not held:  # an empty database (a first push): every row goes, and no more queries to plan
            return Changes(rows)
        for label, label_rows in rows.nodes.items():
            for row in label_rows:
                if held.get(row["key"]) == row["hash"]:
                    changes.same_nodes[label] += 1
                else:
                    changes.rows.nodes[label].append(row)
        del held
        for rel_type in sorted({group[0] for group in rows.rels}):
            held = {(source, target): value
                    for source, pairs in session.run(_REL_HASHES.format(rel_type=rel_type)).values()
                    for target, value in pairs}
            for group, group_rows in rows.rels.items():
                if group[0] != rel_type:
                    continue
                for row in group_rows:
                    if held.get((row["source"], row["target"])) == row["hash"]:
                        changes.same_rels[rel_type] += 1
                    else:
                        changes.rows.rels[group].append(row)
    return changes
