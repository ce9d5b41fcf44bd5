"""The store for larger servers: PostgreSQL through psycopg 3 (async), with a small connection pool.

Same tables and promises as the SQLite store, with JSONB columns. An append is one statement that moves the table's
``last_seq`` from seq - 1 to seq and inserts the event only if that move happened; the row lock taken by the
UPDATE makes racing writers queue, and each re-checks ``last_seq`` after the one before it commits (READ
COMMITTED's rule for updated rows), so of two appends with the same seq, on any connections or machines, exactly
one inserts. The primary key (table_id, seq) backs this up. A commit is durable when it returns under PostgreSQL's
default ``synchronous_commit = on``. Reads that take more than one query run in one REPEATABLE READ snapshot.
The JSON columns are read as text and decoded by the store, table by table, so that a value that cannot be read back
makes that one table a ``DamagedTable``; on ``open`` a store missing one of its tables is refused in one line.

No group commit here, unlike the SQLite store: each append runs on a pooled connection of its own, so appends
to different tables commit in parallel, and PostgreSQL already shares one WAL flush among the commits that reach
it together (its group commit, tuned by ``commit_delay``); there is no single writer whose fsyncs queue up.
Measured on the development machine (2 cores, busy with other work; a local server, ``synchronous_commit = on``,
3 s per figure, each writer appending to its own table back to back): 1 writer 200-330 appends/s, 50 writers
1,350-2,400, 400 writers 1,470-1,550 with the pool's 8 connections and 2,250 with 32. So concurrent appends
already share flushes; past the pool's size they queue for a connection (raise ``max_size``), and on that machine
the cores, shared by the client and the server, were the limit, not the disk.

The schema is created on ``open`` under a transaction-scoped advisory lock, so several servers may start at once.
Its tables are prefixed ``laro_``; to keep them in a schema of their own, put it first in the connection's
``search_path`` (``postgresql://…?options=-csearch_path%3Dlaro``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, Self

import psycopg
from psycopg.rows import TupleRow
from psycopg_pool import AsyncConnectionPool

from laro.core import JSONDict

from .base import (
    ANALYSES,
    ANALYSIS_CLAIMS,
    PUSH,
    PUSH_PER_SEAT,
    SCHEMA_VERSION,
    DamagedTable,
    SharedRows,
    StoredTable,
    StoreError,
    TableExists,
    TableMeta,
    TableNotFound,
    TableSummary,
    check_event,
    check_meta,
    check_page,
    check_result,
    decode_analysis,
    decode_push,
    decode_table,
    dump_json,
    finish_refusal,
    in_batches,
    intact,
    refusal,
    summary_from_row,
)
from .postgres_matches import SCHEMA as MATCHES_SCHEMA
from .postgres_matches import PostgresMatches
from .postgres_people import SCHEMA as PEOPLE_SCHEMA
from .postgres_people import PostgresAccounts
from .postgres_ratings import SCHEMA as RATINGS_SCHEMA
from .postgres_ratings import PostgresRatings

__all__ = ["NOTIFY_CHANNEL", "PostgresStore"]

Connection = psycopg.AsyncConnection[TupleRow]

_META = "id, game, rules_version, num_players, options, seed, seats, created"
# what decode_table reads, the JSON columns as text: decoded by the store, so a damaged value is reported, not raised
_ROW = (
    "id, game, rules_version, num_players, options::text, seed, seats::text, created, finished, result::text, last_seq"
)
_T_ROW = ", ".join(f"t.{column}" for column in _ROW.split(", "))
_SCHEMA_LOCK = 0x6C61726F_73746F72  # advisory lock key held while the schema is created or migrated

_SCHEMA = [
    "CREATE TABLE laro_schema (version integer NOT NULL)",
    """CREATE TABLE laro_tables (
        n bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        id text NOT NULL UNIQUE,
        game text NOT NULL,
        rules_version text NOT NULL,
        num_players integer NOT NULL,
        options jsonb NOT NULL,
        seed numeric NOT NULL,
        seats jsonb NOT NULL,
        created double precision NOT NULL,
        updated double precision NOT NULL,
        last_seq bigint NOT NULL DEFAULT 0,
        finished boolean NOT NULL DEFAULT false,
        result jsonb
    )""",
    """CREATE TABLE laro_events (
        table_id text NOT NULL REFERENCES laro_tables (id),
        seq bigint NOT NULL CHECK (seq >= 1),
        event jsonb NOT NULL,
        PRIMARY KEY (table_id, seq)
    )""",
    "CREATE INDEX laro_tables_active ON laro_tables (n) WHERE NOT finished",
]
_BESIDE = [  # made where missing, whatever the schema version (see base.ANALYSES)
    "CREATE INDEX IF NOT EXISTS laro_tables_finished ON laro_tables (updated DESC, id DESC) WHERE finished",
    f"""CREATE TABLE IF NOT EXISTS {ANALYSES} (
        table_id text NOT NULL REFERENCES laro_tables (id),
        key text NOT NULL,
        analysis jsonb NOT NULL,
        created double precision NOT NULL,
        PRIMARY KEY (table_id, key)
    )""",
    f"""CREATE TABLE IF NOT EXISTS {ANALYSIS_CLAIMS} (
        table_id text NOT NULL,
        key text NOT NULL,
        holder text NOT NULL,
        claimed_until double precision NOT NULL,
        PRIMARY KEY (table_id, key)
    )""",
    f"""CREATE TABLE IF NOT EXISTS {PUSH} (
        table_id text NOT NULL REFERENCES laro_tables (id),
        seat integer NOT NULL,
        endpoint text NOT NULL,
        keys jsonb NOT NULL,
        created double precision NOT NULL,
        told bigint NOT NULL DEFAULT -1,
        PRIMARY KEY (table_id, seat, endpoint)
    )""",
    f"CREATE INDEX IF NOT EXISTS {PUSH}_endpoint ON {PUSH} (endpoint)",
    *PEOPLE_SCHEMA,
    *MATCHES_SCHEMA,
    *RATINGS_SCHEMA,
]
_SAVE_PUSH = f"""
    WITH saved AS (
        INSERT INTO {PUSH} (table_id, seat, endpoint, keys, created)
        SELECT id, %(seat)s, %(endpoint)s, %(keys)s::jsonb, %(now)s FROM laro_tables WHERE id = %(id)s
        ON CONFLICT (table_id, seat, endpoint) DO UPDATE SET keys = excluded.keys, created = excluded.created
        RETURNING endpoint
    ), oldest AS (
        DELETE FROM {PUSH} WHERE table_id = %(id)s AND seat = %(seat)s AND endpoint <> %(endpoint)s AND endpoint NOT IN
            (SELECT endpoint FROM {PUSH} WHERE table_id = %(id)s AND seat = %(seat)s AND endpoint <> %(endpoint)s
             ORDER BY created DESC LIMIT {PUSH_PER_SEAT - 1})
        AND EXISTS (SELECT 1 FROM saved)
    )
    SELECT count(*) FROM saved
"""
# the row lock of a subscription makes racing claimants queue, each re-checking ``told`` on the row the one before left
_CLAIM_PUSH = f"""
    UPDATE {PUSH} SET told = %(told)s WHERE table_id = %(id)s AND seat = %(seat)s AND told < %(told)s
    RETURNING endpoint, keys::text
"""
# the row lock of a claim makes racing claimants queue, and each re-checks the WHERE on the row the one before left
_CLAIM = f"""
    INSERT INTO {ANALYSIS_CLAIMS} (table_id, key, holder, claimed_until)
    SELECT %(id)s, %(key)s, %(me)s, %(until)s
    WHERE NOT EXISTS (SELECT 1 FROM {ANALYSES} WHERE table_id = %(id)s AND key = %(key)s)
    ON CONFLICT (table_id, key) DO UPDATE SET holder = excluded.holder, claimed_until = excluded.claimed_until
    WHERE {ANALYSIS_CLAIMS}.claimed_until <= %(now)s OR {ANALYSIS_CLAIMS}.holder = excluded.holder
"""

_APPEND = """
    WITH claimed AS (
        UPDATE laro_tables SET last_seq = %(seq)s, updated = %(now)s
        WHERE id = %(id)s AND last_seq = %(seq)s - 1 AND NOT finished
        RETURNING id
    ), stored AS (
        INSERT INTO laro_events (table_id, seq, event) SELECT id, %(seq)s, %(event)s::jsonb FROM claimed
        RETURNING table_id, seq
    )
    SELECT pg_notify('laro_events', table_id || ' ' || seq) FROM stored
"""
# every stored event is announced on the channel laro_events as "<table id> <seq>" (a new table as seq 0): PostgreSQL
# delivers a notification only once its transaction has committed, so nobody hears of an event that is not stored
NOTIFY_CHANNEL = "laro_events"


class PostgresStore:
    """Tables in a PostgreSQL database, given by a libpq connection string or ``postgresql://`` URL."""

    def __init__(self, conninfo: str, *, min_size: int = 1, max_size: int = 8, timeout: float = 10.0) -> None:
        self.conninfo = conninfo
        self.min_size = min_size
        self.max_size = max_size
        self.timeout = timeout
        self._pool: AsyncConnectionPool[Connection] | None = None
        self._opening = asyncio.Lock()
        self.accounts = PostgresAccounts(self)  # accounts, sessions and the seats they hold
        self.ratings = PostgresRatings(self)  # players' ratings, and every change with its game
        self.matches = PostgresMatches(self)  # the quick-match queue

    def __repr__(self) -> str:
        return "PostgresStore(…)"  # the connection string may hold a password

    def shared_rows(self) -> SharedRows:
        """The leases, presence and news the processes on this database share (:mod:`laro.server.cluster`)."""
        from .postgres_cluster import PostgresCluster  # which builds on this module

        return PostgresCluster(self)

    async def __aenter__(self) -> Self:
        await self.open()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def open(self) -> None:
        async with self._opening:
            if self._pool is None:
                self._pool = await self._open_pool()

    async def _open_pool(self) -> AsyncConnectionPool[Connection]:
        try:
            con = await psycopg.AsyncConnection.connect(
                self.conninfo, autocommit=True, connect_timeout=max(2, round(self.timeout))
            )
        except psycopg.Error as exc:
            raise StoreError(f"cannot connect to the PostgreSQL store: {_one_line(exc)}") from exc
        try:
            await self._prepare(con)
        except psycopg.Error as exc:
            raise StoreError(f"cannot prepare the PostgreSQL store: {_one_line(exc)}") from exc
        finally:
            await con.close()
        pool: AsyncConnectionPool[Connection] = AsyncConnectionPool(
            self.conninfo,
            min_size=self.min_size,
            max_size=self.max_size,
            kwargs={"autocommit": True},
            check=AsyncConnectionPool.check_connection,
            timeout=self.timeout,
            name="laro-store",
            open=False,
        )
        try:
            await pool.open(wait=True, timeout=self.timeout)
        except psycopg.Error as exc:
            await pool.close()
            raise StoreError(f"cannot open connections to the PostgreSQL store: {_one_line(exc)}") from exc
        return pool

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()

    async def create_table(self, meta: TableMeta) -> None:
        check_meta(meta)
        row = (
            meta.id,
            meta.game,
            meta.rules_version,
            meta.num_players,
            dump_json(meta.options, f"table {meta.id}: options"),
            meta.seed,
            dump_json(meta.seats, f"table {meta.id}: seats"),
            meta.created,
            meta.created,
        )
        async with self._connection("create_table") as con:
            try:
                await con.execute(
                    f"WITH made AS (INSERT INTO laro_tables ({_META}, updated)"
                    " VALUES (%s, %s, %s, %s, %s::jsonb, %s, %s::jsonb, %s, %s) RETURNING id)"
                    " SELECT pg_notify('laro_events', id || ' 0') FROM made",
                    row,
                )
            except psycopg.errors.UniqueViolation as exc:
                raise TableExists(f"a table with id {meta.id!r} exists already") from exc

    async def append(self, table_id: str, event: JSONDict) -> None:
        seq, text = check_event(table_id, event)
        async with self._connection("append") as con:
            try:
                cursor = await con.execute(_APPEND, {"id": table_id, "seq": seq, "now": time.time(), "event": text})
            except psycopg.errors.UniqueViolation as exc:  # the log and last_seq disagree: refuse, never overwrite
                raise StoreError(f"table {table_id}: event {seq} is stored already ({exc})") from exc
            if cursor.rowcount != 1:
                raise refusal(table_id, event["seq"], await _progress(con, table_id))

    async def finish(self, table_id: str, result: JSONDict) -> None:
        text = check_result(table_id, result)
        async with self._connection("finish") as con:
            cursor = await con.execute(
                "UPDATE laro_tables SET finished = true, result = %s::jsonb, updated = %s"
                " WHERE id = %s AND NOT finished",
                (text, time.time(), table_id),
            )
            if cursor.rowcount != 1:
                raise finish_refusal(table_id, await _progress(con, table_id))

    async def load(self, table_id: str) -> StoredTable | DamagedTable | None:
        async with self._snapshot("load") as con:
            cursor = await con.execute(f"SELECT {_ROW} FROM laro_tables WHERE id = %s", (table_id,))
            row = await cursor.fetchone()
            if row is None:
                return None
            cursor = await con.execute(
                "SELECT seq, event::text FROM laro_events WHERE table_id = %s ORDER BY seq", (table_id,)
            )
            return decode_table(row, await cursor.fetchall())

    async def list_finished(self, limit: int = 20, before: tuple[float, str] | None = None) -> list[TableSummary]:
        check_page(limit, before)
        after = "" if before is None else "AND (updated, id) < (%s, %s)"
        async with self._connection("list_finished") as con:
            cursor = await con.execute(
                f"SELECT {_ROW}, updated FROM laro_tables WHERE finished {after}"
                " ORDER BY updated DESC, id DESC LIMIT %s",
                (*(before or ()), limit),
            )
            rows = await cursor.fetchall()
        return intact([summary_from_row(row) for row in rows], "list_finished")

    async def save_analysis(self, table_id: str, key: str, analysis: JSONDict) -> None:
        text = dump_json(analysis, f"table {table_id}: analysis {key}")
        async with self._connection("save_analysis") as con:
            cursor = await con.execute(
                f"INSERT INTO {ANALYSES} (table_id, key, analysis, created)"
                " SELECT id, %s, %s::jsonb, %s FROM laro_tables WHERE id = %s"
                " ON CONFLICT (table_id, key) DO UPDATE SET analysis = excluded.analysis, created = excluded.created",
                (key, text, time.time(), table_id),
            )
            if cursor.rowcount != 1:
                raise TableNotFound(f"no table {table_id!r}")

    async def load_analysis(self, table_id: str, key: str) -> JSONDict | None:
        async with self._connection("load_analysis") as con:
            cursor = await con.execute(
                f"SELECT analysis::text FROM {ANALYSES} WHERE table_id = %s AND key = %s", (table_id, key)
            )
            row = await cursor.fetchone()
        return None if row is None else decode_analysis(table_id, key, row[0])

    async def claim_analysis(self, table_id: str, key: str, holder: str, now: float, until: float) -> bool:
        arguments = {"id": table_id, "key": key, "me": holder, "now": now, "until": until}
        async with self._connection("claim_analysis") as con:
            cursor = await con.execute(_CLAIM, arguments)
            return cursor.rowcount == 1

    async def release_analysis(self, table_id: str, key: str, holder: str) -> None:
        async with self._connection("release_analysis") as con:
            await con.execute(
                f"DELETE FROM {ANALYSIS_CLAIMS} WHERE table_id = %s AND key = %s AND holder = %s",
                (table_id, key, holder),
            )

    async def analysis_claimed(self, table_id: str, key: str, now: float) -> bool:
        async with self._connection("analysis_claimed") as con:
            cursor = await con.execute(
                f"SELECT 1 FROM {ANALYSIS_CLAIMS} WHERE table_id = %s AND key = %s AND claimed_until > %s",
                (table_id, key, now),
            )
            return await cursor.fetchone() is not None

    async def save_push(self, table_id: str, seat: int, endpoint: str, keys: JSONDict, now: float) -> None:
        arguments = {"id": table_id, "seat": seat, "endpoint": endpoint, "now": now}
        arguments["keys"] = dump_json(keys, f"table {table_id}: push keys")
        async with self._connection("save_push") as con:
            cursor = await con.execute(_SAVE_PUSH, arguments)
            row = await cursor.fetchone()
        if not row or not row[0]:
            raise TableNotFound(f"no table {table_id!r}")

    async def delete_push(self, table_id: str, seat: int, endpoint: str) -> bool:
        async with self._connection("delete_push") as con:
            cursor = await con.execute(
                f"DELETE FROM {PUSH} WHERE table_id = %s AND seat = %s AND endpoint = %s", (table_id, seat, endpoint)
            )
            return cursor.rowcount > 0

    async def drop_push(self, endpoint: str) -> int:
        async with self._connection("drop_push") as con:
            cursor = await con.execute(f"DELETE FROM {PUSH} WHERE endpoint = %s", (endpoint,))
            return cursor.rowcount

    async def claim_push(self, table_id: str, seat: int, told: int) -> list[tuple[str, JSONDict]]:
        async with self._connection("claim_push") as con:
            cursor = await con.execute(_CLAIM_PUSH, {"id": table_id, "seat": seat, "told": told})
            rows = await cursor.fetchall()
        return decode_push(rows)

    async def load_active(self) -> list[StoredTable | DamagedTable]:
        _, tables = await self._read("load_active", 0, None, finished_too=False)
        return tables

    def iter_tables(self, batch: int = 200) -> AsyncIterator[StoredTable | DamagedTable]:
        return in_batches(lambda after, limit: self._read("iter_tables", after, limit, finished_too=True), batch)

    async def list_tables(self, limit: int = 100, include_finished: bool = False) -> list[TableSummary]:
        if not isinstance(limit, int) or limit < 0:
            raise StoreError(f"limit must be a non-negative integer, not {limit!r}")
        where = "" if include_finished else "WHERE NOT finished"
        async with self._connection("list_tables") as con:
            cursor = await con.execute(
                f"SELECT {_ROW}, updated FROM laro_tables {where} ORDER BY n DESC LIMIT %s", (limit,)
            )
            rows = await cursor.fetchall()
        return intact([summary_from_row(row) for row in rows], "list_tables")

    async def _read(
        self, doing: str, after: int, limit: int | None, finished_too: bool
    ) -> tuple[int, list[StoredTable | DamagedTable]]:
        """The tables after position ``after`` in creation order, at most ``limit`` (None: all), from one
        snapshot, and the position of the last one."""
        where = "t.n > %s" if finished_too else "t.n > %s AND NOT t.finished"
        async with self._snapshot(doing) as con:
            cursor = await con.execute(
                f"SELECT {_T_ROW}, t.n FROM laro_tables AS t WHERE {where} ORDER BY t.n LIMIT %s",
                (after, limit),
            )
            rows = await cursor.fetchall()
            if not rows:
                return after, []
            last = int(rows[-1][-1])
            events: dict[str, list[tuple[Any, Any]]] = {row[0]: [] for row in rows}
            cursor = await con.execute(
                "SELECT e.table_id, e.seq, e.event::text"
                " FROM laro_events AS e JOIN laro_tables AS t ON t.id = e.table_id"
                f" WHERE {where} AND t.n <= %s ORDER BY t.n, e.seq",
                (after, last),
            )
            async for table_id, seq, event in cursor:
                events[table_id].append((seq, event))
        return last, [decode_table(row[:-1], events[row[0]]) for row in rows]

    # --- inside -------------------------------------------------------------------------------------------------

    @asynccontextmanager
    async def _connection(self, doing: str) -> AsyncIterator[Connection]:
        """A pooled connection (autocommit); psycopg's errors as ``StoreError`` (ours pass through)."""
        if self._pool is None:
            raise StoreError(f"{self!r} is not open")
        try:
            async with self._pool.connection() as con:
                yield con
        except psycopg.Error as exc:  # the pool's timeout is one of them
            raise StoreError(f"PostgreSQL store: {doing} failed: {_one_line(exc)}") from exc

    @asynccontextmanager
    async def _snapshot(self, doing: str) -> AsyncIterator[Connection]:
        """A pooled connection inside a read-only REPEATABLE READ transaction: every query sees the same data."""
        async with self._connection(doing) as con, con.transaction():
            await con.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            yield con

    async def _prepare(self, con: Connection) -> None:
        """The schema: created in a database without it, migrated from an older version."""
        async with con.transaction():
            await con.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
            cursor = await con.execute("SELECT to_regclass('laro_schema') IS NOT NULL")
            row = await cursor.fetchone()
            if not (row and row[0]):
                for statement in [*_SCHEMA, *_BESIDE]:
                    await con.execute(statement)
                await con.execute("INSERT INTO laro_schema (version) VALUES (%s)", (SCHEMA_VERSION,))
                return
            cursor = await con.execute("SELECT max(version) FROM laro_schema")
            row = await cursor.fetchone()
            version = row[0] if row else None
            if not isinstance(version, int):
                raise StoreError("the PostgreSQL store's laro schema version is missing")
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"the PostgreSQL store was written by a newer laro (store schema {version}; this one knows "
                    f"{SCHEMA_VERSION}): upgrade laro"
                )
            # migrations from older versions go here, one step per version, when there are any
            for name in ("laro_tables", "laro_events"):
                cursor = await con.execute("SELECT to_regclass(%s) IS NOT NULL", (name,))
                row = await cursor.fetchone()
                if not (row and row[0]):
                    raise StoreError(f"the PostgreSQL store is damaged: its table {name} is missing")
            for statement in _BESIDE:
                await con.execute(statement)


def _one_line(exc: psycopg.Error) -> str:
    """The error's message without the query excerpt PostgreSQL adds on further lines."""
    text = exc.diag.message_primary if exc.diag.message_primary else str(exc)
    return " ".join(text.split())


async def _progress(con: Connection, table_id: str) -> tuple[Any, ...] | None:
    cursor = await con.execute("SELECT last_seq, finished FROM laro_tables WHERE id = %s", (table_id,))
    return await cursor.fetchone()
