"""The hub: every live table, its connections and its bots. Each change is stored before anyone hears of it.

The order of a change is always: check it against the table (under the table's lock), append the event to the
store (committed), apply it in memory, then tell every connection and log one line. A crash between the append
and the telling loses nothing: the event is in the log, and clients that reconnect see it by its ``seq``.

The hub also keeps the server's bounds (:mod:`laro.server.limits`): how many tables wait for players, per address
and in all, how many tables only bots play, and how many connections a table has; it ends tables nobody joined in
time (an ``end`` event, ``expired``), keeps the lobby as an index ordered by creation (:mod:`laro.server.lobby`:
a page of it costs the same however many tables there are), and keeps recently read finished tables in memory,
so that reading one again does not replay its log.

This is the hub of one process alone on its store. Several processes on one PostgreSQL store extend it
(:class:`laro.server.sharing.SharedHub`) through a few hooks: who drives a table (:meth:`Hub.drives`), what
happens to a table made or restored here, and what another process stored meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from laro.core import JSONDict
from laro.server.bot_pool import BotPool
from laro.server.clocks import AWAY_AFTER, ROUND_PAUSE
from laro.server.limits import Held, ServerLimits, admit_table
from laro.server.lobby import Lobby
from laro.server.metrics import Metrics
from laro.server.store import (
    DamagedTable,
    SeqConflict,
    Store,
    StoreError,
    TableExists,
    TableFinished,
    TableSummary,
)
from laro.server.tables import Refusal, Table, rematch_id

__all__ = ["Hub", "Listener", "LiveTable"]

log = logging.getLogger("laro.server")
_ATTEMPTS = 3  # tries of a change whose seq another process took first (each after reading what it stored)


class Listener(Protocol):
    """A connection that wants to hear of a table's changes."""

    seat: int | None

    def notify(self, table: Table) -> None: ...


@dataclass(eq=False)
class LiveTable:
    table: Table
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    listeners: set[Listener] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None
    timer: asyncio.Task[None] | None = None  # wakes the table at its next deadline (a clock, a pause, an absence)
    address: str | None = None  # who made it (in memory only: after a restart, nobody)
    local: dict[int, int] = field(default_factory=dict)  # seat -> its connections to this process
    remote: dict[int, int] = field(default_factory=dict)  # seat -> its connections to the other processes
    moving: bool = False  # a bot of the table is deciding, or its move being stored

    def halt(self) -> None:
        """Stop the table's bots and clocks here (until they are scheduled again)."""
        for task in (self.bot_task, self.timer):
            if task is not None:
                task.cancel()
        self.bot_task = self.timer = None


def _lobby_key(table: Table) -> tuple[float, str]:
    return (table.meta.created, table.meta.id)


class Hub:
    """Tables in memory, backed by a store; bots play their seats after ``bot_delay`` seconds."""

    def __init__(
        self,
        store: Store,
        bot_delay: float = 0.6,
        limits: ServerLimits | None = None,
        bot_workers: int | None = None,
        clock: Callable[[], float] = time.time,
        round_pause: float = ROUND_PAUSE,
        away_after: float = AWAY_AFTER,
    ) -> None:
        self.round_pause = round_pause
        self.away_after = away_after
        self.metrics = Metrics(self.count_tables)
        self.store = store
        self.bot_delay = bot_delay
        self.limits = limits or ServerLimits()
        self.bots = BotPool(bot_workers)
        self.clock = clock
        self._live: dict[str, LiveTable] = {}
        self._lobby = Lobby()  # every table not over
        self._finished: OrderedDict[str, Table] = OrderedDict()  # recently read finished tables
        self._damaged: dict[str, str] = {}  # table id -> why it cannot be played
        self._rematch_lock = asyncio.Lock()  # one rematch made at a time here (the store settles it between processes)
        self._closing = False
        self._sweeper: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Rebuild every unfinished table from its log and let its bots play on; a table that cannot be rebuilt
        is reported in one line and left out, the others carry on."""
        for stored in await self.store.load_active():
            if isinstance(stored, DamagedTable):
                self._damaged[stored.table_id] = stored.reason
                log.error("table %s is damaged and left out: %s", stored.table_id, stored.reason)
                continue
            try:
                table = Table.restore(stored)
            except (Refusal, ValueError, KeyError, TypeError) as error:
                self._damaged[stored.meta.id] = str(error)
                log.error("table %s is damaged and left out: %s", stored.meta.id, error)
                continue
            if table.over:  # stopped between the last event and its result: finish the table now
                try:
                    await self.store.finish(table.meta.id, table.stored_result())
                except StoreError as error:
                    log.error("table %s cannot be finished: %s", stored.meta.id, error)
                continue
            self._add(LiveTable(table))
            log.info("table %s restored at seq %d (%s, %s)", table.meta.id, table.seq, table.game.name, table.status)
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())
        if any(live.table.bot_to_move() for live in self._live.values()):
            await self.bots.warm()
        now = self.clock()
        for live in list(self._live.values()):
            for seat in live.table.seats:  # nobody is connected yet
                seat.disconnected_since = now
            await self._restored(live)

    async def stop(self) -> None:
        self._closing = True
        if self._sweeper is not None:
            self._sweeper.cancel()
        for live in self._live.values():
            live.halt()
        self.bots.close()

    def count_tables(self) -> dict[str, int]:
        """How many tables in memory wait for players (``open``) and play (``running``)."""
        running = sum(1 for live in self._live.values() if live.table.status == "running")
        return {"open": len(self._lobby) - running, "running": running}

    def _add(self, live: LiveTable) -> None:
        if live.table.meta.id not in self._live:
            self._lobby.add(_lobby_key(live.table))
        self._live[live.table.meta.id] = live

    def _drop(self, table_id: str) -> None:
        """A finished table nobody watches leaves the memory (the store keeps it; the cache may hold it a while)."""
        live = self._live.pop(table_id, None)
        if live is not None:
            self._unlist(live.table)
            self._cache(live.table)

    def _unlist(self, table: Table) -> None:
        self._lobby.remove(_lobby_key(table))

    def _cache(self, table: Table) -> None:
        self._finished[table.meta.id] = table
        self._finished.move_to_end(table.meta.id)
        while len(self._finished) > self.limits.finished_cache:
            self._finished.popitem(last=False)

    # -- bounds ---------------------------------------------------------------------------------------------------

    def _admit(self, has_humans: bool, address: str | None) -> None:
        """Refuse (``busy``) a new table beyond the server's bounds (see :func:`laro.server.limits.admit_table`)."""
        lives = [live for live in self._live.values() if not live.table.over]
        held = [Held(live.table.started, live.table.has_humans, live.address) for live in lives]
        admit_table(self.limits, has_humans, address, held)

    def admit_listener(self, table_id: str) -> None:
        """Refuse (``busy``) a connection to a table that has ``sockets_per_table`` already."""
        live = self._live.get(table_id)
        if live is not None and len(live.listeners) >= self.limits.sockets_per_table:
            raise Refusal("busy", f"this table has {self.limits.sockets_per_table} connections, its most")

    async def sweep(self) -> list[str]:
        """End every table that waited for its players longer than ``open_table_ttl``; their ids."""
        now, ttl = self.clock(), self.limits.open_table_ttl
        ended = []
        for table_id, live in list(self._live.items()):
            if live.table.expired(now, ttl) and self.drives(table_id):
                try:
                    await self.change(table_id, lambda table: table.end_event("expired"))
                except (Refusal, StoreError) as error:
                    log.warning("table %s could not expire: %s", table_id, error)
                    continue
                ended.append(table_id)
        return ended

    async def _sweep_forever(self, every: float = 60.0) -> None:
        while not self._closing:
            await self.sweep()
            await asyncio.sleep(every)

    # -- tables -----------------------------------------------------------------------------------------------

    async def create(
        self,
        game: str,
        players: int,
        options: dict[str, Any],
        bots: dict[int, str],
        seed: int | None = None,
        address: str | None = None,
        clock: object = None,
        standin: str = "heuristic",
        takebacks: bool = False,
    ) -> tuple[Table, dict[int, str]]:
        """A new table (see :meth:`Table.create`), within the server's bounds."""
        table, tokens = Table.create(
            game,
            players,
            options,
            bots,
            seed=seed,
            created=self.clock(),
            clock=clock,
            standin=standin,
            round_pause=self.round_pause,
            takebacks=takebacks,
        )
        self._admit(table.has_humans, address)
        await self.store.create_table(table.meta)
        live = LiveTable(table, address=address)
        self._add(live)
        log.info("table %s created: %s, %d players, bots %s", table.meta.id, table.game.name, players, bots or "none")
        await self._made(table.meta.id)
        self._schedule_bot(live)
        return table, tokens

    async def rematch(self, table_id: str, token: str) -> Table:
        """The table where the players of a finished game play again, made by the first of them who asks (the
        others who ask get the same one, on any process, after a restart too). Every connection of the finished
        table is told where it is. Its id is derived from the finished table's (:func:`rematch_id`): the store
        keeps one table of that id, so of two processes making it at once, the second reads the first's."""
        live = self._live.get(table_id)
        table = live.table if live is not None else await self.get(table_id)
        if table is None:
            raise Refusal("no_table", f"no table {table_id!r}")
        async with self._rematch_lock:
            await self._find_rematch(table)
            if table.rematch is None:
                meta = table.rematch_meta(token)
                self._admit(True, None)
                try:
                    await self.store.create_table(meta)
                except TableExists:  # another process made it a moment ago: that one is the rematch
                    log.info("table %s: the players play again at table %s, made elsewhere", table_id, meta.id)
                else:
                    new = LiveTable(Table(meta))
                    self._add(new)
                    log.info("table %s: the players play again at table %s", table_id, meta.id)
                    await self._made(meta.id)
                    self._schedule_bot(new)
                table.rematch = meta.id
            else:
                table.seat_of_token(token)
        if live is not None:
            self._tell(live)
        found = await self.get(table.rematch)
        if found is None:
            raise Refusal("no_table", f"the rematch table {table.rematch!r} is gone")
        return found

    async def _find_rematch(self, table: Table) -> None:
        """Name a finished game's rematch in ``table.rematch`` if it has been made: here, by another process or
        before a restart (the store holds a table of the id :func:`rematch_id` derives). A store that cannot
        answer now leaves it unnamed (logged) until the next look."""
        if table.rematch is not None or not table.state.is_over:
            return
        wanted = rematch_id(table.meta.id)
        if wanted in self._live or wanted in self._finished:
            table.rematch = wanted
            return
        try:
            made = await self.store.load(wanted) is not None
        except StoreError as error:
            log.warning("table %s: cannot look for its rematch now: %s", table.meta.id, error)
            return
        if made:
            table.rematch = wanted

    async def get(self, table_id: str) -> Table | None:
        """A live table, or a finished one (from memory if read lately, else read back from the store); None if
        there is no such table. A table that cannot be read back raises :class:`Refusal` ``damaged``. A finished
        game read back names its rematch if one was made (see :meth:`rematch`)."""
        live = self._live.get(table_id)
        if live is not None:
            return live.table
        cached = self._finished.get(table_id)
        if cached is not None:
            self._finished.move_to_end(table_id)
            return cached
        if table_id in self._damaged:
            raise _damaged(table_id)
        try:
            stored = await self.store.load(table_id)
            if stored is None:
                return None
            if isinstance(stored, DamagedTable):
                raise Refusal("bad_state", stored.reason)
            table = Table.restore(stored)
            if not table.over and (adopted := self._adopt(table)) is not None:
                return adopted.table  # made by another process: served here too from now on
        except StoreError as error:
            log.warning("table %s cannot be read back: %s", table_id, error)
            raise Refusal("unavailable", "the server cannot read that table now; try again") from None
        except (Refusal, ValueError, KeyError, TypeError) as error:  # a damaged log, or played under other rules
            self._damaged[table_id] = str(error)
            log.error("table %s is damaged: %s", table_id, error)
            raise _damaged(table_id) from None
        await self._find_rematch(table)  # made before a restart (in memory since, it is named when made)
        self._cache(table)
        return table

    def listing(self, limit: int | None = None, before: str | None = None) -> JSONDict:
        """A page of the lobby: up to ``limit`` open and running tables, newest first, older than the cursor
        ``before`` (the ``next`` of the page before), with the cursor of the next page (None on the last)."""
        limit = self.limits.lobby_page if limit is None else max(1, min(limit, self.limits.lobby_page_max))
        ids, after = self._lobby.page(limit, before)
        found = (self._live[table_id].table for table_id in ids)
        tables = [table.summary() for table in found if not table.over]  # one that just ended leaves in a moment
        return {"tables": tables, "next": after, "total": len(self._lobby)}

    async def finished(self, limit: int = 20) -> list[TableSummary]:
        return [row for row in await self.store.list_tables(limit, include_finished=True) if row.finished]

    # -- changes ----------------------------------------------------------------------------------------------

    async def change(self, table_id: str, make_event: Callable[[Table], JSONDict]) -> Table:
        """Make an event from the table (may raise :class:`Refusal`), store it, apply it, tell everyone."""
        live = self._live.get(table_id)
        if live is None:
            found = await self.get(table_id)
            live = self._live.get(table_id)  # another process's new table is live here once read
        if live is None:
            if found is not None:  # finished, and kept by the store only
                found.check_open()  # refuses as the table's ending says: over, or expired
            raise Refusal("no_table", f"no open or running table {table_id!r}")
        started = time.perf_counter()
        async with live.lock:
            table = live.table
            for attempt in range(_ATTEMPTS):
                try:
                    event = make_event(table)
                except Refusal:
                    if attempt:  # the table has moved on since another process stored first
                        self._settle(live)
                    raise
                event["time"] = self.clock()  # when it happened: the summary's "updated", after a restart too
                try:
                    await self.store.append(table_id, event)
                    break
                except SeqConflict:
                    # another process stored first: read what it stored, and make the event again from there
                    if attempt + 1 == _ATTEMPTS or not await self._read_new(live):
                        raise Refusal("stale_seq", "someone else acted first: look again") from None
                except StoreError:
                    self.metrics.store_errors.inc()
                    raise
            table.apply(event)
            log.info("table %s #%d %s", table_id, table.seq, table.log[-1]["text"])
            if table.over:
                result = table.stored_result()
                with contextlib.suppress(TableFinished):  # by the process driving it, which read the end first
                    await self.store.finish(table_id, result)
                self._unlist(table)
                log.info("table %s %s: winners %s", table_id, table.status, result.get("winners"))
        self._tell(live)
        if event["type"] == "act":
            self.metrics.actions.inc()
        self.metrics.action_seconds.observe(time.perf_counter() - started)
        if table.over and not live.listeners:
            self._drop(table_id)  # finished and watched by nobody: the store keeps it
        self._schedule_bot(live)
        self._schedule_timer(live)
        if table.abandoned():
            await self._try(table_id, lambda t: t.end_event("abandoned"))
        return table

    async def _try(self, table_id: str, make_event: Callable[[Table], JSONDict]) -> None:
        """A change the server makes by itself: one refused (the table moved on) or not stored is logged."""
        try:
            await self.change(table_id, make_event)
        except (Refusal, StoreError) as error:
            log.warning("table %s: %s", table_id, error)

    def listen(self, table_id: str, listener: Listener) -> Table | None:
        live = self._live.get(table_id)
        if live is None:
            return None
        live.listeners.add(listener)
        if listener.seat is not None:
            self._connected(live, listener.seat, +1)
            self._tell(live)  # the others see who is connected
            self._schedule_timer(live)
        return live.table

    def unlisten(self, table_id: str, listener: Listener) -> None:
        live = self._live.get(table_id)
        if live is None or listener not in live.listeners:
            return
        live.listeners.discard(listener)
        if listener.seat is not None:
            self._connected(live, listener.seat, -1)
            self._tell(live)
            self._schedule_timer(live)
        if live.table.over and not live.listeners:
            self._drop(table_id)  # finished and watched by nobody: the store keeps it

    def _tell(self, live: LiveTable) -> None:
        for listener in list(live.listeners):
            listener.notify(live.table)

    def _connected(self, live: LiveTable, seat: int, change: int) -> None:
        live.local[seat] = live.local.get(seat, 0) + change
        self._count(live, seat)

    def _count(self, live: LiveTable, seat: int) -> None:
        """A seat's connections: to this process and to the others; absent since the last of them closed."""
        target = live.table.seats[seat]
        total = live.local.get(seat, 0) + live.remote.get(seat, 0)
        if total > 0:
            target.disconnected_since = None
        elif target.connections > 0:
            target.disconnected_since = self.clock()
        target.connections = total

    # -- hooks: one process alone on its store (laro.server.sharing is several) ----------------------------------

    def drives(self, table_id: str) -> bool:
        """True if this process plays the table's bots and runs its clocks: always, when it is the only one."""
        return True

    async def _made(self, table_id: str) -> None:
        """A table made here: this process drives it (it drives every table)."""

    async def _restored(self, live: LiveTable) -> None:
        """A table rebuilt at start: drive it on, the seat to act starting its turn afresh."""
        await self._drive(live, resume=True)

    def _adopt(self, table: Table) -> LiveTable | None:
        """Serve a table not over that is read back from the store but not in memory (None: there is none, since
        this process made or restored every table not over)."""
        return None

    async def _read_new(self, live: LiveTable) -> bool:
        """Apply the events other processes stored after the table's seq; True if there were (none here)."""
        return False

    async def _drive(self, live: LiveTable, resume: bool) -> None:
        """Play the table's bots and run its clocks from here on. ``resume``: the outage was nobody's fault, so the
        seat to act starts its turn afresh (as after a restart)."""
        table = live.table
        if resume and (table.clocks.turn_seat is not None or table.paused(self.clock())):
            await self._try(table.meta.id, lambda t: t.resume_event())
        self._schedule_bot(live)
        self._schedule_timer(live)

    def _settle(self, live: LiveTable) -> None:
        """After events read from the store: tell this process's connections, and carry on if this one drives."""
        table = live.table
        if self._live.get(table.meta.id) is not live:
            return  # found damaged
        self._tell(live)
        if table.over:
            self._unlist(table)
            if not live.listeners:
                self._drop(table.meta.id)
        self._schedule_bot(live)
        self._schedule_timer(live)

    # -- clocks -----------------------------------------------------------------------------------------------

    def _schedule_timer(self, live: LiveTable) -> None:
        """Wake the table at its next deadline: its running clock, the end of a round's pause, or the moment its
        disconnected player to act is taken for away."""
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        if self._closing or live.table.over or not self.drives(live.table.meta.id):
            return
        wake = next_wake(live.table, self.clock(), self.away_after)
        if wake is not None:
            live.timer = asyncio.get_running_loop().create_task(self._wake(live, wake))

    async def _wake(self, live: LiveTable, at: float) -> None:
        await asyncio.sleep(max(0.0, at - self.clock()))
        live.timer = None
        table, now = live.table, self.clock()
        table_id = table.meta.id
        if table.timeout_event(now) is not None:
            await self._try(table_id, lambda t: _required(t.timeout_event(self.clock())))
        elif (seat := absent_to_act(table, now, self.away_after)) is not None:
            await self._try(table_id, lambda t: t.away_event(seat, "disconnected"))
        else:  # a round's pause is over: everyone sees the next round, and bots may move
            self._tell(live)
            self._schedule_bot(live)
            self._schedule_timer(live)

    # -- bots -------------------------------------------------------------------------------------------------

    def _schedule_bot(self, live: LiveTable) -> None:
        if self._closing or live.table.bot_to_move() is None or not self.drives(live.table.meta.id):
            return
        if live.bot_task is None or live.bot_task.done():
            live.bot_task = asyncio.get_running_loop().create_task(self._bot_turns(live))

    async def _bot_turns(self, live: LiveTable) -> None:
        """Bots move one action at a time, with a pause so people can follow, until a human is to act."""
        table = live.table
        while not self._closing and table.bot_to_move() is not None and self.drives(table.meta.id):
            await asyncio.sleep(self.bot_delay)
            if table.paused(self.clock()):
                return  # the round's end is shown: the timer wakes the bots when it is over
            live.moving = True
            try:
                # a searching bot thinks for a while: in a worker process, so the server keeps serving
                event = await self.bots.decide(table, table.bot_turn())
                await self.change(table.meta.id, functools.partial(_unless_moved_on, event=event))
            except Refusal as error:  # the table changed under the bot: look again
                log.info("table %s bot move refused: %s", table.meta.id, error)
            except StoreError as error:
                log.error("table %s: the store refused a bot move: %s", table.meta.id, error)
                await asyncio.sleep(1.0)
            finally:
                live.moving = False


def next_wake(table: Table, now: float, away_after: float = AWAY_AFTER) -> float | None:
    """When the hub must look at ``table`` again by itself: its running clock's deadline, the end of a round's
    pause, or when its player to act, without a connection, is taken for away (None: nothing is due)."""
    times = [table.clocks.deadline()]
    if table.paused(now):
        times.append(table.clocks.paused_until)
    current = table.clocks.turn_seat
    if current is not None:
        since = table.seats[current].disconnected_since
        if since is not None:
            times.append(since + away_after)
    due = [at for at in times if at is not None]
    return min(due) if due else None


def absent_to_act(table: Table, now: float, away_after: float = AWAY_AFTER) -> int | None:
    """The seat to act, if its clock runs and it has had no connection for ``away_after`` seconds."""
    current = table.clocks.turn_seat
    if current is None:
        return None
    since = table.seats[current].disconnected_since
    return current if since is not None and now - since >= away_after else None


def _required(event: JSONDict | None) -> JSONDict:
    if event is None:
        raise Refusal("stale_seq", "the clock moved on")
    return event


def _damaged(table_id: str) -> Refusal:
    return Refusal("damaged", f"table {table_id} is damaged and cannot be played; the server's operator is told")


def _unless_moved_on(table: Table, event: JSONDict) -> JSONDict:
    """A bot's event made from an earlier look at ``table``, refused if the table has changed since."""
    if event["seq"] != table.seq + 1 or table.bot_to_move() is None:
        raise Refusal("stale_seq", "the table changed while the bot was thinking")
    return event
