"""Stores written by an earlier laro open and play on. ``data/stored_tables.json`` holds tables exactly as laro
stored them before its table events were typed (each table's row and its raw events, every kind of event among
them: join, leave, bot, act, undo by step and by takeback, timeout, away by disconnection and by hand-over, ready,
resume and end), with what that laro said of each once rebuilt (its summary, log and actions in force). Today's
laro must rebuild them to the same, and play on from them on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest
from tests.server.conftest import Backend

from laro.core import JSONDict
from laro.server.hub import Hub
from laro.server.limits import ServerLimits
from laro.server.store import StoredTable, TableMeta
from laro.server.table import Table, commands, views

STORED = json.loads((Path(__file__).parent / "data" / "stored_tables.json").read_text())
T0 = 1_800_000_000.0
LATER = T0 + 86_400.0  # the store is opened again a day after it was written


# tables whose bots play on as soon as the hub starts, and how they may have ended before the test looks at them:
# the first bot move at a table where every person is away ends it as abandoned; bots alone play to the game's end
ENDED_BY_ITS_BOTS = {"kamara-undo1": "abandoned", "kamara-bots1": "over"}


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def _stored(entry: dict[str, Any]) -> StoredTable:
    return StoredTable(TableMeta(**entry["meta"]), [dict(event) for event in entry["events"]])


def _as_then(summary: JSONDict) -> JSONDict:
    """The summary as that laro said it: a table made then lets only its players chat (``spectator_chat`` came
    later)."""
    assert summary["spectator_chat"] is False
    return {key: value for key, value in summary.items() if key != "spectator_chat"}


def _seats_apart_from_connections(summary: JSONDict) -> list[JSONDict]:
    """The seats as the log says them: who is connected, and since when not, is known in memory only."""
    return [{**seat, "connected": None, "handover_at": None} for seat in summary["seats"]]


@pytest.mark.parametrize("entry", STORED, ids=[entry["meta"]["id"] for entry in STORED])
def test_a_stored_table_rebuilds_as_it_was(entry: dict[str, Any]) -> None:
    table = Table.restore(_stored(entry))
    expected = entry["expect"]
    assert _as_then(views.summary(table)) == expected["summary"]
    assert list(table.log) == expected["log"]
    assert table.actions() == expected["actions"]


def test_the_stored_tables_hold_every_kind_of_event() -> None:
    kinds = {event["type"] for entry in STORED for event in entry["events"]}
    assert kinds == {"join", "leave", "bot", "act", "undo", "timeout", "away", "ready", "resume", "end"}
    undos = {event["kind"] for entry in STORED for event in entry["events"] if event["type"] == "undo"}
    aways = {event["reason"] for entry in STORED for event in entry["events"] if event["type"] == "away"}
    assert undos == {"step", "takeback"} and aways == {"disconnected", "handed"}


async def _write(backend: Backend) -> None:
    """The store as the earlier laro left it: its rows and raw events, finished tables with their results."""
    store = backend.make()
    await store.open()
    try:
        for entry in STORED:
            await store.create_table(TableMeta(**entry["meta"]))
            for event in entry["events"]:
                await store.append(entry["meta"]["id"], dict(event))
            if entry["finished"]:
                result = {**(entry["expect"]["summary"]["result"] or {}), "players": ["stored"]}
                await store.finish(entry["meta"]["id"], result)
    finally:
        await store.close()


async def _until(check: Any, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "the table did not play on"
        await asyncio.sleep(0.01)


def test_a_store_written_by_an_earlier_laro_opens_and_plays_on(backend: Backend) -> None:
    async def main() -> None:
        await _write(backend)
        store = backend.make()
        await store.open()
        clock = Clock(LATER)
        week = 7 * 86_400.0  # nothing ends for being old: the tables play on a day after they were stored
        limits = ServerLimits(open_table_ttl=week, bot_table_seconds=week)
        hub = Hub(store, bot_delay=0.0, bot_workers=0, clock=clock, limits=limits)
        await hub.start()
        try:
            expected = {entry["meta"]["id"]: entry for entry in STORED}
            for table_id, entry in expected.items():
                table = await hub.get(table_id)
                assert table is not None, table_id
                stored_seq = len(entry["events"])
                assert table.seq >= stored_seq
                if table.status != entry["expect"]["summary"]["status"]:  # its bots played on from the start
                    assert table.status == ENDED_BY_ITS_BOTS.get(table_id) and table.seq > stored_seq, table_id
                assert table.actions()[: len(entry["expect"]["actions"])] == entry["expect"]["actions"]
            # a timed table restored with a clock running starts its turn afresh: a resume, nobody charged
            clocked = await hub.get("lama-clock01")
            assert clocked is not None and clocked.log[-1]["type"] == "resume"
            assert views.clock_summary(clocked)["deadline"] >= LATER + 20.0
            # the people play on: an action, a takeback's table, the open table's last seat taken
            for table_id in ("lama-clock01", "lama-takeba1"):
                await _act(hub, table_id, expected[table_id])
            tokens = expected["lama-open001"]["expect"]["tokens"]
            opened = await hub.change("lama-open001", lambda t: commands.join(t, 0, tokens["0"], "Late"))
            assert opened.status == "running"
            await _act(hub, "lama-open001", expected["lama-open001"])
            # the bots play on by themselves
            bots = await hub.get("kamara-bots1")
            assert bots is not None
            await _until(lambda: bots.seq > len(expected["kamara-bots1"]["events"]) + 3)
            # the finished ones read back as they ended, and take no more events
            for table_id in ("lama-expire1", "lama-bots001"):
                finished = await hub.get(table_id)
                assert (
                    finished is not None
                    and _as_then(views.summary(finished)) == expected[table_id]["expect"]["summary"]
                )
            # what was played on rebuilds from the store as it is in memory
            for table_id in ("lama-clock01", "lama-takeba1", "lama-open001"):
                live = await hub.get(table_id)
                loaded = await store.load(table_id)
                assert live is not None and isinstance(loaded, StoredTable)
                again = Table.restore(loaded)
                assert _seats_apart_from_connections(views.summary(again)) == _seats_apart_from_connections(
                    views.summary(live)
                )
                assert list(again.log) == list(live.log)
                assert {**views.clock_summary(again), "standin_at": None} == {
                    **views.clock_summary(live),
                    "standin_at": None,
                }
        finally:
            await hub.stop()
            await store.close()

    asyncio.run(main())


async def _act(hub: Hub, table_id: str, entry: dict[str, Any]) -> None:
    """The person to act at ``table_id`` (once its bots have moved) takes a legal action."""
    table = await hub.get(table_id)
    assert table is not None
    await _until(lambda: table.bot_to_move() is None)
    seat = table.state.current_player
    assert seat is not None and str(seat) in entry["expect"]["tokens"]
    before = table.seq
    action = str(table.state.legal_actions()[0])
    await hub.change(table_id, lambda t: commands.act(t, seat, action, t.seq, now=hub.clock()))
    assert table.seq == before + 1 and table.log[-1]["type"] == "act"
