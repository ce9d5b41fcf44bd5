"""A rematch among several ``laro serve`` processes on one PostgreSQL database: the players of a finished table,
connected to different processes, ask for the rematch on their own process at the same moment, and all land at
the same new table, made once; each process's connections of the finished table are told of it; every process,
and a process started afterwards, names it in the finished table's summary."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Callable
from typing import Any

import psycopg
import pytest
from tests.server.client import Api, Client, Created, request
from tests.server.cluster_support import database, url  # noqa: F401  (a fixture)
from tests.server.server_process import ServerProcess

from laro.server.table import rematch_id

pytestmark = pytest.mark.slow


def _at_once(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run the calls in threads of their own, let go together."""
    start = threading.Barrier(len(calls))
    answers: list[Any] = [None] * len(calls)

    def run(n: int) -> None:
        start.wait(timeout=10)
        answers[n] = calls[n]()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return answers


def _tables(dsn: str) -> list[str]:
    with psycopg.connect(dsn, autocommit=True) as con:
        return [str(table_id) for (table_id,) in con.execute("SELECT id FROM laro_tables ORDER BY n")]


async def _play_then_rematch(servers: list[ServerProcess], created: Created, seed: int) -> list[Any]:
    """Seat n plays on process n to the end, stays connected, then every seat asks its own process for the rematch
    at the same moment; the answers, once each connection was told of the rematch."""
    clients = [
        await Client.connect(servers[seat].ws_base, created.id, token, name=f"seat {seat}")
        for seat, token in sorted(created.tokens.items())
    ]
    await asyncio.gather(*(client.play(random.Random(seed + seat)) for seat, client in enumerate(clients)))
    asks = [
        lambda seat=seat, token=token: request(
            servers[seat].base, "POST", f"/api/tables/{created.id}/rematch", {"token": token}
        )
        for seat, token in sorted(created.tokens.items())
    ]
    answers = await asyncio.to_thread(_at_once, asks)
    for client in clients:  # told on its own process, whichever process made the rematch
        told = await client.wait_state(lambda state: state["table"]["rematch"] is not None)
        assert told["table"]["rematch"] == rematch_id(created.id)
        await client.close()
    return answers


def test_players_on_two_processes_asking_at_once_land_at_one_rematch(
    database: str,  # noqa: F811
    server_factory: Callable[..., ServerProcess],
) -> None:
    servers = [server_factory(db=url(database)) for _ in range(2)]
    finished: dict[str, str] = {}
    for round_ in range(3):
        created = Api(servers[round_ % 2].base).seated("lama", 2, {"end_score": 1}, seed=20 + round_)
        answers = asyncio.run(_play_then_rematch(servers, created, seed=round_))
        assert [status for status, _ in answers] == [200, 200], answers
        made = {answer["id"] for _, answer in answers}
        assert made == {rematch_id(created.id)}, answers  # both players, on both processes: one table
        finished[created.id] = made.pop()
        for server in servers:
            assert Api(server.base).table(created.id)["rematch"] == finished[created.id]
    ids = _tables(database)
    assert len(ids) == 6 and set(ids) == set(finished) | set(finished.values())  # each rematch made once
    log = "".join(server.log_text() for server in servers)
    assert "Traceback" not in log, log[-3000:]
    for server in servers:
        server.stop()
    servers[1].start()  # alone, afresh: every link is read back from the store
    api = Api(servers[1].base)
    for table_id, again in finished.items():
        assert api.table(table_id)["rematch"] == again
        assert api.refused("POST", f"/api/tables/{table_id}/rematch", {"token": "nope"}) == (403, "bad_token")
