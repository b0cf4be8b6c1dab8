"""The Cypher library's label unions come from core.schema's NodeLabel: no file hard-codes one, and every
union in the loaded queries and schema is exactly the entity labels or all labels."""
from __future__ import annotations

import re

import pytest

from paperkg.core.schema import ENTITY_LABELS, NodeLabel
from paperkg.cypher.library import CYPHER_DIR, QUERY_DIR, list_queries, schema_statements

ALL = {label.value for label in NodeLabel}
ENTITIES = {label.value for label in ENTITY_LABELS}
UNION = re.compile(r"\(\w*:(\w+(?:\|\w+)+)\)")  # a node pattern with a label union: (e:A|B|C)
FILES = sorted(QUERY_DIR.glob("*.cypher")) + [CYPHER_DIR / "schema.cypher"]


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.name)
def test_no_file_hard_codes_a_union_of_paperkg_labels(path):
    for union in UNION.findall(path.read_text(encoding="utf-8")):
        assert not set(union.split("|")) & ALL, f"{path.name} writes the label union {union}: use %ENTITY_LABELS%"


def test_every_union_in_the_loaded_library_is_the_entity_labels_or_all_labels():
    texts = [query.text for query in list_queries()] + schema_statements()
    unions = [set(union.split("|")) for text in texts for union in UNION.findall(text)]
    assert unions and all(union in (ENTITIES, ALL) for union in unions)
    assert ENTITIES in unions and ALL in unions
    assert not any(re.search(r"%[A-Z_]+%", text) for text in texts)


def test_the_schema_has_a_key_constraint_and_a_full_text_entry_for_every_label():
    schema = "\n".join(schema_statements())
    for label in ALL:
        assert re.search(rf"FOR \(n:{label}\) REQUIRE n\.key IS UNIQUE", schema), label
    assert f"FOR (n:{'|'.join(label.value for label in NodeLabel)}) ON EACH" in schema
