"""The hub's bounds, expiry, lobby index and finished-table cache, on a real SQLite store with an injected clock
(no server process, no sleeping)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from laro.server.errors import Refusal
from laro.server.hub import Hub
from laro.server.limits import Buckets, ServerLimits
from laro.server.store import SQLiteStore, StoredTable
from laro.server.table import commands, views


class Clock:
    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class CountingStore(SQLiteStore):
    """The SQLite store, counting the tables it reads back whole (not the look for one that is not there)."""

    loads = 0

    async def load(self, table_id: str) -> Any:
        found = await super().load(table_id)
        self.loads += found is not None
        return found


def run(path: Path, body: Callable[[Hub, Clock, CountingStore], Awaitable[None]], **limits: Any) -> None:
    async def main() -> None:
        clock = Clock()
        store = CountingStore(path)
        await store.open()
        hub = Hub(store, bot_delay=0.0, limits=ServerLimits(**limits), bot_workers=0, clock=clock)
        await hub.start()
        try:
            await body(hub, clock, store)
        finally:
            await hub.stop()
            await store.close()

    asyncio.run(main())


def test_a_table_nobody_joins_expires(tmp_path: Path) -> None:
    """After open_table_ttl a waiting table ends as expired (an end event in its log): it leaves the lobby,
    refuses joins with ``expired``, and stays so after a restart; a started table never expires."""
    ids: dict[str, Any] = {}

    async def first(hub: Hub, clock: Clock, store: CountingStore) -> None:
        waiting, tokens = await hub.create("lama", 2, {}, {})
        started, started_tokens = await hub.create("lama", 2, {}, {1: "random"})
        await hub.change(started.meta.id, lambda t: commands.join(t, 0, started_tokens[0], "Ana"))
        ids.update(waiting=waiting.meta.id, token=tokens[0], started=started.meta.id)
        clock.now += 3599
        assert await hub.sweep() == []
        clock.now += 2
        assert await hub.sweep() == [waiting.meta.id]
        assert waiting.status == "expired" and waiting.log[-1]["type"] == "end"
        assert [t["id"] for t in hub.listing()["tables"]] == [started.meta.id]
        with pytest.raises(Refusal) as refused:
            await hub.change(waiting.meta.id, lambda t: commands.join(t, 0, tokens[0], "Bo"))
        assert refused.value.code == "expired"

    async def second(hub: Hub, clock: Clock, store: CountingStore) -> None:
        table = await hub.get(ids["waiting"])
        assert table is not None and table.status == "expired" and views.result(table) is not None
        assert [t["id"] for t in hub.listing()["tables"]] == [ids["started"]]
        stored = await store.load(ids["waiting"])
        assert isinstance(stored, StoredTable) and stored.finished and stored.events[-1]["reason"] == "expired"

    run(tmp_path / "t.db", first, open_table_ttl=3600.0)
    run(tmp_path / "t.db", second, open_table_ttl=3600.0)


def test_bounds_on_waiting_and_bot_tables(tmp_path: Path) -> None:
    async def body(hub: Hub, clock: Clock, store: CountingStore) -> None:
        for _ in range(2):
            await hub.create("lama", 2, {}, {}, address="a")
        with pytest.raises(Refusal) as refused:
            await hub.create("lama", 2, {}, {}, address="a")
        assert refused.value.code == "too_many"
        await hub.create("lama", 2, {}, {}, address="b")
        with pytest.raises(Refusal) as refused:
            await hub.create("lama", 2, {}, {}, address="c")
        assert refused.value.code == "busy"  # three wait, the most in all
        await hub.create("lama", 2, {}, {0: "random", 1: "random"}, address="d")
        with pytest.raises(Refusal) as refused:
            await hub.create("lama", 2, {}, {0: "random", 1: "random"}, address="d")
        assert refused.value.code == "too_many"

    run(tmp_path / "t.db", body, open_tables_per_address=2, open_tables=3, bot_tables=4, bot_tables_per_address=1)


def test_the_lobby_is_paged_from_its_index(tmp_path: Path) -> None:
    async def body(hub: Hub, clock: Clock, store: CountingStore) -> None:
        made = []
        for _ in range(7):
            clock.now += 1
            made.append((await hub.create("kamara", 2, {}, {}))[0].meta.id)
        pages, cursor = [], None
        while True:
            page = hub.listing(3, cursor)
            pages.append([t["id"] for t in page["tables"]])
            assert page["total"] == 7
            cursor = page["next"]
            if cursor is None:
                break
        assert pages == [made[6:3:-1], made[3:0:-1], made[:1]]

    run(tmp_path / "t.db", body)


def test_a_finished_table_is_read_back_once(tmp_path: Path) -> None:
    """A finished table that leaves memory is read back from the store once, then served from the cache."""

    async def body(hub: Hub, clock: Clock, store: CountingStore) -> None:
        table, _ = await hub.create("lama", 2, {"end_score": 1}, {0: "random", 1: "random"})
        for _ in range(2000):
            if table.over:
                break
            await asyncio.sleep(0.005)
        assert table.over
        for _ in range(200):
            if table.meta.id not in hub._live:
                break
            await asyncio.sleep(0.005)
        hub._finished.clear()  # as if it had been pushed out, or the server restarted
        for _ in range(5):
            found = await hub.get(table.meta.id)
            assert found is not None and found.status == "over"
        assert store.loads == 1

    run(tmp_path / "t.db", body)


def test_buckets_forget_the_least_recent_address_first() -> None:
    buckets = Buckets(per_second=0.0, burst=1, max_keys=2)
    assert buckets.wait("a", now=0) == 0 and buckets.wait("b", now=0) == 0
    assert buckets.wait("a", now=1) > 0  # a is spent (and now the most recent)
    assert buckets.wait("c", now=1) == 0  # b is forgotten to make room
    assert len(buckets) == 2 and buckets.wait("a", now=2) > 0


def test_cheap_bots_decide_in_the_server_and_search_bots_in_the_workers(tmp_path: Path) -> None:
    """A bot that proves cheap (random) decides in the server's own process after its first decisions; a search
    bot (easy) keeps thinking in the workers."""

    async def body(hub: Hub, clock: Clock, store: CountingStore) -> None:
        table, _ = await hub.create("lama", 3, {}, {0: "random", 1: "random", 2: "easy"})
        for _ in range(4000):
            if table.over or (hub.bots.inline("lama", "random") and hub.bots.cost("lama", "easy") is not None):
                break
            await asyncio.sleep(0.005)
        assert hub.bots.inline("lama", "random")
        assert not hub.bots.inline("lama", "easy")

    run(tmp_path / "t.db", body)
