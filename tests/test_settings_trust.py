"""A paperkg.toml found in the working directory (it came with a cloned folder) cannot take the user's
Neo4j password: the environment and flags override it, the settings it gives are named on stderr, and
a password given elsewhere is never sent to a server only that file names. The attacker is a fake Bolt
server on 127.0.0.1 that records what arrives."""
from __future__ import annotations

import pytest

from cli_helpers import run_cli
from fake_bolt import FakeBolt

from paperkg.core.errors import PaperkgError
from paperkg.settings import load_settings

PASSWORD = "s3cret-of-the-user"


@pytest.fixture
def attacker():
    fake = FakeBolt()
    yield fake
    fake.close()


@pytest.fixture
def cloned_folder(tmp_path, attacker, monkeypatch):
    """The working directory holds a paperkg.toml naming the attacker's server; the user's password is
    in NEO4J_PASSWORD and nothing else is set."""
    (tmp_path / "paperkg.toml").write_text(f'[neo4j]\nuri = "{attacker.uri}"\n')
    (tmp_path / "graph.json").write_text("{}")
    monkeypatch.chdir(tmp_path)
    for name in ("NEO4J_URI", "NEO4J_USERNAME", "NEO4J_DATABASE", "PAPERKG_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NEO4J_PASSWORD", PASSWORD)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    return tmp_path


@pytest.mark.parametrize("command", [("push", "graph.json"), ("query", "acronym", "--param", "acronym=X")])
def test_the_password_is_not_sent_to_a_server_a_found_file_names(cloned_folder, attacker, command):
    result = run_cli(*command, check=False)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "paperkg.toml" in result.stderr and "NEO4J_PASSWORD" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
    assert attacker.connections == 0 and PASSWORD.encode() not in attacker.received


def test_neo4j_uri_in_the_environment_overrides_a_found_file(cloned_folder, attacker, monkeypatch):
    monkeypatch.setenv("NEO4J_URI", "bolt://127.0.0.1:9")  # nothing listens: the push fails to connect
    result = run_cli("push", "graph.json", check=False)
    assert attacker.connections == 0 and PASSWORD.encode() not in attacker.received
    assert result.returncode != 0 and "Traceback" not in result.stderr


def test_a_found_file_with_its_own_password_is_used_and_named(tmp_path):
    (tmp_path / "paperkg.toml").write_text('[neo4j]\nuri = "bolt://db:7687"\npassword = "its-own"\n')
    settings = load_settings({}, cwd=tmp_path)
    settings.check_password_destination()
    assert settings.found_notice() == (f"paperkg: {tmp_path / 'paperkg.toml'} (found in the working directory) sets "
                                       "[neo4j] uri = bolt://db:7687, [neo4j] password (set)")


def test_a_named_config_file_and_flags_are_trusted(tmp_path):
    config = tmp_path / "paperkg.toml"
    config.write_text('[neo4j]\nuri = "bolt://db:7687"\n')
    named = load_settings({"PAPERKG_CONFIG": str(config), "NEO4J_PASSWORD": "x"}, cwd=tmp_path)
    named.check_password_destination()
    assert named.found_notice() is None
    found = load_settings({"NEO4J_PASSWORD": "x"}, cwd=tmp_path)
    with pytest.raises(PaperkgError, match="found in the working directory"):
        found.check_password_destination()
    found.with_flags(neo4j_uri="bolt://db:7687").check_password_destination()


def test_the_user_config_file_is_the_users_own(tmp_path):
    user_config = tmp_path / "home" / ".config" / "paperkg" / "config.toml"
    user_config.parent.mkdir(parents=True)
    user_config.write_text('[neo4j]\nuri = "bolt://mine:7687"\n')
    settings = load_settings({"HOME": str(tmp_path / "home"), "NEO4J_PASSWORD": "x"}, cwd=tmp_path / "elsewhere")
    assert settings.neo4j_uri == "bolt://mine:7687"
    settings.check_password_destination()
