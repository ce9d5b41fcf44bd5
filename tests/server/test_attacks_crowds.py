"""A crowd of strangers at one table: their connections are bounded before they say hello and once they watch,
and none of it ever keeps a player from their own seat. Against the real ``laro serve`` with its default limits;
other loopback addresses (127.0.0.2, …) play other strangers."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from tests.server.attack_support import DEADLINE
from tests.server.client import Api
from tests.server.server_process import ServerProcess
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed


async def _open(server: ServerProcess, table_id: str, address: str) -> ClientConnection | None:
    """A WebSocket to the table from ``address`` that says nothing yet (None: refused at once)."""
    try:
        url = f"{server.ws_base}/ws/tables/{table_id}"
        return await asyncio.wait_for(connect(url, proxy=None, local_addr=(address, 0)), DEADLINE)
    except (OSError, ConnectionClosed, TimeoutError):
        return None


async def _answer(ws: ClientConnection, hello: dict[str, Any]) -> str:
    """Say hello; the type of the first answer (``state``), or the error's code (``busy``, ``too_many``)."""
    try:
        await ws.send(json.dumps(hello))
        message = json.loads(await asyncio.wait_for(ws.recv(), DEADLINE))
    except ConnectionClosed:
        return "closed"
    return str(message.get("code") or message["type"])


def test_connections_that_say_hello_late_are_bounded(hostile: Callable[..., ServerProcess]) -> None:
    """Six addresses each open 20 WebSockets to one table and say hello 1.5 s later: the first 16 of each address
    may wait 5 s to say it, the others 1 s, and are refused; of those that say hello at most 64 are let in to watch
    (before: all 120 were), the others are refused as busy."""
    server = hostile()
    table_id = Api(server.base).create("lama", 2).id
    addresses = [f"127.0.0.{n}" for n in range(2, 8)]

    async def main() -> list[str]:
        opened = await asyncio.gather(*(_open(server, table_id, address) for address in addresses for _ in range(20)))
        sockets = [ws for ws in opened if ws is not None]
        await asyncio.sleep(1.5)  # past the short deadline of those beyond the first 16 of each address
        try:
            return list(await asyncio.gather(*(_answer(ws, {"type": "hello"}) for ws in sockets)))
        finally:
            await asyncio.gather(*(ws.close() for ws in sockets))

    answers = asyncio.run(main())
    watching = answers.count("state")
    assert watching <= 64, f"{watching} spectators let in: {sorted(set(answers))}"
    assert set(answers) <= {"state", "busy", "too_many", "closed"}, answers


def test_a_player_gets_back_in_whoever_watches(hostile: Callable[..., ServerProcess]) -> None:
    """At a two-person table one player's page reloads while a stranger holds 64 spectators from two addresses:
    the player gets back in at once (before: refused as busy until the stand-in took the seat), and a 65th
    spectator is refused (busy)."""
    server = hostile()
    api = Api(server.base)
    created = api.seated("lama", 2)

    async def main() -> tuple[str, str, str]:
        sockets: list[ClientConnection] = []
        try:
            for n in range(64):  # one after the other, each saying hello as it comes
                ws = await _open(server, created.id, f"127.0.0.{2 + n // 32}")
                assert ws is not None
                sockets.append(ws)
                assert await _answer(ws, {"type": "hello"}) == "state"
            player = await _open(server, created.id, "127.0.0.1")
            late = await _open(server, created.id, "127.0.0.9")
            assert player is not None and late is not None
            seat = await _answer(player, {"type": "hello", "token": created.tokens[1]})
            spectator = await _answer(late, {"type": "hello"})
            again = await _open(server, created.id, "127.0.0.1")  # the same player, from a second tab
            assert again is not None
            second = await _answer(again, {"type": "hello", "token": created.tokens[1]})
            for ws in (player, late, again):
                await ws.close()
            return seat, spectator, second
        finally:
            await asyncio.gather(*(ws.close() for ws in sockets))

    assert asyncio.run(main()) == ("state", "busy", "state")
