"""The quick-match queue in the SQLite store (see :mod:`.matches`), run in the store's worker: each call one
transaction, and SQLite's write lock keeps the claims of several stores on one file apart.

>>> import asyncio
>>> from laro.server.store.sqlite import SQLiteStore
>>> async def demo() -> tuple[bool, bool, int]:
...     async with SQLiteStore(":memory:") as store:
...         await store.accounts.create(Account("a1", "Ana", 0.0), "ana", "$argon2id$…")
...         await store.matches.enter(Ticket("a1", "Ana", "lama", 2, "null", 1000, None, 0.0))
...         first = await store.matches.claim(["a1"], "p1", now=1.0, until=10.0)
...         second = await store.matches.claim(["a1"], "p2", now=2.0, until=10.0)
...         return first, second, len(await store.matches.waiting(now=11.0))
>>> asyncio.run(demo())
(True, False, 1)
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from .matches import Ticket
from .people import Account  # noqa: F401  (the example's)

if TYPE_CHECKING:
    from .sqlite import SQLiteStore

__all__ = ["SCHEMA", "SQLiteMatches"]

SCHEMA = [
    """CREATE TABLE IF NOT EXISTS laro_match_queue (
        account_id TEXT PRIMARY KEY REFERENCES laro_accounts (id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        game TEXT NOT NULL,
        players INTEGER NOT NULL,
        clock TEXT NOT NULL,
        rating INTEGER NOT NULL,
        bots_after REAL,
        joined REAL NOT NULL,
        holder TEXT,
        held_until REAL NOT NULL DEFAULT 0,
        table_id TEXT,
        seat INTEGER,
        token TEXT
    ) WITHOUT ROWID""",
    "CREATE INDEX IF NOT EXISTS laro_match_queue_waiting ON laro_match_queue (table_id, joined)",
]
_COLUMNS = "account_id, name, game, players, clock, rating, bots_after, joined, table_id, seat, token"
_ENTER = f"""
    INSERT OR REPLACE INTO laro_match_queue ({_COLUMNS}, holder, held_until)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, 0)
"""


class _Taken(Exception):
    """A ticket of a claim was not there to claim."""


class SQLiteMatches:
    """The quick-match queue of one :class:`~laro.server.store.sqlite.SQLiteStore` (its ``matches``)."""

    def __init__(self, store: SQLiteStore) -> None:
        self._store = store

    async def enter(self, ticket: Ticket) -> None:
        row = (
            ticket.account_id, ticket.name, ticket.game, ticket.players, ticket.clock, ticket.rating,
            ticket.bots_after, ticket.joined, ticket.table_id, ticket.seat, ticket.token,
        )  # fmt: skip
        await self._store._run("enter the match queue", self._store._write, _ENTER, row)

    async def leave(self, account_id: str) -> bool:
        statement = "DELETE FROM laro_match_queue WHERE account_id = ?"
        return await self._store._run("leave the match queue", self._store._write, statement, (account_id,)) > 0

    async def ticket(self, account_id: str) -> Ticket | None:
        query = f"SELECT {_COLUMNS} FROM laro_match_queue WHERE account_id = ?"
        row = await self._store._run("read a match ticket", lambda con: con.execute(query, (account_id,)).fetchone())
        return None if row is None else Ticket(*row)

    async def waiting(self, now: float) -> list[Ticket]:
        query = (
            f"SELECT {_COLUMNS} FROM laro_match_queue WHERE table_id IS NULL AND held_until <= ?"
            " ORDER BY joined, account_id"
        )
        rows = await self._store._run("read the match queue", lambda con: con.execute(query, (now,)).fetchall())
        return [Ticket(*row) for row in rows]

    async def claim(self, account_ids: list[str], holder: str, now: float, until: float) -> bool:
        return await self._store._run("claim match tickets", self._claim, account_ids, holder, now, until)

    async def seat(self, holder: str, seats: list[tuple[str, str, int, str]]) -> None:
        await self._store._run("seat match tickets", self._seat, holder, seats)

    async def release(self, holder: str, account_ids: list[str]) -> None:
        marks = ", ".join("?" * len(account_ids))
        statement = (
            "UPDATE laro_match_queue SET holder = NULL, held_until = 0"
            f" WHERE holder = ? AND table_id IS NULL AND account_id IN ({marks})"
        )
        await self._store._run("release match tickets", self._store._write, statement, (holder, *account_ids))

    async def counts(self) -> dict[str, int]:
        query = "SELECT game, count(*) FROM laro_match_queue WHERE table_id IS NULL GROUP BY game"
        rows = await self._store._run("count the match queue", lambda con: con.execute(query).fetchall())
        return {str(game): int(count) for game, count in rows}

    # --- in the store's worker thread -----------------------------------------------------------------------------

    def _claim(self, con: sqlite3.Connection, account_ids: list[str], holder: str, now: float, until: float) -> bool:
        marks = ", ".join("?" * len(account_ids))
        try:
            with self._store._writing(con):
                claimed = con.execute(
                    "UPDATE laro_match_queue SET holder = ?, held_until = ?"
                    f" WHERE table_id IS NULL AND held_until <= ? AND account_id IN ({marks})",
                    (holder, until, now, *account_ids),
                ).rowcount
                if claimed != len(set(account_ids)):
                    raise _Taken  # one of them is gone or someone else's: claim none (rolled back)
        except _Taken:
            return False
        return True

    def _seat(self, con: sqlite3.Connection, holder: str, seats: list[tuple[str, str, int, str]]) -> None:
        with self._store._writing(con):
            for account_id, table_id, seat, token in seats:
                con.execute(
                    "UPDATE laro_match_queue SET table_id = ?, seat = ?, token = ?, held_until = 0"
                    " WHERE account_id = ? AND holder = ?",
                    (table_id, seat, token, account_id, holder),
                )
