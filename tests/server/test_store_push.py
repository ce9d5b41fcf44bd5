"""Push subscriptions kept with their seats, in SQLite and PostgreSQL: each notification is claimed once, by one of
several stores claiming at once (several server processes); a gone endpoint is dropped at every seat; a seat keeps
its newest few; a database made before there were subscriptions still loads, and gains their table."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from laro.server.store import Store, StoredTable, TableMeta, TableNotFound, new_table_id
from laro.server.store.base import PUSH_PER_SEAT

if TYPE_CHECKING:
    from conftest import Backend  # the fixture's type (tests/server/conftest.py)

KEYS = {"p256dh": "BKey", "auth": "secret"}


def meta() -> TableMeta:
    seats = [{"token_hash": "a", "bot": None}, {"token_hash": "b", "bot": None}]
    return TableMeta(new_table_id(), "lama", "1.0", 2, {}, 12, seats, 1_700_000_000.0)


def run(backend: Backend, body: Callable[[Store], Awaitable[None]]) -> None:
    async def main() -> None:
        async with backend.make() as store:
            await body(store)

    asyncio.run(main())


def endpoint(name: str) -> str:
    return f"https://push.example/{name}"


def test_each_notification_is_claimed_once(backend: Backend) -> None:
    table = meta()

    async def body(store: Store) -> None:
        await store.create_table(table)
        await store.save_push(table.id, 1, endpoint("phone"), KEYS, 1.0)
        await store.save_push(table.id, 1, endpoint("laptop"), {**KEYS, "auth": "other"}, 2.0)
        await store.save_push(table.id, 0, endpoint("phone"), KEYS, 3.0)  # one browser, two seats
        claimed = await store.claim_push(table.id, 1, 4)
        assert sorted(claimed) == [(endpoint("laptop"), {**KEYS, "auth": "other"}), (endpoint("phone"), KEYS)]
        assert await store.claim_push(table.id, 1, 4) == []  # told already
        assert await store.claim_push(table.id, 1, 1) == []  # an earlier notification comes too late
        assert len(await store.claim_push(table.id, 1, 5)) == 2  # the next one
        await store.save_push(table.id, 1, endpoint("phone"), {**KEYS, "auth": "new"}, 4.0)  # keys renewed
        assert await store.claim_push(table.id, 1, 5) == []  # what it was told stays
        assert sorted(await store.claim_push(table.id, 1, 8)) == [
            (endpoint("laptop"), {**KEYS, "auth": "other"}),
            (endpoint("phone"), {**KEYS, "auth": "new"}),
        ]
        assert await store.delete_push(table.id, 1, endpoint("laptop"))
        assert not await store.delete_push(table.id, 1, endpoint("laptop"))
        assert await store.drop_push(endpoint("phone")) == 2  # gone: at both seats
        assert await store.claim_push(table.id, 0, 100) == [] and await store.claim_push(table.id, 1, 100) == []
        try:
            await store.save_push("no-such-table", 0, endpoint("x"), KEYS, 1.0)
        except TableNotFound:
            pass
        else:
            raise AssertionError("a subscription kept for no table")

    run(backend, body)


def test_a_seat_keeps_its_newest_subscriptions(backend: Backend) -> None:
    table = meta()

    async def body(store: Store) -> None:
        await store.create_table(table)
        for n in range(PUSH_PER_SEAT + 3):
            await store.save_push(table.id, 0, endpoint(f"d{n:02}"), KEYS, float(n))
        kept = sorted(found for found, _ in await store.claim_push(table.id, 0, 4))
        assert kept == [endpoint(f"d{n:02}") for n in range(3, PUSH_PER_SEAT + 3)]

    run(backend, body)


def test_of_stores_claiming_at_once_exactly_one_sends(backend: Backend) -> None:
    """Two stores on one database, as two server processes: each subscription goes to one of them only."""
    table = meta()

    async def main() -> None:
        async with backend.make() as first, backend.make() as second:
            await first.create_table(table)
            for n in range(5):
                await first.save_push(table.id, 1, endpoint(f"d{n}"), KEYS, float(n))
            for told in range(4, 40, 4):
                found = await asyncio.gather(*(store.claim_push(table.id, 1, told) for store in (first, second) * 3))
                claimed = [sent for each in found for sent, _ in each]
                assert sorted(claimed) == [endpoint(f"d{n}") for n in range(5)], told

    asyncio.run(main())


def test_a_database_made_before_subscriptions_still_loads(backend: Backend) -> None:
    table = meta()

    async def first(store: Store) -> None:
        await store.create_table(table)
        await store.append(table.id, {"seq": 1, "type": "join", "seat": 0, "name": "Ana"})

    run(backend, first)
    backend.execute("DROP TABLE laro_push")  # as a store of an earlier laro left it

    async def later(store: Store) -> None:
        loaded = await store.load(table.id)
        assert isinstance(loaded, StoredTable) and loaded.last_seq == 1
        await store.save_push(table.id, 0, endpoint("phone"), KEYS, 1.0)
        assert await store.claim_push(table.id, 0, 4) == [(endpoint("phone"), KEYS)]

    run(backend, later)
