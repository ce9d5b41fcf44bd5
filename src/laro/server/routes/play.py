"""Play over WebSocket (``/ws/tables/{table_id}``; see docs/protocol.md): a connection is admitted (its address's
count, see :mod:`laro.server.admission`), says who it is in its first message, then hears every state of the
table while its messages are read, checked and acted on.

>>> [route.path for route in ROUTES]
['/ws/tables/{table_id}']
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
from collections.abc import Callable
from typing import Any

from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from laro.core import JSONDict
from laro.server.admission import HELLO_TIMEOUT
from laro.server.connection import GONE, Connection, Limits, close_quietly, parse_message
from laro.server.errors import Code, Refusal
from laro.server.hub import Hub
from laro.server.routes.common import address, server_of
from laro.server.store import StoreError
from laro.server.table import Event, Table, commands, views
from laro.server.table.seats import seat_of_token

__all__ = ["ROUTES", "play"]

log = logging.getLogger("laro.server")
# what a spectator is told for each message only a seat may send
_SEAT_MESSAGES = {
    "act": "spectators watch; join a seat with its token to play",
    "ready": "spectators watch; only players move on to the next round",
    "undo": "spectators watch; only a player takes back their own moves",
}


async def play(websocket: WebSocket) -> None:
    """One client's connection to a table, from its admission to its end."""
    server, client = server_of(websocket), address(websocket)
    await websocket.accept()
    server.admission.enter(client)
    server.hub.metrics.connections.inc()
    try:
        await _play(websocket, client)
    finally:
        server.hub.metrics.connections.dec()
        server.admission.leave(client)


async def _play(websocket: WebSocket, client: str) -> None:
    server = server_of(websocket)
    hub, limits, table_id = server.hub, server.limits, websocket.path_params["table_id"]
    table = await hub.get(table_id)
    if table is None:
        raise Refusal(Code.NO_TABLE, f"no table {table_id[:64]!r}")
    deadline = server.admission.greeting(client)
    try:  # the first message says who this is: a seat (by its token) or a spectator
        seat, first = await _hello(websocket, table, limits, deadline)
        hub.admit_listener(table_id, seat)
    except WebSocketDisconnect:
        return
    finally:
        server.admission.greeted(client)
    connection = Connection(websocket, seat, limits, hub.clock)
    if hub.listen(table_id, connection) is None:  # a finished table: its last state, then goodbye
        with contextlib.suppress(*GONE):
            await asyncio.wait_for(
                websocket.send_text(json.dumps(views.state_message(table, seat, hub.clock()))), limits.send_timeout
            )
        await close_quietly(websocket, 1000)
        return
    connection.notify(table)
    sender = server.spawn(connection.run_sender())
    receiver = server.spawn(_receive(websocket, connection, hub, table_id, limits, first))
    try:  # the connection ends when the client goes, or when the sender gives up on a client that stopped reading
        await asyncio.wait((receiver, sender), return_when=asyncio.FIRST_COMPLETED)
        for task in (receiver, sender):
            if task.done():
                task.result()  # neither ends with an error of its own: one here is a fault, logged by uvicorn
    finally:
        hub.unlisten(table_id, connection)
        connection.closed = True
        sender.cancel()
        receiver.cancel()
        if sender.done() and not receiver.done():  # the client stopped reading: let its socket go for good
            _abort(websocket)


async def _hello(websocket: WebSocket, table: Table, limits: Limits, deadline: float) -> tuple[int | None, Any]:
    """Who a new connection is: the seat its ``hello`` names by token, or a spectator (a ``hello`` without a
    token, or any other first message, or none within ``deadline`` seconds if that is ``HELLO_TIMEOUT``). Returns
    the seat and the first message if it was not a hello (to be handled as usual). :class:`Refusal` ``bad_token``
    for a token of no seat, ``too_many`` for no message within a shorter ``deadline`` (see
    :mod:`laro.server.admission`)."""
    try:
        received = await asyncio.wait_for(websocket.receive(), deadline)
    except TimeoutError:
        if deadline < HELLO_TIMEOUT:
            raise Refusal(Code.TOO_MANY, "too many connections from your address wait to say hello") from None
        return None, None
    if received["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(received.get("code", 1000))
    try:
        message = parse_message(received.get("text") or received.get("bytes") or b"", limits.max_bytes)
    except Refusal:
        return None, received
    if message["type"] != "hello":
        return None, received
    token = message.get("token")
    if token is None:
        return None, None
    if not isinstance(token, str):
        raise Refusal(Code.BAD_TOKEN, "a token is the text the table's invite gave")
    return seat_of_token(table.seats, token), None


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
        if connection.rate.allow():
            strikes = max(0, strikes - 1)  # being throttled now and then is forgiven; a flood is not
        else:
            strikes += 1
            connection.error(Code.RATE_LIMITED, f"at most {limits.per_second:g} messages a second; slow down")
            if strikes > 3 * limits.burst:
                await close_quietly(websocket, Code.RATE_LIMITED.close)
                return
            continue
        try:
            message = parse_message(received.get("text") or received.get("bytes") or b"", limits.max_bytes)
        except Refusal as error:
            connection.error(error.code, str(error))
            continue
        await _answer(message, connection, hub, table_id)


async def _answer(message: JSONDict, connection: Connection, hub: Hub, table_id: str) -> None:
    """Act on one message of a client's (read and well formed), or tell it why not."""
    kind = message["type"]
    if kind in _SEAT_MESSAGES:  # a change only a seat may make: an action, an undo, readiness for the next round
        if connection.seat is None:
            connection.error(Code.SPECTATOR, _SEAT_MESSAGES[kind])
            return
        try:
            await hub.change(table_id, _seat_change(message, connection.seat, hub.clock()))
        except Refusal as error:
            connection.error(error.code, str(error))
        except StoreError as error:
            log.error("table %s: the store refused a change: %s", table_id, error)
            connection.error(Code.UNAVAILABLE, "the server could not save that; try again")
    elif kind == "chat":
        try:
            await _chat(connection, hub, table_id, message["text"])
        except Refusal as error:
            connection.error(error.code, str(error))
    elif kind == "sync":
        table = await hub.get(table_id)
        if table is not None:
            connection.notify(table)
    elif kind == "ping":
        connection.send({"type": "pong"})
    elif kind == "hello":
        connection.error(Code.BAD_REQUEST, "hello is the first message only; reconnect to change seats")
    else:
        connection.error(Code.UNKNOWN_TYPE, f"unknown message type {kind[:40]!r}: act, undo, ready, chat, sync or ping")


async def _chat(connection: Connection, hub: Hub, table_id: str, text: str) -> None:
    """Say ``text`` at the table, unless the server has no chat, the table refuses it (see
    :func:`~laro.server.table.commands.chat`) or the seat wrote too much of late (``rate_limited``, and nothing
    stored)."""
    server = server_of(connection.websocket)
    if not server.bounds.chat:
        raise Refusal(Code.NO_CHAT, "this server has no chat")
    seat, most = connection.seat, server.bounds.chat_lines
    table = await hub.get(table_id)
    if table is not None:
        commands.chat(table, seat, text, most)  # refused as it is before it counts against the rate
    key = f"{table_id}/{seat}" if seat is not None else f"{table_id}/spectator/{address(connection.websocket)}"
    wait = server.chats.wait(key)
    if wait:
        raise Refusal(Code.RATE_LIMITED, f"too much chat: try again in {wait:.1f} s", retry=wait)
    try:
        await hub.change(table_id, functools.partial(_saying, seat=seat, text=text, most=most))
    except StoreError as error:
        log.error("table %s: the store refused a line of chat: %s", table_id, error)
        raise Refusal(Code.UNAVAILABLE, "the server could not save that; try again") from None


def _saying(table: Table, seat: int | None, text: str, most: int) -> Event:
    return commands.chat(table, seat, text, most)


def _seat_change(message: JSONDict, seat: int, now: float) -> Callable[[Table], Event]:
    """How the table makes the event a seat's ``act``, ``undo`` or ``ready`` asks for."""
    if message["type"] == "act":
        return functools.partial(_acting, seat=seat, action=message["action"], seq=message["seq"], now=now)
    if message["type"] == "undo":
        return functools.partial(_undoing, seat=seat, kind=message["kind"], seq=message["seq"])
    return functools.partial(_ready, seat=seat, now=now)


def _acting(table: Table, seat: int, action: str, seq: int, now: float) -> Event:
    return commands.act(table, seat, action, seq, now)


def _undoing(table: Table, seat: int, kind: str, seq: int) -> Event:
    return commands.undo(table, seat, kind, seq)


def _ready(table: Table, seat: int, now: float) -> Event:
    return commands.ready(table, seat, now)


def _abort(websocket: WebSocket) -> None:
    """Drop a client's socket at once, unsent data and all (one that stopped reading keeps the kernel's buffers
    full for as long as its socket lives)."""
    abort = websocket.scope.get("extensions", {}).get("laro.abort")
    if callable(abort):
        abort()


ROUTES = [WebSocketRoute("/ws/tables/{table_id}", play)]
