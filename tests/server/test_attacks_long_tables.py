"""A long table cannot stall the server nor hold its slots: a table ends once it holds the most events a table may
have, a table only bots play ends after its time, and a finished table read back from the store is rebuilt off
the event loop, once for all who ask at the same time. In-process, on a real SQLite store."""

from __future__ import annotations

import asyncio
import gc
import random
import time
from pathlib import Path
from typing import Any

from laro.server.hub import Hub
from laro.server.limits import ServerLimits
from laro.server.store import SQLiteStore, StoredTable
from laro.server.table import Event, Table, commands, create, views
from laro.server.table.events import Act

DEADLINE = 30.0


class CountingStore(SQLiteStore):
    """The SQLite store, counting the tables it reads back whole."""

    loads = 0

    async def load(self, table_id: str) -> Any:
        self.loads += 1
        return await super().load(table_id)


def test_a_table_ends_at_its_most_events(tmp_path: Path) -> None:
    """Eight random bots play a Kamara game of up to 1000 rounds at a server whose tables may hold 200 events:
    the table ends as ``too_long`` with its 200th event (before: it played on to the game's end, some 900
    events), and so it stays after a restart."""

    async def main() -> None:
        store = SQLiteStore(tmp_path / "t.db")
        await store.open()
        hub = Hub(store, bot_delay=0.0, bot_workers=0, limits=ServerLimits(table_events=200))
        await hub.start()
        try:
            table, _ = await hub.create("kamara", 8, {"max_rounds": 1000}, {seat: "random" for seat in range(8)}, 3)
            deadline = time.monotonic() + DEADLINE
            while not table.over:
                assert time.monotonic() < deadline, "the table never ended"
                await asyncio.sleep(0.01)
            assert (table.status, table.seq, views.result(table)) == (
                "too_long",
                201,
                {"winners": [], "scores": list(table.state.scores), "ended": "too_long"},
            )
            stored = await store.load(table.meta.id)
            assert isinstance(stored, StoredTable) and stored.finished and Table.restore(stored).status == "too_long"
        finally:
            await hub.stop()
            await store.close()

    asyncio.run(main())


def _long_finished_table(events: int) -> tuple[Table, list[dict[str, Any]]]:
    """A Kamara table of eight seats whose diwas wander without matching for ``events`` actions, then ended."""
    table, _ = create("kamara", 8, {"max_rounds": 1000}, {seat: "random" for seat in range(8)}, created=1.8e9, seed=3)
    rng = random.Random(2)
    log: list[dict[str, Any]] = []
    while table.seq < events - 1:
        legal = [str(action) for action in table.state.legal_actions()]
        calm = [action for action in legal if action.split()[0] in ("move", "end")] or legal
        seat = table.state.current_player
        assert seat is not None
        event: Event = Act(table.seq + 1, seat, rng.choice(calm))
        table.apply(event, 1.8e9)
        log.append({**event.to_json(), "time": 1.8e9})
    event = commands.end(table, "abandoned")
    table.apply(event, 1.8e9)
    log.append({**event.to_json(), "time": 1.8e9})
    return table, log


def test_a_long_finished_table_is_read_back_off_the_event_loop(tmp_path: Path) -> None:
    """A finished table of 10,000 events, out of the cache, is read back: the event loop is never held for more
    than half the time the reading takes (before: for all of its rebuild, over a second here); then four
    clients ask for it at once, and it is read from the store and rebuilt once for them all."""

    async def main() -> None:
        table, log = _long_finished_table(10_000)
        store = CountingStore(tmp_path / "t.db")
        await store.open()
        await store.create_table(table.meta)
        await asyncio.gather(*(store.append(table.meta.id, event) for event in log))
        await store.finish(table.meta.id, views.stored_result(table))
        hub = Hub(store, bot_delay=0.0, bot_workers=0, limits=ServerLimits(finished_cache=0))
        await hub.start()
        lags: list[float] = []

        async def tick() -> None:
            while True:
                before = time.monotonic()
                await asyncio.sleep(0.01)
                lags.append(time.monotonic() - before - 0.01)

        ticker = asyncio.get_running_loop().create_task(tick())
        try:
            started = time.monotonic()
            first = await asyncio.wait_for(hub.get(table.meta.id), DEADLINE)
            took = time.monotonic() - started
            await asyncio.sleep(0.05)  # the tick that waited meanwhile is counted
            ticker.cancel()
            store.loads = 0
            found = await asyncio.wait_for(asyncio.gather(*(hub.get(table.meta.id) for _ in range(4))), DEADLINE)
        finally:
            ticker.cancel()
            await hub.stop()
            await store.close()
        held = max(lags)
        assert held < took / 2, f"the event loop was held for {held:.2f} s of the {took:.2f} s the reading took"
        assert first is not None and first.seq == 10_000
        assert all(got is found[0] for got in found) and store.loads == 1

    # the test process's own heap (thousands of tests' objects in a long run) is set aside, so that a full garbage
    # collection, which holds every thread for as long as that heap takes to walk, is not counted as the server's
    gc.collect()
    gc.freeze()
    try:
        asyncio.run(main())
    finally:
        gc.unfreeze()


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def test_tables_of_bots_alone_end_after_their_time(tmp_path: Path) -> None:
    """A table of bots alone, and a table whose one person handed their seat to a bot, end as ``time_up`` 30
    minutes after they were made (before: they played on for as long as their games lasted, holding the slots of
    bots alone for hours); a table with a person playing does not; and the address may then make a new one."""

    async def main() -> None:
        clock = Clock()
        store = SQLiteStore(tmp_path / "t.db")
        await store.open()
        hub = Hub(store, bot_delay=3600.0, bot_workers=0, clock=clock)  # the bots think slowly: the games go on
        await hub.start()
        try:
            alone, _ = await hub.create("lama", 2, {}, {0: "random", 1: "random"}, address="10.0.0.9")
            handed, tokens = await hub.create("lama", 2, {}, {1: "random"}, address="10.0.0.9")
            played, more = await hub.create("lama", 2, {}, {1: "random"}, address="10.0.0.9")
            await hub.change(handed.meta.id, lambda t: commands.join(t, 0, tokens[0], "Ana"))
            await hub.change(handed.meta.id, lambda t: commands.hand_to_bot(t, 0, tokens[0], "random"))
            await hub.change(played.meta.id, lambda t: commands.join(t, 0, more[0], "Bo"))
            clock.now += 1799.0
            assert await hub.sweep() == []
            clock.now += 2.0
            assert sorted(await hub.sweep()) == sorted([alone.meta.id, handed.meta.id])
            assert (alone.status, handed.status, played.status) == ("time_up", "time_up", "running")
            again, _ = await hub.create("lama", 2, {}, {0: "random", 1: "random"}, address="10.0.0.9")
            assert again.status == "running"
        finally:
            await hub.stop()
            await store.close()

    asyncio.run(main())
