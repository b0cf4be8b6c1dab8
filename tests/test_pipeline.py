"""The extraction pipeline as one spaCy unit: its config wires the components by span-group names
and overrides only what differs from the factories' defaults, it saves and reloads with its data
files, and a saved copy loads with plain spacy.load() in a fresh process."""
from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterable

import pytest
import spacy
from spacy.language import Language
from spacy.util import load_config

from paperkg.api import load_pipeline
from paperkg.ingest.readers import read_records
from paperkg.core.schema import PaperRecord
from paperkg.extract.extraction import extract
from paperkg.extract.pipeline import DEFAULT_MODEL, PIPELINE_CONFIG, term_layer

from cli_helpers import CORPUS

TEXTS = [p for f in sorted(CORPUS.glob("*.txt")) for p in f.read_text(encoding="utf8").split("\n\n")[1:4]]


def _lines(nlp: Language) -> list[str]:
    papers = [PaperRecord(id=f"p{i}", abstract=text) for i, text in enumerate(TEXTS)]
    return [extraction.to_json() for extraction in extract(nlp, papers)]


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    path = tmp_path_factory.mktemp("pipeline")
    load_pipeline().to_disk(path)
    return path


@pytest.fixture(scope="module")
def reloaded(saved) -> Language:
    """The saved pipeline loaded back with spacy.load, once for the tests that only run or read it."""
    return spacy.load(saved)


@pytest.mark.slow
def test_saved_pipeline_reloads_to_identical_extractions(reloaded):
    assert len(TEXTS) == 9
    assert _lines(reloaded) == _lines(load_pipeline())


def test_saved_pipeline_uses_its_own_data_files_not_the_package_ones(saved, tmp_path):
    copy = shutil.copytree(saved, tmp_path / "edited")
    stop_phrases = copy / "paperkg_entities" / "stop_phrases.txt"
    stop_phrases.write_text(stop_phrases.read_text(encoding="utf8") + "cifar-10\n", encoding="utf8")
    text = "We evaluate FooNet on CIFAR-10."
    package_doc, saved_doc = load_pipeline()(text), spacy.load(copy)(text)
    assert "CIFAR-10" in {e.text for e in package_doc.spans["entities"]}
    assert {e.text for e in saved_doc.spans["entities"]} == {"FooNet"}


@pytest.mark.slow
def test_saved_pipeline_loads_in_a_fresh_process_through_the_entry_points(saved):
    code = ("import spacy, sys; nlp = spacy.load(sys.argv[1]); "
            "doc = nlp('We propose FooNet for image classification.'); "
            "print(sorted(e.text for e in doc.spans['entities']))")
    result = subprocess.run([sys.executable, "-c", code, str(saved)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "['FooNet', 'image classification']"


def test_the_config_file_sets_only_the_span_wiring_and_what_differs_from_the_defaults():
    config = load_config(PIPELINE_CONFIG, interpolate=False)
    for name in config["nlp"]["pipeline"]:
        block = config["components"][name]
        if "factory" not in block:
            continue
        defaults = Language.get_factory_meta(block["factory"]).default_config
        for setting, value in block.items():
            assert setting == "factory" or "${spans." in str(value) or value != defaults[setting], (name, setting)


def test_every_span_key_setting_of_the_pipeline_is_wired_through_the_spans_section():
    components = load_pipeline().config["components"]
    keys = {(name, setting): value for name, block in components.items() for setting, value in block.items()
            if setting.endswith(("_key", "_keys")) and value is not None}
    assert ("paperkg_entities", "lexicon_key") in keys and ("relation_model", "entities_key") in keys
    assert all("${spans." in str(value) for value in keys.values()), keys


def test_the_trained_components_share_the_tok2vec_through_its_listener(reloaded):
    assert load_pipeline().get_pipe("tok2vec").listening_components == ["types_ner"]
    assert reloaded.get_pipe("tok2vec").listening_components == ["types_ner"]


def test_the_shipped_model_folder_loads_on_its_own():
    nlp = spacy.load(DEFAULT_MODEL)
    assert nlp.pipe_names == ["tok2vec", "types_ner", "ner", "relation_model"]
    doc = nlp("We evaluate it on ImageNet.")
    assert {span.label_ for span in doc.spans["types"]} <= {"Method", "Task", "Dataset", "Metric"}
    assert doc._.paperkg_relations == [] and nlp.get_pipe("relation_model").entities_key == "entities"


def _renamed(keys: Iterable[str]) -> dict[str, str]:
    return {f"spans.{key}": f"renamed_{key}" for key in keys}


def test_a_renamed_lexicon_group_keeps_the_lexicon_entities(saved):
    text = "We propose FooNet for machine translation and evaluate it on ImageNet and CIFAR-10 against BERT."
    renamed, default = spacy.load(saved, config=_renamed(["lexicon"]))(text), load_pipeline()(text)
    assert "renamed_lexicon" in renamed.spans and "lexicon" not in renamed.spans
    assert [e.text for e in renamed.spans["entities"]] == [e.text for e in default.spans["entities"]]
    assert {"BERT", "machine translation"} <= {e.text for e in renamed.spans["entities"]}


@pytest.mark.slow
def test_renaming_every_span_group_gives_the_same_extractions_on_the_example_corpus(saved, built):
    """The renamed pipeline's extraction lines are those of `paperkg build` of the corpus with the default
    names (the shared `built` fixture: extracting the corpus a second time here would only repeat it)."""
    keys = load_config(PIPELINE_CONFIG)["spans"]
    nlp = spacy.load(saved, config=_renamed(keys))
    with term_layer(nlp):
        groups = set(nlp("We propose FooNet (FN), evaluated on the ImageNet dataset like BERT.").spans)
    assert groups == set(_renamed(keys).values())
    papers = list(read_records(CORPUS))
    assert len(papers) > 50
    default = (built / "extractions.jsonl").read_text(encoding="utf8").splitlines()
    assert sorted(e.to_json() for e in extract(nlp, papers)) == sorted(default)


def test_components_declare_what_they_assign_and_require():
    analysis = load_pipeline().analyze_pipes()
    assert analysis["problems"] == {name: [] for name in load_pipeline().pipe_names}
    assert analysis["attrs"]["doc.spans"]["assigns"]


def test_rules_only_pipeline_has_no_model_components():
    nlp = load_pipeline(rules_only=True)
    assert not {"tok2vec", "ner"} & set(nlp.pipe_names)
    assert "paperkg_entities" in nlp.pipe_names


def test_the_cached_pipeline_is_one_however_it_is_asked_for():
    assert load_pipeline() is load_pipeline(None, False) is load_pipeline(rules_only=False)
    assert load_pipeline(rules_only=True) is load_pipeline(None, True)
    assert load_pipeline(rules_only=True) is not load_pipeline()
