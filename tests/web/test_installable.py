"""laro installs as an app and opens offline: its web app manifest (as Chromium reads it), the service worker that
controls every page, the offline page shown without a network or a server, and the worker's cache, which holds
the client's own files and never an API answer, a table or a token."""

from __future__ import annotations

import json
import struct
import urllib.request
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, BrowserContext, Page
from tests.web.conftest import LocalServer, new_context, screenshot, until

PAGES = ["/", "/table/none", "/replay", "/rules/lama", "/static/offline.html"]
READY = "() => navigator.serviceWorker.ready.then(() => true)"
# every cached request's whole address, cache by cache
CACHED = """async () => {
  const found = {};
  for (const name of await caches.keys()) {
    found[name] = (await (await caches.open(name)).keys()).map((each) => each.url);
  }
  return found;
}"""
OLD_CACHE = "caches.open('laro-shell-0.0.1-old').then((cache) => cache.put('/static/old.js', new Response('old')))"


def _fetch(url: str) -> tuple[str, bytes]:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.headers["Content-Type"], response.read()


def _controlled(page: Page, url: str) -> None:
    """Open ``url`` and wait until the service worker controls the page."""
    page.goto(url)
    page.wait_for_function(READY)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def _seated(server: LocalServer | LocalServer) -> str:
    """A running L.A.M.A. table whose seat 0 Ana holds, against two bots; its invite link."""
    created = server.post("/api/tables", {"game": "lama", "players": 3, "bots": {"1": "heuristic", "2": "random"}})
    token = created["seats"][0]["token"]
    server.post(f"/api/tables/{created['id']}/seats/0/join", {"token": token, "name": "Ana"})
    return str(created["seats"][0]["invite"])


def test_the_manifest_is_valid_and_every_page_links_it(shared_server: LocalServer, page: Page) -> None:
    for path in PAGES:
        page.goto(shared_server.url + path)
        assert page.locator("link[rel=manifest]").get_attribute("href") == "/static/manifest.webmanifest", path
    kind, body = _fetch(shared_server.url + "/static/manifest.webmanifest")
    assert kind.startswith("application/manifest+json")
    manifest: dict[str, Any] = json.loads(body)
    assert manifest["name"].startswith("laro") and manifest["short_name"] == "laro"
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == ("/", "/", "standalone")
    assert manifest["theme_color"] == page.locator("meta[name=theme-color]").get_attribute("content")
    sizes = set()
    for icon in manifest["icons"]:
        kind, image = _fetch(shared_server.url + icon["src"])
        assert kind.split(";")[0] == icon["type"], icon
        if icon["type"] == "image/png":
            assert image[:8] == b"\x89PNG\r\n\x1a\n" and image[12:16] == b"IHDR"
            width, height = struct.unpack(">II", image[16:24])
            assert icon["sizes"] == f"{width}x{height}", icon
            sizes.add((icon["sizes"], icon["purpose"]))
        else:
            assert image.lstrip().startswith(b"<svg") and icon["sizes"] == "any"
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    # Chromium's own reading of it: no error, and the site installs (its worker, icons and display as it needs)
    _controlled(page, shared_server.url + "/")
    cdp = page.context.new_cdp_session(page)
    read = cdp.send("Page.getAppManifest")
    assert read["url"].endswith("/static/manifest.webmanifest") and read["errors"] == [], read["errors"]
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert [error for error in errors if error["errorId"] != "in-incognito"] == []  # a test's profile is private


def test_the_worker_controls_the_pages_and_keeps_the_shell_but_never_a_table(
    shared_server: LocalServer, context: BrowserContext, page: Page
) -> None:
    sw = page.request.get(shared_server.url + "/sw.js")
    assert sw.headers["content-type"].startswith("text/javascript") and sw.headers["cache-control"] == "no-cache"
    assert "__LARO_VERSION__" not in sw.text() and "default-src 'self'" in sw.headers["content-security-policy"]
    _controlled(page, shared_server.url + "/")
    assert page.evaluate("navigator.serviceWorker.controller.scriptURL") == shared_server.url + "/sw.js"
    # a seat at a table, played from a page the worker controls: its state, token and API answers pass by it
    page.goto(shared_server.url + _seated(shared_server))
    page.wait_for_function("() => document.body.dataset.status === 'running' && document.querySelector('.lama')")
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    assert page.evaluate("localStorage.length") > 0  # the seat's token, kept by the page itself
    asked = page.evaluate("performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname)")
    assert any(path.startswith("/api/tables/") for path in asked)
    cached = page.evaluate(CACHED)
    assert list(cached) == [f"laro-shell-{_version(shared_server)}"]
    addresses = next(iter(cached.values()))
    paths = {address.removeprefix(shared_server.url) for address in addresses}
    assert {"/static/offline.html", "/static/js/i18n/ko.js", "/static/js/table.js", "/static/css/table.css"} <= paths
    assert all(path.startswith("/static/") and "?" not in path and "#" not in path for path in paths), paths
    seat = page.evaluate("Object.keys(localStorage).find((key) => key.startsWith('laro.seat.'))")
    token = json.loads(page.evaluate("(key) => localStorage.getItem(key)", seat))["token"]
    assert len(token) >= 20 and all(token not in address for address in addresses)


def _version(server: LocalServer) -> str:
    _, text = _fetch(server.url + "/sw.js")
    line = next(line for line in text.decode().splitlines() if line.startswith("const VERSION"))
    return line.split('"')[1]


def test_a_new_version_replaces_the_old_cache(shared_server: LocalServer, page: Page) -> None:
    page.goto(shared_server.url + "/static/offline.html")  # a page that registers no worker: the old version's cache
    page.evaluate(OLD_CACHE)
    _controlled(page, shared_server.url + "/")
    until(page, "() => caches.keys().then((names) => names.length === 1)")
    assert page.evaluate("caches.keys()") == [f"laro-shell-{_version(shared_server)}"]


@pytest.mark.parametrize(("locale", "title"), [("en-US", "You are offline"), ("ko-KR", "오프라인 상태입니다")])
def test_without_a_network_a_page_is_the_offline_page(
    shared_server: LocalServer, browser: Browser, locale: str, title: str
) -> None:
    context = new_context(browser, locale=locale, mobile=locale == "ko-KR")
    try:
        page = context.new_page()
        _controlled(page, shared_server.url + "/")
        context.set_offline(True)
        page.goto(shared_server.url + _seated(shared_server))
        page.wait_for_function(f"() => document.title === {json.dumps(title + ' — laro')}")
        assert page.get_by_role("heading", level=1).inner_text() == title
        assert page.locator("html").get_attribute("lang") == locale[:2]
        screenshot(page, f"offline-{locale[:2]}")
        results = Axe().run(page, options={"resultTypes": ["violations"]})
        assert results.response["violations"] == [], results.generate_report()
        context.set_offline(False)  # back online, the page asked for opens by itself
        page.wait_for_function("() => document.body.dataset.status === 'running'")
    finally:
        context.close()


def test_with_the_server_down_a_page_is_the_offline_page(server: LocalServer, page: Page) -> None:
    _controlled(page, server.url + "/")
    server.stop()
    page.goto(server.url + "/rules/lama")
    page.get_by_test_id("offline").wait_for()
    assert page.get_by_role("heading", level=1).inner_text() == "You are offline"
    server.start()
    page.get_by_test_id("rules").wait_for()  # the page asked for opens by itself once the server answers
