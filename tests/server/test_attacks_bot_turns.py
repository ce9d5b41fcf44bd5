"""A player's legal moves around a bot's turn never break the hub's bots: a seat handed to a bot and taken back
within the bot's delay, a takeback during the delay, and a round's end nobody watches. In-process, on a real
SQLite store: every task's error is caught (the hub's log and the event loop's handler), none may appear."""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from laro.server.bot_pool import BotPool
from laro.server.hub import Hub
from laro.server.store import SQLiteStore
from laro.server.table import Table, bot_turn, commands, create
from laro.server.table.events import Act

DEADLINE = 20.0


def run(path: Path, body: Callable[[Hub], Awaitable[None]], caplog: pytest.LogCaptureFixture, **settings: Any) -> None:
    """Run ``body`` against a hub of its own; fail on any error its tasks had (logged, or never retrieved)."""
    faults: list[str] = []

    async def main() -> None:
        asyncio.get_running_loop().set_exception_handler(lambda loop, context: faults.append(str(context)))
        store = SQLiteStore(path)
        await store.open()
        hub = Hub(store, bot_workers=0, **settings)
        await hub.start()
        try:
            await body(hub)
        finally:
            await hub.stop()
            await store.close()
            gc.collect()  # a failed task nobody retrieved is reported as it is collected
            await asyncio.sleep(0)

    with caplog.at_level(logging.ERROR, logger="laro.server"):
        asyncio.run(main())
    faults += [record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR]
    assert not faults, faults


async def until(predicate: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + DEADLINE
    while not predicate():
        assert time.monotonic() < deadline, f"never: {what}"
        await asyncio.sleep(0.005)


def my_turn(table: Table, seat: int = 0) -> bool:
    return table.state.current_player == seat and table.bot_to_move() is None and not table.paused(time.time())


def test_a_seat_handed_to_a_bot_and_taken_back_within_the_bot_delay(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Ten times: on their turn a player hands their seat to a bot and joins back at once, within the bot's delay;
    the bot that was to move finds the seat taken back and does nothing, and the player plays on."""

    async def body(hub: Hub) -> None:
        table, tokens = await hub.create("lama", 2, {}, {1: "random"}, seed=11)
        token = tokens[0]
        await hub.change(table.meta.id, lambda t: commands.join(t, 0, token, "Ana"))
        for _ in range(10):
            await until(lambda: my_turn(table) or table.over, "seat 0's turn")
            if table.over:
                break
            await hub.change(table.meta.id, lambda t: commands.hand_to_bot(t, 0, token, "random"))
            await hub.change(table.meta.id, lambda t: commands.join(t, 0, token, "Ana"))
            seq = table.seq
            await asyncio.sleep(hub.bot_delay * 2)  # the bot's delay is over: it looked again
            assert table.seq == seq and my_turn(table), "a bot moved for a player who took the seat back"
            action = str(table.state.legal_actions()[0])
            await hub.change(table.meta.id, lambda t, a=action: commands.act(t, 0, a, t.seq, now=hub.clock()))

    run(tmp_path / "t.db", body, caplog, bot_delay=0.15, round_pause=0.0)


def test_a_takeback_during_the_bot_delay_then_a_move(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Ten times: the player moves and takes the turn back while the bot waits to answer; the bot does nothing,
    and the player moves again."""

    async def body(hub: Hub) -> None:
        table, tokens = await hub.create("lama", 2, {}, {1: "random"}, seed=5, takebacks=True)
        await hub.change(table.meta.id, lambda t: commands.join(t, 0, tokens[0], "Ana"))
        for _ in range(10):
            await until(lambda: my_turn(table) or table.over, "seat 0's turn")
            if table.over:
                break
            action = str(table.state.legal_actions()[0])
            await hub.change(table.meta.id, lambda t, a=action: commands.act(t, 0, a, t.seq, now=hub.clock()))
            if table.over or table.state.current_player == 0:
                continue  # the turn did not pass to the bot
            await hub.change(table.meta.id, lambda t: commands.undo(t, 0, "takeback", t.seq))
            seq = table.seq
            await asyncio.sleep(hub.bot_delay * 2)  # the bot's delay is over: it looked again
            assert table.seq == seq and my_turn(table), "a bot moved after its turn was taken back"
            await hub.change(table.meta.id, lambda t, a=action: commands.act(t, 0, a, t.seq, now=hub.clock()))

    run(tmp_path / "t.db", body, caplog, bot_delay=0.15, round_pause=0.0)


def test_bots_do_not_wait_out_a_rounds_end_nobody_watches(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A table of bots alone with a round's pause of a minute, and nobody connected: its rounds follow one
    another at the bots' pace (a game of several rounds ends well within the deadline of 20 s)."""

    async def body(hub: Hub) -> None:
        table, _ = await hub.create("lama", 3, {}, {0: "random", 1: "random", 2: "random"}, seed=2)
        await until(lambda: table.over, "the end of the game")
        assert table.state.round >= 1  # type: ignore[attr-defined]  # a round's end was passed

    run(tmp_path / "t.db", body, caplog, bot_delay=0.0, round_pause=60.0)


def test_a_bot_that_never_searches_makes_its_first_move_without_the_workers() -> None:
    """The first move of a random or heuristic bot does not wait for the worker processes to start: it is decided
    in the server's process (the workers are not even started); a searching bot is sent to them."""
    pool = BotPool(workers=1)
    try:
        table, _ = create("lama", 2, {}, {0: "random", 1: "random"}, created=1.8e9, seed=3)
        assert pool.inline("lama", "random") and pool.inline("lama", "heuristic") and not pool.inline("lama", "easy")
        event = asyncio.run(pool.decide(table, bot_turn(table)))
        assert isinstance(event, Act) and pool._executor is None
    finally:
        pool.close()
