"""uvicorn's HTTP and WebSocket protocols with the guards a public server needs before any request is read.

- **Connections per address and in all**: a TCP connection beyond ``per_address`` from one address, or beyond
  ``total`` in all, is dropped as it arrives, so idle sockets cannot use up the file descriptors.
- **Header timeout**: a connection must finish a request's headers within ``header_timeout`` seconds of its first
  byte (and of connecting): half-sent headers (slowloris) are dropped. Idle keep-alive connections are closed by
  uvicorn's own ``timeout_keep_alive``.
- **Abort**: the WebSocket scope carries ``extensions["laro.abort"]``, which drops the socket at once. A client that
  stopped reading cannot take a closing handshake, and a closed-but-unsent socket would keep the kernel's buffers.

The guard's state is per process (one server per process). ``configure`` sets the figures, ``open_connections``
says how many are open.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any, ClassVar, cast

from uvicorn.protocols.http.auto import AutoHTTPProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

__all__ = ["GuardedHTTP", "GuardedWebSocket", "configure", "open_connections"]


class _Guard:
    per_address = 64
    total = 4096
    header_timeout = 10.0
    addresses: ClassVar[dict[int, str]] = {}  # id(transport) -> address, for every connection not yet lost
    counts: ClassVar[Counter[str]] = Counter()


def configure(per_address: int = 64, total: int = 4096, header_timeout: float = 10.0) -> None:
    """Set the guard's figures (``laro serve`` calls it before it starts)."""
    _Guard.per_address, _Guard.total, _Guard.header_timeout = per_address, total, header_timeout


def open_connections() -> int:
    return len(_Guard.addresses)


def _admit(transport: asyncio.BaseTransport) -> bool:
    """Count a new connection in, or drop it (False) when its address or the server has too many."""
    key = id(transport)
    if key in _Guard.addresses:  # the same connection, upgraded from HTTP to WebSocket
        return True
    peer = transport.get_extra_info("peername")
    address = str(peer[0]) if isinstance(peer, tuple) and peer else "unknown"
    if _Guard.counts[address] >= _Guard.per_address or len(_Guard.addresses) >= _Guard.total:
        cast(asyncio.Transport, transport).abort()
        return False
    _Guard.addresses[key] = address
    _Guard.counts[address] += 1
    return True


def _release(transport: asyncio.BaseTransport | None) -> None:
    address = _Guard.addresses.pop(id(transport), None)
    if address is not None:
        _Guard.counts[address] -= 1
        if _Guard.counts[address] <= 0:
            del _Guard.counts[address]


_Base: Any = AutoHTTPProtocol  # httptools' protocol where it is installed, else h11's: both keep ``cycle``


class GuardedHTTP(_Base):  # type: ignore[misc]
    """uvicorn's HTTP protocol, with connection counts and a header timeout."""

    _header_timer: asyncio.TimerHandle | None = None
    _waiting_since: object = None  # the request cycle that was current when the timer started
    _admitted = False

    def connection_made(self, transport: asyncio.Transport) -> None:
        if not _admit(transport):
            return
        self._admitted = True
        super().connection_made(transport)
        self._start_header_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_header_timer()
        if not self._admitted:
            return
        _release(self.transport)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        cycle = getattr(self, "cycle", None)
        if self._header_timer is None and (cycle is None or cycle.response_complete):
            self._start_header_timer()  # the first bytes of a new request: its headers must come in time
        super().data_received(data)

    def handle_websocket_upgrade(self, *args: Any) -> None:
        self._stop_header_timer()
        super().handle_websocket_upgrade(*args)

    def _start_header_timer(self) -> None:
        self._waiting_since = getattr(self, "cycle", None)
        self._header_timer = asyncio.get_running_loop().call_later(_Guard.header_timeout, self._header_timeout)

    def _stop_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _header_timeout(self) -> None:
        self._header_timer = None
        if getattr(self, "cycle", None) is self._waiting_since:  # no request's headers were completed meanwhile
            self.transport.abort()


class GuardedWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, counted with its connection, and with ``laro.abort`` in its scope."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        if _admit(transport):
            super().connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        _release(self.transport)
        super().connection_lost(exc)

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if isinstance(scope, dict):
            scope.setdefault("extensions", {})["laro.abort"] = self.transport.abort
