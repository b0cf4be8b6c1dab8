"""Run a named query of the Cypher library against Neo4j and return plain rows."""
from __future__ import annotations

import difflib
from typing import Any

from neo4j import ManagedTransaction
from neo4j.exceptions import ClientError
from neo4j.time import Date, DateTime

from paperkg.cypher.library import NamedQuery
from paperkg.core.errors import PaperkgError
from paperkg.cypher.rows import NODE_LABELS
from paperkg.cypher.writer import Neo4jTarget, open_driver


def _plain(value: Any) -> Any:
    """Neo4j temporal values as ISO text; lists element-wise; everything else unchanged."""
    if isinstance(value, (Date, DateTime)):
        return value.iso_format()
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


def _fetch(tx: ManagedTransaction, text: str, params: dict[str, Any]) -> list[dict[str, Any]]:
    """All records of one query as dicts, inside the read transaction."""
    return [{key: _plain(value) for key, value in record.items()} for record in tx.run(text, params)]


_NAMES = f"""
MATCH (n:{"|".join(NODE_LABELS)}) WHERE $label IS NULL OR $label IN labels(n)
RETURN n.name AS name, n.acronym AS acronym, coalesce(n.aliases, []) AS aliases
"""
MAX_SUGGESTIONS = 5


def close_names(target: Neo4jTarget, text: str, label: str | None) -> list[str]:
    """Names (or acronyms, aliases) in the database close to `text`, of `label` (None: any), for a
    "no rows" answer: spelling neighbours first, else names containing it."""
    with open_driver(target) as driver:
        with driver.session(database=target.database) as session:
            records = session.execute_read(_fetch, _NAMES, {"label": label})
    forms = sorted({str(form) for record in records
                    for form in (record["name"], record["acronym"], *record["aliases"]) if form})
    by_fold: dict[str, str] = {}
    for form in forms:
        by_fold.setdefault(form.casefold(), form)
    wanted = text.strip().casefold()
    close = difflib.get_close_matches(wanted, list(by_fold), n=MAX_SUGGESTIONS, cutoff=0.6)
    if not close:
        close = [fold for fold in by_fold if wanted and wanted in fold][:MAX_SUGGESTIONS]
    return [by_fold[fold] for fold in close]


_TYPED_COUNTS = """
UNWIND $types AS kind
CALL (kind) {
  MATCH ()-[r]->() WHERE type(r) = kind
  RETURN count(r) AS total, count(CASE WHEN r.confidence >= $min_confidence THEN 1 END) AS sure
}
RETURN kind, total, sure
"""


def relation_counts(target: Neo4jTarget, types: tuple[str, ...], min_confidence: float) -> dict[str, tuple[int, int]]:
    """For each relationship type: (relationships at least `min_confidence` sure, all of them) in the database."""
    with open_driver(target) as driver:
        with driver.session(database=target.database) as session:
            records = session.execute_read(_fetch, _TYPED_COUNTS, {"types": list(types),
                                                                    "min_confidence": min_confidence})
    return {record["kind"]: (record["sure"], record["total"]) for record in records}


def lacking(name: str, counts: dict[str, tuple[int, int]], min_confidence: float) -> list[str]:
    """One sentence for each relationship type a query reads that the graph lacks at the threshold."""
    return [f"query {name}: the graph holds no {kind} relation at confidence {min_confidence} or more"
            + (f" ({total} less sure: lower --min-confidence to see them)." if total else
               " (none at all: the relation model found none in these papers).")
            for kind, (sure, total) in counts.items() if not sure]


def run_named_query(query: NamedQuery, target: Neo4jTarget, params: dict[str, Any]) -> list[dict[str, Any]]:
    """Rows of `query` with `params` (complete: defaults already filled in), in a managed read transaction."""
    with open_driver(target) as driver:
        with driver.session(database=target.database) as session:
            try:
                return session.execute_read(_fetch, query.text, params)
            except ClientError as error:
                raise PaperkgError(server_problem(query.name, target, params, error.message or "")) from None


# What the server says, in its own words (Neo4j 5, Lucene's query parser), and what it means for the user.
_NO_INDEX = "There is no such fulltext schema index"
_LUCENE_SYNTAX = ("queryparser.classic.ParseException", "queryparser.classic.TokenMgrError")


def server_problem(name: str, target: Neo4jTarget, params: dict[str, Any], message: str) -> str:
    """One sentence for a query the server refused: no full-text index yet (nothing pushed), a search text
    that is not Lucene syntax; anything else with the server's first line."""
    if _NO_INDEX in message:
        return (f"query {name}: the database {target.database!r} at {target.uri} has no paperkg full-text "
                "index, so no graph has been pushed to it yet: run paperkg push out/graph.json first.")
    if any(marker in message for marker in _LUCENE_SYNTAX):
        return (f"query {name}: --param text={params.get('text', '')!r} is not a search Lucene can read (words, "
                '"phrases", prefix*, AND, OR, NOT, every bracket and quote closed); put a \\ before a special '
                'character such as ( ) [ ] : / " to search for it.')
    first_line = message.strip().splitlines()[0] if message.strip() else "no reason given"
    return f"query {name} failed on the server: {first_line}"
