"""What every attack test of the real server shares: a server with the default limits, and a look at its log.

An attack may be refused, throttled or dropped, but never make the server write a traceback: a client that
misbehaves is no fault of the server's. ``faults(log)`` lists the lines that say otherwise (a traceback, an error
in the ASGI application, a task whose error nobody retrieved); the ``hostile`` fixture factory starts a server
and fails the test that made its log show one.
"""

from __future__ import annotations

import http.client
import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from tests.server.server_process import ServerProcess

__all__ = ["DEADLINE", "faults", "from_address", "hostile"]

DEADLINE = 20.0  # seconds any one wait of an attack test may take
FAULT = re.compile(
    r"Traceback \(most recent call last\)|Task exception was never retrieved"
    r"|Exception in ASGI application|task .* failed"
)


def faults(log: str) -> list[str]:
    """The lines of a server's log that show a fault of the server's own."""
    return [line for line in log.splitlines() if FAULT.search(line)]


@pytest.fixture
def hostile(server_factory: Callable[..., ServerProcess]) -> Iterator[Callable[..., ServerProcess]]:
    """``hostile(*options, bot_delay=0.0)``: a running server with laro serve's default limits but ``options``
    (and seeds allowed), stopped after the test; the test fails if the server's log shows a fault."""
    made: list[ServerProcess] = []

    def make(*options: str, bot_delay: float = 0.0, quiet: bool = True) -> ServerProcess:
        made.append(server_factory(limits=("--allow-seeds", *options), bot_delay=bot_delay, quiet=quiet))
        return made[-1]

    yield make
    for process in made:
        process.stop()
        found = faults(process.log_text())
        assert not found, f"the server's log shows {len(found)} faults:\n" + process.log_text()[-6000:]


def from_address(
    address: str,
    port: int,
    method: str,
    path: str,
    body: Any = None,
    headers: dict[str, str] | None = None,
    timeout: float = DEADLINE,
    parse: bool = True,
) -> tuple[int, Any, dict[str, str]]:
    """One HTTP request sent from the loopback ``address`` (127.0.0.2, …: another stranger than 127.0.0.1); the
    answer is read as JSON where it is JSON, or left as bytes with ``parse=False``."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(address, 0))
    try:
        data = None if body is None else json.dumps(body).encode()
        connection.request(method, path, body=data, headers={"Content-Type": "application/json", **(headers or {})})
        response = connection.getresponse()
        raw = response.read()
        if not parse:
            return response.status, raw, {name.lower(): value for name, value in response.getheaders()}
        try:
            answer: Any = json.loads(raw)
        except ValueError:
            answer = raw.decode(errors="replace")
        return response.status, answer, {name.lower(): value for name, value in response.getheaders()}
    finally:
        connection.close()
