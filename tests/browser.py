"""Headless Chromium for the view tests, benchmarks and screenshots, driven by Playwright.

Debian's /usr/bin/chromium (scripts/install-chromium.sh) is launched through `executable_path`
with a fresh profile and flags that keep it off the network; Playwright's own browser download
is never used. Every page records its console messages, uncaught errors, dialogs and requests.
"""
from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:  # Playwright itself loads when a browser starts, not when the tests are collected
    from playwright.sync_api import BrowserContext, Page

EXECUTABLE = os.environ.get("PAPERKG_CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
READY = "document.body && document.body.dataset.state === 'ready'"


@dataclass
class PageLog:
    """What a page did while it was open: console errors, uncaught errors, dialogs, requests."""

    errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)

    def requests_besides(self, page_url: str) -> list[str]:
        """Requested URLs other than the page itself and inline data: URLs."""
        return [url for url in self.requests if url != page_url and not url.startswith("data:")]


@contextmanager
def chromium(width: int = 1400, height: int = 860) -> Iterator[BrowserContext]:
    """A headless Chromium with a fresh profile; closed (and its profile removed) on exit."""
    from playwright.sync_api import sync_playwright

    if not Path(EXECUTABLE).exists():
        raise RuntimeError(f"{EXECUTABLE} not found: run scripts/install-chromium.sh (or set PAPERKG_CHROMIUM).")
    with tempfile.TemporaryDirectory(prefix="paperkg-chromium-") as profile, sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=EXECUTABLE, headless=True, args=FLAGS,
            viewport={"width": width, "height": height})
        try:
            yield context
        finally:
            context.close()


def open_page(context: BrowserContext, path: Path, *, wait: bool = True, timeout: float = 60.0) -> tuple[Page, PageLog]:
    """Open a local file and record what it does; waits until the view says it is ready. In the tests' shared
    Chromium (the `context` fixture) the first tab is navigated instead of a new page opened (a new document in the
    renderer process already running: the new page and its process were half of Chromium's CPU in the browser
    tests), so an earlier page of the same test is that tab, moved on; what it recorded stays in its own log."""
    page = context.pages[0] if context in _ONE_TAB and context.pages else context.new_page()
    for event, listener in _LISTENERS.pop(page, []):
        page.remove_listener(event, listener)
    log = PageLog()

    def dismiss(dialog) -> None:
        log.dialogs.append(dialog.message)
        dialog.dismiss()
    _LISTENERS[page] = [
        ("console", lambda message: log.errors.append(f"{message.type}: {message.text}")
         if message.type in ("error", "warning", "assert") else None),
        ("pageerror", lambda error: log.errors.append(f"uncaught: {error}")),
        ("request", lambda request: log.requests.append(request.url)),
        ("dialog", dismiss),
    ]
    for event, listener in _LISTENERS[page]:
        page.on(event, listener)
    page.goto(Path(path).resolve().as_uri())
    if wait:
        page.wait_for_function(READY, timeout=timeout * 1000)
    return page, log


_LISTENERS: dict[Page, list[tuple[str, Callable]]] = {}  # what open_page registered on each tab, taken off on the next
_ONE_TAB: list[BrowserContext] = []  # the contexts whose views open_page opens in their first tab


def assert_clean(page: Page, log: PageLog) -> None:
    """After a moment for late events: no console error, no request besides the page, no dialog."""
    page.wait_for_timeout(200)
    assert log.errors == []
    assert log.requests_besides(page.url) == []
    assert log.dialogs == []


@pytest.fixture(scope="session")
def _chromium() -> Iterator[BrowserContext]:
    """One headless Chromium per test process (each pytest-xdist worker), started when a browser test first needs it."""
    with chromium() as browser:
        _ONE_TAB.append(browser)
        yield browser
        _ONE_TAB.remove(browser)


@pytest.fixture
def context(_chromium: BrowserContext) -> Iterator[BrowserContext]:
    """The shared Chromium for one test (conftest.py makes this fixture visible to all). open_page navigates
    one tab instead of opening a page per view; after the test its tab is blanked (no view of an earlier test
    keeps running) and any other page it opened is closed."""
    yield _chromium
    first, *others = _chromium.pages or [None]
    for page in others:
        _LISTENERS.pop(page, None)
        page.close()
    if first is not None:
        from playwright.sync_api import Error

        for event, listener in _LISTENERS.pop(first, []):
            first.remove_listener(event, listener)
        try:
            first.goto("about:blank", timeout=10_000)
        except Error:  # a tab the test left hung: closed, and the next test's open_page opens a new one
            first.close()
