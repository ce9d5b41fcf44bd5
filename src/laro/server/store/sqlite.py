"""The default store: one SQLite file (standard library ``sqlite3``), for a server on one machine.

Durability: the file runs in WAL journal mode with ``synchronous=FULL``: each commit's log is flushed to the disk
(fsync) before ``append`` returns, so an accepted event survives ``kill -9`` of the server and a power cut. WAL with
``synchronous=NORMAL`` also survives ``kill -9`` (the commit sits in the OS's cache, which outlives the process)
but may lose the last commits on a power cut; pass ``synchronous="NORMAL"`` to trade that for speed.

Measured on the development machine (2 cores, shared with other work; thousands of one-event transactions in a row):
a bare sqlite3 commit took 12-32 µs with NORMAL and 0.24-3.7 ms with FULL, the fsync's cost swinging with the
machine's other disk traffic; through this class 0.12-0.6 ms (NORMAL) and 0.4-1.6 ms (FULL) per append. A game
appends one event per move, so FULL costs players nothing they notice and buys the stronger promise.

Because an fsync can take milliseconds, the calls run in one worker thread per store, not in the event loop (run in
the loop, FULL appends held it 3.7-4.3 ms each; through the thread, a 1 ms ticker kept a median of 1.1-1.3 ms).
The single worker runs one call at a time, each call one whole transaction, so the tasks of one store never
interleave inside a transaction. Stores in other threads or processes on the same file are kept apart by SQLite's
locks: a writer waits up to ``busy_timeout`` seconds for another's write lock.

Group commit: with many busy tables the fsync, one per transaction, is what limits the store, so appends are
grouped. An append waits in a queue; when the worker is free it takes every append waiting and commits them in one
transaction, one fsync. Each append is checked on its own under a savepoint, so a refused one (``SeqConflict``,
``TableFinished``, ``TableNotFound``) is rolled back alone and the others of its transaction go in; appends to the
same table keep their order, so of two racing for one seq the first queued wins. Each caller's ``append`` returns
only once the commit that holds its event is done (under FULL: on the disk); if that commit fails, every append in
it fails and none is stored. Nobody waits for a group to fill: an append that finds the worker free is committed
at once, alone. ``commits`` counts the write transactions; ``group_commit=False`` gives one per append, as a
baseline. ``laro bench store`` measures both (appends/s with 1, 50 and 400 writers).

A store file is never empty: a new one is made under a draft name, given its schema, and put in place whole (a
hard link, which never replaces a file). So an empty file at a store's path is refused, not taken for a new, empty
store: it is most likely a truncated copy of one (restore it, or remove it to start afresh). A file that SQLite
cannot read, or that lacks one of the store's tables, is refused with one line naming it; a page found garbled
while reading is reported the same way (``StoreError``), and ``quick_check`` lists what SQLite's own check finds.

>>> import asyncio, tempfile, os
>>> from laro.server.store.base import TableMeta
>>> async def demo(path: str) -> list[int]:
...     async with SQLiteStore(path) as store:
...         await store.create_table(TableMeta("t1", "lama", "1", 2, {}, 7, [{}, {}], 0.0))
...         await store.append("t1", {"seq": 1, "type": "join", "seat": 0})
...     async with SQLiteStore(path) as store:  # a new store on the same file sees everything
...         table = await store.load("t1")
...         return [event["seq"] for event in table.events] if table else []
>>> with tempfile.TemporaryDirectory() as folder:
...     asyncio.run(demo(os.path.join(folder, "laro.db")))
[1]
"""

from __future__ import annotations

import asyncio
import os
import secrets
import sqlite3
import threading
import time
import urllib.parse
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Self, TypeVar

from laro.core import JSONDict

from .base import (
    ANALYSES,
    ANALYSIS_CLAIMS,
    PUSH,
    PUSH_PER_SEAT,
    SCHEMA_VERSION,
    DamagedTable,
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
from .sqlite_matches import SCHEMA as MATCHES_SCHEMA
from .sqlite_matches import SQLiteMatches
from .sqlite_people import SCHEMA as PEOPLE_SCHEMA
from .sqlite_people import SQLiteAccounts
from .sqlite_ratings import SCHEMA as RATINGS_SCHEMA
from .sqlite_ratings import SQLiteRatings

__all__ = ["SQLiteStore"]

T = TypeVar("T")

_META = "id, game, rules_version, num_players, options, seed, seats, created"
_ROW = f"{_META}, finished, result, last_seq"  # what decode_table reads
_T_ROW = ", ".join(f"t.{column}" for column in _ROW.split(", "))
_NEEDED = ("laro_schema", "laro_tables", "laro_events")

_SCHEMA = [
    "CREATE TABLE laro_schema (version INTEGER NOT NULL)",
    """CREATE TABLE laro_tables (
        n INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        game TEXT NOT NULL,
        rules_version TEXT NOT NULL,
        num_players INTEGER NOT NULL,
        options TEXT NOT NULL,
        seed TEXT NOT NULL,
        seats TEXT NOT NULL,
        created REAL NOT NULL,
        updated REAL NOT NULL,
        last_seq INTEGER NOT NULL DEFAULT 0,
        finished INTEGER NOT NULL DEFAULT 0,
        result TEXT
    )""",
    """CREATE TABLE laro_events (
        table_id TEXT NOT NULL REFERENCES laro_tables (id),
        seq INTEGER NOT NULL CHECK (seq >= 1),
        event TEXT NOT NULL,
        PRIMARY KEY (table_id, seq)
    ) WITHOUT ROWID""",
    "CREATE INDEX laro_tables_active ON laro_tables (finished, n)",
]
_BESIDE = [  # made where missing, whatever the schema version (see base.ANALYSES)
    "CREATE INDEX IF NOT EXISTS laro_tables_finished ON laro_tables (finished, updated, id)",
    f"""CREATE TABLE IF NOT EXISTS {ANALYSES} (
        table_id TEXT NOT NULL REFERENCES laro_tables (id),
        key TEXT NOT NULL,
        analysis TEXT NOT NULL,
        created REAL NOT NULL,
        PRIMARY KEY (table_id, key)
    ) WITHOUT ROWID""",
    f"""CREATE TABLE IF NOT EXISTS {ANALYSIS_CLAIMS} (
        table_id TEXT NOT NULL,
        key TEXT NOT NULL,
        holder TEXT NOT NULL,
        claimed_until REAL NOT NULL,
        PRIMARY KEY (table_id, key)
    ) WITHOUT ROWID""",
    f"""CREATE TABLE IF NOT EXISTS {PUSH} (
        table_id TEXT NOT NULL REFERENCES laro_tables (id),
        seat INTEGER NOT NULL,
        endpoint TEXT NOT NULL,
        keys TEXT NOT NULL,
        created REAL NOT NULL,
        told INTEGER NOT NULL DEFAULT -1,
        PRIMARY KEY (table_id, seat, endpoint)
    ) WITHOUT ROWID""",
    f"CREATE INDEX IF NOT EXISTS {PUSH}_endpoint ON {PUSH} (endpoint)",
    *PEOPLE_SCHEMA,
    *MATCHES_SCHEMA,
    *RATINGS_SCHEMA,
]
_SAVE_PUSH = f"""
    INSERT INTO {PUSH} (table_id, seat, endpoint, keys, created) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (table_id, seat, endpoint) DO UPDATE SET keys = excluded.keys, created = excluded.created
"""
_OLDEST_PUSH = f"""
    DELETE FROM {PUSH} WHERE table_id = ? AND seat = ? AND endpoint NOT IN
        (SELECT endpoint FROM {PUSH} WHERE table_id = ? AND seat = ? ORDER BY created DESC LIMIT {PUSH_PER_SEAT})
"""
_CLAIM_PUSH = f"UPDATE {PUSH} SET told = ? WHERE table_id = ? AND seat = ? AND told < ? RETURNING endpoint, keys"
_CLAIM = f"""
    INSERT INTO {ANALYSIS_CLAIMS} (table_id, key, holder, claimed_until)
    SELECT ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM {ANALYSES} WHERE table_id = ? AND key = ?)
    ON CONFLICT (table_id, key) DO UPDATE SET holder = excluded.holder, claimed_until = excluded.claimed_until
    WHERE {ANALYSIS_CLAIMS}.claimed_until <= ? OR {ANALYSIS_CLAIMS}.holder = excluded.holder
"""


class SQLiteStore:
    """Tables in one SQLite file (created if missing; ``":memory:"`` for a store that lives as long as it is open).

    ``synchronous`` is SQLite's setting: ``"FULL"`` (the default) or ``"NORMAL"`` (see the module's notes).
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        synchronous: str = "FULL",
        busy_timeout: float = 5.0,
        group_commit: bool = True,
    ) -> None:
        if synchronous not in ("FULL", "NORMAL"):
            raise StoreError(f"synchronous must be 'FULL' or 'NORMAL', not {synchronous!r}")
        self.path = os.fspath(path)
        self.synchronous = synchronous
        self.busy_timeout = busy_timeout
        self.group_commit = group_commit
        self.commits = 0  # write transactions this store committed (each one fsync under FULL)
        self._con: sqlite3.Connection | None = None  # used only in the worker thread
        self._worker: ThreadPoolExecutor | None = None
        self._waiting: list[_Append] = []  # appends not yet taken by the worker, under _waiting_lock
        self._waiting_lock = threading.Lock()
        self._flush_queued = False  # a flush is queued on the worker and has not yet taken the waiting appends
        self.accounts = SQLiteAccounts(self)  # accounts, sessions and the seats they hold
        self.ratings = SQLiteRatings(self)  # players' ratings, and every change with its game
        self.matches = SQLiteMatches(self)  # the quick-match queue

    def __repr__(self) -> str:
        return f"SQLiteStore({self.path!r})"

    def shared_rows(self) -> None:
        """None: one process serves a SQLite file."""
        return None

    async def __aenter__(self) -> Self:
        await self.open()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def open(self) -> None:
        if self._worker is not None:
            return
        # calls made while the connection is being made queue behind it on the one worker
        worker = self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="laro-sqlite")
        try:
            await asyncio.get_running_loop().run_in_executor(worker, self._connect)
        except BaseException:
            self._worker = None
            worker.shutdown(wait=False)
            raise

    async def close(self) -> None:
        worker, self._worker = self._worker, None
        if worker is None:
            return
        try:
            await asyncio.get_running_loop().run_in_executor(worker, self._disconnect)
        finally:
            worker.shutdown(wait=False)

    async def create_table(self, meta: TableMeta) -> None:
        check_meta(meta)
        row = (
            meta.id,
            meta.game,
            meta.rules_version,
            meta.num_players,
            dump_json(meta.options, f"table {meta.id}: options"),
            str(meta.seed),
            dump_json(meta.seats, f"table {meta.id}: seats"),
            meta.created,
            meta.created,
        )
        await self._run("create_table", self._create_table, row)

    async def append(self, table_id: str, event: JSONDict) -> None:
        seq, text = check_event(table_id, event)
        worker, loop = self._worker, asyncio.get_running_loop()
        if worker is None:
            raise StoreError(f"{self!r} is not open")
        waiting = _Append(table_id, seq, event["seq"], text, loop, loop.create_future())
        with self._waiting_lock:
            self._waiting.append(waiting)
            queue = not self.group_commit or not self._flush_queued  # without grouping: a job per append
            self._flush_queued = True
        if queue:
            try:
                worker.submit(self._flush)
            except RuntimeError:  # the store closed meanwhile
                with self._waiting_lock:
                    self._waiting.remove(waiting)
                    self._flush_queued = False
                raise StoreError(f"{self!r} is not open") from None
        await waiting.done

    async def finish(self, table_id: str, result: JSONDict) -> None:
        text = check_result(table_id, result)
        await self._run("finish", self._finish, table_id, text)

    async def load(self, table_id: str) -> StoredTable | DamagedTable | None:
        return await self._run("load", self._load, table_id)

    async def load_active(self) -> list[StoredTable | DamagedTable]:
        _, tables = await self._run("load_active", self._read, 0, -1, False)
        return tables

    def iter_tables(self, batch: int = 200) -> AsyncIterator[StoredTable | DamagedTable]:
        return in_batches(lambda after, limit: self._run("iter_tables", self._read, after, limit, True), batch)

    async def list_tables(self, limit: int = 100, include_finished: bool = False) -> list[TableSummary]:
        if not isinstance(limit, int) or limit < 0:
            raise StoreError(f"limit must be a non-negative integer, not {limit!r}")
        return intact(await self._run("list_tables", self._list_tables, limit, include_finished), "list_tables")

    async def list_finished(self, limit: int = 20, before: tuple[float, str] | None = None) -> list[TableSummary]:
        check_page(limit, before)
        return intact(await self._run("list_finished", self._list_finished, limit, before), "list_finished")

    async def save_analysis(self, table_id: str, key: str, analysis: JSONDict) -> None:
        text = dump_json(analysis, f"table {table_id}: analysis {key}")
        await self._run("save_analysis", self._save_analysis, table_id, key, text)

    async def load_analysis(self, table_id: str, key: str) -> JSONDict | None:
        row = await self._run(
            "load_analysis",
            lambda con: con.execute(
                f"SELECT analysis FROM {ANALYSES} WHERE table_id = ? AND key = ?", (table_id, key)
            ).fetchone(),
        )
        return None if row is None else decode_analysis(table_id, key, row[0])

    async def claim_analysis(self, table_id: str, key: str, holder: str, now: float, until: float) -> bool:
        arguments = (table_id, key, holder, until, table_id, key, now)
        return bool(await self._run("claim_analysis", self._write, _CLAIM, arguments))

    async def release_analysis(self, table_id: str, key: str, holder: str) -> None:
        statement = f"DELETE FROM {ANALYSIS_CLAIMS} WHERE table_id = ? AND key = ? AND holder = ?"
        await self._run("release_analysis", self._write, statement, (table_id, key, holder))

    async def analysis_claimed(self, table_id: str, key: str, now: float) -> bool:
        query = f"SELECT 1 FROM {ANALYSIS_CLAIMS} WHERE table_id = ? AND key = ? AND claimed_until > ?"
        row = await self._run("analysis_claimed", lambda con: con.execute(query, (table_id, key, now)).fetchone())
        return row is not None

    async def save_push(self, table_id: str, seat: int, endpoint: str, keys: JSONDict, now: float) -> None:
        text = dump_json(keys, f"table {table_id}: push keys")
        await self._run("save_push", self._save_push, table_id, seat, endpoint, text, now)

    async def delete_push(self, table_id: str, seat: int, endpoint: str) -> bool:
        statement = f"DELETE FROM {PUSH} WHERE table_id = ? AND seat = ? AND endpoint = ?"
        return bool(await self._run("delete_push", self._write, statement, (table_id, seat, endpoint)))

    async def drop_push(self, endpoint: str) -> int:
        return await self._run("drop_push", self._write, f"DELETE FROM {PUSH} WHERE endpoint = ?", (endpoint,))

    async def claim_push(self, table_id: str, seat: int, told: int) -> list[tuple[str, JSONDict]]:
        def claim(con: sqlite3.Connection) -> list[tuple[str, str]]:
            with self._writing(con):
                return con.execute(_CLAIM_PUSH, (told, table_id, seat, told)).fetchall()

        return decode_push(await self._run("claim_push", claim))

    async def quick_check(self) -> list[str]:
        """What SQLite's ``PRAGMA quick_check`` finds wrong in the file's pages (an empty list: nothing)."""
        rows = await self._run("quick_check", lambda con: con.execute("PRAGMA quick_check").fetchall())
        return [line for (text,) in rows if text != "ok" for line in str(text).splitlines() if line.strip()]

    # --- in the worker thread: each call is one whole transaction -----------------------------------------------

    def _connect(self) -> None:
        target, uri = self.path, False
        if self.path != ":memory:" and not self.path.startswith("file:"):
            if os.path.exists(self.path) and os.path.getsize(self.path) == 0:
                raise StoreError(
                    f"{self.path} is empty (0 bytes): a store file is never empty, so it is likely a truncated one; "
                    "restore it from a backup, or remove it to start a new, empty store"
                )
            if not os.path.exists(self.path):
                self._create_file()
            target, uri = f"file:{urllib.parse.quote(os.path.abspath(self.path))}?mode=rw", True
        try:
            con = sqlite3.connect(target, timeout=self.busy_timeout, isolation_level=None, uri=uri)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the SQLite store {self.path}: {exc}") from exc
        try:
            self._prepare(con)
        except sqlite3.DatabaseError as exc:
            con.close()
            raise StoreError(
                f"{self.path} is not a usable laro store (not an SQLite database, or a damaged one): {exc}"
            ) from exc
        except BaseException:
            con.close()
            raise
        self._con = con

    def _create_file(self) -> None:
        """A new store file with its schema, put in place whole (a hard link, which never replaces a file), so
        that a file at the store's path is never empty, even while it is being made or if that is cut short."""
        folder = os.path.dirname(os.path.abspath(self.path))
        draft = os.path.join(folder, f".{os.path.basename(self.path)}.{secrets.token_hex(6)}.new")
        try:
            con = sqlite3.connect(draft, timeout=self.busy_timeout, isolation_level=None)
            try:
                self._prepare(con)
            finally:
                con.close()  # the last connection folds the WAL into the file
            try:
                os.link(draft, self.path)
            except FileExistsError:
                pass  # another store made it at the same moment: use theirs
            except OSError:  # a file system without hard links: let SQLite make the file in place
                pass
            else:
                descriptor = os.open(folder, os.O_RDONLY)
                try:
                    os.fsync(descriptor)
                finally:
                    os.close(descriptor)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the SQLite store {self.path}: {exc}") from exc
        finally:
            for leftover in (draft, f"{draft}-wal", f"{draft}-shm"):
                if os.path.exists(leftover):
                    os.remove(leftover)

    def _disconnect(self) -> None:
        con, self._con = self._con, None
        if con is not None:
            con.close()

    def _create_table(self, con: sqlite3.Connection, row: tuple[object, ...]) -> None:
        try:
            with self._writing(con):
                con.execute(f"INSERT INTO laro_tables ({_META}, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", row)
        except sqlite3.IntegrityError as exc:
            raise TableExists(f"a table with id {row[0]!r} exists already") from exc

    def _flush(self) -> None:
        """Commit the appends waiting now in one transaction (one fsync), each one checked on its own under a
        savepoint, so that a refused one leaves the others in; tell each caller once the commit is done. Without
        ``group_commit``, one append per transaction."""
        with self._waiting_lock:
            if self.group_commit:
                batch, self._waiting = self._waiting, []
            else:
                batch, self._waiting = self._waiting[:1], self._waiting[1:]
            self._flush_queued = False  # what comes from now on waits for the next flush
        outcomes: list[BaseException | None] = []
        try:
            if self._con is None:
                raise StoreError(f"{self!r} is not open")
            con = self._con
            with self._writing(con):
                for item in batch:
                    con.execute("SAVEPOINT laro_append")
                    try:
                        self._append(con, item.table_id, item.seq, item.got, item.text)
                    except StoreError as refused:
                        con.execute("ROLLBACK TO laro_append")
                        outcomes.append(refused)
                    else:
                        outcomes.append(None)
                    con.execute("RELEASE laro_append")
        except (StoreError, sqlite3.Error) as exc:  # nothing of this batch is committed
            failure = exc if isinstance(exc, StoreError) else _failure(self.path, "append", exc)
            outcomes = [failure] * len(batch)
        for item, outcome in zip(batch, outcomes, strict=True):
            with suppress(RuntimeError):  # the caller's event loop is closed: nobody is waiting
                item.loop.call_soon_threadsafe(_settle, item.done, outcome)

    def _append(self, con: sqlite3.Connection, table_id: str, seq: int, got: object, text: str) -> None:
        """One append inside the caller's transaction: move last_seq from seq - 1 to seq, then insert the event."""
        claimed = con.execute(
            "UPDATE laro_tables SET last_seq = ?, updated = ? WHERE id = ? AND last_seq = ? AND NOT finished",
            (seq, time.time(), table_id, seq - 1),
        ).rowcount
        if claimed != 1:
            raise refusal(table_id, got, _progress(con, table_id))
        try:
            con.execute("INSERT INTO laro_events (table_id, seq, event) VALUES (?, ?, ?)", (table_id, seq, text))
        except sqlite3.IntegrityError as exc:  # the log and last_seq disagree: refuse rather than overwrite
            raise StoreError(f"table {table_id}: event {seq} is stored already ({exc})") from exc

    def _finish(self, con: sqlite3.Connection, table_id: str, text: str) -> None:
        with self._writing(con):
            done = con.execute(
                "UPDATE laro_tables SET finished = 1, result = ?, updated = ? WHERE id = ? AND NOT finished",
                (text, time.time(), table_id),
            ).rowcount
            if done != 1:
                raise finish_refusal(table_id, _progress(con, table_id))

    def _save_analysis(self, con: sqlite3.Connection, table_id: str, key: str, text: str) -> None:
        with self._writing(con):
            if con.execute("SELECT 1 FROM laro_tables WHERE id = ?", (table_id,)).fetchone() is None:
                raise TableNotFound(f"no table {table_id!r}")
            con.execute(
                f"INSERT INTO {ANALYSES} (table_id, key, analysis, created) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (table_id, key) DO UPDATE SET analysis = excluded.analysis, created = excluded.created",
                (table_id, key, text, time.time()),
            )

    def _save_push(
        self, con: sqlite3.Connection, table_id: str, seat: int, endpoint: str, text: str, now: float
    ) -> None:
        with self._writing(con):
            if con.execute("SELECT 1 FROM laro_tables WHERE id = ?", (table_id,)).fetchone() is None:
                raise TableNotFound(f"no table {table_id!r}")
            con.execute(_SAVE_PUSH, (table_id, seat, endpoint, text, now))
            con.execute(_OLDEST_PUSH, (table_id, seat, table_id, seat))

    def _write(self, con: sqlite3.Connection, statement: str, arguments: tuple[object, ...]) -> int:
        """One statement in a write transaction of its own; the rows it changed."""
        with self._writing(con):
            return con.execute(statement, arguments).rowcount

    def _load(self, con: sqlite3.Connection, table_id: str) -> StoredTable | DamagedTable | None:
        with _transaction(con, "BEGIN"):
            row = con.execute(f"SELECT {_ROW} FROM laro_tables WHERE id = ?", (table_id,)).fetchone()
            if row is None:
                return None
            events = con.execute("SELECT seq, event FROM laro_events WHERE table_id = ? ORDER BY seq", (table_id,))
            return decode_table(row, events)

    def _read(
        self, con: sqlite3.Connection, after: int, limit: int, finished_too: bool
    ) -> tuple[int, list[StoredTable | DamagedTable]]:
        """The tables after position ``after`` in creation order, at most ``limit`` (-1: all), from one snapshot,
        and the position of the last one."""
        where = "t.n > ?" if finished_too else "t.n > ? AND NOT t.finished"
        with _transaction(con, "BEGIN"):
            rows = con.execute(
                f"SELECT {_T_ROW}, t.n FROM laro_tables AS t WHERE {where} ORDER BY t.n LIMIT ?",
                (after, limit),
            ).fetchall()
            if not rows:
                return after, []
            last = int(rows[-1][-1])
            events: dict[str, list[tuple[object, object]]] = {row[0]: [] for row in rows}
            for table_id, seq, text in con.execute(
                "SELECT e.table_id, e.seq, e.event FROM laro_events AS e JOIN laro_tables AS t ON t.id = e.table_id"
                f" WHERE {where} AND t.n <= ? ORDER BY t.n, e.seq",
                (after, last),
            ):
                events[table_id].append((seq, text))
            return last, [decode_table(row[:-1], events[row[0]]) for row in rows]

    def _list_tables(
        self, con: sqlite3.Connection, limit: int, include_finished: bool
    ) -> list[TableSummary | DamagedTable]:
        where = "" if include_finished else "WHERE NOT finished"
        rows = con.execute(
            f"SELECT {_ROW}, updated FROM laro_tables {where} ORDER BY n DESC LIMIT ?", (limit,)
        ).fetchall()
        return [summary_from_row(row) for row in rows]

    def _list_finished(
        self, con: sqlite3.Connection, limit: int, before: tuple[float, str] | None
    ) -> list[TableSummary | DamagedTable]:
        after = "" if before is None else "AND (updated, id) < (?, ?)"
        rows = con.execute(
            f"SELECT {_ROW}, updated FROM laro_tables WHERE finished {after} ORDER BY updated DESC, id DESC LIMIT ?",
            (*(before or ()), limit),
        ).fetchall()
        return [summary_from_row(row) for row in rows]

    @contextmanager
    def _writing(self, con: sqlite3.Connection) -> Iterator[None]:
        """One write transaction (counted in ``commits`` once committed)."""
        with _transaction(con):
            yield
        self.commits += 1

    async def _run(self, doing: str, job: Callable[..., T], *args: object) -> T:
        """``job(connection, *args)`` in the worker thread; sqlite3's errors as ``StoreError`` (ours pass through).

        A caller cancelled while its job runs does not stop the job: an append may still commit.
        """
        if self._worker is None:
            raise StoreError(f"{self!r} is not open")
        return await asyncio.get_running_loop().run_in_executor(self._worker, self._call, doing, job, *args)

    def _call(self, doing: str, job: Callable[..., T], *args: object) -> T:
        if self._con is None:
            raise StoreError(f"{self!r} is not open")
        try:
            return job(self._con, *args)
        except sqlite3.Error as exc:
            raise _failure(self.path, doing, exc) from exc

    def _prepare(self, con: sqlite3.Connection) -> None:
        """Journal and sync modes, then the schema: created in an empty file, migrated in an older one."""
        (mode,) = con.execute("PRAGMA journal_mode = WAL").fetchone()
        if str(mode).lower() not in ("wal", "memory"):
            raise StoreError(f"{self.path}: SQLite refused WAL journal mode (it kept {mode!r})")
        con.execute(f"PRAGMA synchronous = {self.synchronous}")
        con.execute("PRAGMA foreign_keys = ON")
        with _transaction(con):
            names = {name for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            missing = [name for name in _NEEDED if name not in names]
            if "laro_schema" not in names:
                if any(name.startswith("laro_") for name in names):
                    raise StoreError(f"{self.path} is a damaged laro store: its table laro_schema is missing")
                if names:
                    found = ", ".join(sorted(names))
                    raise StoreError(f"{self.path} is an SQLite database of something else (tables: {found})")
                for statement in [*_SCHEMA, *_BESIDE]:
                    con.execute(statement)
                con.execute("INSERT INTO laro_schema (version) VALUES (?)", (SCHEMA_VERSION,))
                return
            row = con.execute("SELECT max(version) FROM laro_schema").fetchone()
            version = row[0] if row else None
            if not isinstance(version, int):
                raise StoreError(f"{self.path}: the laro schema version is missing")
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"{self.path} was written by a newer laro (store schema {version}; this one knows "
                    f"{SCHEMA_VERSION}): upgrade laro"
                )
            if missing:
                raise StoreError(f"{self.path} is a damaged laro store: its table {', '.join(missing)} is missing")
            # migrations from older versions go here, one step per version, when there are any
            for statement in _BESIDE:
                con.execute(statement)


@contextmanager
def _transaction(con: sqlite3.Connection, begin: str = "BEGIN IMMEDIATE") -> Iterator[None]:
    """One transaction: committed if the block ends normally, rolled back otherwise.

    Writers begin IMMEDIATE, taking the write lock first, so a seq check and its insert see the same log; readers
    begin a deferred transaction, so everything they read comes from one snapshot.
    """
    con.execute(begin)
    try:
        yield
        con.execute("COMMIT")
    except BaseException:
        if con.in_transaction:
            con.execute("ROLLBACK")
        raise


@dataclass(slots=True)
class _Append:
    """An append waiting for the worker, and how to tell its caller."""

    table_id: str
    seq: int
    got: object  # the seq as the caller gave it, for the refusal's message
    text: str
    loop: asyncio.AbstractEventLoop
    done: asyncio.Future[None]


def _settle(done: asyncio.Future[None], outcome: BaseException | None) -> None:
    """In the caller's event loop: the append's result (a caller that stopped waiting is not told)."""
    if done.done():
        return
    if outcome is None:
        done.set_result(None)
    else:
        done.set_exception(outcome)


def _failure(path: str, doing: str, exc: sqlite3.Error) -> StoreError:
    """sqlite3's error in one line naming the file, saying plainly when the file itself is damaged."""
    if type(exc) is sqlite3.DatabaseError or "malformed" in str(exc):
        return StoreError(f"the SQLite store {path} is damaged ({doing} failed: {exc}): restore it from a backup")
    return StoreError(f"SQLite store {path}: {doing} failed: {exc}")


def _progress(con: sqlite3.Connection, table_id: str) -> tuple[int, int] | None:
    row: tuple[int, int] | None = con.execute(
        "SELECT last_seq, finished FROM laro_tables WHERE id = ?", (table_id,)
    ).fetchone()
    return row
