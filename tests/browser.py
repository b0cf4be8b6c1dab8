"""Headless Chromium for the view tests, benchmarks and screenshots, driven by Playwright.

Debian's /usr/bin/chromium (scripts/install-chromium.sh) is launched through `executable_path`
with a fresh profile and flags that keep it off the network; Playwright's own browser download
is never used. Every page records its console messages, uncaught errors, dialogs and requests.
"""
from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
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
    """Open a local file and record what it does; waits until the view says it is ready."""
    page = context.new_page()
    log = PageLog()
    page.on("console", lambda message: log.errors.append(f"{message.type}: {message.text}")
            if message.type in ("error", "warning", "assert") else None)
    page.on("pageerror", lambda error: log.errors.append(f"uncaught: {error}"))
    page.on("request", lambda request: log.requests.append(request.url))

    def dismiss(dialog) -> None:
        log.dialogs.append(dialog.message)
        dialog.dismiss()
    page.on("dialog", dismiss)
    page.goto(Path(path).resolve().as_uri())
    if wait:
        page.wait_for_function(READY, timeout=timeout * 1000)
    return page, log


def assert_clean(page: Page, log: PageLog) -> None:
    """After a moment for late events: no console error, no request besides the page, no dialog."""
    page.wait_for_timeout(200)
    assert log.errors == []
    assert log.requests_besides(page.url) == []
    assert log.dialogs == []


@pytest.fixture(scope="module")
def context() -> Iterator[BrowserContext]:
    """One headless Chromium per browser test module (conftest.py makes this fixture visible to all)."""
    with chromium() as browser:
        yield browser
