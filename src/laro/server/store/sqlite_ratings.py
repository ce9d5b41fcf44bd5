"""Ratings in the SQLite store (see :mod:`.ratings`), run in the store's worker: one game rated per transaction."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any

from .base import TableSummary, intact, summary_from_row
from .ratings import Compute, Placed, RatingChange, RatingRow, updates

if TYPE_CHECKING:
    from .sqlite import SQLiteStore

__all__ = ["SCHEMA", "SQLiteRatings"]

SCHEMA = [
    """CREATE TABLE IF NOT EXISTS laro_rated (
        table_id TEXT PRIMARY KEY REFERENCES laro_tables (id),
        rated INTEGER NOT NULL,
        at REAL NOT NULL
    ) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS laro_ratings (
        subject TEXT NOT NULL,
        game TEXT NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        games INTEGER NOT NULL,
        updated REAL NOT NULL,
        PRIMARY KEY (subject, game)
    ) WITHOUT ROWID""",
    "CREATE INDEX IF NOT EXISTS laro_ratings_board ON laro_ratings (game, (mu - 3 * sigma))",
    """CREATE TABLE IF NOT EXISTS laro_rating_changes (
        table_id TEXT NOT NULL REFERENCES laro_tables (id),
        seat INTEGER NOT NULL,
        subject TEXT NOT NULL,
        game TEXT NOT NULL,
        place INTEGER NOT NULL,
        mu_before REAL NOT NULL,
        sigma_before REAL NOT NULL,
        mu_after REAL NOT NULL,
        sigma_after REAL NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (table_id, seat)
    ) WITHOUT ROWID""",
    "CREATE INDEX IF NOT EXISTS laro_rating_changes_subject ON laro_rating_changes (subject, at)",
]
# the name a player is shown under: an account's name, a bot's level, or (an account deleted) a neutral one
_NAME = (
    "CASE WHEN substr({0}.subject, 1, 4) = 'bot:' THEN substr({0}.subject, 5)"
    " ELSE COALESCE(a.name, 'former player') END"
)
_ACCOUNT = "LEFT JOIN laro_accounts AS a ON {0}.subject = 'person:' || a.id"
CHANGES = (
    f"SELECT c.table_id, c.game, c.at, c.seat, c.subject, {_NAME.format('c')}, c.place, c.mu_before, c.sigma_before,"
    f" c.mu_after, c.sigma_after FROM laro_rating_changes AS c {_ACCOUNT.format('c')}"
)
ROWS = (
    f"SELECT r.subject, {_NAME.format('r')}, r.game, r.mu, r.sigma, r.games"
    f" FROM laro_ratings AS r {_ACCOUNT.format('r')}"
)


def change(row: Any) -> RatingChange:
    table_id, game, at, seat, subject, name, place, mu_before, sigma_before, mu_after, sigma_after = row
    return RatingChange(
        table_id, game, at, seat, subject, name, place, (mu_before, sigma_before), (mu_after, sigma_after)
    )


class SQLiteRatings:
    """The ratings of one :class:`~laro.server.store.sqlite.SQLiteStore` (its ``ratings``)."""

    def __init__(self, store: SQLiteStore) -> None:
        self._store = store

    async def unrated(self, limit: int) -> list[TableSummary]:
        from .sqlite import _ROW as TABLE_ROW

        query = (
            f"SELECT {TABLE_ROW}, updated FROM laro_tables AS t WHERE finished"
            " AND NOT EXISTS (SELECT 1 FROM laro_rated AS r WHERE r.table_id = t.id) ORDER BY updated, id LIMIT ?"
        )
        rows = await self._store._run("find unrated games", lambda con: con.execute(query, (limit,)).fetchall())
        return intact([summary_from_row(row) for row in rows], "find unrated games")

    async def holders(self, table_id: str) -> dict[int, str]:
        query = "SELECT seat, account_id FROM laro_account_seats WHERE table_id = ?"
        rows = await self._store._run("read a table's accounts", lambda con: con.execute(query, (table_id,)).fetchall())
        return {int(seat): str(account) for seat, account in rows}

    async def rate(self, table_id: str, game: str, at: float, placed: list[Placed] | None, compute: Compute) -> bool:
        return await self._store._run("rate a game", self._rate, table_id, game, at, placed, compute)

    async def of(self, subject: str) -> list[RatingRow]:
        query = f"{ROWS} WHERE r.subject = ? ORDER BY r.game"
        rows = await self._store._run("read ratings", lambda con: con.execute(query, (subject,)).fetchall())
        return [RatingRow(*row) for row in rows]

    async def changes(
        self, subject: str | None = None, table_id: str | None = None, limit: int = 50
    ) -> list[RatingChange]:
        where, value = ("c.subject = ?", subject) if subject is not None else ("c.table_id = ?", table_id)
        query = f"{CHANGES} WHERE {where} ORDER BY c.at DESC, c.table_id, c.seat LIMIT ?"
        rows = await self._store._run("read rating changes", lambda con: con.execute(query, (value, limit)).fetchall())
        return [change(row) for row in rows]

    async def board(self, game: str, limit: int, offset: int) -> list[RatingRow]:
        query = f"{ROWS} WHERE r.game = ? ORDER BY r.mu - 3 * r.sigma DESC, r.subject LIMIT ? OFFSET ?"
        rows = await self._store._run(
            "read a leaderboard", lambda con: con.execute(query, (game, limit, offset)).fetchall()
        )
        return [RatingRow(*row) for row in rows]

    def _rate(
        self,
        con: sqlite3.Connection,
        table_id: str,
        game: str,
        at: float,
        placed: list[Placed] | None,
        compute: Compute,
    ) -> bool:
        with self._store._writing(con):
            looked = con.execute(
                "INSERT INTO laro_rated (table_id, rated, at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                (table_id, placed is not None, at),
            ).rowcount
            if not looked or placed is None:
                return bool(looked)
            subjects = sorted({seat.subject for seat in placed})
            marks = ", ".join("?" * len(subjects))
            before = {
                subject: (mu, sigma)
                for subject, mu, sigma in con.execute(
                    f"SELECT subject, mu, sigma FROM laro_ratings WHERE game = ? AND subject IN ({marks})",
                    (game, *subjects),
                )
            }
            rows, new = updates(placed, before, compute)
            con.executemany(
                "INSERT INTO laro_rating_changes VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(table_id, seat, subject, game, place, *start, *end, at) for seat, subject, place, start, end in rows],
            )
            con.executemany(
                "INSERT INTO laro_ratings (subject, game, mu, sigma, games, updated) VALUES (?, ?, ?, ?, 1, ?)"
                " ON CONFLICT (subject, game) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
                " games = laro_ratings.games + 1, updated = excluded.updated",
                [(subject, game, mu, sigma, at) for subject, (mu, sigma) in new.items()],
            )
        return True
