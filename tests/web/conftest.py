"""Fixtures of the browser tests: a real server on a loopback port and Debian's Chromium driven by Playwright.

Screenshots of every screen go to ``tests/web/screenshots/`` (not kept in the repository) for review.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, sync_playwright
from tests.server.server_process import RELAXED

CHROMIUM = "/usr/bin/chromium"
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Server:
    """A ``laro serve`` process; ``restart`` stops it and starts it again on the same port and data."""

    data_dir: Path
    port: int
    bot_delay: float
    process: subprocess.Popen[bytes] | None = None
    extra: tuple[str, ...] = ()  # more ``laro serve`` options (after the tests' limits, so they win)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        command = [sys.executable, "-m", "laro", "serve", "--port", str(self.port), "--data-dir", str(self.data_dir)]
        command += ["--bot-delay", str(self.bot_delay), "--quiet", *RELAXED, *self.extra]
        log = (self.data_dir / "server.log").open("ab")
        self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=dict(os.environ))
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url + "/api/tables", timeout=1).read()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"the server did not start: {(self.data_dir / 'server.log').read_text()[-1000:]}")

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()

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


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """A fresh server (its own SQLite file); bots wait 0.05 s before each action."""
    running = Server(tmp_path, _free_port(), bot_delay=0.05)
    running.start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="session")
def playwright_instance() -> Iterator[Playwright]:
    with sync_playwright() as instance:
        yield instance


@pytest.fixture(scope="session")
def browser(playwright_instance: Playwright) -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"the browser tests need Debian's Chromium at {CHROMIUM} (apt-get install chromium)")
    launched = playwright_instance.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
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


def screenshot(page: Page, name: str) -> Path:
    """Save a screenshot of the whole page for review."""
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
