"""The web application: the HTTP API for tables and seats, and play over WebSocket (see docs/protocol.md).

>>> app = create_app("sqlite::memory:")
>>> sorted({route.path for route in app.routes if route.path.startswith("/api/tables")})
['/api/tables', '/api/tables/{table_id}', '/api/tables/{table_id}/rematch',
 '/api/tables/{table_id}/seats/{seat}/{what}']
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

import laro
from laro.bots import list_bots
from laro.core import JSONDict, LaroError, get_game, list_games
from laro.server.connection import Connection, Limits, ProtocolError, parse_message
from laro.server.hub import Hub
from laro.server.store import Store, StoreError, open_store
from laro.server.tables import Refusal, Table

__all__ = ["create_app"]

log = logging.getLogger("laro.server")
WEB = Path(laro.__file__).resolve().parent / "web" / "static"  # the browser client, served as files
MAX_BODY = 65536  # bytes of a request body (a custom Kamara tile set fits easily)
_STATUS = {
    "no_table": 404,
    "bad_token": 403,
    "stale_seq": 409,
    "game_over": 409,
    "not_started": 409,
    "not_over": 409,
    "too_large": 413,
}


def _error(code: str, message: str, status: int | None = None) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status or _STATUS.get(code, 400))


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise Refusal("too_large", f"a request body is at most {MAX_BODY} bytes")
    try:
        data = json.loads(raw or b"{}")
    except ValueError:
        raise Refusal("malformed", "the request body must be a JSON object") from None
    if not isinstance(data, dict):
        raise Refusal("malformed", "the request body must be a JSON object")
    return data


def create_app(store: Store | str, bot_delay: float = 0.6, limits: Limits | None = None) -> Starlette:
    """The server's application over ``store`` (a store or its URL)."""
    the_store = open_store(store) if isinstance(store, str) else store
    hub = Hub(the_store, bot_delay=bot_delay)
    limits = limits or Limits()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await the_store.open()
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()
            await the_store.close()

    async def games(request: Request) -> Response:
        found = []
        for name in list_games():
            game = get_game(name)
            found.append(
                {
                    "name": name,
                    "title": game.title,
                    "min_players": game.min_players,
                    "max_players": game.max_players,
                    "bots": list_bots(name),
                    "options": [
                        {"name": spec.name, "default": spec.default, "help": spec.help, "choices": spec.choices}
                        for spec in game.option_specs
                        if spec.name not in ("tiles", "yellow_cards", "green_cards")
                    ],
                }
            )
        return JSONResponse({"games": found})

    async def create_table(request: Request) -> Response:
        try:
            body = await _body(request)
            game, players = body.get("game"), body.get("players")
            options, bots = body.get("options") or {}, body.get("bots") or {}
            if not isinstance(game, str) or isinstance(players, bool) or not isinstance(players, int):
                raise Refusal("bad_request", 'give "game" (a name) and "players" (a number)')
            if not isinstance(options, dict) or not isinstance(bots, dict):
                raise Refusal("bad_request", '"options" and "bots" are JSON objects')
            seat_bots = {_seat_number(seat): str(bot) for seat, bot in bots.items()}
            table, tokens = await hub.create(game, players, options, seat_bots)
        except Refusal as error:
            return _error(error.code, str(error))
        seats = [
            {"seat": seat, "token": token, "invite": f"/table/{table.meta.id}?seat={seat}&token={token}"}
            for seat, token in sorted(tokens.items())
        ]
        return JSONResponse({"id": table.meta.id, "seats": seats, "table": table.summary()}, status_code=201)

    async def list_tables(request: Request) -> Response:
        return JSONResponse({"tables": hub.listing()})

    async def get_table(request: Request) -> Response:
        table = await hub.get(request.path_params["table_id"])
        if table is None:
            return _error("no_table", "no such table")
        return JSONResponse(table.summary())

    async def rematch(request: Request) -> Response:
        try:
            body = await _body(request)
            table = await hub.rematch(request.path_params["table_id"], str(body.get("token", "")))
        except Refusal as error:
            return _error(error.code, str(error))
        return JSONResponse(table.summary())

    async def seat_action(request: Request) -> Response:
        table_id, what = request.path_params["table_id"], request.path_params["what"]
        try:
            seat = _seat_number(request.path_params["seat"])
            body = await _body(request)
            token = str(body.get("token", ""))
            if what == "join":
                table = await hub.change(table_id, lambda t: t.join_event(seat, token, str(body.get("name", ""))))
            elif what == "leave":
                table = await hub.change(table_id, lambda t: t.leave_event(seat, token))
            elif what == "bot":
                table = await hub.change(table_id, lambda t: t.bot_event(seat, token, str(body.get("bot", ""))))
            else:
                return _error("not_found", f"no seat action {what!r}: join, leave or bot", 404)
        except Refusal as error:
            return _error(error.code, str(error))
        return JSONResponse(table.summary())

    async def play(websocket: WebSocket) -> None:
        await websocket.accept()
        table_id = websocket.path_params["table_id"]
        table = await hub.get(table_id)
        if table is None:
            await _refuse(websocket, "no_table", f"no table {table_id!r}", 4404)
            return
        seat = None
        token = websocket.query_params.get("token")
        if token is not None:
            try:
                seat = table.seat_of_token(token)
            except Refusal as error:
                await _refuse(websocket, error.code, str(error), 4403)
                return
        connection = Connection(websocket, seat, limits)
        if hub.listen(table_id, connection) is None:  # a finished table: its last state, then goodbye
            await websocket.send_text(json.dumps(table.state_message(seat)))
            await websocket.close(1000)
            return
        connection.notify(table)
        sender = websocket.app.state.spawn(connection.run_sender())
        receiver = websocket.app.state.spawn(_receive(websocket, connection, hub, table_id, limits))
        try:  # the connection ends when the client goes, or when the sender gives up on a client that stopped reading
            await asyncio.wait((receiver, sender), return_when=asyncio.FIRST_COMPLETED)
            if receiver.done():
                receiver.result()
        finally:
            hub.unlisten(table_id, connection)
            connection.closed = True
            sender.cancel()
            receiver.cancel()

    async def rules(request: Request) -> Response:
        name, lang = request.path_params["game"], request.query_params.get("lang", "en")
        try:
            text = get_game(name).rules_text(lang)
        except (LaroError, ValueError) as error:
            return _error("not_found", str(error), 404)
        return JSONResponse({"game": name, "lang": lang, "markdown": text})

    async def components(request: Request) -> Response:
        """The public component data of a game (Kamara's tiles and cards), for drawing it."""
        try:
            game = get_game(request.path_params["game"])
        except LaroError as error:
            return _error("not_found", str(error), 404)
        data = getattr(game, "component_data", None)
        return JSONResponse({"game": game.name, "components": data() if callable(data) else None})

    app = Starlette(
        routes=[
            Route("/", _page("index.html")),
            Route("/table/{table_id}", _page("table.html")),
            Route("/rules/{game}", _page("rules.html")),
            Mount("/static", StaticFiles(directory=WEB, check_dir=False), name="static"),
            Route("/api/games", games),
            Route("/api/games/{game}/rules", rules),
            Route("/api/games/{game}/components", components),
            Route("/api/tables", create_table, methods=["POST"]),
            Route("/api/tables", list_tables, methods=["GET"]),
            Route("/api/tables/{table_id}", get_table),
            Route("/api/tables/{table_id}/seats/{seat}/{what}", seat_action, methods=["POST"]),
            Route("/api/tables/{table_id}/rematch", rematch, methods=["POST"]),
            WebSocketRoute("/ws/tables/{table_id}", play),
        ],
        lifespan=lifespan,
    )
    app.state.hub = hub
    app.state.spawn = _spawner()
    return app


def _page(name: str) -> Any:
    """A page of the browser client (its scripts and styles are under /static)."""

    async def page(request: Request) -> Response:
        path = WEB / name
        if not path.is_file():
            return _error("not_found", f"the browser client's {name} is missing", 404)
        return FileResponse(path, media_type="text/html", headers={"Cache-Control": "no-cache"})

    return page


def _spawner() -> Any:
    tasks: set[asyncio.Task[None]] = set()

    def spawn(coroutine: Any) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(coroutine)
        tasks.add(task)
        task.add_done_callback(tasks.discard)
        return task

    return spawn


def _seat_number(value: object) -> int:
    try:
        seat = int(str(value))
    except ValueError:
        raise Refusal("bad_request", f"a seat is a number; got {value!r}") from None
    return seat


def _acting(seat: int, action: str, seq: int) -> Callable[[Table], JSONDict]:
    return lambda table: table.act_event(seat, action, seq)


async def _refuse(websocket: WebSocket, code: str, message: str, close_code: int) -> None:
    await websocket.send_text(json.dumps({"type": "error", "code": code, "message": message}))
    await websocket.close(close_code)


async def _receive(websocket: WebSocket, connection: Connection, hub: Hub, table_id: str, limits: Limits) -> None:
    """Read the client's messages until it goes; refuse what is wrong, act on what is right."""
    strikes = 0
    while True:
        try:
            received = await websocket.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if received["type"] == "websocket.disconnect":
            return
        raw = received.get("text") or received.get("bytes") or b""
        if connection.rate.allow():
            strikes = max(0, strikes - 1)  # being throttled now and then is forgiven; a flood is not
        else:
            strikes += 1
            connection.error("rate_limited", f"at most {limits.per_second:g} messages a second; slow down")
            if strikes > 3 * limits.burst:
                await websocket.close(1008)
                return
            continue
        try:
            message = parse_message(raw, limits.max_bytes)
        except ProtocolError as error:
            connection.error(error.code, str(error))
            continue
        kind = message["type"]
        if kind == "act":
            seat = connection.seat
            if seat is None:
                connection.error("spectator", "spectators watch; join a seat with its token to play")
                continue
            try:
                await hub.change(table_id, _acting(seat, message["action"], message["seq"]))
            except Refusal as error:
                connection.error(error.code, str(error))
            except StoreError as error:
                log.error("table %s: the store refused an action: %s", table_id, error)
                connection.error("unavailable", "the server could not save that action; try again")
        elif kind == "sync":
            table = await hub.get(table_id)
            if table is not None:
                connection.notify(table)
        elif kind == "ping":
            connection.send({"type": "pong"})
        else:
            connection.error("unknown_type", f"unknown message type {kind!r}: act, sync or ping")
