"""The web application: the HTTP API for tables and seats, and play over WebSocket (see docs/protocol.md).

Every answer carries the headers of a page that must not be framed, leak its address or run foreign code
(``Content-Security-Policy``, ``Referrer-Policy: no-referrer``, …). Seat tokens never travel in an address: the
WebSocket takes its token in the first message (``hello``), and invite links carry theirs after ``#``, which a
browser never sends to a server or a proxy.

>>> app = create_app("sqlite::memory:")
>>> sorted({route.path for route in app.routes if route.path.startswith("/api/tables")})
['/api/tables', '/api/tables/{table_id}', '/api/tables/{table_id}/analysis', '/api/tables/{table_id}/record',
 '/api/tables/{table_id}/rematch', '/api/tables/{table_id}/replay', '/api/tables/{table_id}/seats/{seat}/{what}']
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import math
import re
from collections import Counter
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

import laro
from laro.bots import list_bots
from laro.core import GameRecord, JSONDict, LaroError, RecordError, get_game, list_games
from laro.server.analyses import Analyses
from laro.server.clocks import AWAY_AFTER, ROUND_PAUSE, profiles
from laro.server.cluster import Cluster
from laro.server.connection import Connection, Limits, ProtocolError, parse_message
from laro.server.finished import finished_page
from laro.server.hub import Hub
from laro.server.leases import LEASE_SECONDS
from laro.server.limits import Buckets, ServerLimits
from laro.server.metrics import CONTENT_TYPE_LATEST
from laro.server.openapi import DOCUMENT
from laro.server.records import record_of
from laro.server.replays import parse_view, replay_steps
from laro.server.sharing import SharedHub
from laro.server.store import PostgresStore, Store, StoreError, open_store
from laro.server.tables import Refusal, Table

__all__ = ["create_app"]

log = logging.getLogger("laro.server")
WEB = Path(laro.__file__).resolve().parent / "web" / "static"  # the browser client, served as files
_STATUS = {
    "no_table": 404,
    "not_found": 404,
    "bad_token": 403,
    "stale_seq": 409,
    "game_over": 409,
    "expired": 409,
    "not_started": 409,
    "not_over": 409,
    "paused": 409,
    "too_large": 413,
    "rate_limited": 429,
    "too_many": 429,
    "busy": 503,
    "damaged": 503,
    "unavailable": 503,
}
_LANGUAGE = re.compile(r"[a-z]{2}")
FINISHED_PAGE = 20  # finished games in one page of the lobby's list, unless asked for more
HELLO_TIMEOUT = 5.0  # seconds a new WebSocket has to say hello before it is taken for a spectator
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


def _error(code: str, message: str, status: int | None = None, retry: float | None = None) -> JSONResponse:
    headers = {"Retry-After": str(max(1, math.ceil(retry)))} if retry else None
    return JSONResponse(
        {"error": {"code": code, "message": message}}, status_code=status or _STATUS.get(code, 400), headers=headers
    )


async def _body(request: Request, limit: int) -> dict[str, Any]:
    """The request's JSON object, read no further than ``limit`` bytes (refused at once on its Content-Length)."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise Refusal("too_large", f"a request body is at most {limit} bytes")
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > limit:
            raise Refusal("too_large", f"a request body is at most {limit} bytes")
    try:
        data = json.loads(raw or b"{}")
    except (ValueError, RecursionError):
        raise Refusal("malformed", "the request body must be a JSON object (not nested too deeply)") from None
    if not isinstance(data, dict):
        raise Refusal("malformed", "the request body must be a JSON object")
    return data


class Throttled(Refusal):
    """A refusal that says when to try again."""

    def __init__(self, message: str, retry: float) -> None:
        super().__init__("rate_limited", message)
        self.retry = retry


def _address(connection: HTTPConnection) -> str:
    return connection.client.host if connection.client else "unknown"


def create_app(
    store: Store | str,
    bot_delay: float = 0.6,
    limits: Limits | None = None,
    server_limits: ServerLimits | None = None,
    bot_workers: int | None = None,
    seeds: bool = False,
    round_pause: float = ROUND_PAUSE,
    away_after: float = AWAY_AFTER,
    lease_seconds: float = LEASE_SECONDS,
) -> Starlette:
    """The server's application over ``store`` (a store or its URL). ``seeds=True`` lets a table be made with a
    given ``"seed"`` (for tests and demonstrations: whoever knows a seed knows every hidden card). On PostgreSQL
    the process shares the store with any others (:mod:`laro.server.cluster`), its leases and its claims of
    analyses (:mod:`laro.server.analyses`) lasting ``lease_seconds``."""
    the_store = open_store(store) if isinstance(store, str) else store
    bounds = server_limits or ServerLimits()
    hub = (SharedHub if isinstance(the_store, PostgresStore) else Hub)(
        the_store,
        bot_delay=bot_delay,
        limits=bounds,
        bot_workers=bot_workers,
        round_pause=round_pause,
        away_after=away_after,
    )
    cluster = Cluster(hub, lease_seconds) if isinstance(hub, SharedHub) else None
    analyses = Analyses(the_store, workers=0 if bot_workers == 0 else 1, claim_seconds=lease_seconds)
    limits = limits or Limits()
    creates = Buckets(bounds.creates_per_minute / 60, bounds.create_burst)
    seat_calls = Buckets(bounds.seat_calls_per_second, bounds.seat_call_burst)
    sockets: Counter[str] = Counter()  # WebSocket connections per address

    def throttle(buckets: Buckets, request: Request, what: str) -> None:
        wait = buckets.wait(_address(request))
        if wait:
            raise Throttled(f"too many {what} from your address; try again in {math.ceil(wait)} s", wait)

    def refused(error: Refusal) -> JSONResponse:
        return _error(error.code, str(error), retry=getattr(error, "retry", None))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await the_store.open()
        if cluster is not None:
            await cluster.prepare()
        await hub.start()
        if cluster is not None:
            cluster.start()
        try:
            yield
        finally:
            if cluster is not None:
                await cluster.stop()  # hands the leases over to the other processes
            await hub.stop()
            analyses.close()
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
                        {
                            "name": spec.name,
                            "default": spec.default,
                            "help": spec.help,
                            "choices": spec.choices,
                            "minimum": spec.minimum,
                            "maximum": spec.maximum,
                        }
                        for spec in game.option_specs
                        if spec.name not in ("tiles", "yellow_cards", "green_cards")
                    ],
                }
            )
        return JSONResponse({"games": found, "clocks": profiles()})

    async def create_table(request: Request) -> Response:
        try:
            throttle(creates, request, "new tables")
            body = await _body(request, bounds.body_bytes)
            game, players = body.get("game"), body.get("players")
            options, bots = body.get("options") or {}, body.get("bots") or {}
            if not isinstance(game, str) or isinstance(players, bool) or not isinstance(players, int):
                raise Refusal("bad_request", 'give "game" (a name) and "players" (a number)')
            if not isinstance(options, dict) or not isinstance(bots, dict):
                raise Refusal("bad_request", '"options" and "bots" are JSON objects')
            seat_bots = {_seat_number(seat): str(bot) for seat, bot in bots.items()}
            clock, standin = body.get("clock"), body.get("standin", "heuristic")
            if not isinstance(standin, str):
                raise Refusal("bad_request", '"standin" is the name of a bot')
            takebacks = body.get("takebacks", False)
            if not isinstance(takebacks, bool):
                raise Refusal("bad_request", '"takebacks" is true or false')
            seed = body.get("seed")
            if seed is not None and (not seeds or isinstance(seed, bool) or not isinstance(seed, int)):
                raise Refusal(
                    "bad_request",
                    "this server draws every table's seed itself" if not seeds else '"seed" is a whole number',
                )
            address = _address(request)
            table, tokens = await hub.create(
                game,
                players,
                options,
                seat_bots,
                seed=seed,
                address=address,
                clock=clock,
                standin=standin,
                takebacks=takebacks,
            )
        except Refusal as error:
            return refused(error)
        seats = [
            {"seat": seat, "token": token, "invite": f"/table/{table.meta.id}#seat={seat}&token={token}"}
            for seat, token in sorted(tokens.items())
        ]
        return JSONResponse({"id": table.meta.id, "seats": seats, "table": table.summary()}, status_code=201)

    def page_limit(request: Request) -> int | None:
        raw = request.query_params.get("limit")
        if raw is not None and not (raw.isdigit() and len(raw) < 6):
            raise Refusal("bad_request", f"limit is a whole number of tables, at most {bounds.lobby_page_max}")
        return None if raw is None else int(raw)

    async def list_tables(request: Request) -> Response:
        try:
            page = hub.listing(page_limit(request), request.query_params.get("before"))
        except Refusal as error:
            return refused(error)
        return JSONResponse(page)

    async def list_finished(request: Request) -> Response:
        """A page of finished games, newest end first."""
        try:
            limit = max(1, min(page_limit(request) or FINISHED_PAGE, bounds.lobby_page_max))
            page = await finished_page(hub, limit, request.query_params.get("before"))
        except Refusal as error:
            return refused(error)
        return JSONResponse(page)

    async def table_at(request: Request) -> Table:
        """The table the path names; :class:`Refusal` ``no_table`` if there is none."""
        table = await hub.get(request.path_params["table_id"])
        if table is None:
            raise Refusal("no_table", "no such table")
        return table

    async def get_table(request: Request) -> Response:
        try:
            table = await table_at(request)
        except Refusal as error:
            return refused(error)
        return JSONResponse(table.summary())

    async def table_record(request: Request) -> Response:
        """The table's game record: the whole game once over, else what the reader (a seat by its token) may know."""
        try:
            table = await table_at(request)
            reader = _bearer_seat(request, table)
        except Refusal as error:
            return refused(error)
        headers = {"Content-Disposition": f'attachment; filename="laro-{table.game.name}-{table.meta.id}.json"'}
        return JSONResponse(record_of(table, reader), headers=headers)

    async def table_replay(request: Request) -> Response:
        """A finished table's game step by step, as one view saw it."""
        try:
            throttle(seat_calls, request, "replay requests")
            table = await table_at(request)
            if not table.over:
                raise Refusal("not_over", "a game is replayed once it is over")
            record = GameRecord.from_json(record_of(table, None))
            view = parse_view(request.query_params.get("view", "open"), table.meta.num_players)
            return JSONResponse(await asyncio.to_thread(replay_steps, record, view))
        except Refusal as error:
            return refused(error)

    async def record_replay(request: Request) -> Response:
        """A game record sent by the client (a file), step by step as one view saw it."""
        try:
            throttle(seat_calls, request, "replay requests")
            body = await _body(request, bounds.record_bytes)
            try:
                record = GameRecord.from_json(body.get("record"))
            except RecordError as error:
                raise Refusal("bad_record", str(error)) from None
            view = parse_view(body.get("view", "open"), record.num_players)
            return JSONResponse(await asyncio.to_thread(replay_steps, record, view))
        except Refusal as error:
            return refused(error)

    async def table_analysis(request: Request) -> Response:
        """A finished table's move analysis of one seat: POST starts it (in a worker), GET tells how it stands."""
        try:
            throttle(seat_calls, request, "analysis requests")
            table = await table_at(request)
            if request.method == "POST":
                seat = (await _body(request, bounds.body_bytes)).get("seat")
                answer = await analyses.request(table, seat)
            else:
                answer = await analyses.look(table, _seat_number(request.query_params.get("seat")))
        except Refusal as error:
            return refused(error)
        return JSONResponse(answer, status_code=202 if answer["status"] == "running" else 200)

    async def rematch(request: Request) -> Response:
        try:
            throttle(seat_calls, request, "seat requests")
            body = await _body(request, bounds.body_bytes)
            table = await hub.rematch(request.path_params["table_id"], str(body.get("token", "")))
        except Refusal as error:
            return refused(error)
        return JSONResponse(table.summary())

    async def seat_action(request: Request) -> Response:
        table_id, what = request.path_params["table_id"], request.path_params["what"]
        try:
            throttle(seat_calls, request, "seat requests")
            seat = _seat_number(request.path_params["seat"])
            body = await _body(request, bounds.body_bytes)
            token = str(body.get("token", ""))
            if what == "join":
                table = await hub.change(table_id, lambda t: t.join_event(seat, token, str(body.get("name", ""))))
            elif what == "leave":
                table = await hub.change(table_id, lambda t: t.leave_event(seat, token))
            elif what == "bot":
                table = await hub.change(table_id, lambda t: t.bot_event(seat, token, str(body.get("bot", ""))))
            elif what == "away":  # another player hands this away seat to its stand-in
                table = await hub.change(table_id, lambda t: t.hand_over_event(seat, token))
            else:
                return _error("not_found", f"no seat action {what[:40]!r}: join, leave, bot or away", 404)
        except Refusal as error:
            return refused(error)
        return JSONResponse(table.summary())

    async def play(websocket: WebSocket) -> None:
        address = _address(websocket)
        await websocket.accept()
        if sockets[address] >= bounds.sockets_per_address:
            message = f"at most {bounds.sockets_per_address} connections from one address"
            await _refuse(websocket, "too_many", message, 1013)
            return
        sockets[address] += 1
        hub.metrics.connections.inc()
        try:
            await _play(websocket)
        finally:
            hub.metrics.connections.dec()
            sockets[address] -= 1
            if not sockets[address]:
                del sockets[address]

    async def _play(websocket: WebSocket) -> None:
        table_id = websocket.path_params["table_id"]
        try:
            table = await hub.get(table_id)
            if table is None:
                raise Refusal("no_table", f"no table {table_id[:64]!r}")
            hub.admit_listener(table_id)
        except Refusal as error:
            await _refuse(websocket, error.code, str(error), _CLOSE.get(error.code, 1013))
            return
        try:  # the first message says who this is: a seat (by its token) or a spectator
            seat, first = await _hello(websocket, table, limits)
        except Refusal as error:
            await _refuse(websocket, error.code, str(error), _CLOSE.get(error.code, 1008))
            return
        except WebSocketDisconnect:
            return
        connection = Connection(websocket, seat, limits)
        if hub.listen(table_id, connection) is None:  # a finished table: its last state, then goodbye
            await websocket.send_text(json.dumps(table.state_message(seat)))
            await websocket.close(1000)
            return
        connection.notify(table)
        sender = websocket.app.state.spawn(connection.run_sender())
        receiver = websocket.app.state.spawn(_receive(websocket, connection, hub, table_id, limits, first))
        try:  # the connection ends when the client goes, or when the sender gives up on a client that stopped reading
            await asyncio.wait((receiver, sender), return_when=asyncio.FIRST_COMPLETED)
            if receiver.done():
                receiver.result()
        finally:
            hub.unlisten(table_id, connection)
            connection.closed = True
            sender.cancel()
            receiver.cancel()
            if sender.done() and not receiver.done():  # the client stopped reading: let its socket go for good
                _abort(websocket)

    async def healthz(request: Request) -> Response:
        """The process is up and its store answers."""
        try:
            await the_store.list_tables(1)
        except StoreError as error:
            return JSONResponse({"status": "unavailable", "store": str(error)}, status_code=503)
        return JSONResponse({"status": "ok"})

    async def metrics(request: Request) -> Response:
        return Response(hub.metrics.render(), media_type=CONTENT_TYPE_LATEST)

    async def rules(request: Request) -> Response:
        name, lang = request.path_params["game"], request.query_params.get("lang", "en")
        try:
            game = get_game(name)
        except LaroError:
            return _error("not_found", f"no game {name[:40]!r}; games: {', '.join(list_games())}", 404)
        if not _LANGUAGE.fullmatch(lang):
            return _error("not_found", f"no rules in language {lang[:12]!r}; try 'en' or 'ko'", 404)
        edition = request.query_params.get("edition")  # a game's edition has its own rules page
        try:
            text = game.rules_text(lang, None if edition is None else {"edition": edition})
        except (LaroError, ValueError) as error:
            return _error("not_found", str(error), 404)
        return JSONResponse({"game": name, "lang": lang, "markdown": text})

    async def components(request: Request) -> Response:
        """The public component data of a game (Kamara's tiles and cards), for drawing it."""
        try:
            game = get_game(request.path_params["game"])
        except LaroError:
            return _error("not_found", f"no game {request.path_params['game'][:40]!r}", 404)
        data = getattr(game, "component_data", None)
        return JSONResponse({"game": game.name, "components": data() if callable(data) else None})

    app = Starlette(
        # answers of 4 KiB or more are compressed for clients that accept gzip (a replay is 100s of KiB)
        middleware=[Middleware(_SecurityHeaders), Middleware(GZipMiddleware, minimum_size=4096, compresslevel=6)],
        routes=[
            Route("/", _page("index.html")),
            Route("/table/{table_id}", _page("table.html")),
            Route("/table/{table_id}/replay", _page("replay.html")),
            Route("/replay", _page("replay.html")),
            Route("/rules/{game}", _page("rules.html")),
            Mount("/static", StaticFiles(directory=WEB, check_dir=False), name="static"),
            Route("/api/games", games),
            Route("/api/games/{game}/rules", rules),
            Route("/api/games/{game}/components", components),
            Route("/api/tables", create_table, methods=["POST"]),
            Route("/api/tables", list_tables, methods=["GET"]),
            Route("/api/finished", list_finished),
            Route("/api/tables/{table_id}", get_table),
            Route("/api/tables/{table_id}/seats/{seat}/{what}", seat_action, methods=["POST"]),
            Route("/api/tables/{table_id}/rematch", rematch, methods=["POST"]),
            Route("/api/tables/{table_id}/analysis", table_analysis, methods=["GET", "POST"]),
            Route("/api/tables/{table_id}/record", table_record),
            Route("/api/tables/{table_id}/replay", table_replay),
            Route("/api/replay", record_replay, methods=["POST"]),
            Route("/api/openapi.json", _openapi),
            Route("/healthz", healthz),
            Route("/metrics", metrics),
            WebSocketRoute("/ws/tables/{table_id}", play),
        ],
        lifespan=lifespan,
    )
    app.state.hub = hub
    app.state.spawn = _spawner()
    return app


async def _openapi(request: Request) -> Response:
    return JSONResponse(DOCUMENT)


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


def _bearer_seat(request: Request, table: Table) -> int | None:
    """The seat whose token the request's ``Authorization: Bearer …`` header holds; None without the header
    (a spectator); :class:`Refusal` ``bad_token`` for a token of no seat (never taken for a spectator)."""
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Refusal("bad_token", 'give a seat\'s token as "Authorization: Bearer TOKEN"')
    return table.seat_of_token(token.strip())


def _ready(table: Table, seat: int, now: float) -> JSONDict:
    return table.ready_event(seat, now)


def _undoing(table: Table, seat: int, kind: str, seq: int) -> JSONDict:
    return table.undo_event(seat, kind, seq)


def _acting(seat: int, action: str, seq: int) -> Callable[[Table], JSONDict]:
    return lambda table: table.act_event(seat, action, seq)


async def _refuse(websocket: WebSocket, code: str, message: str, close_code: int) -> None:
    """Say why in an ``error`` message, then close with ``close_code``."""
    await websocket.send_text(json.dumps({"type": "error", "code": code, "message": message}))
    await websocket.close(close_code)


async def _hello(websocket: WebSocket, table: Table, limits: Limits) -> tuple[int | None, Any]:
    """Who a new connection is: the seat its ``hello`` names by token, or a spectator (a ``hello`` without a
    token, or any other first message, or none within ``HELLO_TIMEOUT``). Returns the seat and the first message
    if it was not a hello (to be handled as usual). :class:`Refusal` ``bad_token`` for a token of no seat."""
    try:
        received = await asyncio.wait_for(websocket.receive(), HELLO_TIMEOUT)
    except TimeoutError:
        return None, None
    if received["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(received.get("code", 1000))
    try:
        message = parse_message(received.get("text") or received.get("bytes") or b"", limits.max_bytes)
    except ProtocolError:
        return None, received
    if message["type"] != "hello":
        return None, received
    token = message.get("token")
    if token is None:
        return None, None
    if not isinstance(token, str):
        raise Refusal("bad_token", "a token is the text the table's invite gave")
    return table.seat_of_token(token), None


async def _receive(
    websocket: WebSocket, connection: Connection, hub: Hub, table_id: str, limits: Limits, first: Any = None
) -> None:
    """Read the client's messages until it goes; refuse what is wrong, act on what is right."""
    strikes = 0
    while True:
        if first is not None:
            received, first = first, None
        else:
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
        if kind in _SEAT_MESSAGES:  # a change only a seat may make: an action, or readiness for the next round
            seat = connection.seat
            if seat is None:
                connection.error("spectator", _SEAT_MESSAGES[kind])
                continue
            if kind == "act":
                make = _acting(seat, message["action"], message["seq"])
            elif kind == "undo":
                make = functools.partial(_undoing, seat=seat, kind=message["kind"], seq=message["seq"])
            else:
                make = functools.partial(_ready, seat=seat, now=hub.clock())
            try:
                await hub.change(table_id, make)
            except Refusal as error:
                connection.error(error.code, str(error))
            except StoreError as error:
                log.error("table %s: the store refused a change: %s", table_id, error)
                connection.error("unavailable", "the server could not save that; try again")
        elif kind == "sync":
            table = await hub.get(table_id)
            if table is not None:
                connection.notify(table)
        elif kind == "ping":
            connection.send({"type": "pong"})
        elif kind == "hello":
            connection.error("bad_request", "hello is the first message only; reconnect to change seats")
        else:
            connection.error("unknown_type", f"unknown message type {kind[:40]!r}: act, undo, ready, sync or ping")


# what a spectator is told for each message only a seat may send
_SEAT_MESSAGES = {
    "act": "spectators watch; join a seat with its token to play",
    "ready": "spectators watch; only players move on to the next round",
    "undo": "spectators watch; only a player takes back their own moves",
}
_CLOSE = {"no_table": 4404, "bad_token": 4403, "damaged": 4410, "busy": 1013, "too_many": 1013}


def _abort(websocket: WebSocket) -> None:
    """Drop a client's socket at once, unsent data and all (one that stopped reading keeps the kernel's buffers
    full for as long as its socket lives)."""
    abort = websocket.scope.get("extensions", {}).get("laro.abort")
    if callable(abort):
        abort()


class _SecurityHeaders:
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
