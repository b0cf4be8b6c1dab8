"""Junk ends of typed edges: names that name no thing are not nodes (extract/junk_names.py), and terms that
are no thing to relate (a quality, a language in a Dataset slot) end no typed edge (admit/relation_ends.py).
Made-up names throughout, so the rules are tested as rules, not as a list of known abstracts."""
from __future__ import annotations

from dataclasses import replace

import pytest

import paperkg
from paperkg.core.schema import (PAPER_REL_TYPES, Extraction, Mention, NodeLabel, PaperRecord, Relation, RelType,
                                 Role)
from paperkg.extract.junk_names import JunkNames
from paperkg.extract.resources import DATA_DIR, DataFiles
from paperkg.admit.admission import admit
from paperkg.graph.builder import GraphBuilder
from paperkg.admit.relation_ends import EndRules, end_refusal, mention_refusal, purpose_refusal


@pytest.fixture(scope="module")
def junk() -> JunkNames:
    files = ("modifier_affixes.txt", "verb_openers.txt")
    return JunkNames.from_data(DataFiles.read(DATA_DIR, files), *files)


@pytest.mark.parametrize("text, reason", [
    ("Quorb-Guided", "modifier"), ("ZentaNet-style", "modifier"), ("flux-aware", "modifier"),
    ("-based", "modifier"), ("7B-parameter", "modifier"), ("in-vortex", "modifier"), ("out-of-glarb", "modifier"),
    ("generate dense blorb segmentation", "verb-phrase"), ("limiting scalability", "verb-phrase"),
    ("predict Quorb", "verb-phrase"), ("Vandoria's", "possessive"), ("3x speedup", "quantity"),
    ("12.5% reduction", "quantity"),
])
def test_a_mention_that_names_no_thing_says_why(junk, text, reason):
    assert junk.reason_for_text(text) == reason


@pytest.mark.parametrize("text", [
    "Quorb-Guided Attention", "Transformer-based language model", "in-context learning", "generative retrieval",
    "learning rate", "Enhanced ZentaNet", "3D reconstruction", "few-shot blorb classification", "self-consistency",
    "Limiting Factor Network", "ZentaNet", "boosting algorithms",
])
def test_a_name_or_term_passes(junk, text):
    assert junk.reason_for_text(text) is None


def test_junk_mentions_stay_in_the_record_with_the_reason_and_are_no_nodes():
    texts = ["We propose ZentaNet-style Quorb-Guided filtering. Our model outperforms Vandoria's baselines.",
             "We introduce Flux-Aware, a module for blorb detection.",
             "We compare in-vortex (IVX) inputs with others. IVX samples are easy."]
    records = [PaperRecord(id=f"p{i}", abstract=text) for i, text in enumerate(texts)]
    nlp = paperkg.load_pipeline()
    mentions = {m.name: (m.termhood, m.node) for r in paperkg.extract_records(records, nlp) for m in r.entities}
    assert mentions["Quorb-Guided"] == ("modifier", False)
    assert mentions["Flux-Aware"] == ("modifier", False)
    assert mentions["Vandoria's"] == ("possessive", False)
    assert mentions["in-vortex"] == ("modifier", False)  # and its short form IVX with it
    graph = paperkg.build_graph(records, nlp=nlp)
    names = {name for _, data in graph.nodes(data=True) for name in (data["name"], data.get("acronym"))}
    assert not names & {"Quorb-Guided", "Flux-Aware", "Vandoria's", "in-vortex", "IVX"}


@pytest.mark.parametrize("name, label, refusal", [
    ("computational blorbness efficiency", "Task", "quality"), ("slow glarb speed", "Task", "quality"),
    ("spatial resolution", "Task", "quality"), ("3D geometric consistency", "Method", "quality"),
    ("mathematical quorbing ability", "Task", "quality"), ("post-training phase", "Task", "quality"),
    ("English", "Dataset", "not-dataset"), ("Vandorian languages", "Dataset", "not-dataset"),
    ("Ministry of Quorb Affairs", "Dataset", "not-dataset"), ("PyTorch", "Dataset", "not-dataset"),
    ("Glarb University", "Dataset", "not-dataset"), ("Glarb University Chest Scan", "Dataset", None),
    ("entity resolution", "Task", None), ("cycle consistency", "Method", None), ("English Wikiglarb", "Dataset", None),
    ("English", "Method", None), ("ZentaNet", "Method", None), ("image super-resolution", "Task", None),
    ("misuse", "Task", "generic"), ("GUI", "Method", "generic"), ("CASE", "Method", None),
    ("misuse detection", "Task", None),
    # a Task whose head is no task noun names a thing; a head written as a name or an acronym is kept
    ("3D glarb scenes", "Task", "no-task"), ("medical blorb entities", "Task", "no-task"),
    ("quorb in-context learning", "Task", "no-task"), ("Zorb Fine-Tuning", "Task", "no-task"),
    ("Quorb Object Detection", "Task", None), ("blorb question-answering", "Task", None),
    ("glarb super-resolution", "Task", None), ("blorb NLU", "Task", None), ("ZorbQA", "Task", None),
    ("3D glarb scenes", "Method", None),
])
def test_a_quality_or_a_language_in_a_dataset_slot_ends_no_typed_edge(name, label, refusal):
    assert end_refusal(name, label) == refusal


def test_the_rules_file_names_a_bad_line():
    with pytest.raises(ValueError, match="line 2"):
        EndRules.parse("quality\tspeed\nqualty\tspeed\n")


def _mention(text: str, label: NodeLabel, start: int, role: Role | None = None) -> Mention:
    """A model mention; a Task is one its sentence addresses ('improves X', 'for X') unless `role` says otherwise."""
    role = role or (Role.ADDRESSES if label is NodeLabel.TASK else Role.MENTIONS)
    return Mention(text=text, name=text, label=label, start=start, end=start + len(text), sentence=0,
                   source="model", confidence=0.9, role=role)


def test_the_builder_writes_no_typed_edge_to_a_refused_end_but_keeps_the_node():
    text = "ZentaNet improves blorb efficiency and quorb parsing on Slavic languages and on GlarbBank."
    names = [("ZentaNet", NodeLabel.METHOD), ("blorb efficiency", NodeLabel.TASK), ("quorb parsing", NodeLabel.TASK),
             ("Slavic languages", NodeLabel.DATASET), ("GlarbBank", NodeLabel.DATASET)]
    entities = [_mention(name, label, text.index(name)) for name, label in names]
    relations = [Relation(RelType.USED_FOR, 0, 1, 0, "model", 0.9), Relation(RelType.USED_FOR, 0, 2, 0, "model", 0.9),
                 Relation(RelType.EVALUATED_ON, 0, 3, 0, "model", 0.9),
                 Relation(RelType.EVALUATED_ON, 0, 4, 0, "model", 0.9)]
    builder = GraphBuilder()
    builder.add(admit(Extraction(PaperRecord(id="p1", abstract=text), [text], entities, relations=relations,
                           sentence_spans=[(0, len(text))])))
    graph = builder.finalize()
    typed = sorted((u, k, v) for u, v, k in graph.edges(keys=True) if RelType(k) not in PAPER_REL_TYPES)
    assert typed == [("method:zentanet", "EVALUATED_ON", "dataset:glarbbank"),
                     ("method:zentanet", "USED_FOR", "task:quorb parsing")]
    assert "task:blorb efficiency" in graph and "dataset:slavic languages" in graph


@pytest.mark.parametrize("abstract, text, label, refusal", [
    # a Method or Dataset name that modifies the noun after it wherever the abstract writes it
    ("We add real-time Zorb maintenance to the loop.", "Zorb", NodeLabel.METHOD, "fragment"),
    ("Actions range from Zorb primitives to composites.", "Zorb", NodeLabel.METHOD, "fragment"),
    ("It integrates Human-Quorb Model (HQM) co-annotation with active learning.", "Human-Quorb Model",
     NodeLabel.METHOD, "fragment"),
    ("We introduce the first large-scale ZORB dataset featuring diverse queries.", "large-scale ZORB",
     NodeLabel.DATASET, "fragment"),
    # a name that runs on in Title Case
    ("The workflow surpasses the 2025 Zorb Elite Challenge winner.", "Zorb", NodeLabel.METHOD, "fragment"),
    ("We study Glarb Problem Solving with neural networks.", "Glarb Problem", NodeLabel.TASK, "fragment"),
    # a gerund with its object
    ("A framework for embedding blorbs directly into existing pages.", "embedding blorbs", NodeLabel.TASK,
     "verb-phrase"),
    # names: their kind, a part, their items, a verb, a clause opening, a cited author, a Task slot
    ("We fine-tune the Zorb model on GlarbBank.", "Zorb", NodeLabel.METHOD, None),
    ("We use a pre-trained Zorb image encoder.", "Zorb", NodeLabel.METHOD, None),
    ("We train on GlarbBank scenes and test on others.", "GlarbBank", NodeLabel.DATASET, None),
    ("Experiments on GlarbBank show large gains.", "GlarbBank", NodeLabel.DATASET, None),
    ("We show that Zorb leads to large gains.", "Zorb", NodeLabel.METHOD, None),
    ("The Zorb resembles the Glarb in depth.", "Zorb", NodeLabel.METHOD, None),
    ("A blorb model operates in the latent space.", "blorb model", NodeLabel.METHOD, None),
    ("Embeddings such as Zorb Blimpton et al. (2020) help.", "Zorb", NodeLabel.METHOD, None),
    ("Zorb raises blorb parsing accuracy.", "blorb parsing", NodeLabel.TASK, None),
    ("We add Zorb maintenance. Zorb, in turn, is cheap.", "Zorb", NodeLabel.METHOD, None),  # written alone too
    ("A proprietary Zorb stemmer built from rules.", "Zorb", NodeLabel.METHOD, None),  # an agent noun
    ("We use data of the Glarbeval-3 Chinese sample task.", "Glarbeval-3", NodeLabel.DATASET, None),  # a language
    ("The Zorb classifier whilst using fewer features.", "Zorb classifier", NodeLabel.METHOD, None),
    ("The problem of missing blorb correspondences heavily required by pipelines.", "missing blorb correspondences",
     NodeLabel.TASK, None),  # a gerund, not with an object: its adverb goes with the participle after it
])
def test_a_mention_that_is_a_piece_of_a_longer_noun_phrase_says_why(abstract, text, label, refusal):
    assert mention_refusal(abstract, _mention(text, label, abstract.index(text))) == refusal


def test_a_cut_long_form_is_judged_where_its_short_form_defines_it():
    abstract = "We introduce ZNG (Zero-shot Norb-based Gradient Masking), a pruning method."
    short = replace(_mention("ZNG", NodeLabel.METHOD, 13), name="Zero-shot Norb-based Gradient", source="acronym")
    assert mention_refusal(abstract, short) == "fragment"
    assert mention_refusal(abstract, replace(short, name="Zero-shot Norb-based Gradient Masking")) is None


def test_lexicon_mentions_are_trusted():
    abstract = "We add real-time Zorb maintenance to the loop."
    assert mention_refusal(abstract, replace(_mention("Zorb", NodeLabel.METHOD, 17), source="lexicon")) is None


def test_the_builder_writes_no_typed_edge_from_a_fragment_mention():
    text = "We add real-time Zorb maintenance and ZentaNet to blorb parsing."
    names = [("Zorb", NodeLabel.METHOD), ("ZentaNet", NodeLabel.METHOD), ("blorb parsing", NodeLabel.TASK)]
    entities = [_mention(name, label, text.index(name)) for name, label in names]
    relations = [Relation(RelType.USED_FOR, 0, 2, 0, "model", 0.9), Relation(RelType.USED_FOR, 1, 2, 0, "model", 0.9)]
    builder = GraphBuilder()
    builder.add(admit(Extraction(PaperRecord(id="p1", abstract=text), [text], entities, relations=relations,
                           sentence_spans=[(0, len(text))])))
    graph = builder.finalize()
    typed = sorted((u, k, v) for u, v, k in graph.edges(keys=True) if RelType(k) not in PAPER_REL_TYPES)
    assert typed == [("method:zentanet", "USED_FOR", "task:blorb parsing")]
    assert "method:zorb" in graph


@pytest.mark.parametrize("kind, label, role, refusal", [
    (RelType.USED_FOR, NodeLabel.TASK, Role.MENTIONS, "no-purpose"),
    (RelType.USED_FOR, NodeLabel.TASK, Role.ADDRESSES, None), (RelType.USED_FOR, NodeLabel.TASK, Role.PROPOSES, None),
    (RelType.USED_FOR, NodeLabel.METHOD, Role.MENTIONS, None),
    (RelType.BENCHMARK_FOR, NodeLabel.TASK, Role.MENTIONS, None),
])
def test_a_used_for_relation_needs_a_sentence_that_states_a_purpose_for_its_task(kind, label, role, refusal):
    assert purpose_refusal(kind, _mention("blorb parsing", label, 0, role)) == refusal


def test_the_builder_writes_no_used_for_edge_to_a_task_its_sentence_only_mentions():
    text = "Zorb and blorb parsing are popular. ZentaNet serves for glarb parsing."
    first, second = text.index("Zorb"), text.index("ZentaNet")
    entities = [_mention("Zorb", NodeLabel.METHOD, first),
                _mention("blorb parsing", NodeLabel.TASK, text.index("blorb parsing"), Role.MENTIONS),
                replace(_mention("ZentaNet", NodeLabel.METHOD, second), sentence=1),
                replace(_mention("glarb parsing", NodeLabel.TASK, text.index("glarb parsing")), sentence=1)]
    relations = [Relation(RelType.USED_FOR, 0, 1, 0, "model", 0.9), Relation(RelType.USED_FOR, 2, 3, 1, "model", 0.9)]
    builder = GraphBuilder()
    spans = [(0, second - 1), (second, len(text))]
    builder.add(admit(Extraction(PaperRecord(id="p1", abstract=text), [text[a:b] for a, b in spans], entities,
                           relations=relations, sentence_spans=spans)))
    graph = builder.finalize()
    typed = sorted((u, k, v) for u, v, k in graph.edges(keys=True) if RelType(k) not in PAPER_REL_TYPES)
    assert typed == [("method:zentanet", "USED_FOR", "task:glarb parsing")]
    assert "task:blorb parsing" in graph
