"""Push notifications (see :mod:`laro.server.notifier`): the server's public key, and a seat's subscriptions,
given and taken back by its token.

>>> sorted({route.path for route in ROUTES})
['/api/push', '/api/tables/{table_id}/seats/{seat}/push']
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from laro.server.errors import Code, Refusal
from laro.server.push import PushSettings, Subscription
from laro.server.routes.common import read_body, seat_number, server_of, table_at, throttle
from laro.server.store import StoreError, TableNotFound
from laro.server.table import Table, commands
from laro.server.table.seats import seat_of_token

__all__ = ["ROUTES", "public_key", "subscribe", "unsubscribe"]


def _settings(request: Request) -> PushSettings:
    settings = server_of(request).push
    if settings is None:
        raise Refusal(Code.NOT_FOUND, "this server sends no push notifications")
    return settings


async def public_key(request: Request) -> Response:
    """The key a browser subscribes with (``applicationServerKey``)."""
    return JSONResponse({"key": _settings(request).public_key})


async def _seat(request: Request) -> tuple[Table, int, dict[str, object]]:
    """The table, the seat its token opens (the one the path names) and the request's body."""
    server = server_of(request)
    throttle(server.seat_calls, request, "seat requests")
    seat = seat_number(request.path_params["seat"])
    body = await read_body(request, server.bounds.body_bytes)
    table = await table_at(request)
    token = body.get("token")
    if not isinstance(token, str) or seat_of_token(table.seats, token) != seat:
        raise Refusal(Code.BAD_TOKEN, f"that token does not open seat {seat} of this table")
    return table, seat, body


async def subscribe(request: Request) -> Response:
    """Keep a browser's push subscription with the seat: ``{"token", "subscription"}``."""
    settings = _settings(request)
    table, seat, body = await _seat(request)
    commands.check_open(table)
    table_id = table.meta.id
    subscription = Subscription.read(body.get("subscription"), settings.http)
    server = server_of(request)
    try:
        await server.store.save_push(table_id, seat, subscription.endpoint, subscription.keys, server.hub.clock())
    except TableNotFound:
        raise Refusal(Code.NO_TABLE, "no such table") from None
    except StoreError as error:
        raise Refusal(Code.UNAVAILABLE, "the server cannot keep it now; try again") from error
    return JSONResponse({"seat": seat, "subscribed": True}, status_code=201)


async def unsubscribe(request: Request) -> Response:
    """Forget a browser's push subscription of the seat: ``{"token", "endpoint"}``."""
    _settings(request)
    table, seat, body = await _seat(request)
    endpoint = body.get("endpoint")
    if not isinstance(endpoint, str):
        raise Refusal(Code.BAD_REQUEST, '"endpoint" is the subscription\'s endpoint')
    try:
        await server_of(request).store.delete_push(table.meta.id, seat, endpoint)
    except StoreError as error:
        raise Refusal(Code.UNAVAILABLE, "the server cannot forget it now; try again") from error
    return JSONResponse({"seat": seat, "subscribed": False})


ROUTES = [
    Route("/api/push", public_key),
    Route("/api/tables/{table_id}/seats/{seat}/push", subscribe, methods=["POST"]),
    Route("/api/tables/{table_id}/seats/{seat}/push", unsubscribe, methods=["DELETE"]),
]
