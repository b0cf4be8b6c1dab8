"""Settings: the model, data paths and Neo4j connection, from the environment, then a config file,
then command-line flags (each later source overrides the earlier ones).

Environment: PAPERKG_PIPELINE, PAPERKG_BENCHMARKS, PAPERKG_CORPUS, NEO4J_URI, NEO4J_USERNAME,
NEO4J_PASSWORD, NEO4J_DATABASE. Config file (TOML): the file named by PAPERKG_CONFIG, else
./paperkg.toml, else ~/.config/paperkg/config.toml, with top-level `pipeline`, `benchmarks`,
`corpus` and a `[neo4j]` table (`uri`, `user`, `password`, `database`). Relative paths in the
file are read relative to the file.
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from paperkg.core.errors import PaperkgError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

CONFIG_FILE_NAME = "paperkg.toml"
USER_CONFIG = Path(".config") / "paperkg" / "config.toml"  # under $HOME
_ENVIRONMENT = {"pipeline": "PAPERKG_PIPELINE", "benchmarks": "PAPERKG_BENCHMARKS", "corpus": "PAPERKG_CORPUS",
                "neo4j_uri": "NEO4J_URI", "neo4j_user": "NEO4J_USERNAME", "neo4j_password": "NEO4J_PASSWORD",
                "neo4j_database": "NEO4J_DATABASE"}
_PATHS = ("pipeline", "benchmarks", "corpus")


@dataclass(frozen=True)
class Settings:
    """Where paperkg finds its model and data, and which Neo4j it talks to."""

    pipeline: Path | None = None       # a trained model or saved pipeline directory; None: the shipped one
    benchmarks: Path | None = None     # the public benchmarks (eval, train)
    corpus: Path | None = None         # the shared abstracts, abstracts.jsonl.gz (train: the termhood table)
    neo4j_uri: str = "bolt://localhost:7687"
    neo4j_user: str = "neo4j"
    neo4j_password: str | None = None
    neo4j_database: str = "neo4j"
    config_file: Path | None = None    # the file that was read, if any

    def with_flags(self, **flags: Any) -> Settings:
        """These settings overridden by the flags that were given (None: not given)."""
        return replace(self, **{name: value for name, value in flags.items() if value is not None})

    def require(self, name: str, flag: str) -> Any:
        """A setting that must have a value, or an error saying how to give one."""
        value = getattr(self, name)
        if value is None:
            raise PaperkgError(f"no {name} given: pass {flag}, set {_ENVIRONMENT[name]}, or set `{name}` in "
                               f"{self.config_file or CONFIG_FILE_NAME}.")
        return value


def load_settings(environ: dict[str, str] | None = None, cwd: Path | None = None) -> Settings:
    """Settings from the environment, then the config file (flags are applied by the caller)."""
    environ = dict(os.environ if environ is None else environ)
    values: dict[str, Any] = {name: environ[var] for name, var in _ENVIRONMENT.items() if environ.get(var)}
    config_file = _config_file(environ, cwd or Path.cwd())
    if config_file is not None:
        values.update(_read_config(config_file))
    for name in _PATHS:
        if name in values:
            values[name] = Path(values[name]).expanduser()
    return Settings(**values, config_file=config_file)


def _config_file(environ: dict[str, str], cwd: Path) -> Path | None:
    named = environ.get("PAPERKG_CONFIG")
    if named:
        path = Path(named).expanduser()
        if not path.is_file():
            raise PaperkgError(f"PAPERKG_CONFIG names {path}, which is not a file.")
        return path
    home = environ.get("HOME")
    for candidate in (cwd / CONFIG_FILE_NAME, *([Path(home) / USER_CONFIG] if home else [])):
        if candidate.is_file():
            return candidate
    return None


def _read_config(path: Path) -> dict[str, Any]:
    """The settings a TOML config file gives, with its mistakes reported as one sentence naming it."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError) as error:
        raise PaperkgError(f"{path}: not a readable TOML config file ({error}).") from None
    neo4j = data.pop("neo4j", {})
    if not isinstance(neo4j, dict):
        raise PaperkgError(f"{path}: `neo4j` must be a table ([neo4j]).")
    known = {f.name for f in fields(Settings)} - {"config_file"}
    values = {**data, **{f"neo4j_{key}": value for key, value in neo4j.items()}}
    unknown = sorted(set(values) - known)
    if unknown:
        raise PaperkgError(f"{path}: unknown setting {unknown[0]!r}; known: pipeline, benchmarks, corpus, "
                           "[neo4j] uri, user, password, database.")
    for name, value in values.items():
        if not isinstance(value, str):
            raise PaperkgError(f"{path}: `{name}` must be a string, not {type(value).__name__}.")
    for name in _PATHS:
        if name in values:
            values[name] = str((path.parent / Path(values[name]).expanduser()).resolve())
    return values
