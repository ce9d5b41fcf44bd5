"""Tables and seats: make a table, list the lobby and the finished games, read one table, and what a seat asks
(join, leave, a bot for it, hand an away seat over, play again).

>>> sorted({route.path for route in ROUTES})
['/api/finished', '/api/tables', '/api/tables/{table_id}', '/api/tables/{table_id}/rematch', \
'/api/tables/{table_id}/seats/{seat}/{what}']
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from laro.server.errors import Code, Refusal
from laro.server.finished import finished_page
from laro.server.routes.accounts import signed_in
from laro.server.routes.common import address, read_body, seat_number, server_of, table_at, throttle
from laro.server.table import commands, views

__all__ = ["ROUTES", "create_table", "get_table", "list_finished", "list_tables", "rematch", "seat_action"]

FINISHED_PAGE = 20  # finished games in one page of the lobby's list, unless asked for more


@dataclass(frozen=True, slots=True)
class NewTable:
    """What ``POST /api/tables`` asks for, checked as far as the request alone can say."""

    game: str
    players: int
    options: dict[str, Any]
    bots: dict[int, str]
    clock: Any
    standin: str | None
    takebacks: bool
    seed: int | None
    spectator_chat: bool = False

    @classmethod
    def read(cls, body: dict[str, Any], seeds: bool) -> NewTable:
        """The request in ``body``; ``bad_request`` for a field of the wrong kind (or a seed where none may be)."""
        game, players = body.get("game"), body.get("players")
        options, bots = body.get("options") or {}, body.get("bots") or {}
        if not isinstance(game, str) or isinstance(players, bool) or not isinstance(players, int):
            raise Refusal(Code.BAD_REQUEST, 'give "game" (a name) and "players" (a number)')
        if not isinstance(options, dict) or not isinstance(bots, dict):
            raise Refusal(Code.BAD_REQUEST, '"options" and "bots" are JSON objects')
        seat_bots = {seat_number(seat): str(bot) for seat, bot in bots.items()}
        standin = body.get("standin")
        if standin is not None and not isinstance(standin, str):
            raise Refusal(Code.BAD_REQUEST, '"standin" is the name of a bot')
        takebacks, spectator_chat = body.get("takebacks", False), body.get("spectator_chat", False)
        if not isinstance(takebacks, bool) or not isinstance(spectator_chat, bool):
            raise Refusal(Code.BAD_REQUEST, '"takebacks" and "spectator_chat" are true or false')
        seed = body.get("seed")
        if seed is not None and (not seeds or isinstance(seed, bool) or not isinstance(seed, int)):
            raise Refusal(
                Code.BAD_REQUEST,
                "this server draws every table's seed itself" if not seeds else '"seed" is a whole number',
            )
        return cls(game, players, options, seat_bots, body.get("clock"), standin, takebacks, seed, spectator_chat)


async def create_table(request: Request) -> Response:
    """A new table, with each human seat's token and invite link."""
    server = server_of(request)
    throttle(server.creates, request, "new tables")
    asked = NewTable.read(await read_body(request, server.bounds.body_bytes), server.seeds)
    table, tokens = await server.hub.create(
        asked.game,
        asked.players,
        asked.options,
        asked.bots,
        seed=asked.seed,
        address=address(request),
        clock=asked.clock,
        standin=asked.standin,
        takebacks=asked.takebacks,
        spectator_chat=asked.spectator_chat,
    )
    seats = [
        {"seat": seat, "token": token, "invite": f"/table/{table.meta.id}#seat={seat}&token={token}"}
        for seat, token in sorted(tokens.items())
    ]
    return JSONResponse({"id": table.meta.id, "seats": seats, "table": views.summary(table)}, status_code=201)


def _page_limit(request: Request) -> int | None:
    raw = request.query_params.get("limit")
    if raw is not None and not (raw.isdigit() and len(raw) < 6):
        most = server_of(request).bounds.lobby_page_max
        raise Refusal(Code.BAD_REQUEST, f"limit is a whole number of tables, at most {most}")
    return None if raw is None else int(raw)


async def list_tables(request: Request) -> Response:
    """A page of the lobby: open and running tables, newest first."""
    page = server_of(request).hub.listing(_page_limit(request), request.query_params.get("before"))
    return JSONResponse(page)


async def list_finished(request: Request) -> Response:
    """A page of finished games, newest end first."""
    server = server_of(request)
    limit = max(1, min(_page_limit(request) or FINISHED_PAGE, server.bounds.lobby_page_max))
    page = await finished_page(server.hub, limit, request.query_params.get("before"))
    return JSONResponse(page)


async def get_table(request: Request) -> Response:
    """One table's summary."""
    table = await table_at(request)
    return JSONResponse(views.summary(table))


async def rematch(request: Request) -> Response:
    """The finished table's rematch, made by the first of its players to ask."""
    server = server_of(request)
    throttle(server.seat_calls, request, "seat requests")
    body = await read_body(request, server.bounds.body_bytes)
    table = await server.hub.rematch(
        request.path_params["table_id"],
        str(body.get("token", "")),
        address(request),
        making=lambda: throttle(server.creates, request, "new tables"),  # a rematch made is a new table
    )
    return JSONResponse(views.summary(table))


async def seat_action(request: Request) -> Response:
    """A seat's request by its token: ``join`` (with a name; a signed-in player joins under their account's name,
    and the seat is kept on their account), ``leave``, ``bot`` (one plays it) or ``away`` (another
    player hands this away seat to its stand-in)."""
    server = server_of(request)
    table_id, what = request.path_params["table_id"], request.path_params["what"]
    throttle(server.seat_calls, request, "seat requests")
    seat = seat_number(request.path_params["seat"])
    body = await read_body(request, server.bounds.body_bytes)
    token = str(body.get("token", ""))
    hub = server.hub
    if what == "join":
        account = await signed_in(request)  # a signed-in player's seat is theirs, under their account's name
        name = account.name if account is not None else str(body.get("name", ""))
        table = await hub.change(table_id, lambda t: commands.join(t, seat, token, name))
        if account is not None:
            await server.people.accounts.hold_seat(account.id, table_id, seat, token, time.time())
    elif what == "leave":
        table = await hub.change(table_id, lambda t: commands.leave(t, seat, token))
    elif what == "bot":
        table = await hub.change(table_id, lambda t: commands.hand_to_bot(t, seat, token, str(body.get("bot", ""))))
    elif what == "away":
        table = await hub.change(table_id, lambda t: commands.hand_over(t, seat, token, hub.clock()))
    else:
        raise Refusal(Code.NOT_FOUND, f"no seat action {what[:40]!r}: join, leave, bot or away")
    return JSONResponse(views.summary(table))


ROUTES = [
    Route("/api/tables", create_table, methods=["POST"]),
    Route("/api/tables", list_tables, methods=["GET"]),
    Route("/api/finished", list_finished),
    Route("/api/tables/{table_id}", get_table),
    Route("/api/tables/{table_id}/seats/{seat}/{what}", seat_action, methods=["POST"]),
    Route("/api/tables/{table_id}/rematch", rematch, methods=["POST"]),
]
