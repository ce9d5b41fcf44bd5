"""An opponent cannot cut a player's clock: a seat is handed to its stand-in by others only once its player has
been gone for the hand-over grace, and a player who comes back keeps the bank they had, less the time they spent.
In-process, on a real SQLite store, with the hub's clock in the test's hands (no sleeping)."""

from __future__ import annotations

import asyncio
import functools
import time
from pathlib import Path

import pytest

from laro.server.errors import Refusal
from laro.server.hub import Hub
from laro.server.store import SQLiteStore
from laro.server.table import Table, commands, views

T0 = 1_800_000_000.0
HANDOVER_AFTER = 60.0  # seconds: laro serve's default grace before others may hand a seat over


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        return self.now


class Page:
    """A player's open page: a listener of the table, for its seat."""

    def __init__(self, seat: int) -> None:
        self.seat: int | None = seat

    def notify(self, table: Table) -> None:
        pass


@pytest.mark.parametrize("profile,bank", [("normal", 180.0), ("relaxed", 600.0)])
def test_an_opponent_cannot_cut_a_players_clock(tmp_path: Path, profile: str, bank: float) -> None:
    """A player thinks 20 s, their page reloads, and the opponent asks 9 ms later to hand the seat over: refused
    (``too_soon``), and refused once they are back. Gone 61 s, the seat is handed over and the stand-in plays;
    back, the player has their bank less the 81 s they were charged (before: 30 s of 180, or of 600)."""

    async def main() -> None:
        clock = Clock()
        store = SQLiteStore(tmp_path / f"{profile}.db")
        await store.open()
        hub = Hub(store, bot_delay=0.0, bot_workers=0, clock=clock)
        await hub.start()
        try:
            table, tokens = await hub.create("lama", 2, {}, {}, seed=3, clock=profile)
            for seat, token in tokens.items():
                await hub.change(table.meta.id, functools.partial(commands.join, seat=seat, token=token, name="P"))
            pages = {seat: Page(seat) for seat in tokens}
            for page in pages.values():
                hub.listen(table.meta.id, page)
            victim = table.state.current_player
            assert victim is not None
            other = 1 - victim

            async def hand_over() -> None:
                await hub.change(table.meta.id, lambda t: commands.hand_over(t, victim, tokens[other], clock()))

            clock.now += 20.0
            hub.unlisten(table.meta.id, pages[victim])  # the page reloads
            clock.now += 0.009
            with pytest.raises(Refusal) as refused:
                await hand_over()
            assert refused.value.code == "too_soon"
            gone_at = T0 + 20.0
            assert views.summary(table)["seats"][victim]["handover_at"] == pytest.approx(gone_at + HANDOVER_AFTER)
            pages[victim] = Page(victim)
            hub.listen(table.meta.id, pages[victim])  # back
            with pytest.raises(Refusal):
                await hand_over()
            hub.unlisten(table.meta.id, pages[victim])  # a train in a tunnel, for good this time
            clock.now += HANDOVER_AFTER + 1.0
            await hand_over()
            deadline = time.monotonic() + 20.0
            while table.state.current_player == victim:  # the stand-in plays the rest of the turn
                assert time.monotonic() < deadline, "the stand-in never played"
                await asyncio.sleep(0.01)
            await hub.change(table.meta.id, lambda t: commands.join(t, victim, tokens[victim], f"P{victim}"))
            spent = 20.0 + 0.009 + HANDOVER_AFTER + 1.0
            assert table.clocks.banks[victim] == pytest.approx(bank - spent, abs=0.01)
        finally:
            await hub.stop()
            await store.close()

    asyncio.run(main())
