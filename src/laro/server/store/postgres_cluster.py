"""What several server processes share in one PostgreSQL database besides the tables: leases, presence, news.

- **News**: every stored event is announced on the channel ``laro_events`` as ``"<table id> <seq>"`` (a new table as
  seq 0) by the statement that stores it, so a notification is sent only once its event is committed.
  :meth:`PostgresCluster.listen` holds one connection that listens and yields each notice; what it carries is only
  a hint of where to look: the events themselves are read with :meth:`events_after`. Changes of who is connected
  are announced on ``laro_presence`` as the table's id.
- **Leases** (``laro_leases``: ``table_id``, ``holder``, ``expires``): the process that drives a table (see
  :mod:`laro.server.leases`). Claiming and renewing are single conditional statements: of two processes claiming an
  expired lease at once, exactly one gets it.
- **Presence** (``laro_presence``: ``process``, ``table_id``, ``seat``, ``connections``, ``expires``): how many
  connections each process holds for each seat, renewed with the leases; a dead process's rows expire with them.
- **Processes** (``laro_processes``: ``process``, ``expires``): the processes alive, each renewing its row with its
  leases, so that each knows how many share the driving of the tables (:func:`laro.server.leases.fair_share`).

The three tables are created if missing (``IF NOT EXISTS``): a store written before them opens as it was.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

import psycopg

from laro.core import JSONDict

from .postgres import NOTIFY_CHANNEL, PostgresStore

__all__ = ["LISTENER_NAME", "PRESENCE_CHANNEL", "PostgresCluster"]

log = logging.getLogger("laro.server.cluster")

PRESENCE_CHANNEL = "laro_presence"
_FORGET_AFTER = 600.0  # seconds after its heartbeat ran out that a dead process's row is deleted
LISTENER_NAME = "laro-listener"  # starts the listening connection's application_name (seen in pg_stat_activity)

_SCHEMA = [
    """CREATE TABLE IF NOT EXISTS laro_leases (
        table_id text PRIMARY KEY,
        holder text NOT NULL,
        expires double precision NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS laro_presence (
        process text NOT NULL,
        table_id text NOT NULL,
        seat integer NOT NULL,
        connections integer NOT NULL,
        expires double precision NOT NULL,
        PRIMARY KEY (process, table_id, seat)
    )""",
    """CREATE TABLE IF NOT EXISTS laro_processes (
        process text PRIMARY KEY,
        expires double precision NOT NULL
    )""",
]

_CLAIM = """
    INSERT INTO laro_leases (table_id, holder, expires)
    SELECT table_id, %(me)s, %(until)s FROM unnest(%(ids)s::text[]) AS claimed (table_id)
    ON CONFLICT (table_id) DO UPDATE SET holder = excluded.holder, expires = excluded.expires
    WHERE laro_leases.expires <= %(now)s OR laro_leases.holder = excluded.holder
    RETURNING table_id
"""


class PostgresCluster:
    """The shared rows of the processes of one store (opened with the store, on its pool)."""

    def __init__(self, store: PostgresStore) -> None:
        self.store = store

    async def prepare(self) -> None:
        """Create the lease, presence and process tables if they are missing."""
        async with self.store._connection("prepare the cluster tables") as con, con.transaction():
            await con.execute("SELECT pg_advisory_xact_lock(%s)", (0x6C61726F_636C7573,))
            for statement in _SCHEMA:
                await con.execute(statement)

    # -- news -------------------------------------------------------------------------------------------------

    async def listen(self, me: str, connected: Callable[[], Any]) -> AsyncIterator[tuple[str, str]]:
        """``(kind, payload)`` of every notice — ``"events"`` with ``"<table id> <seq>"``, ``"presence"`` with a
        table's id — from a connection of its own (named ``laro-listener <me>``); ``await connected()`` runs each
        time it is listening (first and after each reconnection), so the caller catches up on what it missed. A
        lost connection is reconnected after a short wait, as long as one reads."""
        wait, name = 0.2, f"{LISTENER_NAME} {me}"[:63]
        while True:
            try:
                con = await psycopg.AsyncConnection.connect(
                    self.store.conninfo, autocommit=True, application_name=name, connect_timeout=5
                )
            except psycopg.Error as exc:
                log.warning("cannot listen to the store (retrying in %.1f s): %s", wait, _line(exc))
                await asyncio.sleep(wait)
                wait = min(5.0, wait * 2)
                continue
            try:
                await con.execute(f"LISTEN {NOTIFY_CHANNEL}")
                await con.execute(f"LISTEN {PRESENCE_CHANNEL}")
                wait = 0.2
                await connected()
                async for notice in con.notifies():
                    yield ("events" if notice.channel == NOTIFY_CHANNEL else "presence"), notice.payload
            except psycopg.Error as exc:
                log.warning("the store's listening connection was lost; listening again: %s", _line(exc))
                await asyncio.sleep(wait)
            finally:
                await con.close()

    async def events_after(self, table_id: str, seq: int) -> list[JSONDict]:
        """The table's events after ``seq``, in order."""
        async with self.store._connection("read new events") as con:
            cursor = await con.execute(
                "SELECT event FROM laro_events WHERE table_id = %s AND seq > %s ORDER BY seq", (table_id, seq)
            )
            return [row[0] for row in await cursor.fetchall()]

    async def progress(self) -> dict[str, int]:
        """The last seq of every table that is not finished (to catch up after notices were missed)."""
        async with self.store._connection("read the tables' progress") as con:
            cursor = await con.execute("SELECT id, last_seq FROM laro_tables WHERE NOT finished")
            return {str(table_id): int(seq) for table_id, seq in await cursor.fetchall()}

    # -- leases -----------------------------------------------------------------------------------------------

    async def leases(self) -> list[tuple[str, str, float]]:
        """Every lease: ``(table_id, holder, expires)``."""
        async with self.store._connection("read the leases") as con:
            cursor = await con.execute("SELECT table_id, holder, expires FROM laro_leases")
            return [(str(t), str(h), float(e)) for t, h, e in await cursor.fetchall()]

    async def claim(self, me: str, table_ids: list[str], now: float, until: float) -> list[str]:
        """Take the leases of ``table_ids`` that are missing, expired or already ours; the ids won."""
        if not table_ids:
            return []
        async with self.store._connection("claim leases") as con:
            cursor = await con.execute(_CLAIM, {"me": me, "ids": table_ids, "now": now, "until": until})
            return [str(row[0]) for row in await cursor.fetchall()]

    async def renew(self, me: str, until: float) -> list[str]:
        """Extend every lease ``me`` still holds (and its presence rows, and its own row among the processes alive);
        the ids of the tables it holds."""
        async with self.store._connection("renew leases") as con:
            await con.execute(
                "INSERT INTO laro_processes (process, expires) VALUES (%s, %s)"
                " ON CONFLICT (process) DO UPDATE SET expires = excluded.expires",
                (me, until),
            )
            await con.execute("DELETE FROM laro_processes WHERE expires < %s", (until - _FORGET_AFTER,))
            await con.execute("UPDATE laro_presence SET expires = %s WHERE process = %s", (until, me))
            cursor = await con.execute(
                "UPDATE laro_leases SET expires = %s WHERE holder = %s RETURNING table_id", (until, me)
            )
            return [str(row[0]) for row in await cursor.fetchall()]

    async def release(self, me: str, table_ids: list[str] | None = None) -> None:
        """Give up leases of ``me`` (all of them by default, and then its presence rows and its row among the
        processes alive too: it stops): another process may claim them at once."""
        async with self.store._connection("release leases") as con:
            if table_ids is None:
                await con.execute("DELETE FROM laro_leases WHERE holder = %s", (me,))
                await con.execute("DELETE FROM laro_presence WHERE process = %s", (me,))
                await con.execute("DELETE FROM laro_processes WHERE process = %s", (me,))
            elif table_ids:
                await con.execute("DELETE FROM laro_leases WHERE holder = %s AND table_id = ANY(%s)", (me, table_ids))

    async def processes(self, now: float) -> list[str]:
        """The processes alive at ``now``: those whose heartbeat has not run out."""
        async with self.store._connection("read the processes") as con:
            cursor = await con.execute("SELECT process FROM laro_processes WHERE expires > %s", (now,))
            return [str(row[0]) for row in await cursor.fetchall()]

    # -- presence ---------------------------------------------------------------------------------------------

    async def set_presence(self, me: str, table_id: str, seat: int, connections: int, until: float) -> None:
        """``me`` holds ``connections`` connections of the seat now; the others are told."""
        async with self.store._connection("write presence") as con, con.transaction():
            await con.execute(
                "INSERT INTO laro_presence (process, table_id, seat, connections, expires)"
                " VALUES (%s, %s, %s, %s, %s) ON CONFLICT (process, table_id, seat)"
                " DO UPDATE SET connections = excluded.connections, expires = excluded.expires",
                (me, table_id, seat, connections, until),
            )
            await con.execute("SELECT pg_notify(%s, %s)", (PRESENCE_CHANNEL, table_id))

    async def presence(self, me: str, now: float, table_id: str | None = None) -> dict[str, dict[int, int]]:
        """The connections the other living processes hold, by table and seat (of one table, or of all)."""
        query = (
            "SELECT table_id, seat, sum(connections) FROM laro_presence"
            " WHERE process <> %s AND expires > %s AND connections > 0"
        )
        arguments: tuple[Any, ...] = (me, now)
        if table_id is not None:
            query += " AND table_id = %s"
            arguments += (table_id,)
        async with self.store._connection("read presence") as con:
            cursor = await con.execute(query + " GROUP BY table_id, seat", arguments)
            found: dict[str, dict[int, int]] = {}
            for table, seat, count in await cursor.fetchall():
                found.setdefault(str(table), {})[int(seat)] = int(count)
            return found


def _line(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:300]
