"""A rematch is kept by the store: its id is derived from the finished table's, so the finished table names it
after the server was killed and started again, asking again gives the same table, and a store written before
(whose rematches were linked in memory only) loads and makes new rematches as any other."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import time
from collections.abc import Callable

import pytest
from tests.server.client import Api, Created, play_table
from tests.server.server_process import ServerProcess

import laro
from laro.server.store import SQLiteStore, TableMeta, new_table_id
from laro.server.table import rematch_id


def _finished(api: Api, server: ServerProcess, seed: int) -> tuple[str, dict[int, str]]:
    """A three-seat L.A.M.A. table (two people, a bot) played to its end; its id and the people's tokens."""
    created = api.seated("lama", 3, {"end_score": 1}, bots={2: "random"}, seed=seed)
    asyncio.run(play_table(server.ws_base, created, random.Random(seed), spectators=0))
    assert api.table(created.id)["status"] == "over"
    return created.id, created.tokens


def _ids(server: ServerProcess) -> list[str]:
    con = sqlite3.connect(f"file:{server.db_path}?mode=ro", uri=True)
    try:
        return [table_id for (table_id,) in con.execute("SELECT id FROM laro_tables ORDER BY n")]
    finally:
        con.close()


@pytest.mark.slow  # a kill and a restart
def test_a_rematch_survives_a_kill_and_a_restart(server_factory: Callable[..., ServerProcess]) -> None:
    server = server_factory()
    api = Api(server.base)
    table_id, tokens = _finished(api, server, seed=4)
    assert api.table(table_id)["rematch"] is None
    again = api.call("POST", f"/api/tables/{table_id}/rematch", {"token": tokens[0]})
    assert again["id"] == rematch_id(table_id) and api.table(table_id)["rematch"] == again["id"]
    server.kill()  # the answer came once the new table was committed: nothing else needs keeping
    server.start()
    assert api.table(table_id)["rematch"] == again["id"]  # read back from the store, not from memory
    assert again["id"] in {table["id"] for table in api.tables()}  # waiting for its players, as before
    # the other player asks after the restart and gets the same table; so does the first one again
    for seat in (1, 0):
        assert api.call("POST", f"/api/tables/{table_id}/rematch", {"token": tokens[seat]})["id"] == again["id"]
    assert _ids(server) == [table_id, again["id"]]  # one rematch table, made once
    for seat, token in tokens.items():
        api.join(again["id"], seat, token)
    assert api.table(again["id"])["status"] == "running"
    # a finished table read back from the store (not from the server's memory of it) names its rematch too
    server.restart()
    assert api.table(table_id)["rematch"] == again["id"]
    assert api.refused("POST", f"/api/tables/{table_id}/rematch", {"token": "nope"}) == (403, "bad_token")


def test_the_rematch_of_a_rematch_is_another_table(server_factory: Callable[..., ServerProcess]) -> None:
    server = server_factory()
    api = Api(server.base)
    table_id, tokens = _finished(api, server, seed=6)
    second = api.call("POST", f"/api/tables/{table_id}/rematch", {"token": tokens[1]})["id"]
    for seat, token in tokens.items():
        api.join(second, seat, token)
    asyncio.run(play_table(server.ws_base, Created(second, tokens, {}), random.Random(7), spectators=0))
    third = api.call("POST", f"/api/tables/{second}/rematch", {"token": tokens[0]})["id"]
    assert len({table_id, second, third}) == 3 and third == rematch_id(second)
    server.restart()
    assert api.table(table_id)["rematch"] == second and api.table(second)["rematch"] == third


def test_a_store_written_before_loads_and_makes_rematches(server_factory: Callable[..., ServerProcess]) -> None:
    """An earlier laro linked a finished table to its rematch in memory only, and gave the rematch a random id:
    such a store opens as it is (nothing in it changes), the old rematch is a table like any other, and the
    finished table, which no longer names it, gets a rematch of its own when its players ask."""
    server = server_factory()
    api = Api(server.base)
    table_id, tokens = _finished(api, server, seed=9)
    server.stop()
    finished = server.stored(table_id)
    rules = laro.get_game("lama").rules_version
    old = TableMeta(new_table_id(), "lama", rules, 3, finished.options, 12345, finished.seats, time.time())

    async def earlier_laro() -> None:  # what an earlier laro's rematch left in the store
        async with SQLiteStore(server.db_path) as store:
            await store.create_table(old)

    asyncio.run(earlier_laro())
    con = sqlite3.connect(server.db_path)
    schema_before = con.execute("SELECT name, sql FROM sqlite_master ORDER BY name").fetchall()
    con.close()
    server.start()
    assert api.table(table_id)["rematch"] is None
    assert api.table(old.id)["status"] == "open"
    again = api.call("POST", f"/api/tables/{table_id}/rematch", {"token": tokens[0]})
    assert again["id"] == rematch_id(table_id) != old.id
    assert api.table(table_id)["rematch"] == again["id"]
    server.stop()
    con = sqlite3.connect(server.db_path)
    assert con.execute("SELECT name, sql FROM sqlite_master ORDER BY name").fetchall() == schema_before
    con.close()
    assert _ids(server) == [table_id, old.id, again["id"]]
