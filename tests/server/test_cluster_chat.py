"""Chat among several ``laro serve`` processes on one PostgreSQL database: a line said to one process reaches the
seats and spectators connected to another, and each process's connections hear the other's lines."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from tests.server.client import Api, Client
from tests.server.cluster_support import database, url  # noqa: F401  (a fixture)
from tests.server.server_process import ServerProcess

pytestmark = pytest.mark.slow


def test_a_line_said_on_one_process_is_heard_on_the_other(
    database: str,  # noqa: F811
    server_factory: Callable[..., ServerProcess],
) -> None:
    servers = [server_factory(db=url(database)) for _ in range(2)]
    created = Api(servers[0].base).seated("lama", 2, seed=4)

    async def talk() -> None:
        ana = await Client.connect(servers[0].ws_base, created.id, created.tokens[0], "Ana")
        bo = await Client.connect(servers[1].ws_base, created.id, created.tokens[1], "Bo")
        watcher = await Client.connect(servers[1].ws_base, created.id, name="spectator")
        await ana.wait_state()
        await bo.wait_state()
        await ana.send({"type": "chat", "text": "hello from the first"})
        for client in (bo, watcher):
            state = await client.wait_state(lambda s: len(s["chat"]) == 1)
            assert state["chat"][0]["text"] == "hello from the first", client.name
        await bo.send({"type": "chat", "text": "and from the second"})
        state = await ana.wait_state(lambda s: len(s["chat"]) == 2)
        assert [line["text"] for line in state["chat"]] == ["hello from the first", "and from the second"]
        for client in (ana, bo, watcher):
            await client.close()

    asyncio.run(talk())
    log = "".join(server.log_text() for server in servers)
    assert "Traceback" not in log, log[-3000:]
