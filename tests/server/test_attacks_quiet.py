"""Clients that go away badly leave no trace in the server's log: no traceback, no task whose error nobody read.

Each attack runs against the real ``laro serve`` (the ``hostile`` fixture fails a test whose server logged a
fault). Bots race at the tables, so the server is sending when the clients misbehave.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import struct
import time
from collections.abc import Callable

from tests.server.attack_support import DEADLINE
from tests.server.client import Api, Client, RawSocket
from tests.server.server_process import ServerProcess

RACING = {"max_rounds": 100}  # a long Kamara game of eight random bots: a state every few milliseconds


def _racing(api: Api, seed: int = 7) -> tuple[str, str]:
    """A Kamara table of a person (seat 0, joined) and seven random bots; its id and the person's token."""
    created = api.create("kamara", 8, RACING, {seat: "random" for seat in range(1, 8)}, seed=seed)
    api.join(created.id, 0, created.tokens[0], "Deaf")
    return created.id, created.tokens[0]


def _reset(sock: socket.socket) -> None:
    """Close with a reset (RST), as a client that vanishes does."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def _say_goodbye(sock: socket.socket) -> None:
    """Send a closing frame (code 1001, going away), masked as a client's must be, and read nothing."""
    mask = os.urandom(4)
    payload = bytes(byte ^ mask[i % 4] for i, byte in enumerate((1001).to_bytes(2, "big")))
    sock.sendall(bytes([0x88, 0x82]) + mask + payload)


def test_clients_that_stop_reading_then_go_leave_no_traceback(hostile: Callable[..., ServerProcess]) -> None:
    """Three times, twenty clients of a racing table (its seat and spectators) stop reading: they answer no ping,
    so the server gives up on them and closes, while it still has states to send; then they go, most with a reset,
    some saying goodbye first. The server ends each without a word in its log, and the seat is seen gone."""
    server = hostile("--ping-interval=0.3", "--send-timeout=5", "--websockets-per-address=100")
    api = Api(server.base)
    for round_ in range(3):
        table_id, token = _racing(api, seed=round_)
        deaf = [RawSocket(server.port, f"/ws/tables/{table_id}", token if i == 0 else None) for i in range(20)]
        try:
            api.bot(table_id, 0, token, "random")  # the seat's bot races too: a state every few milliseconds
            time.sleep(1.5)  # no pong: the server has closed, but its sends still wait in full buffers
            for i, client in enumerate(deaf):
                if i % 4 == 1:
                    _say_goodbye(client.sock)
                _reset(client.sock)
            deadline = time.monotonic() + DEADLINE
            while api.table(table_id)["seats"][0]["connected"]:
                assert time.monotonic() < deadline, "the seat that stopped reading was never dropped"
                time.sleep(0.1)
        finally:
            for client in deaf:
                client.close()
    time.sleep(1.0)  # the server ends what the clients left


def test_clients_that_break_the_protocol_while_the_table_races_leave_no_traceback(
    hostile: Callable[..., ServerProcess],
) -> None:
    """Sixty spectators of a racing table each send a frame too large to take (the server fails the connection)
    and go; the server ends each without a word in its log."""
    server = hostile("--websockets-per-address=100")
    api = Api(server.base)
    table_id, token = _racing(api)
    api.bot(table_id, 0, token, "random")
    for _ in range(3):
        clients = [RawSocket(server.port, f"/ws/tables/{table_id}") for _ in range(20)]
        for client in clients:
            client.sock.sendall(bytes([0x81, 0xFF]) + (1 << 24).to_bytes(8, "big") + os.urandom(4))
        time.sleep(0.2)
        for client in clients:
            client.close()
    time.sleep(1.0)  # the server ends what the clients left
    assert api.table(table_id)["seq"] > 0


def test_clients_that_flood_then_vanish_leave_no_traceback(hostile: Callable[..., ServerProcess]) -> None:
    """Ten spectators send a flood of messages until the server closes them for it, and go at once; ten more
    close before saying hello, or right after; the log stays clean."""
    server = hostile("--websockets-per-address=100")
    api = Api(server.base)
    table_id, _ = _racing(api)

    async def main() -> None:
        async def flood() -> None:
            client = await Client.connect(server.ws_base, table_id)
            try:
                for _ in range(2000):
                    await client.send(json.dumps({"type": "ping"}))
            except Exception:  # closed by the server for the flood: as it should be
                pass
            transport = client.ws.transport
            transport.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            transport.abort()  # a reset, in the middle of whatever the server sends

        async def early() -> None:
            _, writer = await asyncio.open_connection("127.0.0.1", server.port)
            writer.write(f"GET /ws/tables/{table_id} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n".encode())
            writer.write(b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n")
            writer.write(b"Sec-WebSocket-Version: 13\r\n\r\n")
            await writer.drain()
            writer.close()

        await asyncio.wait_for(asyncio.gather(*(flood() for _ in range(10)), *(early() for _ in range(10))), DEADLINE)

    asyncio.run(main())
    time.sleep(1.0)  # the server ends what the clients left
    assert Api(server.base).table(table_id)["seq"] > 0
