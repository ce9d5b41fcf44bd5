"""Quick match (see :mod:`laro.server.matching`): a signed-in player asks for a game and waits in the queue, asks
(long poll) whether their table is ready, or leaves; and the lobby's count of who is online and who waits.

>>> sorted({(route.path, method) for route in ROUTES for method in route.methods or () if method != "HEAD"})
[('/api/match', 'DELETE'), ('/api/match', 'GET'), ('/api/match', 'POST'), ('/api/online', 'GET')]
"""

from __future__ import annotations

import asyncio
import json
import time

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from laro.core import JSONDict
from laro.server.errors import Code, Refusal
from laro.server.matching import window
from laro.server.ratings import NEW_SKILL, edition, shown
from laro.server.routes.accounts import check_origin, signed_in
from laro.server.routes.common import read_body, server_of, throttle
from laro.server.store.matches import Ticket
from laro.server.store.people import Account
from laro.server.table import create

__all__ = ["BOTS_AFTER_MOST", "ROUTES", "WAIT_MOST"]

WAIT_MOST = 30.0  # the longest a GET /api/match waits for its table (seconds)
BOTS_AFTER_MOST = 3600.0  # the longest wait a player may choose before bots fill their table (seconds)


async def _account(request: Request) -> Account:
    account = await signed_in(request)
    if account is None:
        raise Refusal(Code.SIGNED_OUT, "sign in to play a quick match")
    return account


def _bots_after(body: JSONDict) -> float | None:
    raw = body.get("bots_after")
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int | float) or not 0 <= raw <= BOTS_AFTER_MOST:
        raise Refusal(Code.BAD_REQUEST, f'"bots_after" is a number of seconds from 0 to {BOTS_AFTER_MOST:.0f}')
    return float(raw)


def _asked(body: JSONDict) -> tuple[str, int, object]:
    """The game, the players and the clock asked for, checked as a table of them would be."""
    game, players, clock = body.get("game"), body.get("players"), body.get("clock")
    if not isinstance(game, str) or isinstance(players, bool) or not isinstance(players, int):
        raise Refusal(Code.BAD_REQUEST, 'give "game" (a name) and "players" (a number)')
    if players < 2:
        raise Refusal(Code.BAD_REQUEST, "a quick match seats 2 players at least")
    create(game, players, {}, {}, created=0.0, clock=clock)  # refuses what no table could be (bad_request)
    return game, players, clock


def _view(ticket: Ticket, now: float) -> JSONDict:
    if ticket.waiting:
        return {
            "status": "waiting",
            "game": ticket.game,
            "players": ticket.players,
            "clock": json.loads(ticket.clock),
            "rating": ticket.rating,
            "bots_after": ticket.bots_after,
            "waited": round(max(0.0, now - ticket.joined), 1),
            "window": window(ticket, now),
        }
    return {
        "status": "seated",
        "game": ticket.game,
        "table": ticket.table_id,
        "seat": ticket.seat,
        "token": ticket.token,
        "invite": f"/table/{ticket.table_id}#seat={ticket.seat}&token={ticket.token}",
    }


async def enter(request: Request) -> Response:
    """Wait in the queue for a table of the game (in place of the player's earlier ticket)."""
    check_origin(request)
    server = server_of(request)
    account = await _account(request)
    throttle(server.seat_calls, request, "seat requests")
    body = await read_body(request, server.bounds.body_bytes)
    game, players, clock = _asked(body)
    bots_after = _bots_after(body)
    rated = {row.game: row for row in await server.store.ratings.of(f"person:{account.id}")}
    row = rated.get(edition(game, {}))
    rating = shown(row.mu, row.sigma) if row is not None else shown(*NEW_SKILL)
    now = time.time()
    clock_text = json.dumps(clock, sort_keys=True, separators=(",", ":"))
    ticket = Ticket(account.id, account.name, game, players, clock_text, rating, bots_after, now)
    await server.store.matches.enter(ticket)
    server.matchmaker.poke()
    return JSONResponse(_view(ticket, now), status_code=202)


async def leave(request: Request) -> Response:
    """Leave the queue (a table already made for the player stays theirs)."""
    check_origin(request)
    account = await _account(request)
    if not await server_of(request).store.matches.leave(account.id):
        raise Refusal(Code.NOT_FOUND, "you are not waiting for a quick match")
    return Response(status_code=204)


async def status(request: Request) -> Response:
    """The player's ticket: waiting, or seated with the seat's token. ``?wait=N`` (seconds, at most
    :data:`WAIT_MOST`) answers as soon as the table is ready, or after N seconds still waiting."""
    server = server_of(request)
    account = await _account(request)
    raw = request.query_params.get("wait", "0")
    try:
        wait = float(raw)
    except ValueError:
        wait = -1.0
    if not 0 <= wait <= WAIT_MOST:
        raise Refusal(Code.BAD_REQUEST, f"wait is a number of seconds from 0 to {WAIT_MOST:.0f}")
    ticket = await server.matchmaker.wait(account.id, asyncio.get_running_loop().time() + wait)
    if ticket is None:
        raise Refusal(Code.NOT_FOUND, "you are not waiting for a quick match")
    return JSONResponse(_view(ticket, time.time()))


async def online(request: Request) -> Response:
    """How many people play at a table now (a seat connected, on any process), and how many wait per game."""
    server = server_of(request)
    waiting = await server.store.matches.counts()
    return JSONResponse({"online": server.hub.players_online() + sum(waiting.values()), "waiting": waiting})


ROUTES = [
    Route("/api/match", enter, methods=["POST"]),
    Route("/api/match", status, methods=["GET"]),
    Route("/api/match", leave, methods=["DELETE"]),
    Route("/api/online", online),
]
