"""uvicorn's HTTP and WebSocket protocols with the guards a public server needs before any request is read.

- **Connections per address and in all**: a TCP connection beyond ``per_address`` from one address, or beyond
  ``total`` in all, is dropped as it arrives, so idle sockets cannot use up the file descriptors.
- **Header timeout**: a connection must finish a request's headers within ``header_timeout`` seconds of its first
  byte (and of connecting): half-sent headers (slowloris) are dropped. Idle keep-alive connections are closed by
  uvicorn's own ``timeout_keep_alive``.
- **Header size**: a request's header block (its request line and header lines, up to the blank line) may hold at
  most ``header_bytes`` bytes and ``header_count`` lines, whatever the HTTP parser (httptools, which uvicorn
  prefers, has no bound of its own): beyond either, the request is answered ``431 Request Header Fields Too Large``
  and the connection closed, before the parser holds any more of it.
- **Abort**: the WebSocket scope carries ``extensions["laro.abort"]``, which drops the socket at once. A client that
  stopped reading cannot take a closing handshake, and a closed-but-unsent socket would keep the kernel's buffers.

The guard's state is per process (one server per process). ``configure`` sets the figures, ``open_connections``
says how many are open.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import Counter
from typing import Any, ClassVar, cast

from uvicorn.protocols.http.auto import AutoHTTPProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

__all__ = ["GuardedHTTP", "GuardedWebSocket", "HeaderBlock", "configure", "open_connections"]


LINGER = 2.0  # seconds a connection whose request was refused for its headers stays open for the answer to arrive


class _Guard:
    per_address = 64
    total = 4096
    header_timeout = 10.0
    header_bytes = 16384
    header_count = 100
    addresses: ClassVar[dict[int, str]] = {}  # id(transport) -> address, for every connection not yet lost
    counts: ClassVar[Counter[str]] = Counter()


def configure(
    per_address: int = 64,
    total: int = 4096,
    header_timeout: float = 10.0,
    header_bytes: int = 16384,
    header_count: int = 100,
) -> None:
    """Set the guard's figures (``laro serve`` calls it before it starts)."""
    _Guard.per_address, _Guard.total, _Guard.header_timeout = per_address, total, header_timeout
    _Guard.header_bytes, _Guard.header_count = header_bytes, header_count


class HeaderBlock:
    r"""The size of one request's header block as its bytes arrive: :meth:`feed` says whether it is still within
    the bounds; ``done`` once the blank line that ends it has come (what follows is the body's).

    >>> block = HeaderBlock(max_bytes=40, max_lines=3)
    >>> block.feed(b"GET / HTTP/1.1\r\nHost: a\r\n"), block.done
    (True, False)
    >>> block.feed(b"\r\n" + b"x" * 1000), block.done
    (True, True)
    >>> HeaderBlock(max_bytes=99, max_lines=3).feed(b"GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n")
    True
    >>> HeaderBlock(max_bytes=99, max_lines=3).feed(b"GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n")
    False
    """

    __slots__ = ("done", "lines", "max_bytes", "max_lines", "refused", "size", "tail")

    def __init__(self, max_bytes: int, max_lines: int) -> None:
        self.max_bytes, self.max_lines = max_bytes, max_lines
        self.size = self.lines = 0
        self.tail = b""  # the last bytes seen, for an end split between two reads
        self.done = False
        self.refused = False  # answered 431: the rest is dropped

    def feed(self, data: bytes) -> bool:
        if self.done:
            return True
        seen = self.tail + data
        end = seen.find(b"\r\n\r\n")
        block = seen[len(self.tail) :] if end < 0 else seen[len(self.tail) : end + 4]
        self.size += len(block)
        self.lines += block.count(b"\n")
        self.tail = seen[-3:]
        self.done = end >= 0
        lines = self.max_lines + (2 if self.done else 1)  # and the request line, and the blank line at the end
        return self.size <= self.max_bytes and self.lines <= lines


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
    _block: HeaderBlock | None = None  # the header block of the request coming in

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
        between = cycle is None or cycle.response_complete
        if self._header_timer is None and between:
            self._start_header_timer()  # the first bytes of a new request: its headers must come in time
        if self._block is None or (self._block.done and between):
            self._block = HeaderBlock(_Guard.header_bytes, _Guard.header_count)
        if self._block.refused or not self._block.feed(data):
            if not self._block.refused:
                self._too_large()
            return  # the rest of a refused request is read and dropped until the connection closes
        super().data_received(data)

    def _too_large(self) -> None:
        """Answer 431 and close: the request's header block is over its bounds (none of it reached the app)."""
        self._stop_header_timer()
        body = json.dumps(
            {
                "error": {
                    "code": "too_large",
                    "message": f"a request's headers are at most {_Guard.header_bytes} bytes "
                    f"and {_Guard.header_count} lines",
                }
            }
        ).encode()
        head = (
            "HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
        )
        assert self._block is not None
        self._block.refused = True
        self.transport.write(head.encode() + body)
        # closed a little later: closing with the client's bytes unread would reset the connection, and the client
        # might lose the answer; meanwhile what it sends is dropped unread
        with contextlib.suppress(OSError, RuntimeError, NotImplementedError):
            self.transport.write_eof()
        asyncio.get_running_loop().call_later(LINGER, self.transport.abort)

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
