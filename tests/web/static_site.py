"""The browser client's own files served to a page without a server process: for tests of its modules alone
(its words, its pure functions), which need no table."""

from __future__ import annotations

import mimetypes
from pathlib import Path

from playwright.sync_api import Page, Route

STATIC = Path(__file__).resolve().parents[2] / "src" / "laro" / "web" / "static"
ORIGIN = "http://laro.test"
BLANK = "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>laro</title></head><body></body></html>"


def open_static(page: Page) -> None:
    """Point ``page`` at a blank page of an origin that serves ``/static/…`` from the package's files."""

    def serve(route: Route) -> None:
        path = route.request.url.removeprefix(ORIGIN).split("?")[0]
        file = (STATIC / path.removeprefix("/static/")).resolve()
        if path.startswith("/static/") and file.is_file() and STATIC in file.parents:
            kind = "text/javascript" if file.suffix == ".js" else mimetypes.guess_type(file.name)[0]
            route.fulfill(status=200, body=file.read_bytes(), content_type=kind or "application/octet-stream")
        elif path == "/":
            route.fulfill(status=200, body=BLANK, content_type="text/html")
        else:
            route.fulfill(status=404, body="")

    page.route(f"{ORIGIN}/**", serve)
    page.goto(ORIGIN + "/")
