"""The relation schema: every entity-entity type declares its end labels, and the builder never writes an
edge that breaks them."""
from __future__ import annotations

import networkx as nx

from paperkg.core.schema import (ENTITY_REL_TYPES, PAPER_REL_TYPES, REL_ENDS, Extraction, Mention, NodeLabel,
                                 PaperRecord, Relation, RelType, relation_allowed)
from paperkg.graph.builder import GraphBuilder


def test_every_entity_relation_type_declares_its_ends() -> None:
    assert set(REL_ENDS) == set(RelType) - PAPER_REL_TYPES
    assert RelType.SYNONYM_OF not in ENTITY_REL_TYPES
    assert relation_allowed(RelType.USED_FOR, NodeLabel.METHOD, NodeLabel.TASK)
    assert not relation_allowed(RelType.USED_FOR, NodeLabel.TASK, NodeLabel.METHOD)
    assert not relation_allowed(RelType.EVALUATED_ON, NodeLabel.METHOD, NodeLabel.METRIC)
    assert not relation_allowed(RelType.IS_A, NodeLabel.METHOD, NodeLabel.PAPER)


def _mention(text: str, label: NodeLabel, start: int) -> Mention:
    return Mention(text=text, name=text, label=label, start=start, end=start + len(text), sentence=0,
                   source="model", confidence=0.9)


def test_the_builder_drops_edges_whose_ends_their_type_does_not_allow() -> None:
    text = "FooNet is evaluated with accuracy on ImageNet."
    entities = [_mention("FooNet", NodeLabel.METHOD, 0), _mention("accuracy", NodeLabel.METRIC, 25),
                _mention("ImageNet", NodeLabel.DATASET, 37)]
    relations = [Relation(RelType.EVALUATED_ON, 0, 1, 0, "model", 0.9),
                 Relation(RelType.EVALUATED_ON, 0, 2, 0, "model", 0.9),
                 Relation(RelType.USED_FOR, 2, 0, 0, "model", 0.9)]
    record = Extraction(PaperRecord(id="p1", abstract=text), [text], entities, relations=relations)
    builder = GraphBuilder()
    builder.add(record)
    graph: nx.MultiDiGraph = builder.finalize()
    typed = sorted((u, k, v) for u, v, k in graph.edges(keys=True) if RelType(k) not in PAPER_REL_TYPES)
    assert typed == [("method:foonet", "EVALUATED_ON", "dataset:imagenet")]
