"""The hub: every live table, its connections and its bots. Each change is stored before anyone hears of it.

The order of a change is always: check it against the table (under the table's lock), append the event to the
store (committed), apply it in memory, then tell every connection and log one line. A crash between the append
and the telling loses nothing: the event is in the log, and clients that reconnect see it by its ``seq``.

The hub also keeps the server's bounds (:mod:`laro.server.limits`): how many tables wait for players, per address
and in all, how many tables only bots play, and how many connections a table has; it ends tables nobody joined in
time (an ``end`` event, ``expired``), keeps the lobby as an index ordered by creation (:mod:`laro.server.lobby`:
a page of it costs the same however many tables there are), and keeps recently read finished tables in memory,
so that reading one again does not replay its log.

The other processes serving the same store, if any, are a part the hub is given (:mod:`laro.server.peers`):
they say who drives a table (plays its bots, runs its clocks: :meth:`Hub.drives`), take the driving of a table
made here, hear of the connections here, and give what they stored meanwhile. Alone on its store, a process
drives every table and nothing changes in the store but through it. With others (:mod:`laro.server.cluster`),
every process keeps every table that is not over in memory, whichever process made it, and serves its clients:
what another stored is read, applied and told to this process's connections (:meth:`Hub.follow`); an event whose
seq another process took first is made again after reading what that process stored; a table restored at start
waits for its lease (:meth:`Hub.take_over`), and one whose lease went elsewhere stops here (:meth:`Hub.let_go`);
the connections each seat has to the other processes count as its own (:meth:`Hub.set_presence`), so no process
takes a player connected elsewhere for away.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from laro.core import JSONDict
from laro.server.admission import admit_spectator
from laro.server.bot_pool import BotPool
from laro.server.clocks import AWAY_AFTER, HANDOVER_AFTER, ROUND_PAUSE
from laro.server.errors import Code, Damaged, Refusal
from laro.server.limits import Held, ServerLimits, admit_table
from laro.server.lobby import Lobby
from laro.server.metrics import Metrics
from laro.server.peers import Alone, Peers
from laro.server.store import (
    DamagedTable,
    SeqConflict,
    Store,
    StoreError,
    TableExists,
    TableFinished,
    TableSummary,
)
from laro.server.table import Event, Table, bot_turn, commands, create, rematch_id, rematch_meta, views
from laro.server.table.events import Act, Chat
from laro.server.table.seats import seat_of_token
from laro.server.tasks import spawn

__all__ = ["Hub", "Listener", "LiveTable"]

log = logging.getLogger("laro.server")
REBUILDS = 2  # tables rebuilt from their stored log at once (each in a thread)
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
    """Tables in memory, backed by a store; bots play their seats after ``bot_delay`` seconds. ``peers``: the
    other processes serving the store (by default none: see :func:`laro.server.peers.peers_of`)."""

    on_told: Callable[[LiveTable], None] | None = None  # hears each state told (laro.server.notifier: push)

    def __init__(
        self,
        store: Store,
        bot_delay: float = 0.6,
        limits: ServerLimits | None = None,
        bot_workers: int | None = None,
        clock: Callable[[], float] = time.time,
        round_pause: float = ROUND_PAUSE,
        away_after: float = AWAY_AFTER,
        handover_after: float = HANDOVER_AFTER,
        peers: Peers | None = None,
    ) -> None:
        self.peers: Peers = peers or Alone()
        self.round_pause = round_pause
        self.away_after = away_after
        self.handover_after = handover_after
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
        self._reading: dict[str, asyncio.Task[Table | None]] = {}  # tables being read back from the store
        self._rebuilds = asyncio.Semaphore(REBUILDS)
        self._rematch_lock = asyncio.Lock()  # one rematch made at a time here (the store settles it between processes)
        self._closing = False
        self._sweeper: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Rebuild every unfinished table from its log and let its bots play on (those this process drives: the
        others when their lease comes here); a table that cannot be rebuilt is reported in one line and left out,
        the others carry on. Then the peers start."""
        for stored in await self.store.load_active():
            if isinstance(stored, DamagedTable):
                self._damaged[stored.table_id] = stored.reason
                log.error("table %s is damaged and left out: %s", stored.table_id, stored.reason)
                continue
            try:
                table = Table.restore(stored)
            except Damaged as error:
                self._damaged[stored.meta.id] = str(error)
                log.error("table %s is damaged and left out: %s", stored.meta.id, error)
                continue
            if table.over:  # stopped between the last event and its result: finish the table now
                try:
                    await self.store.finish(table.meta.id, views.stored_result(table))
                except StoreError as error:
                    log.error("table %s cannot be finished: %s", stored.meta.id, error)
                continue
            self._add(LiveTable(table))
            log.info("table %s restored at seq %d (%s, %s)", table.meta.id, table.seq, table.game.name, table.status)
        self._sweeper = spawn(self._sweep_forever(), "sweeper")
        if any(live.table.bot_to_move() for live in self._live.values()):
            await self.bots.warm()
        now = self.clock()
        for live in list(self._live.values()):
            for seat in live.table.seats:  # nobody is connected yet
                seat.disconnected_since = now
            if self.drives(live.table.meta.id):
                await self._drive(live, resume=True)  # the seat to act starts its turn afresh
        await self.peers.start(self)

    async def stop(self) -> None:
        """Hand the tables driven here over to the peers, and stop every bot and clock."""
        await self.peers.stop()
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
        live.table.away_after = self.away_after
        live.table.handover_after = self.handover_after
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

    def admit_listener(self, table_id: str, seat: int | None) -> None:
        """Refuse (``busy``) a spectator of a table that has ``sockets_per_table`` of them already; a seat (known by
        its token) always gets in."""
        live = self._live.get(table_id)
        if live is not None and seat is None:
            admit_spectator(sum(listener.seat is None for listener in live.listeners), self.limits)

    async def sweep(self) -> list[str]:
        """End every table that waited for its players longer than ``open_table_ttl`` (``expired``), and every
        table only bots have played for ``bot_table_seconds`` since it was made (``time_up``); their ids."""
        now, ttl = self.clock(), self.limits.open_table_ttl
        ended = []
        for table_id, live in list(self._live.items()):
            table = live.table
            if table.expired(now, ttl):
                reason = "expired"
            elif table.bots_alone(now, self.limits.bot_table_seconds):
                reason = "time_up"
            else:
                continue
            if self.drives(table_id):
                try:
                    await self.change(table_id, functools.partial(commands.end, reason=reason))
                except (Refusal, StoreError) as error:
                    log.warning("table %s could not end (%s): %s", table_id, reason, error)
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
        standin: str | None = None,
        takebacks: bool = False,
        spectator_chat: bool = False,
    ) -> tuple[Table, dict[int, str]]:
        """A new table (see :func:`laro.server.table.create`), within the server's bounds."""
        table, tokens = create(
            game,
            players,
            options,
            bots,
            created=self.clock(),
            seed=seed,
            clock=clock,
            standin=standin,
            round_pause=self.round_pause,
            takebacks=takebacks,
            spectator_chat=spectator_chat,
        )
        self._admit(table.has_humans, address)
        await self.store.create_table(table.meta)
        live = LiveTable(table, address=address)
        self._add(live)
        log.info("table %s created: %s, %d players, bots %s", table.meta.id, table.game.name, players, bots or "none")
        await self._made(table.meta.id)
        self.bots.prepare(seat.bot or seat.standin for seat in table.seats)
        self._schedule_bot(live)
        return table, tokens

    async def rematch(
        self, table_id: str, token: str, address: str | None = None, making: Callable[[], None] | None = None
    ) -> Table:
        """The table where the players of a finished game play again, made by the first of them who asks (the
        others who ask get the same one, on any process, after a restart too). Every connection of the finished
        table is told where it is. Its id is derived from the finished table's (:func:`rematch_id`): the store
        keeps one table of that id, so of two processes making it at once, the second reads the first's. A
        rematch made is a new table of ``address``'s: ``making()`` is asked first (it may refuse, as a rate
        limit does), and it counts among the address's tables."""
        live = self._live.get(table_id)
        table = live.table if live is not None else await self.get(table_id)
        if table is None:
            raise Refusal(Code.NO_TABLE, f"no table {table_id!r}")
        async with self._rematch_lock:
            await self._find_rematch(table)
            if table.rematch is None:
                meta = rematch_meta(table, token, self.clock())
                self._admit(True, address)
                if making is not None:
                    making()
                try:
                    await self.store.create_table(meta)
                except TableExists:  # another process made it a moment ago: that one is the rematch
                    log.info("table %s: the players play again at table %s, made elsewhere", table_id, meta.id)
                else:
                    new = LiveTable(Table(meta), address=address)
                    self._add(new)
                    log.info("table %s: the players play again at table %s", table_id, meta.id)
                    await self._made(meta.id)
                    self._schedule_bot(new)
                table.rematch = meta.id
            else:
                seat_of_token(table.seats, token)
        if live is not None:
            self._tell(live)
        found = await self.get(table.rematch)
        if found is None:
            raise Refusal(Code.NO_TABLE, f"the rematch table {table.rematch!r} is gone")
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
            return await self._rematch_elsewhere(live.table)
        cached = self._finished.get(table_id)
        if cached is not None:
            self._finished.move_to_end(table_id)
            return await self._rematch_elsewhere(cached)
        if table_id in self._damaged:
            raise _damaged(table_id)
        try:
            found = await self._read_back(table_id)
            if found is None:
                return None
            table = found
            live = self._live.get(table_id)
            if live is not None:  # made live here while it was read back
                return live.table
            if not table.over:
                return self._adopt(table).table  # made by another process: served here too from now on
        except StoreError as error:
            log.warning("table %s cannot be read back: %s", table_id, error)
            raise Refusal(Code.UNAVAILABLE, "the server cannot read that table now; try again") from None
        except Damaged as error:  # a damaged log, or played under other rules
            self._damaged[table_id] = str(error)
            log.error("table %s is damaged: %s", table_id, error)
            raise _damaged(table_id) from None
        await self._find_rematch(table)  # made before a restart (in memory since, it is named when made)
        self._cache(table)
        return table

    async def _rematch_elsewhere(self, table: Table) -> Table:
        """``table``, naming its rematch if another process may have made it since this one looked."""
        if not self.peers.alone:
            await self._find_rematch(table)
        return table

    async def _read_back(self, table_id: str) -> Table | None:
        """The table as the store holds it, rebuilt from its log in a thread, not in the event loop (a long table
        takes a second or more), at most ``REBUILDS`` at once; those who ask for a table being read back share
        its reading. None if there is no such table."""
        reading = self._reading.get(table_id)
        if reading is None:
            reading = self._reading[table_id] = asyncio.get_running_loop().create_task(self._rebuild(table_id))
            reading.add_done_callback(lambda done: self._read(table_id, done))
        return await asyncio.shield(reading)

    def _read(self, table_id: str, reading: asyncio.Task[Table | None]) -> None:
        self._reading.pop(table_id, None)
        if not reading.cancelled():
            reading.exception()  # whoever asked has it (one who stopped waiting needs it not)

    async def _rebuild(self, table_id: str) -> Table | None:
        stored = await self.store.load(table_id)
        if stored is None:
            return None
        if isinstance(stored, DamagedTable):
            raise Damaged(stored.reason)
        async with self._rebuilds:
            return await asyncio.to_thread(Table.restore, stored)

    def listing(self, limit: int | None = None, before: str | None = None) -> JSONDict:
        """A page of the lobby: up to ``limit`` open and running tables, newest first, older than the cursor
        ``before`` (the ``next`` of the page before), with the cursor of the next page (None on the last)."""
        limit = self.limits.lobby_page if limit is None else max(1, min(limit, self.limits.lobby_page_max))
        ids, after = self._lobby.page(limit, before)
        found = (self._live[table_id].table for table_id in ids)
        tables = [views.summary(table) for table in found if not table.over]  # one that just ended leaves in a moment
        return {"tables": tables, "next": after, "total": len(self._lobby)}

    async def finished(self, limit: int = 20) -> list[TableSummary]:
        return [row for row in await self.store.list_tables(limit, include_finished=True) if row.finished]

    # -- changes ----------------------------------------------------------------------------------------------

    async def change(self, table_id: str, make_event: Callable[[Table], Event]) -> Table:
        """Make an event from the table (may raise :class:`Refusal`), store it, apply it, tell everyone."""
        live = self._live.get(table_id)
        if live is None:
            found = await self.get(table_id)
            live = self._live.get(table_id)  # another process's new table is live here once read
        if live is None:
            if found is not None:  # finished, and kept by the store only
                commands.check_open(found)  # refuses as the table's ending says: over, or expired
            raise Refusal(Code.NO_TABLE, f"no open or running table {table_id!r}")
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
                now = self.clock()  # when it happened: stored with it, the summary's "updated" after a restart too
                try:
                    await self.store.append(table_id, {**event.to_json(), "time": now})
                    break
                except SeqConflict:
                    # another process stored first: read what it stored, and make the event again from there
                    if attempt + 1 == _ATTEMPTS or not await self._read_new(live):
                        raise Refusal(Code.STALE_SEQ, "someone else acted first: look again") from None
                except StoreError:
                    self.metrics.store_errors.inc()
                    raise
            table.apply(event, now)
            said = f"a line of chat by seat {event.seat}" if isinstance(event, Chat) else table.log[-1]["text"]
            log.info("table %s #%d %s", table_id, table.seq, said)  # what was said stays out of the server's log
            if table.over:
                result = views.stored_result(table)
                with contextlib.suppress(TableFinished):  # by the process driving it, which read the end first
                    await self.store.finish(table_id, result)
                self._unlist(table)
                log.info("table %s %s: winners %s", table_id, table.status, result.get("winners"))
        self._tell(live)
        if isinstance(event, Act):
            self.metrics.actions.inc()
        self.metrics.action_seconds.observe(time.perf_counter() - started)
        if table.over and not live.listeners:
            self._drop(table_id)  # finished and watched by nobody: the store keeps it
        self._schedule_bot(live)
        self._schedule_timer(live)
        if table.abandoned():
            await self._try(table_id, lambda t: commands.end(t, "abandoned"))
        elif table.seq - table.chats >= self.limits.table_events and not table.over:
            await self._try(table_id, lambda t: commands.end(t, "too_long"))
        return table

    async def _try(self, table_id: str, make_event: Callable[[Table], Event]) -> None:
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
        self._schedule_bot(live)  # the last one gone during a round's end: the bots need not wait for it
        if live.table.over and not live.listeners:
            self._drop(table_id)  # finished and watched by nobody: the store keeps it

    def _tell(self, live: LiveTable) -> None:
        for listener in list(live.listeners):
            listener.notify(live.table)
        if self.on_told is not None:
            self.on_told(live)

    def _connected(self, live: LiveTable, seat: int, change: int) -> None:
        live.local[seat] = live.local.get(seat, 0) + change
        self._count(live, seat)
        self.peers.connected(live.table.meta.id, seat, live.local[seat])

    def _count(self, live: LiveTable, seat: int) -> None:
        """A seat's connections: to this process and to the others; absent since the last of them closed."""
        target = live.table.seats[seat]
        total = live.local.get(seat, 0) + live.remote.get(seat, 0)
        if total > 0:
            target.disconnected_since = None
        elif target.connections > 0:
            target.disconnected_since = self.clock()
        target.connections = total

    # -- driving, and what the other processes change (called by the peers) -------------------------------------

    def drives(self, table_id: str) -> bool:
        """True if this process plays the table's bots and runs its clocks (always, when it is alone)."""
        return self.peers.drives(table_id)

    async def _made(self, table_id: str) -> None:
        try:
            await self.peers.made(table_id)
        except StoreError as error:  # the peers take it up later (at their heartbeat)
            log.warning("table %s: cannot take its lease now: %s", table_id, error)

    def _adopt(self, table: Table) -> LiveTable:
        """Serve a table another process made and this one read back (nobody is connected to it here yet)."""
        live = LiveTable(table)
        now = self.clock()
        for seat in table.seats:
            seat.disconnected_since = now
        self._add(live)
        log.info("table %s followed at seq %d (%s, %s)", table.meta.id, table.seq, table.game.name, table.status)
        self._tell_rematch(table.meta.id)
        return live

    def _tell_rematch(self, table_id: str) -> None:
        """If ``table_id`` is the rematch of a finished game watched here, its connections are told of it now."""
        for live in list(self._live.values()):
            finished = live.table
            if finished.rematch is None and finished.state.is_over and rematch_id(finished.meta.id) == table_id:
                finished.rematch = table_id
                self._tell(live)

    async def _read_new(self, live: LiveTable) -> bool:
        """Apply the events other processes stored after the table's seq (under its lock); True if there were."""
        table = live.table
        events = await self.peers.events_after(table.meta.id, table.seq)
        if not events:
            return False
        try:
            table.apply_stored(events)
        except Damaged as error:
            self._damaged[table.meta.id] = str(error)
            log.error("table %s is damaged: %s", table.meta.id, error)
            self._live.pop(table.meta.id, None)
            self._unlist(table)
            return False
        return True

    async def _drive(self, live: LiveTable, resume: bool) -> None:
        """Play the table's bots and run its clocks from here on. ``resume``: the outage was nobody's fault, so the
        seat to act starts its turn afresh (as after a restart)."""
        table = live.table
        if resume and (table.clocks.turn_seat is not None or table.paused(self.clock())):
            await self._try(table.meta.id, commands.resume)
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

    def table_ids(self) -> list[str]:
        """The tables this process could drive: those in memory and not over."""
        return [table_id for table_id, live in self._live.items() if not live.table.over]

    def seq_of(self, table_id: str) -> int | None:
        live = self._live.get(table_id)
        return None if live is None else live.table.seq

    async def follow(self, table_id: str, seq: int | None = None) -> None:
        """Catch up with a table another process changed (up to ``seq``, if known): its new events are read from
        the store, applied and told to this process's connections. A table not known here is read whole."""
        live = self._live.get(table_id)
        if live is None:
            if table_id not in self._damaged and table_id not in self._finished:
                try:
                    await self.get(table_id)
                except Refusal as error:
                    log.warning("table %s cannot be followed: %s", table_id, error)
            return
        if seq is not None and seq <= live.table.seq:
            return  # stored here, or caught up already
        async with live.lock:
            changed = await self._read_new(live)
            if changed and live.table.over and self.drives(table_id):
                await self._finish(live.table)  # in case the process that stored the end died before doing it
        if changed:
            self._settle(live)

    async def _finish(self, table: Table) -> None:
        try:
            await self.store.finish(table.meta.id, views.stored_result(table))
        except TableFinished:
            pass  # as it should be: the process that stored the last event finished it
        except StoreError as error:
            log.warning("table %s cannot be finished: %s", table.meta.id, error)

    def players_online(self) -> int:
        """How many seats of the tables not over have a connection now, to this process or another."""
        return sum(
            1
            for live in self._live.values()
            if not live.table.over
            for seat in live.table.seats
            if seat.connections > 0
        )

    def set_presence(self, table_id: str, remote: dict[int, int]) -> None:
        """How many connections each seat of the table has to the other processes."""
        live = self._live.get(table_id)
        if live is None or live.remote == remote:
            return
        seats = set(live.remote) | set(remote)
        live.remote = dict(remote)
        for seat in seats:
            if 0 <= seat < len(live.table.seats):
                self._count(live, seat)
        self._tell(live)
        self._schedule_timer(live)
        self._schedule_bot(live)

    async def take_over(self, table_id: str, resume: bool) -> None:
        """This process drives the table now: catch up and drive it. ``resume``: its last driver died, so the
        seat to act starts its turn afresh (as after a restart)."""
        await self.follow(table_id)
        live = self._live.get(table_id)
        if live is not None and not live.table.over:
            await self._drive(live, resume)

    def quiet(self, table_id: str) -> bool:
        """True if nothing is under way for the table here (no bot deciding or moving, no change being stored):
        another process may take its driving over now without anything left half-done."""
        live = self._live.get(table_id)
        return live is None or not (live.moving or live.lock.locked())

    def let_go(self, table_id: str) -> None:
        """Another process drives the table now: stop its bots and clocks here."""
        live = self._live.get(table_id)
        if live is not None:
            live.halt()

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
            live.timer = spawn(self._wake(live, wake), f"clock of table {live.table.meta.id}")

    async def _wake(self, live: LiveTable, at: float) -> None:
        await asyncio.sleep(max(0.0, at - self.clock()))
        live.timer = None
        table, now = live.table, self.clock()
        table_id = table.meta.id
        if commands.timeout(table, now) is not None:
            await self._try(table_id, lambda t: _required(commands.timeout(t, self.clock())))
        elif (seat := absent_to_act(table, now, self.away_after)) is not None:
            await self._try(table_id, lambda t: commands.away(t, seat, "disconnected", self.clock()))
        else:  # a round's pause is over: everyone sees the next round, and bots may move
            self._tell(live)
            self._schedule_bot(live)
            self._schedule_timer(live)

    # -- bots -------------------------------------------------------------------------------------------------

    def _schedule_bot(self, live: LiveTable) -> None:
        if self._closing or live.table.bot_to_move() is None or not self.drives(live.table.meta.id):
            return
        if live.bot_task is None or live.bot_task.done():
            live.bot_task = spawn(self._bot_turns(live), f"bots of table {live.table.meta.id}")

    def _bot_may_move(self, live: LiveTable) -> bool:
        """A bot is to move at ``live`` now, and this process moves it. A round's end shown to the people at the
        table holds the bots (the timer wakes them when it is over); at a table nobody is connected to, nobody
        looks at it: the bots play on at once."""
        table = live.table
        if self._closing or table.bot_to_move() is None or not self.drives(table.meta.id):
            return False
        return not (table.paused(self.clock()) and self.watched(live))

    def watched(self, live: LiveTable) -> bool:
        """Someone is connected to the table: a spectator here, or a seat's player on any process."""
        return bool(live.listeners) or any(seat.connections > 0 for seat in live.table.seats)

    async def _bot_turns(self, live: LiveTable) -> None:
        """Bots move one action at a time, with a pause so people can follow, until a human is to act. Whatever
        happened during the pause (the seat taken back, a takeback, a round's end) is looked at again after it."""
        table = live.table
        while self._bot_may_move(live):
            await asyncio.sleep(self.bot_delay)
            if not self._bot_may_move(live):
                return
            live.moving = True
            try:
                # a searching bot thinks for a while: in a worker process, so the server keeps serving
                event = await self.bots.decide(table, bot_turn(table), live.address)
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
        away = table.clocks.spec.gone_limit(away_after)
        if since is not None and away < math.inf:
            times.append(since + away)
    due = [at for at in times if at is not None]
    return min(due) if due else None


def absent_to_act(table: Table, now: float, away_after: float = AWAY_AFTER) -> int | None:
    """The seat to act, if its clock runs and it has had no connection for ``away_after`` seconds."""
    current = table.clocks.turn_seat
    if current is None:
        return None
    since = table.seats[current].disconnected_since
    return current if since is not None and now - since >= table.clocks.spec.gone_limit(away_after) else None


def _required(event: Event | None) -> Event:
    if event is None:
        raise Refusal(Code.STALE_SEQ, "the clock moved on")
    return event


def _damaged(table_id: str) -> Refusal:
    return Refusal(Code.DAMAGED, f"table {table_id} is damaged and cannot be played; the server's operator is told")


def _unless_moved_on(table: Table, event: Event) -> Event:
    """A bot's event made from an earlier look at ``table``, refused if the table has changed since (but for
    chat, which changes nothing the bot looked at: then the event follows the chat)."""
    if not table.moved < event.seq <= table.seq + 1 or table.bot_to_move() is None:
        raise Refusal(Code.STALE_SEQ, "the table changed while the bot was thinking")
    return replace(event, seq=table.seq + 1)
