"""The hub of a process that shares its store with other server processes (see :mod:`laro.server.cluster`).

Every process keeps every table that is not over in memory, whichever process made it, and serves its clients.
What one process stores, the others hear of (:meth:`SharedHub.follow`: the table's new events are read from the
store, applied and told to this process's connections). One process at a time drives a table — its bots, its
clocks, its expiry — the one its :class:`Peers` say (:meth:`SharedHub.drives`): a table restored at start waits
for its lease (:meth:`SharedHub.take_over`), and one whose lease went elsewhere stops here
(:meth:`SharedHub.let_go`). An event whose seq another process took first is made again after reading what that
process stored. Who is connected to which seat is shared too: the connections each seat has to the other
processes (:meth:`SharedHub.set_presence`) count as its own, so no process takes a player connected elsewhere
for away. A rematch made by another process is told to the connections of its finished table here as soon as
the new table is followed.
"""

from __future__ import annotations

import logging
from typing import Protocol

from laro.core import JSONDict
from laro.server.hub import Hub, LiveTable
from laro.server.store import StoreError, TableFinished
from laro.server.tables import Refusal, Table, rematch_id

__all__ = ["Peers", "SharedHub"]

log = logging.getLogger("laro.server")


class Peers(Protocol):
    """The other server processes on the same store (see :mod:`laro.server.cluster`): who drives which table,
    what they stored, and who is connected to them."""

    def drives(self, table_id: str) -> bool:
        """True while this process holds the table's lease: it plays the table's bots and runs its clocks."""

    async def claim(self, table_id: str) -> None:
        """Drive a table made here, at once if this process drives fewer than its fair share of the tables."""

    def present(self, table_id: str, seat: int, connections: int) -> None:
        """This process now holds ``connections`` connections of the seat (the others are told)."""

    async def events_after(self, table_id: str, seq: int) -> list[JSONDict]:
        """The table's stored events after ``seq``."""


class SharedHub(Hub):
    """A :class:`Hub` among other processes on its store; ``peers`` (set before :meth:`start`) are the others."""

    peers: Peers | None = None

    def _others(self) -> Peers:
        if self.peers is None:
            raise RuntimeError("the hub shares its store, but nobody told it with whom (set peers before start)")
        return self.peers

    # -- the hub's hooks --------------------------------------------------------------------------------------

    def drives(self, table_id: str) -> bool:
        return self.peers is not None and self.peers.drives(table_id)

    async def _made(self, table_id: str) -> None:
        try:
            await self._others().claim(table_id)
        except StoreError as error:  # the heartbeat claims it later
            log.warning("table %s: cannot take its lease now: %s", table_id, error)

    async def _restored(self, live: LiveTable) -> None:
        """The process that wins the table's lease drives it (see :meth:`take_over`)."""

    def _adopt(self, table: Table) -> LiveTable | None:
        """Serve a table another process made (nobody is connected to it here yet)."""
        if table.meta.id in self._live:
            return None
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
        events = await self._others().events_after(table.meta.id, table.seq)
        try:
            for event in events:
                table.apply(event)
        except (Refusal, ValueError, KeyError, TypeError) as error:
            self._damaged[table.meta.id] = str(error)
            log.error("table %s is damaged: %s", table.meta.id, error)
            self._live.pop(table.meta.id, None)
            self._unlist(table)
            return False
        return bool(events)

    def _connected(self, live: LiveTable, seat: int, change: int) -> None:
        super()._connected(live, seat, change)
        self._others().present(live.table.meta.id, seat, live.local[seat])

    async def get(self, table_id: str) -> Table | None:
        """As :meth:`Hub.get`; a finished game in memory here is looked at again for a rematch, which another
        process may have made since."""
        table = await super().get(table_id)
        if table is not None:
            await self._find_rematch(table)
        return table

    # -- what the cluster asks ----------------------------------------------------------------------------------

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
            await self.store.finish(table.meta.id, table.stored_result())
        except TableFinished:
            pass  # as it should be: the process that stored the last event finished it
        except StoreError as error:
            log.warning("table %s cannot be finished: %s", table.meta.id, error)

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

    async def take_over(self, table_id: str, resume: bool) -> None:
        """This process won the table's lease: catch up and drive it. ``resume``: its last driver died, so the
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
