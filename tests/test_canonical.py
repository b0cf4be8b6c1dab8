"""Unit tests: canonical names, keys and the graph builder's merging rules."""
from __future__ import annotations

import pytest

from paperkg.core.schema import SCHEMA_KEY, SCHEMA_VERSION, Extraction, UndefinedAcronym
from paperkg.admit.admission import admit
from paperkg.graph.builder import GraphBuilder
from paperkg.core.canonical import acronym_key, canonical_name, display_name, entity_key


@pytest.mark.parametrize("a, b", [
    ("Large Language Models", "large language model"),
    ("Graph Transformers", "graph transformer"),
    ("multi‑view clustering", "multi-view clustering"),
    ("multi - view  clustering", "multi-view clustering"),
    ("Gaussian processes", "gaussian process"),
])
def test_same_canonical_name(a, b):
    assert canonical_name(a) == canonical_name(b)


@pytest.mark.parametrize("name", ["analysis", "Gaussian process", "NAS", "bias", "time series", "data"])
def test_words_that_are_not_plurals_stay(name):
    assert canonical_name(name) == name.lower()


def test_data_set_names_keep_their_plural():
    assert entity_key("Dataset", "Cityscapes") == "dataset:cityscapes"
    assert display_name("Tanks and Temples", "Dataset") == "Tanks and Temples"


def test_hyphen_variants_meet_in_one_node():
    builder = GraphBuilder()
    builder.add(admit(_record("p1", [{"text": "multimodal LLMs", "name": "multimodal large language model",
                                "label": "Method"}])))
    builder.add(admit(_record("p2", [{"text": "multi-modal LLMs", "name": "multi-modal large language models",
                                "label": "Method"}])))
    builder.add(admit(_record("p3", [{"text": "state-space models", "name": "state-space models", "label": "Method"}])))
    builder.add(admit(_record("p4", [{"text": "state space model", "name": "state space model", "label": "Method"}])))
    graph = builder.finalize()
    # one paper each: the tie goes to the first name in character order
    assert [k for k in graph if not k.startswith("paper:")] == ["method:multi-modal large language model",
                                                                 "method:state space model"]
    assert graph.nodes["method:state space model"]["papers"] == 2


def test_acronym_key_drops_plural_s_only():
    assert acronym_key("LLMs") == "LLM"
    assert acronym_key("GTs") == "GT"
    assert acronym_key("NAS") == "NAS"


def test_display_name_is_singular_with_case_kept():
    assert display_name("Fourier Neural Operators") == "Fourier Neural Operator"
    assert display_name("generative  models") == "generative model"
    assert display_name("NAS") == "NAS"


def test_entity_key():
    assert entity_key("Method", "Graph Transformers") == "method:graph transformer"


def _record(paper_id, entities, relations=()):
    return Extraction.from_dict({
        SCHEMA_KEY: SCHEMA_VERSION, "paper": {"id": paper_id, "abstract": "S. " * 40}, "sentences": ["S."],
        "sentence_spans": [[0, 2]],
        "entities": [dict({"start": 0, "end": 1, "sentence": 0, "source": "rule", "confidence": 0.9,
                           "role": "mentions", "acronym": None}, **e) for e in entities],
        "acronyms": [], "undefined_acronyms": [],
        "relations": [dict({"sentence": 0, "source": "cue", "confidence": 0.5}, **r) for r in relations]}, "test")


def test_acronym_and_long_form_are_one_node_across_papers():
    builder = GraphBuilder()
    builder.add(admit(_record("p1", [{"text": "Graph Transformers", "name": "Graph Transformers", "label": "Method",
                                "acronym": "GTs"}])))
    builder.add(admit(_record("p2", [{"text": "graph transformers", "name": "graph transformers", "label": "Method",
                                "acronym": "GTs"}])))
    graph = builder.finalize()
    node = graph.nodes["method:graph transformer"]
    assert node["acronym"] == "GT"
    assert node["papers"] == 2
    assert {"GTs", "Graph Transformers", "graph transformers"} <= set(node["aliases"])


def test_same_short_form_two_long_forms_two_nodes():
    builder = GraphBuilder()
    builder.add(admit(_record("p1", [{"text": "Soft Actor Critic", "name": "Soft Actor Critic", "label": "Method",
                                "acronym": "SAC"}])))
    builder.add(admit(_record("p2", [{"text": "Self-Attention Compression", "name": "Self-Attention Compression",
                                "label": "Method", "acronym": "SAC"}])))
    graph = builder.finalize()
    assert sum(1 for _, d in graph.nodes(data=True) if d.get("acronym") == "SAC") == 2


def test_undefined_acronym_resolves_to_the_one_definition():
    builder = GraphBuilder()
    builder.add(admit(_record("p1", [{"text": "Adaptive Reward Scaling", "name": "Adaptive Reward Scaling",
                                "label": "Method", "acronym": "ARS"}])))
    later = _record("p2", [])
    later.undefined_acronyms = [UndefinedAcronym(text="ARS", start=0, end=3, sentence=0)]
    builder.add(admit(later))
    graph = builder.finalize()
    assert graph.has_edge("paper:p2", "method:adaptive reward scaling", key="MENTIONS")


def test_paper_added_twice_is_ignored():
    builder = GraphBuilder()
    record = _record("p1", [{"text": "BERT", "name": "BERT", "label": "Method"}])
    assert builder.add(admit(record)) is True
    assert builder.add(admit(record)) is False
    graph = builder.finalize()
    assert graph.nodes["method:bert"]["mentions"] == 1


def test_one_paper_entity_edge_with_the_strongest_role():
    builder = GraphBuilder()
    builder.add(admit(_record("p1", [{"text": "FooNet", "name": "FooNet", "label": "Method", "role": "proposes"},
                               {"text": "FooNet", "name": "FooNet", "label": "Method", "role": "mentions"}])))
    graph = builder.finalize()
    assert list(graph["paper:p1"]["method:foonet"]) == ["PROPOSES"]
    assert graph["paper:p1"]["method:foonet"]["PROPOSES"]["count"] == 2


@pytest.mark.parametrize("name, shown", [
    ("Yes-Yes-Yes", "Yes-Yes-Yes"), ("Internet of Things", "Internet of Things"),
    ("mixture of experts", "mixture of experts"), ("Mixture-of-Experts", "Mixture-of-Experts"),
    ("diagnostic analyses", "diagnostic analysis"), ("statistical hypotheses", "statistical hypothesis"),
    ("Graph Transformers", "Graph Transformer"), ("Re-IDs", "Re-ID"), ("X-rays", "X-ray"),
    ("Vision-Language Models", "Vision-Language Model"), ("databases", "database"),
])
def test_a_name_is_singular_only_where_its_head_is_a_plural(name, shown):
    assert display_name(name) == shown
    assert canonical_name(name) == shown.lower()
