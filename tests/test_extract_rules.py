"""Unit tests: lexicon, rule candidates, entity assembly, proposals, roles and cue relations (rules only)."""
from __future__ import annotations

import pytest
from spacy.tokens import Span

from paperkg.api import load_pipeline
from paperkg.core.schema import Extraction, Mention, NodeLabel, PaperRecord, Relation, RelType
from paperkg.admit.thesaurus import apply_thesaurus, read_thesaurus


@pytest.fixture(scope="module")
def nlp():
    return load_pipeline(rules_only=True)


def entities(doc):
    return [(e.text, e.label_) for e in doc.spans["entities"]]


def test_lexicon_matches_case_and_plural(nlp):
    doc = nlp("Graph neural networks and large language models are trained on ImageNet with Adam.")
    found = {(e.text, e.label_, e._.paperkg_canonical) for e in doc.spans["entities"]}
    assert ("Graph neural networks", "Method", "graph neural network") in found
    assert ("large language models", "Method", "large language model") in found
    assert ("ImageNet", "Dataset", "ImageNet") in found


def test_a_paper_defining_a_lexicon_acronym_as_another_thing_keeps_its_own_sense(nlp):
    doc = nlp("Self-supervised learning with masked autoencoders (MAEs) is strong. Compared to MAE, our model "
              "is better.")
    names = {(e.text, e._.paperkg_canonical) for e in doc.spans["entities"]}
    assert {("masked autoencoders", "masked autoencoders"), ("MAE", "masked autoencoders")} <= names
    doc = nlp("Bidirectional Encoder Representations from Transformers (BERT) is fine-tuned. BERT is strong.")
    assert {(e.text, e._.paperkg_canonical) for e in doc.spans["entities"] if e.text == "BERT"} == {("BERT", "BERT")}
    doc = nlp("We report the mean absolute errors (MAEs) of depth. Our method lowers MAE by 10%.")
    assert {(e.text, e._.paperkg_canonical) for e in doc.spans["entities"]} >= {
        ("mean absolute errors", "mean absolute error"), ("MAE", "mean absolute error")}


@pytest.mark.parametrize("text, name, canonical", [
    ("This paper presents our findings from participating in the SMM4H Shared Task 2021. SMM4H is hard.", "SMM4H",
     "SMM4H Shared Task"),
    ("A shared task called Adap-MT 2020 is organized. We, team MUCS, describe our system.", "Adap-MT", "Adap-MT"),
    ("We describe our submission to the FooBar shared-task on parsing.", "FooBar", "FooBar shared-task"),
])
def test_a_shared_task_name_is_a_task_and_no_proposal(nlp, text, name, canonical):
    doc = nlp(text)
    spans = [e for e in doc.spans["entities"] if e.text.startswith(name)]
    assert spans and all(e.label_ == "Task" and not e._.paperkg_proposed for e in spans)
    assert {e._.paperkg_canonical for e in spans} == {canonical}


@pytest.mark.parametrize("sentence, dataset", [
    ("PACT is trained on 40k hours of unlabeled audio and tested on LibriSpeech.", "LibriSpeech"),
    ("The encoder is pretrained on African languages and evaluated on the MasakhaNER dataset.", "MasakhaNER"),
])
def test_quantities_and_modifiers_are_not_datasets(nlp, sentence, dataset):
    doc = nlp(sentence)
    assert [e.text for e in doc.spans["entities"] if e.label_ == "Dataset"] == [dataset]


def test_known_methods_in_an_evaluation_list_stay_methods(nlp):
    doc = nlp("It was evaluated on GPT-4 and Llama 2.")
    assert entities(doc) == [("GPT-4", "Method"), ("Llama 2", "Method")]


def test_the_list_ends_after_its_last_item(nlp):
    doc = nlp("In forecasting on ETTh1, ETTm2 and FooSeries, ChronoMoE reduces mean squared error by 12%.")
    assert ("ChronoMoE", "Method") in entities(doc)


def test_a_version_number_belongs_to_the_name(nlp):
    doc = nlp("We render scenes from Mip-NeRF 360 and BarScenes 2, and train for 30 epochs.")
    assert {"Mip-NeRF 360", "BarScenes 2"} <= {e.text for e in doc.spans["entities"]}


def test_a_copula_without_novelty_is_not_a_proposal(nlp):
    doc = nlp("BERT is a language model.")
    assert [(e.text, e._.paperkg_proposed) for e in doc.spans["entities"]] == [("BERT", False),
                                                                               ("language model", False)]


def test_lexicon_acronyms_are_abbreviations_of_multiword_names(nlp):
    doc = nlp("LLMs and ImageNet-1K and GPT-4o.")
    found = {(e.text, e._.paperkg_acronym) for e in doc.spans["entities"]}
    assert ("LLMs", "LLM") in found
    assert ("ImageNet-1K", None) in found


def test_lexicon_names_with_capitals_match_exactly(nlp):
    assert ("imagenet", "Dataset") not in entities(nlp("the imagenet of ideas"))
    assert ("ImageNet", "Dataset") in entities(nlp("the ImageNet of ideas"))


@pytest.mark.parametrize("sentence, name", [
    ("We propose QMamba by revisiting the Mamba model.", "QMamba"),
    ("We introduce NAIAD, an active learning framework that finds gene pairs.", "NAIAD"),
    ("We present Score-Fusion, a novel volumetric translation model.", "Score-Fusion"),
    ("Our method, dubbed Conservative Diffusion Q-learning (CDQ), works.", "Conservative Diffusion Q-learning"),
    ("In this work we develop FooBar to speed up training.", "FooBar"),
    ("Our approach, TokenMix, mixes tokens across images.", "TokenMix"),
    ("We present DiffPose: a diffusion-based framework for 3D human pose estimation.", "DiffPose"),
    ("We propose a simple yet effective approach for long-context modeling, named LongLoRA.", "LongLoRA"),
    ("We propose HyperGT, a hierarchical graph transformer for molecules.", "HyperGT"),
    ("We put forward GraphZip for lossless compression.", "GraphZip"),
    ("FlowNet3 is a novel optical flow method.", "FlowNet3"),
    ("The resulting sampler, which we call TinyStar, is fast.", "TinyStar"),
])
def test_proposed_names(nlp, sentence, name):
    doc = nlp(sentence)
    proposed = {e._.paperkg_canonical for e in doc.spans["entities"] if e._.paperkg_proposed}
    assert name in proposed


def test_a_proposed_benchmark_is_a_dataset(nlp):
    doc = nlp("We release OpenBench, a benchmark of 1,000 tasks for evaluating agents.")
    assert ([(e.text, e.label_, e._.paperkg_role) for e in doc.spans["entities"]]
            == [("OpenBench", "Dataset", "proposes")])


def test_passive_proposed_is_not_a_proposal(nlp):
    doc = nlp("Robust Markov games (RMGs) have been proposed to enhance robustness.")
    found = [(e.text, e._.paperkg_proposed) for e in doc.spans["entities"]]
    assert ("Robust Markov games", False) in found and ("RMGs", False) in found
    assert not any(proposed for _, proposed in found)


def test_known_methods_after_propose_are_not_proposed(nlp):
    doc = nlp("We propose to train graph neural networks (GNNs) with dropout.")
    found = [(e.text, e._.paperkg_proposed) for e in doc.spans["entities"]]
    assert ("graph neural networks", False) in found and ("GNNs", False) in found
    assert not any(proposed for _, proposed in found)


def test_stop_phrases_are_not_entities(nlp):
    doc = nlp("In this paper, our method beats existing approaches such as ResNet in experiments; results are strong.")
    names = {e.text.lower() for e in doc.spans["entities"]}
    assert names == {"resnet"}


@pytest.mark.parametrize("sentence, datasets", [
    ("TS-SNN achieves state-of-the-art performance on benchmarks like CIFAR-10 (96.72%), CIFAR-100 (80.28%), "
     "and ImageNet (70.61%).", {"CIFAR-10", "CIFAR-100", "ImageNet"}),
    ("Experiments on the ISPRS Potsdam and LoveDA datasets show gains.", {"ISPRS Potsdam", "LoveDA"}),
    ("Evaluations on the Meta-World benchmark demonstrate that ARS outperforms baselines.", {"Meta-World"}),
    ("We test on datasets such as Foo-1K, BarQA and Baz.", {"Foo-1K", "BarQA", "Baz"}),
    ("We evaluate on three benchmarks, namely FooBench, BarQA and Baz.", {"FooBench", "BarQA", "Baz"}),
    ("On FooCorpus-7 and WMT14, our model improves BLEU by 2 points.", {"FooCorpus-7", "WMT14"}),
    ("Results across Cityscapes, ADE20K and KittiSeg show consistent gains.", {"Cityscapes", "ADE20K", "KittiSeg"}),
    ("In forecasting on ETTh1, ETTm2 and FooSeries, ChronoMoE reduces mean squared error by 12%.",
     {"ETTh1", "ETTm2", "FooSeries"}),
    ("We evaluate on MVTec AD and VisA.", {"MVTec AD", "VisA"}),
    ("Models are evaluated on BraTS 2023 and Common Voice 16.", {"BraTS 2023", "Common Voice 16"}),
    ("It is evaluated on the FLEURS and VoxTest benchmarks.", {"FLEURS", "VoxTest"}),
    ("We evaluate on MusicCaps and the Song Describer Dataset.", {"MusicCaps", "Song Describer Dataset"}),
    ("We evaluate on the MVBench v2 benchmark.", {"MVBench v2"}),
])
def test_datasets_from_cues(nlp, sentence, datasets):
    doc = nlp(sentence)
    assert datasets <= {e.text for e in doc.spans["entities"] if e.label_ == "Dataset"}
    assert all(e._.paperkg_role == "evaluates_on" for e in doc.spans["entities"] if e.label_ == "Dataset")


def test_relations(nlp):
    doc = nlp("We propose FooNet for image classification. FooNet outperforms ResNet on CIFAR-10.")
    ents = list(doc.spans["entities"])
    found = {(r.type, ents[r.head].text, ents[r.tail].text) for r in doc._.paperkg_relations}
    assert ("USED_FOR", "FooNet", "image classification") in found
    assert ("COMPARED_WITH", "FooNet", "ResNet") in found
    assert ("EVALUATED_ON", "FooNet", "CIFAR-10") in found


def test_every_entity_has_evidence_fields(nlp):
    doc = nlp("We propose FooNet for image classification.")
    for e in doc.spans["entities"]:
        assert e._.paperkg_source and 0 < e._.paperkg_confidence <= 1 and e._.paperkg_role


def test_thesaurus_merges_and_drops(tmp_path):
    path = tmp_path / "thesaurus.tsv"
    path.write_text("label\treplace by\nLLMs\tlarge language model\nneural network\t\n")
    thesaurus = read_thesaurus(path)
    def mention(text):
        return Mention(text=text, name=text, label=NodeLabel.METHOD, start=0, end=1, sentence=0, source="model",
                       confidence=0.6)

    record = Extraction(PaperRecord("p", "S."), ["S."], sentence_spans=[(0, 2)],
                        entities=[mention("LLMs"), mention("neural networks"),
                                                                   mention("FooNet")],
                        relations=[Relation(RelType.COMPARED_WITH, 0, 2, 0, "cue", 0.6),
                                   Relation(RelType.IS_A, 1, 2, 0, "cue", 0.5)])
    result, dropped = apply_thesaurus(record, thesaurus)
    assert [e.name for e in result.entities] == ["large language model", "FooNet"]
    assert [e.name for e in dropped] == ["neural networks"]
    assert result.relations == [Relation(RelType.COMPARED_WITH, 0, 1, 0, "cue", 0.6)]


def test_thesaurus_bad_line_names_the_line(tmp_path):
    from paperkg.core.errors import PaperkgError

    path = tmp_path / "t.tsv"
    path.write_text("a\tb\nno tab here\n")
    with pytest.raises(PaperkgError, match="t.tsv:2"):
        read_thesaurus(path)


@pytest.fixture(scope="module")
def full_nlp():
    return load_pipeline()


def test_model_spans_that_do_not_read_as_terms_are_not_entities(full_nlp):
    """The rules judge the model's spans (given here, so the test does not depend on the weights)."""
    doc = full_nlp.make_doc("Our proof leverages tools from random matrix theory, "
                            "positioning them as a strong baseline.")
    for name, component in full_nlp.pipeline:
        if name == "types_ner":
            doc.spans["types"] = [Span(doc, 2, 4, label="Method"), Span(doc, 5, 8, label="Method"),
                                  Span(doc, 10, 15, label="Method")]
        elif name != "tok2vec":
            doc = component(doc)
    names = {e.text for e in doc.spans["entities"]}
    assert "random matrix theory" in names
    assert not {n for n in names if "them" in n.split() or "leverages" in n.split()}


def test_generic_data_mentions_are_not_datasets(full_nlp):
    doc = full_nlp("Experiments on several real-world datasets and the KITTI dataset confirm the gains.")
    datasets = {e.text for e in doc.spans["entities"] if e.label_ == "Dataset"}
    assert "KITTI" in datasets
    assert not any("real-world" in d for d in datasets)


@pytest.mark.parametrize("text", [
    "On SMAC and GRF, MAGIC achieves higher win rates than MAPPO and QMIX with fewer samples.",
    "GraspFormer improves success rate by 17% over Octo and OpenVLA on the LIBERO benchmark.",
    "Standard algorithms such as FedAvg and FedProx degrade sharply under client drift.",
])
def test_names_a_comparison_or_a_method_noun_lists_are_methods(full_nlp, text):
    doc = full_nlp(text)
    types = {e.text: e.label_ for e in doc.spans["entities"]}
    listed = [name for name in ("MAPPO", "QMIX", "Octo", "OpenVLA", "FedAvg", "FedProx") if name in text]
    assert {types.get(name) for name in listed} == {"Method"}, types


def test_a_data_set_node_is_named_without_the_common_noun_after_it(full_nlp):
    doc = full_nlp("We train on the Wikipedia dataset and test on the Song Describer Dataset and the KITTI benchmark.")
    names = {e.text: e._.paperkg_canonical for e in doc.spans["entities"] if e.label_ == "Dataset"}
    assert names.get("Wikipedia dataset") == "Wikipedia"
    assert names.get("Song Describer Dataset") == "Song Describer Dataset"
