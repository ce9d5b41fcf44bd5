"""The hub: every live table, its connections and its bots. Each change is stored before anyone hears of it.

The order of a change is always: check it against the table (under the table's lock), append the event to the
store (committed), apply it in memory, then tell every connection and log one line. A crash between the append
and the telling loses nothing: the event is in the log, and clients that reconnect see it by its ``seq``.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from laro.core import JSONDict
from laro.server.store import SeqConflict, Store, StoreError, TableSummary
from laro.server.tables import Refusal, Table

__all__ = ["Hub", "Listener"]

log = logging.getLogger("laro.server")


class Listener(Protocol):
    """A connection that wants to hear of a table's changes."""

    seat: int | None

    def notify(self, table: Table) -> None: ...


@dataclass(eq=False)
class _Live:
    table: Table
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    listeners: set[Listener] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None


class Hub:
    """Tables in memory, backed by a store; bots play their seats after ``bot_delay`` seconds."""

    def __init__(self, store: Store, bot_delay: float = 0.6) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self._live: dict[str, _Live] = {}
        self._rematches: dict[str, str] = {}  # finished table -> the table where its players play again
        self._rematch_lock = asyncio.Lock()
        self._closing = False

    async def start(self) -> None:
        """Rebuild every unfinished table from its log and let its bots play on."""
        for stored in await self.store.load_active():
            try:
                table = Table.restore(stored)
            except (Refusal, ValueError, KeyError) as error:
                log.error("table %s cannot be restored: %s", stored.meta.id, error)
                continue
            if table.state.is_over:  # stopped between the last action and its result: finish the table now
                try:
                    await self.store.finish(table.meta.id, table.result() or {})
                except StoreError as error:
                    log.error("table %s cannot be finished: %s", stored.meta.id, error)
                continue
            self._live[table.meta.id] = _Live(table)
            log.info("table %s restored at seq %d (%s, %s)", table.meta.id, table.seq, table.game.name, table.status)
            self._schedule_bot(self._live[table.meta.id])

    async def stop(self) -> None:
        self._closing = True
        for live in self._live.values():
            if live.bot_task is not None:
                live.bot_task.cancel()

    # -- tables -----------------------------------------------------------------------------------------------

    async def create(
        self, game: str, players: int, options: dict[str, Any], bots: dict[int, str], seed: int | None = None
    ) -> tuple[Table, dict[int, str]]:
        table, tokens = Table.create(game, players, options, bots, seed=seed)
        await self.store.create_table(table.meta)
        live = self._live[table.meta.id] = _Live(table)
        log.info("table %s created: %s, %d players, bots %s", table.meta.id, table.game.name, players, bots or "none")
        self._schedule_bot(live)
        return table, tokens

    async def rematch(self, table_id: str, token: str) -> Table:
        """The table where the players of a finished game play again, made by the first of them who asks (the
        others who ask get the same one). Every connection of the finished table is told where it is. The link
        lives in memory: after a restart a finished table no longer points to its rematch."""
        live = self._live.get(table_id)
        table = live.table if live is not None else await self.get(table_id)
        if table is None:
            raise Refusal("no_table", f"no table {table_id!r}")
        async with self._rematch_lock:
            new_id = self._rematches.get(table_id)
            if new_id is None:
                meta = table.rematch_meta(token)
                await self.store.create_table(meta)
                new = self._live[meta.id] = _Live(Table(meta))
                new_id = self._rematches[table_id] = meta.id
                log.info("table %s: the players play again at table %s", table_id, meta.id)
                self._schedule_bot(new)
            else:
                table.seat_of_token(token)
        table.rematch = new_id
        if live is not None:
            self._tell(live)
        found = await self.get(new_id)
        if found is None:
            raise Refusal("no_table", f"the rematch table {new_id!r} is gone")
        return found

    async def get(self, table_id: str) -> Table | None:
        """A live table, or a finished one read back from the store."""
        live = self._live.get(table_id)
        if live is not None:
            return live.table
        try:
            stored = await self.store.load(table_id)
            if stored is None:
                return None
            table = Table.restore(stored)
            table.rematch = self._rematches.get(table_id)
            return table
        except (StoreError, Refusal, ValueError, KeyError) as error:  # unreadable, or played under other rules
            log.warning("table %s cannot be read back: %s", table_id, error)
            return None

    def listing(self) -> list[JSONDict]:
        """Open and running tables, newest first."""
        tables = [live.table for live in self._live.values() if not live.table.state.is_over]
        return [table.summary() for table in sorted(tables, key=lambda t: -t.meta.created)]

    async def finished(self, limit: int = 20) -> list[TableSummary]:
        return [row for row in await self.store.list_tables(limit, include_finished=True) if row.finished]

    # -- changes ----------------------------------------------------------------------------------------------

    async def change(self, table_id: str, make_event: Callable[[Table], JSONDict]) -> Table:
        """Make an event from the table (may raise :class:`Refusal`), store it, apply it, tell everyone."""
        live = self._live.get(table_id)
        if live is None:
            if await self.get(table_id) is not None:  # finished, and kept by the store only
                raise Refusal("game_over", "the game is over")
            raise Refusal("no_table", f"no open or running table {table_id!r}")
        async with live.lock:
            table = live.table
            event = make_event(table)
            event["time"] = time.time()  # when it happened: the summary's "updated", after a restart too
            try:
                await self.store.append(table_id, event)
            except SeqConflict:
                raise Refusal("stale_seq", "someone else acted first: look again") from None
            table.apply(event)
            log.info("table %s #%d %s", table_id, table.seq, table.log[-1]["text"])
            if table.state.is_over:
                result = table.result() or {}
                await self.store.finish(table_id, result)
                log.info("table %s over: winners %s", table_id, result.get("winners"))
        self._tell(live)
        if table.state.is_over and not live.listeners:
            self._live.pop(table_id, None)  # finished and watched by nobody: the store keeps it
        self._schedule_bot(live)
        return table

    def listen(self, table_id: str, listener: Listener) -> Table | None:
        live = self._live.get(table_id)
        if live is None:
            return None
        live.listeners.add(listener)
        if listener.seat is not None:
            live.table.seats[listener.seat].connections += 1
            self._tell(live)  # the others see who is connected
        return live.table

    def unlisten(self, table_id: str, listener: Listener) -> None:
        live = self._live.get(table_id)
        if live is None or listener not in live.listeners:
            return
        live.listeners.discard(listener)
        if listener.seat is not None:
            live.table.seats[listener.seat].connections -= 1
            self._tell(live)
        if live.table.state.is_over and not live.listeners:
            del self._live[table_id]  # finished and watched by nobody: the store keeps it

    def _tell(self, live: _Live) -> None:
        for listener in list(live.listeners):
            listener.notify(live.table)

    # -- bots -------------------------------------------------------------------------------------------------

    def _schedule_bot(self, live: _Live) -> None:
        if self._closing or live.table.bot_to_move() is None:
            return
        if live.bot_task is None or live.bot_task.done():
            live.bot_task = asyncio.get_running_loop().create_task(self._bot_turns(live))

    async def _bot_turns(self, live: _Live) -> None:
        """Bots move one action at a time, with a pause so people can follow, until a human is to act."""
        table = live.table
        while not self._closing and table.bot_to_move() is not None:
            await asyncio.sleep(self.bot_delay)
            try:
                # a searching bot thinks for a while: in a worker thread, so the server keeps serving
                event = await asyncio.to_thread(table.make_bot_event)
                await self.change(table.meta.id, functools.partial(_unless_moved_on, event=event))
            except Refusal as error:  # the table changed under the bot: look again
                log.info("table %s bot move refused: %s", table.meta.id, error)
            except StoreError as error:
                log.error("table %s: the store refused a bot move: %s", table.meta.id, error)
                await asyncio.sleep(1.0)


def _unless_moved_on(table: Table, event: JSONDict) -> JSONDict:
    """A bot's event made from an earlier look at ``table``, refused if the table has changed since."""
    if event["seq"] != table.seq + 1 or table.bot_to_move() is None:
        raise Refusal("stale_seq", "the table changed while the bot was thinking")
    return event
