"""A paperkg.toml found in the working directory says in one line everything it set (a password as set, never
its value), and any broken config file is one sentence naming the file and the key, never an unexpected error
(issue 33)."""
from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from build_helpers import example_papers, write_papers
from cli_helpers import run_cli

from paperkg.core.errors import PaperkgError
from paperkg.settings import load_settings

SECRET = "its-0wn-secret"


@pytest.fixture
def found(tmp_path, monkeypatch) -> Path:
    """A working directory whose paperkg.toml sets a path and Neo4j settings; no other config."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for name in ("PAPERKG_CONFIG", "PAPERKG_PIPELINE", "PAPERKG_BENCHMARKS", "NEO4J_URI", "NEO4J_PASSWORD"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "paperkg.toml").write_text(f'benchmarks = "bench"\n[neo4j]\nuri = "bolt://db.example:7687"\n'
                                           f'password = "{SECRET}"\n')
    return tmp_path


def test_a_found_file_says_in_one_line_all_it_set(found):
    source = write_papers(found / "in.jsonl", example_papers()[:1])
    result = run_cli("extract", str(source), "-o", str(found / "x.jsonl"), "--no-model")
    notices = [line for line in result.stderr.splitlines() if line.startswith("paperkg: ")]
    assert notices == [f"paperkg: {found / 'paperkg.toml'} (found in the working directory) sets benchmarks = "
                       f"{found / 'bench'}, [neo4j] uri = bolt://db.example:7687, [neo4j] password (set)"]
    assert SECRET not in result.stderr + result.stdout


def test_the_password_of_a_settings_object_is_not_in_its_repr(found):
    assert SECRET not in repr(load_settings())


@pytest.mark.parametrize("text, problem", [
    ("[neo4j]\nport = 7687\n", "unknown setting '[neo4j] port'; known: pipeline, benchmarks, corpus, min_confidence, "
                               "[neo4j] uri, user, password, database."),
    ("config_found = 'yes'\n", "unknown setting 'config_found'; known:"),
    ("sources = 'x'\n", "unknown setting 'sources'; known:"),
    ("neo4j_uri = 'bolt://x'\n", "unknown setting 'neo4j_uri'; known:"),
    ("pipeline = 5\n", "`pipeline` must be a non-empty string, not a number."),
    ("[neo4j]\npassword = ''\n", "`[neo4j] password` must be a non-empty string, not an empty string."),
    ("[neo4j]\nuser = ['a']\n", "`[neo4j] user` must be a non-empty string, not a list."),
    ("neo4j = 'bolt://x'\n", "`neo4j` must be a table ([neo4j]), not a string"),
    ('corpus = "a\\u0000b"\n', "`corpus` holds a line break or another control character."),
    ("[neo4j\n", "not a readable TOML config file"),
    ("\xff", "not a readable TOML config file"),
])
def test_a_broken_config_file_is_one_sentence_naming_the_file_and_key(found, text, problem):
    (found / "paperkg.toml").write_bytes(text.encode("utf8", "surrogateescape") if text != "\xff" else b"\xff")
    result = run_cli("extract", str(found / "none.jsonl"), "--no-model", check=False)
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith(f"error: {found / 'paperkg.toml'}: ") and problem in result.stderr


_KEYS = st.sampled_from(["pipeline", "benchmarks", "corpus", "neo4j", "uri", "password", "x", "neo4j_uri", "sources"])
_VALUES = st.sampled_from(['"a"', '""', "1", "1.5", "true", "[1]", '["a"]', "{a = 1}", '"\\u0000"', "1979-05-27",
                           '"~/x"', '"../../.."'])
_LINES = st.lists(st.one_of(st.tuples(_KEYS, _VALUES).map(lambda kv: f"{kv[0]} = {kv[1]}"),
                            st.sampled_from(["[neo4j]", "[other]", "[neo4j.x]", "[[neo4j]]", "=", "#", ""]),
                            st.text(max_size=10)), max_size=8)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(_LINES)
def test_any_config_file_gives_settings_or_one_sentence(lines):
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "paperkg.toml").write_text("\n".join(lines), encoding="utf8", errors="surrogateescape")
        try:
            loaded = load_settings({}, cwd=Path(folder))
        except PaperkgError as error:
            assert str(error).startswith(f"{folder}/paperkg.toml: ") and "\n" not in str(error).strip()
        else:
            assert loaded.config_found and (loaded.found_notice() is None) == (not loaded.sources)


# --- the thesaurus, a file the user hands over too ------------------------------------------------------------

def _thesaurus_build(tmp_path: Path, data: bytes):
    out = tmp_path / "first"
    if not out.exists():
        run_cli("build", str(write_papers(tmp_path / "in.jsonl", example_papers()[:8])), "-o", str(out), "--no-model")
    (tmp_path / "thesaurus.tsv").write_bytes(data)
    return run_cli("build", "--from-extractions", str(out / "extractions.jsonl"), "-o", str(tmp_path / "out"),
                   "--thesaurus", str(tmp_path / "thesaurus.tsv"), check=False)


def _names(folder: Path) -> set[str]:
    import json

    return {node["name"] for node in json.loads((folder / "graph.json").read_text())["nodes"]}


def test_a_thesaurus_with_a_bom_reads_its_first_line(tmp_path):
    run_cli("build", str(write_papers(tmp_path / "in.jsonl", example_papers()[:8])), "-o", str(tmp_path / "first"),
            "--no-model")
    name = sorted(name for name in _names(tmp_path / "first") if name.islower() and " " in name)[0]
    result = _thesaurus_build(tmp_path, f"\ufeff{name}\trenamed by the first line\n".encode())
    assert result.returncode == 0, result.stderr
    assert "renamed by the first line" in _names(tmp_path / "out") and name not in _names(tmp_path / "out")
    result = _thesaurus_build(tmp_path, "\ufefflabel\treplace by\n".encode())  # a header after a BOM is a header
    assert result.returncode == 0, result.stderr


def test_a_label_given_twice_with_two_replacements_is_one_sentence(tmp_path):
    result = _thesaurus_build(tmp_path, b"label\treplace by\nfoo net\tA\nbar\tB\nFoo Net\tC\nbar\tB\n")
    assert result.returncode == 2 and result.stderr == (
        f"error: {tmp_path / 'thesaurus.tsv'}:4: 'Foo Net' is replaced by 'A' at line 2 already, and by 'C' here; "
        "keep one of the two lines.\n")
