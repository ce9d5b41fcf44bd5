"""The browser client: its pages (its scripts and styles are files under ``/static``), and the headers every
answer carries so that a page of laro loads and runs only its own files and is never framed by another site.

>>> sorted(route.path for route in ROUTES)
['/', '/replay', '/rules/{game}', '/static', '/sw.js', '/table/{table_id}', '/table/{table_id}/replay']
"""

from __future__ import annotations

import functools
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import laro
from laro.server.errors import Code, Refusal
from laro.server.service_worker import WorkerScript

__all__ = ["ROUTES", "SECURITY_HEADERS", "WEB", "SecurityHeaders", "page"]

WEB = Path(laro.__file__).resolve().parent / "web" / "static"  # the browser client, served as files
# what a page of laro may load and do: only its own files, nothing inline, never inside another site's frame
SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        b"object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
]


async def page(request: Request, name: str) -> Response:
    """The browser client's page ``name``."""
    path = WEB / name
    if not path.is_file():
        raise Refusal(Code.NOT_FOUND, f"the browser client's {name} is missing")
    return FileResponse(path, media_type="text/html", headers={"Cache-Control": "no-cache"})


class SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every HTTP answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        await self.app(scope, receive, with_headers)


ROUTES: list[BaseRoute] = [
    Route("/", functools.partial(page, name="index.html")),
    Route("/table/{table_id}", functools.partial(page, name="table.html")),
    Route("/table/{table_id}/replay", functools.partial(page, name="replay.html")),
    Route("/replay", functools.partial(page, name="replay.html")),
    Route("/rules/{game}", functools.partial(page, name="rules.html")),
    Mount("/static", StaticFiles(directory=WEB, check_dir=False), name="static"),
    Route("/sw.js", WorkerScript(WEB).endpoint),  # at the root: the service worker's scope is the whole site
]
