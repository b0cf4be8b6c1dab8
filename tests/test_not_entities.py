"""Out of schema stays out, junk words are no hubs, names kept whole (issue 31): admit/not_entities.py,
admit/names.py's list markers and coordination, admission's refusals with their reasons."""
from __future__ import annotations

from dataclasses import replace

import pytest
from records import Term, paper

from paperkg.admit.admission import admit
from paperkg.admit.names import clean_name, coordination
from paperkg.admit.not_entities import NotEntities, kind_of
from paperkg.admit.records import NAME_REASONS


@pytest.mark.parametrize("name, kind", [
    ("GDPR", "law"), ("EU AI Act", "law"), ("COLING 2025", "venue"), ("SemEval 2017", "venue"),
    ("SemEval-2017", "venue"), ("NeurIPS", "venue"), ("ACL 2023", "venue"), ("AMD", "organisation"),
    ("RedNote", "organisation"), ("OpenAI", "organisation"), ("GitHub repository", "product"),
    ("HER2", "biomedical"), ("PD-L1", "biomedical"), ("estrogen receptor", "biomedical"),
    ("progesterone receptors", "biomedical"), ("breast cancer", "disease"), ("Alzheimer's disease", "disease"),
    ("autism spectrum disorder", "disease"), ("graphene", "material"),
    ("Three-dimensional", "not-a-thing"), ("two-dimensional", "not-a-thing"), ("RGB", "not-a-thing"),
    ("AI", "not-a-thing"), ("AI system", "not-a-thing"), ("robustness", "not-a-thing"),
    ("computational efficiency", "not-a-thing"), ("machine-learning models", "not-a-thing"),
    ("Machine Learning Models", "not-a-thing"), ("AI systems", "not-a-thing"), ("Recommendations", "not-a-thing"),
    ("English", "language"), ("Tamil", "language"), ("GPUs", "instrument"), ("LiDAR", "instrument"),
    ("Magnetic resonance imaging", "instrument"), ("computed tomography", "instrument"),
    ("BERT-based models", "not-a-thing"), ("Transformer-based model", "not-a-thing"), ("classifiers", "not-a-thing"),
    ("APIs", "not-a-thing"), ("part-of-speech", "not-a-thing"), ("decision making", "not-a-thing"),
])
def test_a_name_outside_the_schema_has_its_kind(name, kind):
    assert kind_of(name) == kind


@pytest.mark.parametrize("name", [
    "WMT22", "CoNLL-2003", "breast cancer detection", "receptor modelling", "tumor segmentation", "BERT",
    "question answering", "AI agent", "3D Gaussian Splatting", "RGB-D SLAM", "accuracy", "fairness",
    "recommendation", "news recommendations", "Cityscapes", "English Wikipedia", "ML", "IT", "German-English",
    "part-of-speech tagging", "GPU kernel fusion", "MRI reconstruction", "LLM-based agents", "CT",
])
def test_an_entity_that_only_contains_such_a_word_is_no_refusal(name):
    assert kind_of(name) is None


def test_a_bad_line_of_the_lists_names_its_line():
    with pytest.raises(ValueError, match="line 2"):
        NotEntities.parse("venue\tACL\ncity\tParis\n")


@pytest.mark.parametrize("name, kept", [
    ("1 - Multi-label Country-level Dialect Identification", "Multi-label Country-level Dialect Identification"),
    ("2: Cross-lingual Retrieval", "Cross-lingual Retrieval"),
    ("3) Emotion Recognition", "Emotion Recognition"),
])
def test_a_list_marker_is_cut_off_the_name(name, kept):
    assert clean_name(name) == (kept, "list-marker")


@pytest.mark.parametrize("name", ["3D reconstruction", "2 - D", "GPT-4", "1-bit quantization"])
def test_a_number_that_is_part_of_the_name_stays(name):
    cleaned = clean_name(name)
    assert cleaned is None or cleaned.rule != "list-marker"


@pytest.mark.parametrize("name, refused", [
    ("question answering and summarization", True), ("detection or segmentation", True),
    ("speech & language processing", True), ("Tanks and Temples", False), ("Pairs and Triples Benchmark", False),
    ("natural language processing", False),
])
def test_two_terms_joined_by_and_are_no_one_name(name, refused):
    assert (coordination(name) == "coordination") is refused


def test_admission_refuses_them_with_their_reason_and_keeps_the_mention():
    record = paper("p1", "We comply with GDPR using AI and study HER2 in breast cancer with BERT.",
                   [Term("GDPR", "Method"), Term("AI", "Method"), Term("HER2", "Method"),
                    Term("breast cancer", "Task"), Term("BERT", "Method")])
    admitted = admit(record)
    reasons = {r.name: r.reason for r in admitted.refused_names}
    assert reasons == {"GDPR": "law", "AI": "not-a-thing", "HER2": "biomedical", "breast cancer": "disease"}
    assert [n.name for n in admitted.names if n] == ["BERT"]
    assert set(reasons.values()) <= set(NAME_REASONS)
    assert len(admitted.record.entities) == 5  # the mentions stay in the record, with evidence


def test_a_curated_or_defined_coordination_is_one_name():
    record = paper("p1", "We study question and answering over tables.", [Term("question and answering", "Task")])
    assert admit(record).names[0] is None
    lexicon = replace(record.entities[0], source="lexicon")
    assert admit(replace(record, entities=[lexicon])).names[0] is not None


def test_a_papers_own_term_is_a_node_however_rare_in_the_corpus():
    """In the title ('network alignment'), or used three times in the abstract ('phobia classification')."""
    text = ("We study network alignment. phobia classification helps; phobia classification works; "
            "phobia classification.")
    terms = [Term("network alignment", "Task"), *(Term("phobia classification", "Task", nth=n) for n in range(3)),
             Term("study", "Method")]
    record = paper("p1", text, terms, title="Network Alignment for Graphs")
    record = replace(record, entities=[replace(m, node=False, termhood="rare") for m in record.entities])
    admitted = admit(record)
    assert [n.name if n else None for n in admitted.names] == [
        "network alignment", "phobia classification", "phobia classification", "phobia classification", None]
    assert {r.name: r.reason for r in admitted.refused_names} == {"study": "rare"}
