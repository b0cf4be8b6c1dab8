"""Against the real Neo4j server: escaped markup pushed from a build is text in the database, and
`query search` before any push or with text Lucene cannot parse is one sentence, not the server's error."""
from __future__ import annotations

import pytest
from build_helpers import TAG_OPENER, hostile_build_in, strings
from cli_helpers import run_cli
from graph_fixtures import sample_graph
from neo4j_fixtures import run_cypher

from paperkg.cypher.writer import push_graph

pytestmark = pytest.mark.neo4j


def _target_args(target) -> list[str]:
    return ["--uri", target.uri, "--user", target.user, "--password", target.password]


def test_escaped_markup_is_text_in_neo4j(clean_neo4j, tmp_path):
    out = hostile_build_in(tmp_path)
    run_cli("push", str(out / "graph.json"), *_target_args(clean_neo4j))
    nodes = run_cypher(clean_neo4j, "MATCH (n) RETURN properties(n) AS p")
    rels = run_cypher(clean_neo4j, "MATCH ()-[r]->() RETURN properties(r) AS p")
    values = strings([row["p"] for row in nodes + rels])
    assert any("onerror=alert(1) x>" in value for value in values)
    assert [value for value in values if TAG_OPENER.search(value)] == []


def test_query_search_before_any_push_is_one_sentence(clean_neo4j):
    run_cypher(clean_neo4j, "DROP INDEX paperkg_names IF EXISTS")  # a database paperkg never pushed to
    result = run_cli("query", "search", "--param", "text=learning", *_target_args(clean_neo4j), check=False)
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == (
        f"error: query search: the database 'neo4j' at {clean_neo4j.uri} has no paperkg full-text index, so no graph "
        "has been pushed to it yet: run paperkg push out/graph.json first.")


@pytest.mark.parametrize("text", ["learning AND", '"unclosed', "[a TO", "/regex", "foo("])
def test_query_search_with_text_lucene_cannot_parse_is_one_sentence(clean_neo4j, text):
    push_graph(sample_graph(), clean_neo4j)
    result = run_cli("query", "search", "--param", f"text={text}", *_target_args(clean_neo4j), check=False)
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == (
        f"error: query search: --param text={text!r} is not a search Lucene can read (words, \"phrases\", prefix*, "
        "AND, OR, NOT, every bracket and quote closed); put a \\ before a special character such as ( ) [ ] : / \" "
        "to search for it.")
    escaped = run_cli("query", "search", "--param", "text=learning\\ AND", *_target_args(clean_neo4j), check=False)
    assert escaped.returncode == 0, escaped.stderr
