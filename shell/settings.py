"""Settings: the model, data paths and Neo4j connection, from a config file, then the environment,
then command-line flags (each later source overrides the earlier ones, as in pip and git).

Environment: PAPERKG_PIPELINE, PAPERKG_BENCHMARKS, PAPERKG_CORPUS, NEO4J_URI, NEO4J_USERNAME,
NEO4J_PASSWORD, NEO4J_DATABASE. Config file (TOML): the file named by PAPERKG_CONFIG, else
./paperkg.toml, else ~/.config/paperkg/config.toml, with top-level `pipeline`, `benchmarks`,
`corpus` and a `[neo4j]` table (`uri`, `user`, `password`, `database`). Relative paths in the
file are read relative to the file.

A ./paperkg.toml is found, not named: it comes with whatever folder the user is in (a cloned
repository), so every setting it gives is named on stderr in one line (a password as set, never its value),
and the password the user gave elsewhere is never sent to a server only that file names.
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field, replace
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
_NEO4J_KEYS = ("uri", "user", "password", "database")  # the keys of the config file's [neo4j] table
_SAID: set[str] = set()  # notices already printed by this process


@dataclass(frozen=True)
class Settings:
    """Where paperkg finds its model and data, and which Neo4j it talks to."""

    pipeline: Path | None = None       # a trained model or saved pipeline directory; None: the shipped one
    benchmarks: Path | None = None     # the public benchmarks (eval, train)
    corpus: Path | None = None         # the shared abstracts, abstracts.jsonl.gz (train: the termhood table)
    neo4j_uri: str = "bolt://localhost:7687"  # the server `push`, `query` and `build --neo4j` talk to
    neo4j_user: str = "neo4j"
    neo4j_password: str | None = field(default=None, repr=False)  # else asked for on a terminal; never printed
    neo4j_database: str = "neo4j"
    config_file: Path | None = None    # the file that was read, if any
    config_found: bool = False         # that file is ./paperkg.toml, found in the working directory
    sources: dict[str, str] = field(default_factory=dict, compare=False)  # setting -> "flag", a variable, "file"

    def with_flags(self, **flags: Any) -> Settings:
        """These settings overridden by the flags that were given (None: not given)."""
        given = {name: value for name, value in flags.items() if value is not None}
        return replace(self, **given, sources={**self.sources, **dict.fromkeys(given, "flag")})

    def found_notice(self) -> str | None:
        """A line for stderr naming every setting a ./paperkg.toml the user did not name gives (the
        password as set, never its value); None when no such file was read."""
        from_file = [name for name in self.sources if self.sources[name] == "file"]
        if not (self.config_found and from_file):
            return None
        said = ", ".join(f"{_key(name)} (set)" if name == "neo4j_password" else f"{_key(name)} = {getattr(self, name)}"
                         for name in from_file)
        return f"paperkg: {self.config_file} (found in the working directory) sets {said}"

    def announce(self) -> None:
        """Print the found file's notice on stderr, once per process."""
        notice = self.found_notice()
        if notice and notice not in _SAID:
            _SAID.add(notice)
            print(notice, file=sys.stderr)

    def origin(self, name: str, flag: str) -> str:
        """Where a setting's value came from, for a message: the flag, the variable or the file and key."""
        source = self.sources.get(name)
        if source == "environment":
            return _ENVIRONMENT[name]
        if source == "file":
            return f"{_key(name)} in {self.config_file}"
        return flag

    def check_password_destination(self) -> None:
        """Refuse to send a password given by flag, environment or prompt to a server named only by a found
        ./paperkg.toml (a file that came with the folder, not from the user)."""
        if not (self.config_found and self.sources.get("neo4j_uri") == "file"):
            return
        if self.sources.get("neo4j_password") == "file":
            return  # that file's own credentials, for that file's server
        given = _ENVIRONMENT["neo4j_password"] if self.sources.get("neo4j_password") == "environment" else (
            "--password" if self.neo4j_password is not None else "the password prompt")
        raise PaperkgError(f"{self.config_file}, found in the working directory, names the Neo4j server "
                           f"{self.neo4j_uri!r}, and paperkg does not send the password from {given} to a server "
                           f"only a found file names; pass --uri, set {_ENVIRONMENT['neo4j_uri']}, or name the "
                           f"file with PAPERKG_CONFIG.")

    def require(self, name: str, flag: str) -> Any:
        """A setting that must have a value, or an error saying how to give one."""
        value = getattr(self, name)
        if value is None:
            raise PaperkgError(f"no {name} given: pass {flag}, set {_ENVIRONMENT[name]}, or set `{name}` in "
                               f"{self.config_file or CONFIG_FILE_NAME}.")
        return value


def load_settings(environ: dict[str, str] | None = None, cwd: Path | None = None) -> Settings:
    """Settings from the config file, then the environment (flags are applied by the caller)."""
    environ = dict(os.environ if environ is None else environ)
    cwd = cwd or Path.cwd()
    config_file = _config_file(environ, cwd)
    values: dict[str, Any] = _read_config(config_file) if config_file is not None else {}
    sources = dict.fromkeys(values, "file")
    for name, var in _ENVIRONMENT.items():
        if environ.get(var):
            values[name], sources[name] = environ[var], "environment"
    for name in _PATHS:
        if name in values:
            values[name] = Path(values[name]).expanduser()
    found = config_file is not None and not environ.get("PAPERKG_CONFIG") and config_file == cwd / CONFIG_FILE_NAME
    return Settings(**values, config_file=config_file, config_found=found, sources=sources)


def _config_file(environ: dict[str, str], cwd: Path) -> Path | None:
    """The file PAPERKG_CONFIG names, else ./paperkg.toml, else the user's own config file, if any."""
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


def command_settings(**flags: Any) -> Settings:
    """A command's settings: the file and environment, then its flags; a found ./paperkg.toml named on stderr."""
    settings = load_settings().with_flags(**flags)
    settings.announce()
    return settings


def _key(name: str) -> str:
    """A setting as the config file spells it (`pipeline`, `[neo4j] uri`)."""
    return f"[neo4j] {name.removeprefix('neo4j_')}" if name.startswith("neo4j_") else name


def _read_config(path: Path) -> dict[str, Any]:
    """The settings a TOML config file gives, with each mistake one sentence naming the file and key."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError) as error:
        raise PaperkgError(f"{path}: not a readable TOML config file ({error}).") from None
    neo4j = data.pop("neo4j", {})
    if not isinstance(neo4j, dict):
        raise PaperkgError(f"{path}: `neo4j` must be a table ([neo4j]), not {_kind(neo4j)}.")
    unknown = sorted(set(data) - set(_PATHS)) or sorted(f"[neo4j] {key}" for key in set(neo4j) - set(_NEO4J_KEYS))
    if unknown:
        raise PaperkgError(f"{path}: unknown setting {unknown[0]!r}; known: {', '.join(_PATHS)}, [neo4j] "
                           f"{', '.join(_NEO4J_KEYS)}.")
    values = {**data, **{f"neo4j_{key}": value for key, value in neo4j.items()}}
    for name, value in values.items():
        if not isinstance(value, str) or not value.strip():
            raise PaperkgError(f"{path}: `{_key(name)}` must be a non-empty string, not {_kind(value)}.")
        if any(ord(char) < 32 or ord(char) == 127 for char in value):
            raise PaperkgError(f"{path}: `{_key(name)}` holds a line break or another control character.")
    for name in _PATHS:
        if name in values:
            try:
                values[name] = str((path.parent / Path(values[name]).expanduser()).resolve())
            except (OSError, RuntimeError, ValueError) as error:
                raise PaperkgError(f"{path}: `{name}` is not a path paperkg can use ({error}).") from None
    return values


def _kind(value: Any) -> str:
    """A TOML value's kind for a message (never the value: it may be a password)."""
    if isinstance(value, str):
        return "a string" if value.strip() else "an empty string"
    return {bool: "a boolean", int: "a number", float: "a number", list: "a list", dict: "a table"}.get(
        type(value), type(value).__name__)
