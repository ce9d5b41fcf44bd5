"""Accounts, sessions and the seats they hold in the SQLite store (see :mod:`.people`), run in the store's worker.

>>> import asyncio
>>> from laro.server.store.sqlite import SQLiteStore
>>> async def demo() -> tuple[str | None, bool]:
...     async with SQLiteStore(":memory:") as store:
...         await store.accounts.create(Account("a1", "Ana", 0.0), "ana", "$argon2id$…")
...         await store.accounts.start_session("h1", "a1", now=0.0, until=10.0)
...         found = await store.accounts.session("h1", now=5.0)
...         return (found.name if found else None), await store.accounts.session("h1", now=11.0) is None
>>> asyncio.run(demo())
('Ana', True)
"""

from __future__ import annotations

import secrets
import sqlite3
from typing import TYPE_CHECKING

from .people import NEUTRAL_NAME, Account, AccountExists, Login, SeatLink

if TYPE_CHECKING:
    from .sqlite import SQLiteStore

__all__ = ["SCHEMA", "SQLiteAccounts"]

SCHEMA = [
    """CREATE TABLE IF NOT EXISTS laro_accounts (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        created REAL NOT NULL
    ) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS laro_sessions (
        secret_hash TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES laro_accounts (id) ON DELETE CASCADE,
        created REAL NOT NULL,
        expires REAL NOT NULL
    ) WITHOUT ROWID""",
    "CREATE INDEX IF NOT EXISTS laro_sessions_account ON laro_sessions (account_id)",
    """CREATE TABLE IF NOT EXISTS laro_account_seats (
        table_id TEXT NOT NULL REFERENCES laro_tables (id),
        seat INTEGER NOT NULL,
        account_id TEXT NOT NULL REFERENCES laro_accounts (id) ON DELETE CASCADE,
        token TEXT NOT NULL,
        created REAL NOT NULL,
        PRIMARY KEY (table_id, seat)
    ) WITHOUT ROWID""",
    "CREATE INDEX IF NOT EXISTS laro_account_seats_account ON laro_account_seats (account_id, created)",
]

_RENAME_JOINS = """
    UPDATE laro_events SET event = json_set(event, '$.name', ?)
    WHERE table_id = ? AND json_extract(event, '$.type') = 'join' AND json_extract(event, '$.seat') = ?
"""
_RENAME_RESULT = """
    UPDATE laro_tables SET result = json_set(result, '$.players[' || ? || ']', ?)
    WHERE id = ? AND result IS NOT NULL AND json_type(result, '$.players') = 'array'
"""


class SQLiteAccounts:
    """The accounts of one :class:`~laro.server.store.sqlite.SQLiteStore` (its ``accounts``)."""

    def __init__(self, store: SQLiteStore) -> None:
        self._store = store

    async def create(self, account: Account, key: str, password_hash: str) -> None:
        row = (account.id, account.name, key, password_hash, account.created)
        await self._store._run("create an account", self._create, row)

    async def login(self, key: str) -> Login | None:
        query = "SELECT id, name, created, password_hash FROM laro_accounts WHERE name_key = ?"
        row = await self._store._run("sign in", lambda con: con.execute(query, (key,)).fetchone())
        return None if row is None else Login(Account(row[0], row[1], row[2]), row[3])

    async def delete(self, account_id: str) -> list[tuple[str, int]]:
        return await self._store._run("delete an account", self._delete, account_id)

    async def start_session(self, secret_hash: str, account_id: str, now: float, until: float) -> None:
        await self._store._run("start a session", self._start_session, secret_hash, account_id, now, until)

    async def session(self, secret_hash: str, now: float) -> Account | None:
        query = (
            "SELECT a.id, a.name, a.created FROM laro_sessions AS s JOIN laro_accounts AS a ON a.id = s.account_id"
            " WHERE s.secret_hash = ? AND s.expires > ?"
        )
        row = await self._store._run("read a session", lambda con: con.execute(query, (secret_hash, now)).fetchone())
        return None if row is None else Account(row[0], row[1], row[2])

    async def end_session(self, secret_hash: str) -> None:
        statement = "DELETE FROM laro_sessions WHERE secret_hash = ?"
        await self._store._run("end a session", self._store._write, statement, (secret_hash,))

    async def hold_seat(self, account_id: str, table_id: str, seat: int, token: str, now: float) -> None:
        statement = (
            "INSERT INTO laro_account_seats (table_id, seat, account_id, token, created) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (table_id, seat) DO UPDATE SET account_id = excluded.account_id, token = excluded.token,"
            " created = excluded.created"
        )
        await self._store._run("hold a seat", self._store._write, statement, (table_id, seat, account_id, token, now))

    async def seats(self, account_id: str, limit: int) -> list[SeatLink]:
        query = (
            "SELECT table_id, seat, token, created FROM laro_account_seats WHERE account_id = ?"
            " ORDER BY created DESC, table_id LIMIT ?"
        )
        rows = await self._store._run(
            "read an account's seats", lambda con: con.execute(query, (account_id, limit)).fetchall()
        )
        return [SeatLink(*row) for row in rows]

    # --- in the store's worker thread -----------------------------------------------------------------------------

    def _create(self, con: sqlite3.Connection, row: tuple[object, ...]) -> None:
        try:
            with self._store._writing(con):
                con.execute(
                    "INSERT INTO laro_accounts (id, name, name_key, password_hash, created) VALUES (?, ?, ?, ?, ?)", row
                )
        except sqlite3.IntegrityError as exc:
            raise AccountExists(f"the name {row[1]!r} is taken") from exc

    def _delete(self, con: sqlite3.Connection, account_id: str) -> list[tuple[str, int]]:
        with self._store._writing(con):
            held = con.execute(
                "SELECT table_id, seat FROM laro_account_seats WHERE account_id = ? ORDER BY table_id, seat",
                (account_id,),
            ).fetchall()
            for table_id, seat in held:
                con.execute(_RENAME_JOINS, (NEUTRAL_NAME, table_id, seat))
                con.execute(_RENAME_RESULT, (seat, NEUTRAL_NAME, table_id))
            subject = f"person:{account_id}"  # its ratings go; its games' changes stay, under no name
            con.execute("DELETE FROM laro_ratings WHERE subject = ?", (subject,))
            con.execute(
                "UPDATE laro_rating_changes SET subject = ? WHERE subject = ?",
                (f"former:{secrets.token_hex(8)}", subject),
            )
            con.execute("DELETE FROM laro_accounts WHERE id = ?", (account_id,))  # sessions and seats go with it
        return [(str(table_id), int(seat)) for table_id, seat in held]

    def _start_session(
        self, con: sqlite3.Connection, secret_hash: str, account_id: str, now: float, until: float
    ) -> None:
        with self._store._writing(con):
            con.execute("DELETE FROM laro_sessions WHERE account_id = ? AND expires <= ?", (account_id, now))
            con.execute(
                "INSERT INTO laro_sessions (secret_hash, account_id, created, expires) VALUES (?, ?, ?, ?)",
                (secret_hash, account_id, now, until),
            )
