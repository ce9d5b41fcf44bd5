"""The server on PostgreSQL (``laro serve --db postgresql://…``): tables are stored there, a whole game is played
through it, and after ``kill -9`` in the middle of a game the table comes back exactly and plays to the end."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

import pytest
from psycopg.conninfo import conninfo_to_dict
from tests.polling import until
from tests.server.client import Api, Client, play_table, some_moves
from tests.server.server_process import ServerProcess

from laro.server.leases import LEASE_SECONDS


def _url(dsn: str) -> str:
    """The test server's connection string as the URL that ``laro serve --db`` takes."""
    parts = {key: str(value) for key, value in conninfo_to_dict(dsn).items()}
    database = parts.pop("dbname", "postgres")
    return f"postgresql:///{database}?{urlencode(parts)}"


@pytest.mark.slow  # a kill and a restart
def test_the_server_plays_and_survives_kill_on_postgresql(
    server_factory: Callable[..., ServerProcess], postgres_dsn: str
) -> None:
    server = server_factory(db=_url(postgres_dsn))
    api = Api(server.base, clock="none")  # no resume events: the tables come back exactly
    finished = api.seated("lama", 3, bots={2: "heuristic"})
    players, _ = asyncio.run(play_table(server.ws_base, finished, random.Random(3)))
    assert api.table(finished.id)["status"] == "over"
    assert players[0].state is not None and players[0].state["table"]["result"] == api.table(finished.id)["result"]

    created = api.seated("kamara", 3, {"max_rounds": 6}, bots={2: "random"})

    async def before_the_crash() -> tuple[int, dict[str, Any]]:
        clients = [await Client.connect(server.ws_base, created.id, token) for token in created.tokens.values()]
        for client in clients:
            await client.wait_state()
        seq = await some_moves(clients, 12, random.Random(5))
        observation = clients[0].state["observation"]  # type: ignore[index]
        for client in clients:
            await client.close()
        return seq, observation

    seq, observation = asyncio.run(before_the_crash())
    summary = api.table(created.id)
    assert summary["seq"] >= seq
    server.kill()
    server.start()
    # back exactly as it was, once what the killed process last said of its connections has expired
    back = lambda: f"the table did not come back as it was: {api.table(created.id)} != {summary}"  # noqa: E731
    until(lambda: api.table(created.id) == summary, back, LEASE_SECONDS + 5, 0.1)
    assert [table["id"] for table in api.tables()] == [created.id]  # the finished table is not listed

    async def after_the_crash() -> None:
        client = await Client.connect(server.ws_base, created.id, created.tokens[0])
        state = await client.wait_state()
        assert state["seq"] == summary["seq"]
        if state["seq"] == seq:
            assert state["observation"] == observation
        await client.close()

    asyncio.run(after_the_crash())
    asyncio.run(play_table(server.ws_base, created, random.Random(6)))
    assert api.table(created.id)["status"] == "over"
