"""What the endpoints share: the server's parts (kept in the application's state), the one answer to a refusal,
and the small readings of a request every group makes (its address, its JSON body, a seat's number, the table its
path names, the seat its bearer token opens).

>>> from laro.server.errors import Code
>>> seat_number("2"), Code.RATE_LIMITED.status
(2, 429)
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.websockets import WebSocket

from laro.server.accounts import People
from laro.server.admission import Admission
from laro.server.analyses import Analyses
from laro.server.connection import Limits, refuse
from laro.server.errors import Code, Refusal
from laro.server.hub import Hub
from laro.server.limits import Buckets, ServerLimits
from laro.server.matching import Matchmaker
from laro.server.notifier import Notifier
from laro.server.push import PushSettings
from laro.server.ratings import Rater
from laro.server.replay_workers import ReplayWorkers
from laro.server.store import Store
from laro.server.table import Table
from laro.server.table.seats import seat_of_token

__all__ = ["Server", "address", "bearer_seat", "read_body", "refused", "seat_number", "server_of", "table_at"]


@dataclass(slots=True)
class Server:
    """The parts of one server process that its endpoints share (``app.state.server``)."""

    store: Store
    hub: Hub
    analyses: Analyses
    replays: ReplayWorkers
    bounds: ServerLimits
    limits: Limits  # of WebSocket messages and sends
    creates: Buckets  # new tables per address
    seat_calls: Buckets  # joins, leaves, hand-overs, rematches, replays and analyses per address
    admission: Admission  # WebSocket connections per address, and those that have not said hello
    seeds: bool  # a table may be made with a given seed (tests only)
    spawn: Callable[[Any], Any]  # runs a connection's task, kept until it ends
    people: People  # accounts and sessions, within their limits
    rater: Rater  # rates the games that finish
    matchmaker: Matchmaker  # seats the quick-match queue's players at new tables
    chats: Buckets  # lines of chat per seat of a table (a spectator: per address)
    push: PushSettings | None = None  # how push notifications are sent (None: they are not)
    notifier: Notifier | None = None  # sends them
    behind_tls: bool = False  # clients reach the server over https (a proxy holds TLS): cookies are Secure


def server_of(connection: HTTPConnection) -> Server:
    """The server whose endpoint answers ``connection``."""
    server = connection.app.state.server
    assert isinstance(server, Server)
    return server


async def refused(connection: HTTPConnection, error: Exception) -> Response | None:
    """The one answer to a :class:`Refusal`: over HTTP, its code and message with the code's status (and
    ``Retry-After`` if the server knows when to ask again); over WebSocket, an ``error`` message and the code's
    close code."""
    assert isinstance(error, Refusal)
    if isinstance(connection, WebSocket):
        await refuse(connection, error.code, str(error), error.code.close)
        return None
    headers = {"Retry-After": str(max(1, math.ceil(error.retry)))} if error.retry else None
    body = {"error": {"code": error.code, "message": str(error)}}
    return JSONResponse(body, status_code=error.code.status, headers=headers)


def address(connection: HTTPConnection) -> str:
    """The client's address as the server sees it (the key of every limit per address)."""
    return connection.client.host if connection.client else "unknown"


def throttle(buckets: Buckets, request: Request, what: str) -> None:
    """Refuse (``rate_limited``, with when to try again) a request beyond its address's rate of ``what``."""
    wait = buckets.wait(address(request))
    if wait:
        raise Refusal(Code.RATE_LIMITED, f"too many {what} from your address; try again in {math.ceil(wait)} s", wait)


async def read_body(request: Request, limit: int) -> dict[str, Any]:
    """The request's JSON object, read no further than ``limit`` bytes (refused at once on its Content-Length)."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise Refusal(Code.TOO_LARGE, f"a request body is at most {limit} bytes")
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > limit:
            raise Refusal(Code.TOO_LARGE, f"a request body is at most {limit} bytes")
    try:
        data = json.loads(raw or b"{}")
    except (ValueError, RecursionError):
        raise Refusal(Code.MALFORMED, "the request body must be a JSON object (not nested too deeply)") from None
    if not isinstance(data, dict):
        raise Refusal(Code.MALFORMED, "the request body must be a JSON object")
    return data


def seat_number(value: object) -> int:
    """A seat's number as a client wrote it; ``bad_request`` if it is none."""
    try:
        seat = int(str(value))
    except ValueError:
        raise Refusal(Code.BAD_REQUEST, f"a seat is a number; got {value!r}") from None
    return seat


async def table_at(request: Request) -> Table:
    """The table the path names; ``no_table`` if there is none."""
    table = await server_of(request).hub.get(request.path_params["table_id"])
    if table is None:
        raise Refusal(Code.NO_TABLE, "no such table")
    return table


def bearer_seat(request: Request, table: Table) -> int | None:
    """The seat whose token the request's ``Authorization: Bearer …`` header holds; None without the header
    (a spectator); ``bad_token`` for a token of no seat (never taken for a spectator)."""
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Refusal(Code.BAD_TOKEN, 'give a seat\'s token as "Authorization: Bearer TOKEN"')
    return seat_of_token(table.seats, token.strip())
