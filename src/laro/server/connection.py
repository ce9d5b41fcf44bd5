"""One WebSocket client: what it may send (size, rate, shape) and a sender that never lets it stall a table.

A table tells a connection that it changed; the connection's own sender task renders the newest state when the
socket is ready, so a slow client skips states it could not take in time (it resyncs by ``seq``) instead of
queueing them, and a client that stops reading is dropped after ``send_timeout`` seconds.

>>> parse_message('{"type": "act", "action": "draw", "seq": 3}', 4096)["action"]
'draw'
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import deque
from collections.abc import Callable

from starlette.websockets import WebSocket, WebSocketDisconnect

from laro.core import JSONDict
from laro.server.errors import Code, Refusal
from laro.server.limits import RateLimit
from laro.server.table import Table, views

__all__ = ["GONE", "Connection", "Limits", "close_quietly", "parse_message", "refuse"]

# what a socket's send or close raises once its client is gone, or once it was closed already
GONE = (RuntimeError, OSError, TimeoutError, WebSocketDisconnect)


class Limits:
    """Per-connection limits (the server's options set them)."""

    def __init__(
        self, max_bytes: int = 4096, per_second: float = 20.0, burst: int = 40, send_timeout: float = 10.0
    ) -> None:
        self.max_bytes = max_bytes
        self.per_second = per_second
        self.burst = burst
        self.send_timeout = send_timeout


def parse_message(raw: str | bytes, max_bytes: int) -> JSONDict:
    """A client message as a dict with a ``type``; :class:`Refusal` says what is wrong otherwise."""
    size = len(raw.encode(errors="surrogatepass")) if isinstance(raw, str) else len(raw)  # bytes, not characters
    if size > max_bytes:
        raise Refusal(Code.TOO_LARGE, f"messages are at most {max_bytes} bytes; this one has {size}")
    try:
        message = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise Refusal(Code.MALFORMED, 'a message is one JSON object, e.g. {"type": "act", ...}') from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise Refusal(Code.MALFORMED, 'a message is a JSON object with a "type"')
    if message["type"] == "act":
        if not isinstance(message.get("action"), str) or not message["action"].strip():
            raise Refusal(Code.MALFORMED, 'act needs "action": the text of a legal action')
        seq = message.get("seq")
        if isinstance(seq, bool) or not isinstance(seq, int):
            raise Refusal(Code.MALFORMED, 'act needs "seq": the seq of the state you saw')
    if message["type"] == "undo":
        seq = message.get("seq")
        if message.get("kind") not in ("step", "takeback") or isinstance(seq, bool) or not isinstance(seq, int):
            raise Refusal(Code.MALFORMED, 'undo needs "kind" ("step" or "takeback") and "seq": the state you saw')
    if message["type"] == "chat" and not isinstance(message.get("text"), str):
        raise Refusal(Code.MALFORMED, 'chat needs "text": the line to say')
    return message


class Connection:
    """A WebSocket at a table, as a seat (``seat``) or a spectator (``seat is None``)."""

    def __init__(self, websocket: WebSocket, seat: int | None, limits: Limits, clock: Callable[[], float]) -> None:
        self.websocket = websocket
        self.clock = clock  # the server's time, sent with each state
        self.seat = seat
        self.limits = limits
        self.rate = RateLimit(limits.per_second, limits.burst)
        self._table: Table | None = None
        self._outbox: deque[JSONDict] = deque(maxlen=2 * limits.burst + 8)  # a burst's replies fit
        self._wake = asyncio.Event()
        self.closed = False

    def notify(self, table: Table) -> None:
        self._table = table
        self._wake.set()

    def send(self, message: JSONDict) -> None:
        """Queue a message (errors, replies); the newest state follows it."""
        self._outbox.append(message)
        self._wake.set()

    def error(self, code: Code, message: str) -> None:
        self.send({"type": "error", "code": code, "message": message})

    async def run_sender(self) -> None:
        """Send queued messages, then the newest state, whenever there is something new."""
        try:
            while not self.closed:
                await self._wake.wait()
                self._wake.clear()
                while self._outbox:
                    await self._send(self._outbox.popleft())
                table, self._table = self._table, None
                if table is not None:
                    await self._send_text(views.state_text(table, self.seat, self.clock()))
        except GONE:
            self.closed = True
            await self._close(1008)

    async def _send(self, message: JSONDict) -> None:
        await self._send_text(json.dumps(message, separators=(",", ":")))

    async def _send_text(self, text: str) -> None:
        await asyncio.wait_for(self.websocket.send_text(text), self.limits.send_timeout)

    async def _close(self, code: int) -> None:
        await close_quietly(self.websocket, code)


async def close_quietly(websocket: WebSocket, code: int, seconds: float = 1.0) -> None:
    """Close ``websocket`` with ``code`` if it is still open; a client that went away (or stopped reading, and
    cannot take the closing frame either) is given up on within ``seconds``, without a word in the log."""
    with contextlib.suppress(*GONE):
        await asyncio.wait_for(websocket.close(code), seconds)


async def refuse(websocket: WebSocket, code: Code, message: str, close_code: int) -> None:
    """Say why in an ``error`` message, then close with ``close_code`` (a client gone meanwhile hears nothing)."""
    with contextlib.suppress(*GONE):
        await asyncio.wait_for(websocket.send_text(json.dumps({"type": "error", "code": code, "message": message})), 5)
    await close_quietly(websocket, close_code)
