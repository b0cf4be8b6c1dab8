"""paperkg's Cypher library: the schema and named, documented queries, as .cypher files.

Each query file opens with a comment header that Neo4j Browser ignores and this loader reads:
the first line says what the query answers, further lines add detail, and one line per
parameter gives its Browser form and default, e.g.

    // :param acronym => "FLeRM"   -- the acronym to look up, any case

Defaults are JSON literals (numbers, "strings", true/false, null, [lists]). A parameter whose
default is a non-empty string names what the query is about (an acronym, a task, a paper): that
default is only Neo4j Browser's example, so `paperkg query` asks for the parameter instead of using it.

Label unions are written `%NODE_LABELS%` (every label) and `%ENTITY_LABELS%` (every label but Paper) and
filled from core.schema's NodeLabel when a file is loaded, so a new label reaches every query and the
full-text index without editing Cypher (`paperkg query NAME --show` prints the filled text for Neo4j Browser).
"""
from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from paperkg.core.errors import ExitCode, PaperkgError
from paperkg.core.schema import ENTITY_LABELS, NodeLabel

CYPHER_DIR = Path(__file__).parent
QUERY_DIR = CYPHER_DIR / "queries"
LABEL_UNIONS = {"%NODE_LABELS%": "|".join(label.value for label in NodeLabel),
                "%ENTITY_LABELS%": "|".join(label.value for label in ENTITY_LABELS)}
_LABEL_UNION = re.compile("|".join(LABEL_UNIONS))
_PARAM_LINE = re.compile(r"^//\s*:param\s+(?P<name>\w+)\s*=>\s*(?P<default>.+?)\s*(?:--\s*(?P<help>.*))?$")


@dataclass(frozen=True)
class QueryParam:
    """One query parameter: its name, default value and what it means."""

    name: str
    default: Any
    help: str

    @property
    def required(self) -> bool:
        """The parameter names what the query is about: its default is only an example."""
        return isinstance(self.default, str) and self.default != ""

    def parse(self, text: str) -> Any:
        """A command-line value as the type of the default (JSON for lists and null defaults)."""
        if isinstance(self.default, bool):
            if text.lower() not in ("true", "false"):
                raise PaperkgError(f"parameter {self.name} takes true or false, not {_shown(text)}.")
            return text.lower() == "true"
        if isinstance(self.default, (int, float)):
            try:
                number = type(self.default)(text)
            except ValueError:
                raise PaperkgError(f"parameter {self.name} takes a number, not {_shown(text)}.") from None
            if isinstance(number, int) and not -2**63 <= number < 2**63:
                raise PaperkgError(f"parameter {self.name} takes a whole number Neo4j can hold (a 64-bit integer, "
                                   f"at most {2**63 - 1:,}), not {_shown(text)}.")
            return number
        if isinstance(self.default, str):
            return text
        try:
            return json.loads(text)
        except (ValueError, RecursionError):  # not JSON (a number too long to convert, nesting too deep): text
            return text


def _shown(text: str) -> str:
    """A command-line value in a message, at most 60 characters of it."""
    return repr(text if len(text) <= 60 else text[:57] + "...")


@dataclass(frozen=True)
class NamedQuery:
    """A .cypher query of the library with its header parsed."""

    name: str
    summary: str
    details: str
    params: tuple[QueryParam, ...]
    text: str

    def parameters(self, overrides: dict[str, str] | None = None) -> dict[str, Any]:
        """The defaults, with command-line `name=value` overrides parsed to their types."""
        overrides = dict(overrides or {})
        known = {param.name: param for param in self.params}
        unknown = sorted(set(overrides) - set(known))
        if unknown:
            raise PaperkgError(f"query {self.name} has no parameter {unknown[0]!r}; it takes "
                               f"{', '.join(known) or 'none'}.")
        return {name: param.parse(overrides[name]) if name in overrides else param.default
                for name, param in known.items()}


def _parse_header(name: str, text: str) -> NamedQuery:
    """Split the leading `//` comment block into summary, details and parameters."""
    comments = []
    for line in text.splitlines():
        if not line.startswith("//"):
            break
        comments.append(line)
    params, prose = [], []
    for line in comments:
        match = _PARAM_LINE.match(line)
        if match:
            try:
                default = json.loads(match["default"])
            except json.JSONDecodeError:
                raise PaperkgError(f"{QUERY_DIR / (name + '.cypher')}: the default of parameter "
                                   f"{match['name']} is not a JSON literal.", ExitCode.FAILED) from None
            params.append(QueryParam(match["name"], default, match["help"] or ""))
        else:
            prose.append(line[2:].strip())
    prose = [line for line in prose if line]
    if not prose:
        raise PaperkgError(f"{QUERY_DIR / (name + '.cypher')} has no header comment.", ExitCode.FAILED)
    return NamedQuery(name, prose[0], " ".join(prose[1:]), tuple(params), text)


@lru_cache(maxsize=None)
def list_queries() -> tuple[NamedQuery, ...]:
    """Every query of the library, sorted by name."""
    return tuple(_parse_header(path.stem, read_cypher(path)) for path in sorted(QUERY_DIR.glob("*.cypher")))


def read_cypher(path: Path) -> str:
    """A .cypher file of the library with its label unions filled in from NodeLabel."""
    return _LABEL_UNION.sub(lambda match: LABEL_UNIONS[match[0]], path.read_text(encoding="utf-8"))


def load_query(name: str) -> NamedQuery:
    """The named query (any case, '-' for '_'), or a PaperkgError listing the names there are."""
    wanted = name.strip().casefold().replace("-", "_")
    for query in list_queries():
        if query.name == wanted:
            return query
    names = [query.name for query in list_queries()]
    close = difflib.get_close_matches(wanted, names, n=3, cutoff=0.5)
    hint = f"did you mean {' or '.join(close)}? " if close else ""
    raise PaperkgError(f"no query named {name!r}; {hint}the library has: {', '.join(names)}.")


def schema_statements() -> list[str]:
    """The statements of schema.cypher (constraints and indexes, each IF NOT EXISTS)."""
    text = read_cypher(CYPHER_DIR / "schema.cypher")
    code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))
    return [statement.strip() for statement in code.split(";") if statement.strip()]
