"""Debian's headless chromium driven by Playwright (its sync API), for the page tests: the HTML
export and the live page. Playwright launches /usr/bin/chromium through `executable_path`, so no
browser is ever downloaded (`playwright install` is never run); the pip package brings only its
driver. A test opens a context (`phone` or `screen`: a fresh profile each, so no two tests share
cookies or storage), `visit`s a URL with its listeners attached before the page loads, and reads
what the page reported (console errors, exceptions, failed or refused requests, every request).
Waiting is on a condition in the page (`Visit.wait_for`), never a sleep."""
from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, Request, Response
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
# --no-sandbox: the tests may run as root, where chromium's sandbox refuses to start.
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--hide-scrollbars", "--disable-component-update"]
TIMEOUT_MS = 20_000     # a step the page does not finish in this long fails the test
PHONE = {"width": 390, "height": 844}


def chromium() -> str:
    """The browser's path; its absence fails the test (a setup that cannot run it must say so)."""
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        pytest.fail(f"{CHROMIUM} is missing: the pages are tested in a real headless browser. "
                    "Install Debian's package: apt-get install -y chromium", pytrace=False)
    return CHROMIUM


@contextmanager
def launch() -> Iterator[Browser]:
    """Debian's chromium, headless, for the length of a `with` block (one Playwright with it)."""
    path = chromium()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, headless=True, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One browser for a test module's page tests; each test still opens its own context."""
    with launch() as opened:
        yield opened


def phone(browser: Browser) -> BrowserContext:
    """A fresh phone: 390x844 CSS px, touch, a mobile viewport (its meta viewport honoured), 2x pixels."""
    context = browser.new_context(viewport=PHONE, screen=PHONE, is_mobile=True, has_touch=True,
                                  device_scale_factor=2)
    context.set_default_timeout(TIMEOUT_MS)
    return context


def screen(browser: Browser, width: int = 1200, height: int = 900) -> BrowserContext:
    """A fresh desktop window of `width` x `height` CSS px at 1x (screenshots are that many pixels)."""
    context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=1)
    context.set_default_timeout(TIMEOUT_MS)
    return context


class Visit:
    """One page, listened to from before it loaded: what it reported, and ways to ask it things."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.errors: list[tuple[str, str]] = []
        self.requests: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.errors.append(("exception", str(error))))
        page.on("requestfailed", self._failed)
        page.on("response", self._answered)
        page.on("request", lambda request: self.requests.append(request.url))

    def _console(self, message: ConsoleMessage) -> None:
        if message.type in ("error", "assert"):
            self.errors.append((f"console.{message.type}", message.text))

    def _failed(self, request: Request) -> None:
        self.errors.append(("request failed", f"{request.url}: {request.failure}"))

    def _answered(self, response: Response) -> None:
        if response.status >= 400:
            self.errors.append((f"http {response.status}", response.url))

    def evaluate(self, expression: str) -> Any:
        """The value of a script expression in the page (an exception in it fails the test)."""
        return self.page.evaluate(expression)

    def wait_for(self, condition: str, seconds: float = 10.0) -> None:
        """Until `condition` (a script expression) holds in the page, failing past `seconds`."""
        try:
            self.page.wait_for_function(f"() => Boolean({condition})", timeout=seconds * 1000)
        except PlaywrightTimeout:
            raise AssertionError(f"not within {seconds} s: {condition}") from None

    def heard(self) -> list[tuple[str, str]]:
        """Every error the page reported so far: one round trip first, so none is still on its way."""
        self.page.evaluate("1")
        return list(self.errors)

    def screenshot(self, path: Path, selector: str | None = None) -> Path:
        """A PNG of the whole page, or of one element."""
        if selector:
            self.page.locator(selector).screenshot(path=path)
        else:
            self.page.screenshot(path=path, full_page=True)
        return path


def visit(context: BrowserContext, url: str) -> Visit:
    """Open `url` in a new tab of `context` and wait for its load event (listening from before)."""
    seen = Visit(context.new_page())
    try:
        seen.page.goto(url, wait_until="load")
    except PlaywrightError as failed:
        raise AssertionError(f"{url} did not load: {failed}") from None
    seen.page.evaluate("document.readyState")        # a round trip: what loading reported has arrived
    return seen
