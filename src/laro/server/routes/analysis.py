"""Move analysis of a finished table (made in a worker, see :mod:`laro.server.analyses`).

>>> [(route.path, sorted(route.methods or ())) for route in ROUTES]
[('/api/tables/{table_id}/analysis', ['GET', 'HEAD', 'POST'])]
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from laro.server.routes.common import address, read_body, seat_number, server_of, table_at, throttle

__all__ = ["ROUTES", "table_analysis"]


async def table_analysis(request: Request) -> Response:
    """A finished table's move analysis of one seat: POST starts it (in a worker), GET tells how it stands."""
    server = server_of(request)
    throttle(server.seat_calls, request, "analysis requests")
    table = await table_at(request)
    if request.method == "POST":
        seat = (await read_body(request, server.bounds.body_bytes)).get("seat")
        answer = await server.analyses.request(table, seat, address(request))
    else:
        answer = await server.analyses.look(table, seat_number(request.query_params.get("seat")))
    return JSONResponse(answer, status_code=202 if answer["status"] == "running" else 200)


ROUTES = [Route("/api/tables/{table_id}/analysis", table_analysis, methods=["GET", "POST"])]
