"""Neo4j Browser is served by the server scripts/neo4j.sh runs, at http://127.0.0.1:<HTTP port>/browser/."""
from __future__ import annotations

import urllib.request
from html.parser import HTMLParser
from urllib.parse import urljoin

import pytest

pytestmark = pytest.mark.neo4j



class PageOutline(HTMLParser):
    """The page's <title> text and the sources of its <script> elements."""

    def __init__(self) -> None:
        super().__init__()
        self.title = ""
        self.scripts: list[str] = []
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._in_title = tag == "title"
        source = dict(attrs).get("src")
        if tag == "script" and source:
            self.scripts.append(source)

    def handle_endtag(self, tag: str) -> None:
        self._in_title = False

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data


def fetch(url: str) -> tuple[int, str, bytes]:
    """Status, Content-Type and body of a GET."""
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.status, response.headers.get_content_type(), response.read()


def test_browser_page_and_its_scripts_are_served(neo4j_server):
    browser = f"http://127.0.0.1:{neo4j_server.http}/browser/"
    status, content_type, body = fetch(browser)
    assert (status, content_type) == (200, "text/html")
    page = PageOutline()
    page.feed(body.decode("utf-8"))
    assert page.title.strip() == "Neo4j Browser"
    assert any(source.startswith("app-") for source in page.scripts), page.scripts
    for source in page.scripts:
        status, content_type, script = fetch(urljoin(browser, source))
        assert status == 200 and content_type.endswith("javascript") and len(script) > 1000, source


def test_browser_is_told_to_send_no_telemetry(neo4j_target):
    """Browser reads its analytics consent from the server's client config: off, so an offline
    machine shows no telemetry banner (scripts/neo4j.sh writes client.allow_telemetry=false)."""
    from neo4j_fixtures import run_cypher

    settings = {row["name"]: row["value"] for row in run_cypher(neo4j_target, "CALL dbms.clientConfig()")}
    assert settings["client.allow_telemetry"] == "false"
