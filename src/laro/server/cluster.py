"""Several server processes on one PostgreSQL store, as one server: the :class:`~laro.server.peers.Peers` a
:class:`~laro.server.hub.Hub` is given when its store can be shared (through the store's
:class:`~laro.server.store.SharedRows`).

Any process serves any table. Each keeps every table that is not over in memory and follows the others' changes:
a stored event is announced by PostgreSQL (``NOTIFY``, see :mod:`laro.server.store.postgres_cluster`), and on each
notice the process reads the table's new events from the store (never from the notice), applies them and tells its
own connections. After its listening connection was lost, a process compares every table's last seq with its own
and reads what it missed.

Exactly one process drives a table (its bots, its clocks, its expiry): the holder of its lease
(:mod:`laro.server.leases`). A process renews its leases every heartbeat, lets go of those it lost, and claims the
leases of tables that have none or whose holder stopped renewing (a process killed): within
``lease_seconds`` and a heartbeat, another process drives the table on. The processes share the tables fairly:
each renews its own row among the processes alive with its leases, claims no more than its fair share (a table
made here too: beyond its share, the others claim it at their heartbeat), and hands its surplus over at a
quiet moment of each table. On shutdown a process hands all its leases over at once (deletes them), so the
others take its tables at their next heartbeat.

Who is connected to which seat is shared the same way (``laro_presence``): a player connected to another process
is present here too, so no process takes them for away.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from laro.core import JSONDict
from laro.server.leases import LEASE_SECONDS, Lease, beat_every, fair_share, plan_leases
from laro.server.store import SharedRows, StoreError

if TYPE_CHECKING:
    from laro.server.hub import Hub

__all__ = ["Cluster", "process_name"]

log = logging.getLogger("laro.server.cluster")
_UNKNOWN = 1 << 62  # a notice without a seq: read whatever is new


def process_name() -> str:
    """This process's name in the leases: host, process id and a random part (a restarted process is new).

    >>> process_name().count(":")
    2
    """
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


class Cluster:
    """This process among the others on its hub's store (whose shared rows are ``db``): it follows their changes
    and drives the tables it leases."""

    alone = False

    def __init__(
        self,
        db: SharedRows,
        lease_seconds: float = LEASE_SECONDS,
        clock: Callable[[], float] = time.time,
        name: str | None = None,
    ) -> None:
        self.db = db
        self._hub: Hub | None = None
        self.me = name or process_name()
        self.lease_seconds = lease_seconds
        self.clock = clock
        self.held: set[str] = set()
        self.processes: set[str] = {self.me}  # the processes alive at the last heartbeat
        self._tasks: list[asyncio.Task[None]] = []
        self._presence: dict[tuple[str, int], int] = {}  # presence to write: (table, seat) -> connections here
        self._presence_due = asyncio.Event()
        self._wanted: dict[str, int] = {}  # tables being followed -> the highest seq announced meanwhile
        self._following: set[asyncio.Task[None]] = set()

    @property
    def hub(self) -> Hub:
        if self._hub is None:
            raise RuntimeError("the cluster has not started: its hub starts it")
        return self._hub

    async def start(self, hub: Hub) -> None:
        """After ``hub`` restored its tables (none of them driven yet): the shared rows exist, and this process
        listens, beats, and writes presence, until :meth:`stop`."""
        self._hub = hub
        await self.db.prepare()
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._listen()),
            loop.create_task(self._beat_forever()),
            loop.create_task(self._write_presence()),
        ]
        log.info("process %s shares the store with the others", self.me)

    async def stop(self) -> None:
        """Stop driving, and hand every lease over at once."""
        for task in [*self._tasks, *self._following]:
            task.cancel()
        for task in [*self._tasks, *self._following]:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        held, self.held = self.held, set()
        for table_id in held:
            self.hub.let_go(table_id)
        try:
            await self.db.release(self.me)
        except StoreError as error:
            log.warning("leases not handed over (they expire in %.0f s): %s", self.lease_seconds, error)
        if held:
            log.warning("stopping: handed over the leases of %d tables", len(held))
            self.hub.metrics.lease_changes.labels("released").inc(len(held))

    # -- what the hub asks (laro.server.peers.Peers) ------------------------------------------------------------

    def drives(self, table_id: str) -> bool:
        return table_id in self.held

    async def made(self, table_id: str) -> None:
        if len(self.held) >= fair_share(len(self.hub.table_ids()), len(self.processes)):
            return  # this process drives its share: one of the others claims the table at its heartbeat
        now = self.clock()
        if await self.db.claim(self.me, [table_id], now, now + self.lease_seconds):
            self.held.add(table_id)
            self.hub.metrics.lease_changes.labels("won").inc()

    def connected(self, table_id: str, seat: int, connections: int) -> None:
        self._presence[(table_id, seat)] = connections
        self._presence_due.set()

    async def events_after(self, table_id: str, seq: int) -> list[JSONDict]:
        return await self.db.events_after(table_id, seq)

    # -- inside -----------------------------------------------------------------------------------------------

    async def _listen(self) -> None:
        async for kind, payload in self.db.listen(self.me, self._catch_up):
            try:
                if kind == "events":
                    table_id, _, seq = payload.partition(" ")
                    self._notice(table_id, int(seq) if seq.isdigit() else _UNKNOWN)
                else:
                    found = await self.db.presence(self.me, self.clock(), payload)
                    self.hub.set_presence(payload, found.get(payload, {}))
            except StoreError as error:
                log.warning("cannot follow the notice %r: %s", payload[:80], error)

    def _notice(self, table_id: str, seq: int) -> None:
        """A table changed up to ``seq``: follow it, tables side by side (each in order, under its own lock), and
        one read for the notices of one table that arrive while it is being read."""
        following = table_id in self._wanted
        self._wanted[table_id] = max(seq, self._wanted.get(table_id, 0))
        if not following:
            task = asyncio.get_running_loop().create_task(self._follow(table_id))
            self._following.add(task)
            task.add_done_callback(self._following.discard)

    async def _follow(self, table_id: str) -> None:
        try:
            while True:
                seq = self._wanted[table_id]
                try:
                    await self.hub.follow(table_id, None if seq == _UNKNOWN else seq)
                except StoreError as error:
                    log.warning("table %s: cannot read its new events: %s", table_id, error)
                    return
                if self._wanted[table_id] == seq:
                    return
        finally:
            del self._wanted[table_id]

    async def _catch_up(self) -> None:
        """Listening (again): read every change this process may have missed, table by table, by seq."""
        progress = await self.db.progress()
        behind = [table_id for table_id, seq in progress.items() if self.hub.seq_of(table_id) != seq]
        gone = [table_id for table_id in self.hub.table_ids() if table_id not in progress]  # finished elsewhere
        for table_id in behind + gone:
            await self.hub.follow(table_id, progress.get(table_id))
        await self._refresh_presence()
        if behind or gone:  # notices were lost (or this process just started)
            log.warning("listening: caught up with %d tables changed meanwhile", len(behind) + len(gone))

    async def _refresh_presence(self) -> None:
        found = await self.db.presence(self.me, self.clock())
        for table_id in self.hub.table_ids():
            self.hub.set_presence(table_id, found.get(table_id, {}))

    async def _beat_forever(self) -> None:
        while True:
            try:
                await self.beat()
            except StoreError as error:
                log.warning("heartbeat failed: %s", error)
            await asyncio.sleep(beat_every(self.lease_seconds))

    async def beat(self) -> None:
        """Renew this process's leases, let go of the ones lost, release those of tables over, hand over those
        beyond its fair share, claim orphans up to it."""
        now = self.clock()
        until = now + self.lease_seconds
        kept = set(await self.db.renew(self.me, until))
        for table_id in self.held - kept:
            log.warning("table %s: lease lost, another process drives it", table_id)
            self.hub.let_go(table_id)
            self.hub.metrics.lease_changes.labels("lost").inc()
        self.held &= kept
        leases = {row[0]: Lease(*row) for row in await self.db.leases()}
        self.processes = set(await self.db.processes(now)) | {self.me}
        quiet = {table_id for table_id in self.held if self.hub.quiet(table_id)}
        plan = plan_leases(self.me, self.hub.table_ids(), leases, now, self.processes, quiet)
        if plan.release:
            await self.db.release(self.me, plan.release)
            self.held -= set(plan.release)
        if plan.hand_over:
            await self._hand_over(plan.hand_over)
        for table_id in await self.db.claim(self.me, plan.claim, now, until):
            before = leases.get(table_id)
            resume = before is not None and before.holder != self.me  # its driver stopped renewing: it died
            if resume:
                log.warning("table %s: lease taken over from %s", table_id, before.holder if before else None)
            self.held.add(table_id)
            self.hub.metrics.lease_changes.labels("won").inc()
            await self.hub.take_over(table_id, resume)
        await self._refresh_presence()

    async def _hand_over(self, table_ids: list[str]) -> None:
        """Let go of tables beyond this process's share, each only while nothing is under way for it (checked
        again here, and let go of at once), then delete their leases for another process to claim."""
        moving = [table_id for table_id in table_ids if table_id in self.held and self.hub.quiet(table_id)]
        for table_id in moving:
            self.held.discard(table_id)
            self.hub.let_go(table_id)
        if not moving:
            return
        try:
            await self.db.release(self.me, moving)
        except StoreError as error:  # still this process's leases: drive them on
            log.warning("leases not handed over: %s", error)
            for table_id in moving:
                self.held.add(table_id)
                await self.hub.take_over(table_id, resume=False)
            return
        log.info("handed over %d tables, beyond this process's share, to the others", len(moving))
        self.hub.metrics.lease_changes.labels("handed_over").inc(len(moving))

    async def _write_presence(self) -> None:
        """Write the connections of each seat here, the newest count of each only, one at a time (in order)."""
        while True:
            await self._presence_due.wait()
            self._presence_due.clear()
            while self._presence:
                (table_id, seat), connections = self._presence.popitem()
                try:
                    await self.db.set_presence(self.me, table_id, seat, connections, self.clock() + self.lease_seconds)
                except StoreError as error:
                    log.warning("table %s: presence not shared: %s", table_id, error)
