"""One thing, one node: junk names refused or repaired, short forms resolved as the corpus uses them, one
type per entity; built through the real pipeline from small texts (sentences from real abstracts)."""
from __future__ import annotations

import random

import pytest

import paperkg
from paperkg.core.schema import PaperRecord
from paperkg.admit.admission import admit_all
from paperkg.graph.builder import GraphBuilder
from paperkg.graph.exports import write_json


@pytest.fixture(scope="module")
def nlp():
    return paperkg.load_pipeline()


def _build(nlp, texts, prefix="p"):
    records = [PaperRecord(id=f"{prefix}{index:02d}", abstract=text) for index, text in enumerate(texts)]
    return paperkg.build_graph(records, nlp=nlp)


def _entities(graph):
    return {key: data for key, data in graph.nodes(data=True) if data["label"] != "Paper"}


def _names(graph):
    return {data["name"] for data in _entities(graph).values()}


def _extracted_names(nlp, text):
    (record,) = paperkg.extract_records([PaperRecord(id="x", abstract=text)], nlp)
    return {mention.name for mention in record.entities if mention.node}


@pytest.mark.parametrize("text, junk, node, rule", [
    ("Our method outperforms baselines by up to +2.46 BLEUOur code will be released upon acceptance.",
     "BLEUOur", "BLEU", "glued-word"),
    ("We introduce CARE for collaborative reading. See the open source implementation of "
     "CARE.Github Repository Live Demo: https://github.com/UKPLab/CARE", "CARE.Github Repository Live Demo",
     "CARE", "glued-sentence"),
    ("We prompt an off- the-shelf LLM to label data.", "off- the-shelf LLM", "off-the-shelf LLM", "hyphen-spacing"),
    ("Lexical-semantic resources (LSR) such as dictionaries form valuable foundation of numerous natural "
     "language process- ing (NLP) tasks.", "natural language process-", "natural language processing",
     "hyphenation"),
])
def test_a_glued_or_cut_name_joins_the_node_of_its_repaired_name(nlp, text, junk, node, rule):
    assert junk in _extracted_names(nlp, text)  # the pipeline does hand the junk name over
    graph = _build(nlp, [text])
    assert junk not in _names(graph)
    (data,) = [d for d in _entities(graph).values() if d["name"].lower() == node.lower()]
    assert any(line.startswith(f"{junk} [{rule}: p00") for line in data["merged_from"])
    assert junk not in data["aliases"]


def test_a_number_is_no_node(nlp):
    text = "We present KosBi, a new social bias dataset of 34k pairs of contexts and sentences in Korean."
    assert "34k" in _extracted_names(nlp, text)
    assert "34k" not in _names(_build(nlp, [text]))


def test_a_lexicon_head_does_not_capture_every_qualified_reading(nlp):
    graph = _build(nlp, ["We apply denoising to speech signals with a new filter.",
                         "Image denoising is a classic problem. We also study image inpainting."])
    assert {"denoising", "image denoising"} <= {d["name"].lower() for d in _entities(graph).values()}
    assert graph.has_edge("paper:p00", "task:denoising") or graph.has_edge("paper:p00", "method:denoising")


def test_a_paper_bare_head_joins_its_one_qualified_term(nlp):
    graph = _build(nlp, ["We study machine translation. Translation quality improves with our method.",
                         "We study poems. Our method improves translation."])
    mt = next(d for d in _entities(graph).values() if d["name"] == "machine translation")
    assert mt["papers"] == 1 and any("head-ellipsis: p00" in line for line in mt["merged_from"])
    assert graph.has_edge("paper:p01", "task:translation")  # no machine translation there: it stays apart


NLP_TEXTS = [
    "Natural language processing (NLP) has advanced rapidly with pretrained transformers.",
    "We survey NLP for low-resource languages and discuss open problems in NLP research.",
    "Recent work in NLP uses large language models for question answering.",
    "Natural language processing (NLP) tools support clinical text mining.",
]


def test_nlp_and_natural_language_processing_are_one_node_of_one_type(nlp):
    graph = _build(nlp, NLP_TEXTS)
    nodes = [d for d in _entities(graph).values() if d["name"] in ("NLP", "Natural language processing",
                                                                   "natural language processing")]
    assert len(nodes) == 1
    assert nodes[0].get("acronym") == "NLP" and nodes[0]["papers"] == 4


def _record(paper_id, entities, abstract="S."):
    from paperkg.core.schema import SCHEMA_KEY, SCHEMA_VERSION, Extraction

    return Extraction.from_dict({
        SCHEMA_KEY: SCHEMA_VERSION, "paper": {"id": paper_id, "abstract": abstract}, "sentences": [abstract],
        "sentence_spans": [[0, len(abstract)]],
        "entities": [dict({"start": 0, "end": 1, "sentence": 0, "source": "model", "confidence": 0.8,
                           "role": "mentions", "acronym": None}, **e) for e in entities],
        "acronyms": [], "undefined_acronyms": [], "relations": []}, "test")


def _sense(name, label="Task"):
    return {"text": name, "name": name, "label": label, "acronym": "NLI"}


def _bare(label="Task"):
    return {"text": "NLI", "name": "NLI", "label": label}


def _other(name):
    return {"text": name, "name": name, "label": "Method"}


NLI_RECORDS = [
    *[_record(f"inf{i}", [_sense("natural language inference"), _other("SNLI"), _other("entailment model")])
      for i in range(5)],
    *[_record(f"nat{i}", [_sense("native language identification"), _other("learner essay"), _other("L1 corpus")])
      for i in range(2)],
    _record("z1", [_bare(), _other("learner essay")]),   # points to identification
    _record("z2", [_bare(), _other("SNLI")]),            # points to inference
    _record("z3", [_bare()]),                             # no context: the dominant sense
]


def test_a_short_form_with_two_senses_stays_two_nodes_and_bare_mentions_follow_their_paper():
    builder = GraphBuilder()
    builder.add_all(admit_all(NLI_RECORDS))
    graph = builder.finalize()
    inference, identification = "task:natural language inference", "task:native language identification"
    assert graph.has_edge("paper:z1", identification) and not graph.has_edge("paper:z1", inference)
    assert graph.has_edge("paper:z2", inference) and graph.has_edge("paper:z3", inference)
    assert "task:nli" not in graph


def test_an_entity_takes_the_type_most_of_its_mentions_give_whatever_the_order():
    records = [_record("a", [_other("FooNet") | {"label": "Dataset"}]),
               *[_record(f"b{i}", [_other("FooNet")]) for i in range(3)]]
    graphs = []
    for seed in range(3):
        random.Random(seed).shuffle(records)
        builder = GraphBuilder()
        builder.add_all(admit_all(records))
        graphs.append(builder.finalize())
    assert all("method:foonet" in graph and "dataset:foonet" not in graph for graph in graphs)


def test_the_builder_gives_the_same_bytes_in_any_paper_order(tmp_path):
    outputs = []
    for seed in range(3):
        records = list(NLI_RECORDS)
        random.Random(seed).shuffle(records)
        builder = GraphBuilder()
        builder.add_all(admit_all(records))
        write_json(builder.finalize(), tmp_path / f"{seed}.json")
        outputs.append((tmp_path / f"{seed}.json").read_bytes())
    assert outputs[0] == outputs[1] == outputs[2]


def test_merge_makes_two_names_one_node_with_its_evidence():
    builder = GraphBuilder()
    builder.add_all(admit_all([_record("a", [_other("XLM-R")]), _record("b", [_other("XLM-RoBERTa")])]))
    builder.merge("XLM-R", "XLM-RoBERTa", "synonym-of", "a")
    graph = builder.finalize()
    (node,) = _entities(graph).values()
    other = ({"XLM-R", "XLM-RoBERTa"} - {node["name"]}).pop()
    assert node["papers"] == 2 and node["merged_from"] == [f"{other} [synonym-of: a]"]


def test_a_rare_spelling_of_a_short_form_s_definition_joins_the_main_one():
    main = [_record(f"m{i}", [{"text": "neural machine translation", "name": "neural machine translation",
                               "label": "Task", "acronym": "NMT"},
                              {"text": "machine translation", "name": "machine translation", "label": "Task",
                               "acronym": "MT"}]) for i in range(12)]
    rare = _record("r", [{"text": "neural MT", "name": "neural MT", "label": "Task", "acronym": "NMT"}])
    builder = GraphBuilder()
    builder.add_all(admit_all([*main, rare]))
    graph = builder.finalize()
    node = graph.nodes["task:neural machine translation"]
    assert graph.has_edge("paper:r", "task:neural machine translation") and node["papers"] == 13
    assert node["merged_from"] == ["neural MT [acronym-variant: r]"]


@pytest.mark.parametrize("a, b, same", [
    ("pre-trained language model", "pre-training language models", True),
    ("question and answering", "question answering", True),
    ("language model", "language modeling", False),          # a thing and what it does are two things
    ("natural language generation", "neural language generation", False),
    ("native language identification", "natural language inference", False),
])
def test_same_words_but_for_endings(a, b, same):
    from paperkg.graph.resolve import same_words

    assert same_words(a, b) is same


@pytest.mark.parametrize("name, expected", [
    ("XLM-R.", ("XLM-R", "")), ("U.S.", ("U.S.", "")), ("Node.js", ("Node.js", "")), ("ASP.NET", ("ASP.NET", "")),
    ("MetaFormer", ("MetaFormer", "")), ("GPT-4", ("GPT-4", "")), ("1.5M", None), ("10%", None), ("3D", ("3D", "")),
    ("represen-", None), ("natural language process-", None), ("34k", None),
])
def test_clean_name_keeps_names_and_refuses_numbers(name, expected):
    from paperkg.admit.names import clean_name

    assert clean_name(name) == (None if expected is None else tuple(expected))


def _defines(short, name, label="Task"):
    return {"text": name, "name": name, "label": label, "acronym": short}


def _finalize(records):
    builder = GraphBuilder()
    builder.add_all(admit_all(records))
    return builder.finalize()


def test_a_noun_and_its_gerund_defining_one_short_form_are_one_node_everywhere():
    records = [*[_record(f"n{i}", [_defines("TMG", "tensor merge", "Method")]) for i in range(8)],
               *[_record(f"g{i}", [_defines("TMG", "tensor merging"), _bare() | {"text": "TMG", "name": "TMG"}])
                 for i in range(3)],
               _record("plain", [_other("tensor merging")])]  # no short form here: the same term still
    graph = _finalize(records)
    (node,) = [d for d in _entities(graph).values() if "tensor" in d["name"]]
    assert node["name"] == "tensor merge" and node["label"] == "Method" and node["papers"] == 12
    assert "tensor merging" in node["aliases"] and "TMG" not in _names(graph)
    assert any(line.startswith("tensor merging [acronym-variant: g0, g1, g2") for line in node["merged_from"])


def test_a_rare_definition_with_words_left_out_or_added_joins_its_sense_in_its_own_papers_only():
    main = [_record(f"m{i}", [_defines("ZQP", "zonal quantum parsing")]) for i in range(12)]
    records = [*main, _record("short", [_defines("ZQP", "zonal parsing"), {"text": "ZQP", "name": "ZQP",
                                                                            "label": "Task"}]),
               _record("long", [_defines("ZQP", "zonal quantum tree parsing")]),
               _record("other", [_other("zonal parsing")])]  # no ZQP here: another term, left alone
    graph = _finalize(records)
    node = graph.nodes["task:zonal quantum parsing"]
    assert node["papers"] == 14 and {"zonal parsing", "zonal quantum tree parsing"} <= set(node["aliases"])
    assert "zonal parsing [acronym-paper-variant: short]" in node["merged_from"]
    assert graph.has_edge("paper:other", "method:zonal parsing") and "ZQP" not in _names(graph)


def test_a_definition_cut_short_joins_the_definition_it_was_cut_from():
    records = [*[_record(f"k{i}", [_defines("KB", "knowledge base")]) for i in range(20)],
               _record("full", [_defines("KB", "Klingon Bard", "Method")]),
               _record("cut", [_defines("KB", "Klingon", "Method")])]
    graph = _finalize(records)
    assert "method:klingon" not in graph and graph.has_edge("paper:cut", "method:klingon bard")
    assert graph.nodes["dataset:knowledge base"]["papers"] == 20


def test_a_shorter_definition_that_spells_the_short_form_is_no_cut_but_a_term_of_its_own():
    records = [*[_record(f"s{i}", [_defines("VT", "voice translation")]) for i in range(20)],
               _record("full", [_defines("VT", "voice-to-text translation")]),
               _record("own", [_defines("VT", "voice-to-text")])]
    graph = _finalize(records)
    assert graph.has_edge("paper:own", "task:voice-to-text")
    assert graph.has_edge("paper:full", "task:voice translation")  # words added under the same head


@pytest.mark.parametrize("main, other", [
    ("spectral quilting", "sparse quilting"),        # the same head, other words: two things
    ("relation extraction", "referring expression"),
    ("self-attention", "slot attention"),
    ("token grafting", "token graph"),               # no noun and its gerund
])
def test_distinct_things_sharing_letters_stay_apart(main, other):
    records = [*[_record(f"a{i}", [_defines("XY", main, "Method")]) for i in range(20)],
               _record("b", [_defines("XY", other, "Method")])]
    graph = _finalize(records)
    assert graph.has_edge("paper:b", f"method:{other}") and graph.nodes[f"method:{main}"]["papers"] == 20


@pytest.mark.parametrize("a, b, merged", [
    ("tensor merge network", "tensor merging network", True),
    ("nested QX", "nested quilt extraction", True),             # QX written out: the same words
    ("Elbo", "quilt extraction", False),                        # no word in common
    ("Chinese quilt extraction", "quilt extraction", False),    # a kind of it
    ("spectral quilt machine", "spectral learning", False),     # the long forms of SQM and SL
])
def test_a_synonym_of_relation_merges_only_names_the_corpus_lets_be_one(a, b, merged):
    records = [*[_record(f"d{i}", [_defines("QX", "quilt extraction", "Method")]) for i in range(3)],
               _record("sqm", [_defines("SQM", "spectral quilt machine", "Method")]),
               _record("sl", [_defines("SL", "spectral learning", "Method")]),
               _record("x", [_other(a), _other(b)])]
    builder = GraphBuilder()
    builder.add_all(admit_all(records))
    builder.merge(a, b, "synonym-of", "x")
    graph = builder.finalize()
    keys = {k for k in graph.successors("paper:x") if k.startswith("method:")}
    assert (len(keys) == 1) is merged
