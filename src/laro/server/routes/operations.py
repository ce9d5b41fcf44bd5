"""What operators and tools ask: is the process up (``/healthz``), its figures (``/metrics``), and the API's
OpenAPI document.

>>> sorted(route.path for route in ROUTES)
['/api/openapi.json', '/healthz', '/metrics']
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from laro.server.metrics import CONTENT_TYPE_LATEST
from laro.server.openapi import DOCUMENT
from laro.server.routes.common import server_of
from laro.server.store import StoreError

__all__ = ["ROUTES", "healthz", "metrics", "openapi"]


async def healthz(request: Request) -> Response:
    """The process is up and its store answers."""
    try:
        await server_of(request).store.list_tables(1)
    except StoreError as error:
        return JSONResponse({"status": "unavailable", "store": str(error)}, status_code=503)
    return JSONResponse({"status": "ok"})


async def metrics(request: Request) -> Response:
    """This process's figures in Prometheus's text format."""
    return Response(server_of(request).hub.metrics.render(), media_type=CONTENT_TYPE_LATEST)


async def openapi(request: Request) -> Response:
    """The HTTP API as an OpenAPI document."""
    return JSONResponse(DOCUMENT)


ROUTES = [
    Route("/api/openapi.json", openapi),
    Route("/healthz", healthz),
    Route("/metrics", metrics),
]
