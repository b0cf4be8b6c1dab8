"""Settings: the environment, then a config file, then flags; mistakes named with the file."""
from __future__ import annotations

from pathlib import Path

import pytest

from paperkg.core.errors import PaperkgError
from paperkg.settings import load_settings

ENV = {"NEO4J_URI": "bolt://env:7687", "NEO4J_PASSWORD": "from-env", "PAPERKG_BENCHMARKS": "/data/env"}


def test_environment_alone(tmp_path):
    settings = load_settings(ENV, cwd=tmp_path)
    assert settings.neo4j_uri == "bolt://env:7687" and settings.benchmarks == Path("/data/env")
    assert settings.neo4j_user == "neo4j" and settings.pipeline is None and settings.config_file is None


def test_the_environment_overrides_the_config_file_and_flags_override_both(tmp_path):
    (tmp_path / "paperkg.toml").write_text('benchmarks = "bench"\n[neo4j]\nuri = "bolt://file:7687"\nuser = "u"\n')
    settings = load_settings(ENV, cwd=tmp_path)
    assert settings.neo4j_uri == "bolt://env:7687" and settings.neo4j_user == "u"
    assert settings.benchmarks == Path("/data/env")
    assert settings.neo4j_password == "from-env"
    assert load_settings({}, cwd=tmp_path).benchmarks == (tmp_path / "bench").resolve()
    flagged = settings.with_flags(neo4j_uri="bolt://flag:7687", neo4j_user=None)
    assert flagged.neo4j_uri == "bolt://flag:7687" and flagged.neo4j_user == "u"


def test_paperkg_config_names_the_file(tmp_path):
    config = tmp_path / "elsewhere.toml"
    config.write_text('pipeline = "/models/p"\n')
    assert load_settings({"PAPERKG_CONFIG": str(config)}, cwd=tmp_path).pipeline == Path("/models/p")
    with pytest.raises(PaperkgError, match="PAPERKG_CONFIG names .*missing.toml"):
        load_settings({"PAPERKG_CONFIG": str(tmp_path / "missing.toml")}, cwd=tmp_path)


@pytest.mark.parametrize("text, message", [
    ("colour = 'red'\n", "unknown setting 'colour'"),
    ("pipeline = 3\n", "`pipeline` must be a non-empty string"),
    ("[neo4j\n", "not a readable TOML config file"),
    ("neo4j = 'x'\n", "must be a table"),
])
def test_config_mistakes_are_one_sentence_naming_the_file(tmp_path, text, message):
    (tmp_path / "paperkg.toml").write_text(text)
    with pytest.raises(PaperkgError, match=message) as caught:
        load_settings({}, cwd=tmp_path)
    assert str(tmp_path / "paperkg.toml") in str(caught.value)


def test_a_required_setting_says_how_to_give_it(tmp_path):
    with pytest.raises(PaperkgError, match="pass --benchmarks, set PAPERKG_BENCHMARKS"):
        load_settings({}, cwd=tmp_path).require("benchmarks", "--benchmarks")
