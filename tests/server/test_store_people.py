"""Accounts, sessions and the seats they hold, in SQLite and PostgreSQL: names unique by key, sessions that run
out or end, seats that move to the last account that joined them, and a deleted account whose games keep a neutral
name with their results whole; a store made before accounts still opens, and gains their tables."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import pytest

from laro.server.store import Store, StoredTable, TableMeta, new_table_id
from laro.server.store.matches import Ticket
from laro.server.store.people import NEUTRAL_NAME, Account, AccountExists

if TYPE_CHECKING:
    from conftest import Backend  # the fixture's type (tests/server/conftest.py)

ANA = Account("acc-ana", "Ana", 1.0)
BO = Account("acc-bo", "Bo", 2.0)


def meta() -> TableMeta:
    seat = {"token_hash": "x", "bot": None}
    return TableMeta(new_table_id(), "lama", "1.0", 2, {}, 12, [seat, seat], 1_700_000_000.0)


def run(backend: Backend, body: Callable[[Store], Awaitable[None]]) -> None:
    async def main() -> None:
        async with backend.make() as store:
            await body(store)

    asyncio.run(main())


def test_an_account_is_found_by_its_key_and_a_key_is_taken_once(backend: Backend) -> None:
    async def body(store: Store) -> None:
        await store.accounts.create(ANA, "ana", "hash-a")
        with pytest.raises(AccountExists):
            await store.accounts.create(Account("acc-2", "ANA", 3.0), "ana", "hash-b")
        login = await store.accounts.login("ana")
        assert login is not None and login.account == ANA and login.password_hash == "hash-a"
        assert await store.accounts.login("bo") is None

    run(backend, body)


def test_a_session_lasts_until_it_runs_out_or_ends(backend: Backend) -> None:
    async def body(store: Store) -> None:
        await store.accounts.create(ANA, "ana", "hash-a")
        await store.accounts.start_session("s1", ANA.id, now=10.0, until=20.0)
        await store.accounts.start_session("s2", ANA.id, now=10.0, until=40.0)
        assert await store.accounts.session("s1", 19.0) == ANA
        assert await store.accounts.session("s1", 20.0) is None  # ran out
        assert await store.accounts.session("nope", 11.0) is None
        await store.accounts.end_session("s2")
        assert await store.accounts.session("s2", 11.0) is None
        await store.accounts.start_session("s3", ANA.id, now=30.0, until=60.0)  # forgets s1, which ran out
        assert await store.accounts.session("s3", 31.0) == ANA

    run(backend, body)


def test_a_seat_belongs_to_the_last_account_that_joined_it(backend: Backend) -> None:
    first, second = meta(), meta()

    async def body(store: Store) -> None:
        for table in (first, second):
            await store.create_table(table)
        await store.accounts.create(ANA, "ana", "h")
        await store.accounts.create(BO, "bo", "h")
        await store.accounts.hold_seat(ANA.id, first.id, 0, "tok-0", 5.0)
        await store.accounts.hold_seat(ANA.id, second.id, 1, "tok-1", 6.0)
        seats = await store.accounts.seats(ANA.id, 10)
        assert [(s.table_id, s.seat, s.token) for s in seats] == [(second.id, 1, "tok-1"), (first.id, 0, "tok-0")]
        assert seats[0].invite == f"/table/{second.id}#seat=1&token=tok-1"
        assert len(await store.accounts.seats(ANA.id, 1)) == 1
        await store.accounts.hold_seat(BO.id, first.id, 0, "tok-0", 7.0)  # Bo joined with the same token
        assert [s.table_id for s in await store.accounts.seats(ANA.id, 10)] == [second.id]
        assert [s.table_id for s in await store.accounts.seats(BO.id, 10)] == [first.id]

    run(backend, body)


def test_a_deleted_account_leaves_its_games_whole_under_a_neutral_name(backend: Backend) -> None:
    table, other = meta(), meta()

    async def body(store: Store) -> None:
        await store.create_table(table)
        await store.create_table(other)
        await store.accounts.create(ANA, "ana", "h")
        await store.accounts.start_session("s1", ANA.id, now=1.0, until=99.0)
        for seq, (seat, name) in enumerate([(0, "Ana"), (1, "Bo")], start=1):
            await store.append(table.id, {"seq": seq, "type": "join", "seat": seat, "name": name})
            await store.append(other.id, {"seq": seq, "type": "join", "seat": seat, "name": name})
        await store.append(table.id, {"seq": 3, "type": "act", "seat": 0, "action": "draw"})
        await store.finish(table.id, {"winners": [1], "scores": [3, 0], "players": ["Ana", "Bo"]})
        await store.accounts.hold_seat(ANA.id, table.id, 0, "tok", 2.0)
        assert await store.accounts.delete(ANA.id) == [(table.id, 0)]
        assert await store.accounts.login("ana") is None
        assert await store.accounts.session("s1", 2.0) is None
        assert await store.accounts.seats(ANA.id, 10) == []
        loaded = await store.load(table.id)
        assert isinstance(loaded, StoredTable)
        assert [event.get("name") for event in loaded.events] == [NEUTRAL_NAME, "Bo", None]
        assert loaded.events[2] == {"seq": 3, "type": "act", "seat": 0, "action": "draw"}
        assert loaded.result == {"winners": [1], "scores": [3, 0], "players": [NEUTRAL_NAME, "Bo"]}
        untouched = await store.load(other.id)  # a table whose seat was not the account's keeps its names
        assert isinstance(untouched, StoredTable) and untouched.events[0]["name"] == "Ana"
        await store.accounts.create(Account("acc-3", "Ana", 9.0), "ana", "h2")  # the name is free again

    run(backend, body)


def test_a_store_made_before_accounts_still_opens(backend: Backend) -> None:
    table = meta()

    async def first(store: Store) -> None:
        await store.create_table(table)

    run(backend, first)
    earlier = ("laro_match_queue", "laro_account_seats", "laro_sessions", "laro_accounts")
    for name in earlier:  # as a store of an earlier laro left it
        backend.execute(f"DROP TABLE {name}")

    async def later(store: Store) -> None:
        assert isinstance(await store.load(table.id), StoredTable)
        await store.accounts.create(ANA, "ana", "h")
        await store.accounts.hold_seat(ANA.id, table.id, 0, "tok", 1.0)
        assert len(await store.accounts.seats(ANA.id, 5)) == 1
        await store.matches.enter(Ticket(ANA.id, ANA.name, "lama", 2, "null", 1000, None, 1.0))
        assert await store.matches.counts() == {"lama": 1}

    run(backend, later)
