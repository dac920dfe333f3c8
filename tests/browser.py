"""Debian's headless Chromium driven over the DevTools protocol on a pipe, for the page tests
(the HTML export and the live page): visit a URL, gather console errors and requests, evaluate
script in the page, take screenshots, and set the viewport (390 px: a phone)."""
from __future__ import annotations

import base64
import fcntl
import json
import os
import queue
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--mute-audio")


def chromium() -> str:
    """The browser's path; its absence fails the test (a setup that cannot run it must say so)."""
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        pytest.fail(f"{CHROMIUM} is missing: the pages are tested in a real headless browser. "
                    "Install Debian's package: apt-get install -y chromium", pytrace=False)
    return CHROMIUM


class Visit:
    def __init__(self, browser: "Browser", session: str) -> None:
        self.browser, self.session = browser, session
        self.errors: list[tuple[str, str]] = []
        self.requests: list[str] = []

    def evaluate(self, expression: str) -> Any:
        reply = self.browser.call("Runtime.evaluate", {"expression": expression, "returnByValue": True},
                                  self.session)
        assert "exceptionDetails" not in reply, reply["exceptionDetails"]
        return reply["result"]["value"]

    def screenshot(self, path: Path, selector: str | None = None) -> Path:
        """A PNG of the whole page, or of one element."""
        if selector:
            clip = self.evaluate(f"(() => {{ const r = document.querySelector({json.dumps(selector)})"
                                 ".getBoundingClientRect(); return {x: r.left + scrollX, y: r.top + scrollY, "
                                 "width: r.width, height: r.height}; })()")
        else:
            size = self.browser.call("Page.getLayoutMetrics", {}, self.session)["cssContentSize"]
            clip = {"x": 0, "y": 0, "width": size["width"], "height": size["height"]}
        clip["scale"] = 1
        data = self.browser.call("Page.captureScreenshot", {"format": "png", "clip": clip,
                                                            "captureBeyondViewport": True}, self.session)["data"]
        path.write_bytes(base64.b64decode(data))
        return path


class Browser:
    """Headless Chromium driven over the DevTools protocol on a pipe: fd 3 in, fd 4 out."""

    TIMEOUT = 20.0

    def __init__(self, executable: str, profile: Path) -> None:
        self.executable, self.profile = executable, profile
        self.replies: queue.Queue = queue.Queue()
        self.events: list[dict[str, Any]] = []
        self.ids = 0

    def __enter__(self) -> "Browser":
        commands_in, self.commands = os.pipe()       # we write commands, chromium reads fd 3
        self.answers, answers_out = os.pipe()        # chromium writes fd 4, we read answers
        high = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (commands_in, answers_out)]
        os.close(commands_in), os.close(answers_out)

        def onto_3_and_4() -> None:                  # in the child, before exec: dup2 leaves them inheritable
            os.dup2(high[0], 3)
            os.dup2(high[1], 4)

        self.stderr = open(self.profile.parent / "chromium-stderr.log", "wb")
        self.proc = subprocess.Popen(
            [self.executable, *FLAGS, f"--user-data-dir={self.profile}", "--remote-debugging-pipe",
             "about:blank"], stdin=subprocess.DEVNULL, stdout=self.stderr, stderr=self.stderr,
            close_fds=False, preexec_fn=onto_3_and_4)
        for fd in high:
            os.close(fd)
        threading.Thread(target=self._read, daemon=True).start()
        return self

    def __exit__(self, *_: Any) -> None:
        try:
            self._send("Browser.close", {}, None)
            self.proc.wait(timeout=10)
        except Exception:
            pass
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        os.close(self.commands)
        self.stderr.close()

    def _read(self) -> None:
        buffer = b""
        while True:
            try:
                data = os.read(self.answers, 1 << 16)
            except OSError:
                data = b""
            if not data:
                self.replies.put(None)
                os.close(self.answers)
                return
            buffer += data
            *messages, buffer = buffer.split(b"\0")
            for message in messages:
                self.replies.put(json.loads(message))

    def _send(self, method: str, params: dict[str, Any], session: str | None) -> int:
        self.ids += 1
        message = {"id": self.ids, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self.commands, json.dumps(message).encode() + b"\0")
        return self.ids

    def _next(self, deadline: float) -> dict[str, Any]:
        try:
            message = self.replies.get(timeout=max(deadline - time.monotonic(), 0.01))
        except queue.Empty:
            raise AssertionError(f"chromium did not answer in {self.TIMEOUT} s; its log:\n{self._log()}")
        if message is None:
            raise AssertionError(f"chromium closed the pipe; its log:\n{self._log()}")
        return message

    def _log(self) -> str:
        self.stderr.flush()
        return (self.profile.parent / "chromium-stderr.log").read_text(errors="replace")[-3000:]

    def call(self, method: str, params: dict[str, Any], session: str | None = None) -> dict[str, Any]:
        ident = self._send(method, params, session)
        deadline = time.monotonic() + self.TIMEOUT
        while True:
            message = self._next(deadline)
            if message.get("id") == ident:
                assert "error" not in message, (method, message["error"])
                return message["result"]
            self.events.append(message)

    def wait_for(self, method: str, session: str) -> None:
        deadline = time.monotonic() + self.TIMEOUT
        while not any(e.get("method") == method and e.get("sessionId") == session for e in self.events):
            self.events.append(self._next(deadline))

    def visit(self, url: str, width: int = 1200, height: int = 900, mobile: bool = False) -> Visit:
        """Open `url` in a fresh tab, listening from before it loads; gather errors and requests."""
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable", {}, session)
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}, session)
        self.events.clear()
        navigated = self.call("Page.navigate", {"url": url}, session)
        assert "errorText" not in navigated, navigated
        self.wait_for("Page.loadEventFired", session)
        time.sleep(0.3)                              # let late messages arrive, then a round trip
        self.call("Runtime.evaluate", {"expression": "document.readyState"}, session)
        visit = Visit(self, session)
        for event in self.events:
            if event.get("sessionId") != session:
                continue
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.consoleAPICalled" and params["type"] in ("error", "assert"):
                text = " ".join(str(a.get("value", a.get("description", ""))) for a in params["args"])
                visit.errors.append((f"console.{params['type']}", text))
            elif method == "Runtime.exceptionThrown":
                details = params["exceptionDetails"]
                visit.errors.append(("exception", details.get("exception", {}).get("description")
                                     or details.get("text", "")))
            elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
                visit.errors.append(("log", f"{params['entry']['source']}: {params['entry']['text']}"))
            elif method == "Network.requestWillBeSent":
                visit.requests.append(params["request"]["url"])
        return visit
