"""A node's type from what the thing is (graph/node_types.py, issue 31): the shape of its names, the training
lexicon, then its mentions' vote; one sentence's position never overrides the name's own evidence."""
from __future__ import annotations

import pytest
from records import Term, paper

from paperkg.admit.admission import admit
from paperkg.core import graph_model as model
from paperkg.extract.training.type_lexicon import lexicon_rows
from paperkg.graph.builder import GraphBuilder
from paperkg.graph.node_types import NameShapes, decide_label, shape_label


@pytest.mark.parametrize("name, label", [
    # benchmarks the position made Methods (the examples, then others of the same shape)
    ("WMT22", "Dataset"), ("S2-VLUE", "Dataset"), ("LongMemEval-RR", "Dataset"), ("MT-Bench", "Dataset"),
    ("SWE-bench", "Dataset"), ("HumanEval", "Dataset"), ("Penn Treebank", "Dataset"), ("CoNLL-2003", "Dataset"),
    ("IWSLT 2017", "Dataset"), ("SuperGLUE", "Dataset"), ("VBench", "Dataset"), ("Brown Corpus", "Dataset"),
    # models the position made Datasets
    ("MedGemma 3 27B", "Method"), ("Mistral Small 3.2", "Method"), ("Qwen3-8B-base", "Method"),
    ("LLaMA-2 7B", "Method"), ("GPT-4o", "Method"), ("Phi-3-mini", "Method"), ("OPT 1.3B", "Method"),
    ("Hachimi-1M", None),
    # metrics the position made Methods
    ("COMET", "Metric"), ("Read-Recall", "Metric"), ("Valid Consumption Rate", "Metric"), ("precision", "Metric"),
    ("BLEU-4", "Metric"), ("ROUGE-L", "Metric"), ("BERTScore", "Metric"), ("attack success rate", "Metric"),
    ("Gini Index", "Metric"), ("FPS", "Metric"), ("frames per second", "Metric"),
    # whole names the thing types: a resource of data, a technique
    ("knowledge graph", "Dataset"), ("Knowledge Bases", "Dataset"), ("pruning", "Method"), ("quantization", "Method"),
])
def test_a_name_shape_says_its_type(name, label):  # None: a data set's size in examples says nothing
    assert shape_label(name) == label


@pytest.mark.parametrize("name", ["learning rate", "vector index", "our new dataset", "a large benchmark",
                                  "question answering", "Transformer", "graph neural network", "AppWorld",
                                  "information retrieval", "Information Retrieval", "workbench", "value"])
def test_a_name_without_a_telling_shape_says_nothing(name):
    assert shape_label(name) is None


def test_the_shape_and_the_lexicon_outrank_the_vote_but_method_or_task_is_the_vote():
    lexicon = {"relationextraction": "Task", "imagenet": "Dataset"}
    assert decide_label({"Method": 5.0}, {"WMT22": {"p1", "p2"}}, lexicon) == ("Dataset", "shape")
    assert decide_label({"Method": 5.0}, {"ImageNet": {"p1"}}, lexicon) == ("Dataset", "lexicon")
    assert decide_label({"Method": 5.0}, {"relation extraction": {"p1"}}, lexicon) == ("Method", "vote")
    assert decide_label({"Method": 1.0, "Task": 2.0}, {"zorb parsing": {"p1"}}, lexicon) == ("Task", "vote")



def test_a_common_word_naming_an_action_is_no_dataset_whatever_the_vote():
    assert decide_label({"Dataset": 5.0, "Task": 1.0}, {"retrieval": {"p1"}, "Retrieval": {"p2", "p3"}}, {}) == \
        ("Task", "vote")
    assert decide_label({"Dataset": 5.0}, {"segmentation": {"p1"}}, {}) == ("Task", "vote")
    assert decide_label({"Dataset": 5.0, "Method": 1.0}, {"Wikipedia": {"p1"}}, {}) == ("Dataset", "vote")
    assert decide_label({"Dataset": 5.0}, {"Parsing": {"p1"}}, {}) == ("Dataset", "vote")  # only as a title word
    assert decide_label({"Dataset": 5.0}, {"retrieval": {"p1"}, "RETRIEVAL": {"p2", "p3"}}, {}) == ("Task", "vote")
    assert decide_label({"Method": 5.0}, {"XGLUE": {"p1"}}, {}) == ("Dataset", "shape")

def test_the_training_lexicon_lists_a_name_one_type_dominates():
    from collections import Counter

    rows = lexicon_rows({"bleu": Counter(Metric=9, Method=1), "dropout": Counter(Method=3, Task=3),
                         "rarely": Counter(Task=1)})
    assert rows == [("bleu", "Metric", 10)]


def test_a_bad_line_of_the_shapes_names_its_line():
    with pytest.raises(ValueError, match="line 1"):
        NameShapes.parse("colour\tred\n")


def test_in_the_graph_a_benchmark_written_after_with_is_a_dataset_and_a_model_after_on_a_method():
    """'with WMT22' and 'on MedGemma 3 27B' type them Method and Dataset by position; the graph reads the names."""
    records = [paper("p1", "We evaluate with WMT22 and run on MedGemma 3 27B.",
                     [Term("WMT22", "Method"), Term("MedGemma 3 27B", "Dataset")])]
    builder = GraphBuilder()
    for record in records:
        builder.add(admit(record))
    graph = builder.finalize()
    labels = {node["name"]: node["label"] for _, node in model.entities(graph)}
    assert labels == {"WMT22": "Dataset", "MedGemma 3 27B": "Method"}
