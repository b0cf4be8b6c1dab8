"""The extraction pipeline as one spaCy unit: its config holds every setting, it saves and reloads
with its data files, and a saved copy loads with plain spacy.load() in a fresh process."""
from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
import spacy
from spacy.language import Language
from spacy.util import load_config

from paperkg.api import load_pipeline
from paperkg.core.schema import PaperRecord
from paperkg.extract.extraction import extract
from paperkg.extract.pipeline import PIPELINE_CONFIG

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


@pytest.mark.slow
def test_saved_pipeline_reloads_to_identical_extractions(saved):
    assert len(TEXTS) == 9
    assert _lines(spacy.load(saved)) == _lines(load_pipeline())


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


def test_the_config_file_sets_every_setting_of_every_paperkg_component():
    config = load_config(PIPELINE_CONFIG, interpolate=False)
    for name in config["nlp"]["pipeline"]:
        block = config["components"][name]
        if not str(block.get("factory", "")).startswith("paperkg_"):
            continue
        defaults = Language.get_factory_meta(block["factory"]).default_config
        assert set(block) - {"factory"} == set(defaults), name


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
