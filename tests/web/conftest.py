"""Fixtures of the browser tests: a real server on a loopback port and Debian's Chromium driven by Playwright.

The fixture ``server`` runs ``laro serve`` in a thread of the test process; ``Server`` is one in a process of its
own (tests/server/server_process.py), for tests whose subject is a process (several of them, a kill, a restart).

With ``LARO_SCREENSHOTS=1`` a screenshot of every screen goes to ``tests/web/screenshots/`` (not kept in the
repository) for review; a full page's picture costs more than many a test, so a plain run takes none.
"""

from __future__ import annotations

import json
import os
import time
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, sync_playwright
from tests.server.in_process import InProcessServer
from tests.server.server_process import ServerProcess

# Debian's Chromium: its headless build drives most tests (about 40% less CPU than the whole browser, which counts
# on two cores); the whole browser the tests of notifications and pushes, which the headless build has not.
HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
CHROMIUM = "/usr/bin/chromium"
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
SHOOTING = os.environ.get("LARO_SCREENSHOTS") == "1"  # screenshots are taken for review
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


class WebCalls:
    """The address of a server of the browser tests and its JSON API, called directly."""

    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        request = urllib.request.Request(
            self.url + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            data: dict[str, Any] = json.loads(response.read())
            return data

    def get(self, path: str) -> dict[str, Any]:
        with urllib.request.urlopen(self.url + path, timeout=10) as response:
            data: dict[str, Any] = json.loads(response.read())
            return data


class LocalServer(WebCalls, InProcessServer):
    """The usual server of a browser test: ``laro serve`` in a thread of the test process (no process to start;
    tests/server/in_process.py), on a store of its own; it stops and starts again on the same store."""


class Server(WebCalls, ServerProcess):
    """A ``laro serve`` process with the tests' usual limits and ``extra`` options, its store and its log
    (``server.log``) in ``folder``; it stops, is killed and starts again on the same port and store."""

    def __init__(self, folder: Path, bot_delay: float, extra: Sequence[str] = ()) -> None:
        super().__init__(folder, folder / "server.log", bot_delay=bot_delay, extra=extra)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LocalServer]:
    """A fresh server (its own SQLite file), in this process; bots wait 0.05 s before each action."""
    running = LocalServer(tmp_path, bot_delay=0.05)
    running.start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    """One server (in this process) for all the tests of a module, each at tables of its own; bots wait 0.02 s."""
    running = LocalServer(tmp_path_factory.mktemp("shared"), bot_delay=0.02)
    running.start()
    try:
        yield running
    finally:
        running.stop()


# Package-scoped (this folder is a package for it): Playwright's synchronous API keeps an event loop running on
# the thread that started it, where asyncio.run then fails; so it ends as the tests leave this folder, before a
# test worker goes on to tests elsewhere that run asyncio.
@pytest.fixture(scope="package")
def playwright_instance() -> Iterator[Playwright]:
    with sync_playwright() as instance:
        yield instance


def _launch(playwright: Playwright, path: str, package: str) -> Browser:
    if not Path(path).exists():
        pytest.fail(f"the browser tests need Debian's {path} (apt-get install {package})")
    return playwright.chromium.launch(executable_path=path, headless=True, args=CHROMIUM_ARGS)


@pytest.fixture(scope="package")
def browser(playwright_instance: Playwright) -> Iterator[Browser]:
    """Chromium's headless build."""
    launched = _launch(playwright_instance, HEADLESS_SHELL, "chromium-headless-shell")
    yield launched
    launched.close()


@pytest.fixture(scope="package")
def full_browser(playwright_instance: Playwright) -> Iterator[Browser]:
    """The whole Chromium, headless: it asks for and shows notifications, and has a push service."""
    launched = _launch(playwright_instance, CHROMIUM, "chromium")
    yield launched
    launched.close()


def new_context(browser: Browser, locale: str = "en-US", mobile: bool = False) -> BrowserContext:
    """A fresh browser profile (its own storage), in a language, as a laptop or a phone."""
    if mobile:
        return browser.new_context(locale=locale, viewport={"width": 390, "height": 844}, device_scale_factor=2)
    return browser.new_context(locale=locale, viewport={"width": 1280, "height": 860})


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    made = new_context(browser)
    yield made
    made.close()


@pytest.fixture
def page(context: BrowserContext) -> Page:
    made = context.new_page()
    made.set_default_timeout(15_000)
    return made


def screenshot(page: Page, name: str, full_page: bool = True) -> None:
    """Save a screenshot of the whole page (or of the screen only) for review, with ``LARO_SCREENSHOTS=1``."""
    if SHOOTING:
        SCREENSHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=full_page)


def until(page: Page, script: str, arg: Any = None, seconds: float = 15.0) -> Any:
    """The first truthy value of ``script`` evaluated in ``page`` (which may answer with a promise: the page's
    caches, notifications…), asked again every 0.1 s; a test failure after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not (value := page.evaluate(script, arg)):
        assert time.monotonic() < deadline, f"still false after {seconds} s: {script}"
        time.sleep(0.1)
    return value
