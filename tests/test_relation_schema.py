"""The relation schema: every entity-entity type declares its end labels, and the builder never writes an
edge that breaks them."""
from __future__ import annotations

import networkx as nx

from paperkg.core.schema import (DEFAULT_MIN_CONFIDENCE, ENTITY_REL_TYPES, PAPER_REL_TYPES, REL_ENDS, RELATION_FLOOR,
                                 RESULT_REL_TYPES, Extraction, Mention, NodeLabel, PaperRecord, Relation, RelType,
                                 Role, relation_allowed)
from paperkg.viz.options import MIN_RELATION_CONFIDENCE
from paperkg.admit.edge_confidence import Calibration
from paperkg.admit.admission import admit, admit_all
from paperkg.graph.builder import GraphBuilder


def test_every_entity_relation_type_declares_its_ends() -> None:
    assert set(REL_ENDS) == set(RelType) - PAPER_REL_TYPES - set(RESULT_REL_TYPES)
    assert RelType.SYNONYM_OF not in ENTITY_REL_TYPES
    assert relation_allowed(RelType.USED_FOR, NodeLabel.METHOD, NodeLabel.TASK)
    assert not relation_allowed(RelType.USED_FOR, NodeLabel.TASK, NodeLabel.METHOD)
    assert not relation_allowed(RelType.EVALUATED_ON, NodeLabel.METHOD, NodeLabel.METRIC)
    assert not relation_allowed(RelType.IS_A, NodeLabel.METHOD, NodeLabel.PAPER)


def _mention(text: str, label: NodeLabel, start: int) -> Mention:
    """A model mention; a Task is one its sentence addresses ('used for X'), as extract/roles.py marks it."""
    return Mention(text=text, name=text, label=label, start=start, end=start + len(text), sentence=0,
                   source="model", confidence=0.9, role=Role.ADDRESSES if label is NodeLabel.TASK else Role.MENTIONS)


def test_the_builder_drops_edges_whose_ends_their_type_does_not_allow() -> None:
    text = "FooNet is evaluated with accuracy on ImageNet."
    entities = [_mention("FooNet", NodeLabel.METHOD, 0), _mention("accuracy", NodeLabel.METRIC, 25),
                _mention("ImageNet", NodeLabel.DATASET, 37)]
    relations = [Relation(RelType.EVALUATED_ON, 0, 1, 0, "model", 0.9),
                 Relation(RelType.EVALUATED_ON, 0, 2, 0, "model", 0.9),
                 Relation(RelType.USED_FOR, 2, 0, 0, "model", 0.9)]
    record = Extraction(PaperRecord(id="p1", abstract=text), [text], entities, relations=relations,
                        sentence_spans=[(0, len(text))])
    builder = GraphBuilder()
    builder.add(admit(record))
    graph: nx.MultiDiGraph = builder.finalize()
    typed = sorted((u, k, v) for u, v, k in graph.edges(keys=True) if RelType(k) not in PAPER_REL_TYPES)
    assert typed == [("method:foonet", "EVALUATED_ON", "dataset:imagenet")]


def _record(paper: str, text: str, entities: list[Mention], relations: list[Relation]) -> Extraction:
    return Extraction(PaperRecord(id=paper, abstract=text), [text], entities, relations=relations,
                      sentence_spans=[(0, len(text))])


def test_a_relation_edge_counts_its_papers_and_symmetric_types_are_one_edge() -> None:
    text = "FooNet is compared with BarNet."
    foo, bar = _mention("FooNet", NodeLabel.METHOD, 0), _mention("BarNet", NodeLabel.METHOD, 24)
    builder = GraphBuilder(calibration=Calibration())  # no curve: the confidence is the score
    builder.add(admit(_record("p1", text, [foo, bar], [Relation(RelType.COMPARED_WITH, 0, 1, 0, "model", 0.85)])))
    builder.add(admit(_record("p2", text, [foo, bar], [Relation(RelType.COMPARED_WITH, 1, 0, 0, "model", 0.9),
                                                 Relation(RelType.COMPARED_WITH, 0, 1, 0, "model", 0.8)])))
    graph = builder.finalize()
    [(u, v, data)] = [(u, v, d) for u, v, k, d in graph.edges(keys=True, data=True) if k == "COMPARED_WITH"]
    assert (u, v) == ("method:barnet", "method:foonet")
    # one witness a paper (its best mention, 0.9), the second paper weighted 0.5: 1 - 0.1 * 0.15 ** 0.5
    assert (data["papers"], data["count"], data["against"], data["confidence"]) == (2, 3, 0, 0.9613)


def test_the_graph_keeps_relations_from_its_floor_and_the_map_draws_those_at_the_default_threshold() -> None:
    text = "FooNet is compared with BarNet and used for parsing."
    foo, bar = _mention("FooNet", NodeLabel.METHOD, 0), _mention("BarNet", NodeLabel.METHOD, 24)
    parsing = _mention("parsing", NodeLabel.TASK, 44)
    relations = [Relation(RelType.COMPARED_WITH, 0, 1, 0, "model", RELATION_FLOOR - 0.01),
                 Relation(RelType.USED_FOR, 0, 2, 0, "model", RELATION_FLOOR + 0.01)]
    builder = GraphBuilder(calibration=Calibration())
    builder.add(admit(_record("p1", text, [foo, bar, parsing], relations)))
    graph = builder.finalize()
    typed = sorted(k for _, _, k in graph.edges(keys=True) if RelType(k) not in PAPER_REL_TYPES)
    assert typed == ["USED_FOR"]
    [refused] = [entry for entry in builder.refusals.relations.values() if entry.type == "COMPARED_WITH"]
    assert list(refused.reasons) == ["below-floor"]
    assert MIN_RELATION_CONFIDENCE == DEFAULT_MIN_CONFIDENCE > RELATION_FLOOR


def test_synonym_of_merges_two_names_into_one_node_with_the_evidence_of_the_merge() -> None:
    text = "Vision Transformer, also called image transformer, is used for image classification."
    long_form = _mention("Vision Transformer", NodeLabel.METHOD, 0)
    other = _mention("image transformer", NodeLabel.METHOD, 32)
    task = _mention("image classification", NodeLabel.TASK, 62)
    relations = [Relation(RelType.SYNONYM_OF, 1, 0, 0, "model", 0.9), Relation(RelType.USED_FOR, 1, 2, 0, "model", 0.9)]
    second = _record("p2", "Vision Transformer works.", [_mention("Vision Transformer", NodeLabel.METHOD, 0)], [])
    for order in ([_record("p1", text, [long_form, other, task], relations), second],
                  [second, _record("p1", text, [long_form, other, task], relations)]):
        builder = GraphBuilder()
        builder.add_all(admit_all(order))
        graph = builder.finalize()
        [node] = [d for _, d in graph.nodes(data=True) if d["label"] == "Method"]
        assert node["name"] == "Vision Transformer" and "image transformer" in node["aliases"]
        assert any(m.startswith("image transformer [synonym-of: p1") for m in node["merged_from"])
        assert node["papers"] == 2
        assert graph.has_edge(node["key"], "task:image classification", key="USED_FOR")


def test_a_model_synonym_never_decides_what_a_short_form_stands_for() -> None:
    text = "We propose FedKD (Federated Distillation)."
    short, long_form = _mention("FedKD", NodeLabel.METHOD, 11), _mention("Federated Distillation", NodeLabel.METHOD, 18)
    builder = GraphBuilder()
    builder.add(admit(_record("p1", text, [short, long_form], [Relation(RelType.SYNONYM_OF, 0, 1, 0, "model", 0.99)])))
    graph = builder.finalize()
    assert sorted(d["name"] for _, d in graph.nodes(data=True) if d["label"] == "Method") == \
        ["FedKD", "Federated Distillation"]


def test_no_edge_of_the_example_build_breaks_its_type_s_end_labels(built) -> None:
    import sys

    from cli_helpers import ROOT

    sys.path.insert(0, str(ROOT / "bench"))
    from relation_ends import misfits

    kinds, wrong = misfits(built / "graph.json")
    # every typed edge from the floor; tests/test_relation_model.py checks every model relation as an edge
    assert wrong == [] and set(kinds) <= {kind.value for kind in ENTITY_REL_TYPES}
