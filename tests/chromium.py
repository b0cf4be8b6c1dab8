"""Headless Chromium driven over the DevTools protocol on a pipe, with no Python dependencies.

Chromium's --remote-debugging-pipe reads NUL-terminated JSON commands on fd 3 and writes
replies and events on fd 4. The page's console messages, uncaught exceptions, log entries,
dialogs and every network request are recorded as they arrive.

Also a script: `python tests/chromium.py out/graph.html docs/graph.png [--size 1400x860]
[--hover NODE_ID]` renders a page, waits for the graph view to settle and saves a screenshot.
"""
from __future__ import annotations

import argparse
import base64
import fcntl
import itertools
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

EXECUTABLE = os.environ.get("PAPERKG_CHROMIUM", "/usr/bin/chromium")
# Headless flags for a machine with a closed network: no background connections of its own.
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-default-apps", "--disable-extensions", "--mute-audio",
         "--disable-dev-shm-usage",
         "--remote-debugging-pipe")
DEFAULT_TIMEOUT = 60.0
BACKGROUND_IDS = 10**9  # ids of commands nobody waits for (dismissing dialogs)


class DevToolsError(RuntimeError):
    """Chromium answered a command with an error, died, or did not answer in time."""


@dataclass
class PageLog:
    """What a page did while it was open: console output, errors, requests, dialogs."""

    console: list[dict[str, Any]] = field(default_factory=list)   # {"level", "text"}
    exceptions: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)              # every URL requested
    dialogs: list[str] = field(default_factory=list)               # alert/confirm messages

    def requests_besides(self, page_url: str) -> list[str]:
        """Requested URLs other than the page itself and inline data: URLs."""
        return [url for url in self.requests if url != page_url and not url.startswith("data:")]

    def errors(self) -> list[str]:
        """Console and log messages at error or warning level, and uncaught exceptions."""
        return [f"{m['level']}: {m['text']}" for m in self.console
                if m["level"] in ("error", "warning", "assert")] + self.exceptions


class Chromium:
    """One headless browser process; use as a context manager, then `open_page(path)`."""

    def __init__(self, executable: str = EXECUTABLE) -> None:
        if not Path(executable).exists():
            raise DevToolsError(f"{executable} not found: run scripts/install-chromium.sh "
                                "(or set PAPERKG_CHROMIUM).")
        self.profile = Path(tempfile.mkdtemp(prefix="paperkg-chromium-"))
        to_browser_read, self._to_browser = _high_pipe()
        self._from_browser, from_browser_write = _high_pipe()

        def hand_pipe_to_child() -> None:
            os.dup2(to_browser_read, 3)  # dup2 clears close-on-exec: the browser inherits 3 and 4
            os.dup2(from_browser_write, 4)

        self._stderr = open(self.profile / "stderr.log", "wb")
        self.process = subprocess.Popen(
            [executable, *FLAGS, f"--user-data-dir={self.profile / 'profile'}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self._stderr,
            close_fds=False, preexec_fn=hand_pipe_to_child)
        os.close(to_browser_read)
        os.close(from_browser_write)
        self._next_id = 0
        self._background_ids = itertools.count(BACKGROUND_IDS)
        self._write_lock = threading.Lock()
        self._replies: dict[int, dict[str, Any]] = {}
        self._events: queue.Queue[dict[str, Any]] = queue.Queue()
        self._reply_ready = threading.Condition()
        self._reader = threading.Thread(target=self._read_messages, daemon=True)
        self._reader.start()

    def __enter__(self) -> Chromium:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Ask the browser to quit, wait for it (kill it if it hangs) and remove its profile."""
        if self.process.poll() is None:
            try:
                self.send("Browser.close", timeout=10)
            except DevToolsError:
                pass
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        os.close(self._to_browser)
        self._stderr.close()
        shutil.rmtree(self.profile, ignore_errors=True)

    def _read_messages(self) -> None:
        buffer = b""
        while chunk := os.read(self._from_browser, 1 << 16):
            buffer += chunk
            *messages, buffer = buffer.split(b"\0")
            for raw in messages:
                message = json.loads(raw)
                if message.get("method") == "Page.javascriptDialogOpening":
                    self._write(next(self._background_ids), "Page.handleJavaScriptDialog",
                                {"accept": False}, message.get("sessionId"))
                if message.get("id", 0) >= BACKGROUND_IDS:
                    continue
                if "id" in message:
                    with self._reply_ready:
                        self._replies[message["id"]] = message
                        self._reply_ready.notify_all()
                else:
                    self._events.put(message)
        os.close(self._from_browser)
        with self._reply_ready:
            self._reply_ready.notify_all()

    def _write(self, command_id: int, method: str, params: dict[str, Any],
               session: str | None) -> None:
        command: dict[str, Any] = {"id": command_id, "method": method, "params": params}
        if session:
            command["sessionId"] = session
        payload = memoryview(json.dumps(command).encode() + b"\0")
        with self._write_lock:
            while payload:
                payload = payload[os.write(self._to_browser, payload):]

    def send(self, method: str, params: dict[str, Any] | None = None,
             session: str | None = None, timeout: float = DEFAULT_TIMEOUT) -> dict[str, Any]:
        """Send one command and wait for its result."""
        self._next_id += 1
        self._write(self._next_id, method, params or {}, session)
        deadline = time.monotonic() + timeout
        with self._reply_ready:
            while self._next_id not in self._replies:
                left = deadline - time.monotonic()
                if left <= 0 or not self._reader.is_alive():
                    raise DevToolsError(f"no answer to {method} (browser log: "
                                        f"{self.profile / 'stderr.log'})")
                self._reply_ready.wait(left)
            reply = self._replies.pop(self._next_id)
        if "error" in reply:
            raise DevToolsError(f"{method}: {reply['error']}")
        return reply.get("result", {})

    def open_page(self, path: Path, width: int = 1400, height: int = 900) -> Page:
        """Open a local file in a new tab, recording everything it does from the first byte."""
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget",
                            {"targetId": target, "flatten": True})["sessionId"]
        url = Path(path).resolve().as_uri()
        page = Page(self, session, url)
        for domain in ("Runtime", "Log", "Network", "Page"):
            self.send(f"{domain}.enable", session=session)
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
                  session=session)
        self.send("Page.navigate", {"url": url}, session=session)
        return page

    def drain_events(self) -> list[dict[str, Any]]:
        """Events received so far, handed to their pages' logs."""
        drained = []
        while True:
            try:
                event = self._events.get_nowait()
            except queue.Empty:
                return drained
            drained.append(event)
            page = Page.by_session.get(event.get("sessionId", ""))
            if page:
                page.record(event)


class Page:
    """One tab attached over a flat session."""

    by_session: dict[str, Page] = {}

    def __init__(self, browser: Chromium, session: str, url: str) -> None:
        self.browser = browser
        self.session = session
        self.url = url
        self.log = PageLog()
        Page.by_session[session] = self

    def record(self, event: dict[str, Any]) -> None:
        """Keep what matters from one DevTools event."""
        method, params = event["method"], event.get("params", {})
        if method == "Runtime.consoleAPICalled":
            text = " ".join(str(arg.get("value", arg.get("description", "")))
                            for arg in params.get("args", []))
            self.log.console.append({"level": params["type"], "text": text})
        elif method == "Log.entryAdded":
            entry = params["entry"]
            self.log.console.append({"level": entry["level"], "text": entry["text"]})
        elif method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            self.log.exceptions.append(details.get("exception", {}).get("description")
                                       or details.get("text", "exception"))
        elif method == "Network.requestWillBeSent":
            self.log.requests.append(params["request"]["url"])
        elif method == "Page.javascriptDialogOpening":
            self.log.dialogs.append(params.get("message", ""))  # dismissed by the reader

    def send(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        return self.browser.send(method, params, session=self.session)

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (JSON-serialisable values only)."""
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": True})
        self.browser.drain_events()
        if "exceptionDetails" in result:
            raise DevToolsError(f"{expression!r} threw: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = DEFAULT_TIMEOUT) -> Any:
        """Poll until `expression` is truthy; its value."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(0.1)
        raise DevToolsError(f"timed out after {timeout:.0f}s waiting for {expression!r}")

    def idle(self, seconds: float = 0.5) -> PageLog:
        """Let the page run for a moment, then collect what arrived; the page's log."""
        time.sleep(seconds)
        self.browser.drain_events()
        return self.log

    def hover(self, x: float, y: float) -> None:
        """Move the mouse to viewport point (x, y)."""
        self.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})

    def screenshot(self, path: Path) -> None:
        """Save the viewport as PNG."""
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        Path(path).write_bytes(base64.b64decode(data))


def _high_pipe() -> tuple[int, int]:
    """A pipe whose ends sit at fd 10 or above, so moving them onto fds 3 and 4 cannot clash."""
    read_end, write_end = os.pipe()
    high = (fcntl.fcntl(read_end, fcntl.F_DUPFD_CLOEXEC, 10),
            fcntl.fcntl(write_end, fcntl.F_DUPFD_CLOEXEC, 10))
    os.close(read_end)
    os.close(write_end)
    return high


def main(argv: list[str]) -> int:
    """Screenshot a graph.html once its layout has settled, optionally hovering one node."""
    parser = argparse.ArgumentParser(description="Screenshot a paperkg graph.html in headless Chromium.")
    parser.add_argument("html", type=Path)
    parser.add_argument("png", type=Path)
    parser.add_argument("--size", default="1400x860", help="viewport WIDTHxHEIGHT")
    parser.add_argument("--hover", metavar="NODE_ID", help="show this node's hover card")
    args = parser.parse_args(argv)
    width, height = (int(side) for side in args.size.split("x"))
    with Chromium() as browser:
        page = browser.open_page(args.html, width, height)
        page.wait_for("document.body && document.body.dataset.state === 'ready'")
        if args.hover:
            x, y = page.evaluate(f"""(() => {{
                const view = window.paperkgView.network, id = {json.dumps(args.hover)};
                const at = view.canvasToDOM(view.getPositions([id])[id]);
                const box = document.getElementById('network').getBoundingClientRect();
                return [box.left + at.x, box.top + at.y]; }})()""")
            page.hover(x + 30, y + 30)
            page.hover(x, y)
            page.wait_for("document.querySelector('div.vis-tooltip')"
                          "?.style.visibility === 'visible'", timeout=10)
        time.sleep(0.3)
        page.screenshot(args.png)
        problems = page.log.errors() + page.log.requests_besides(page.url)
    print(f"wrote {args.png}" + (f"; page problems: {problems}" if problems else ""))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
