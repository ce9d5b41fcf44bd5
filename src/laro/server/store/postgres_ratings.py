"""Ratings in the PostgreSQL store (see :mod:`.ratings`): one game rated per transaction, under an advisory lock,
so that processes rating games of the same players at once do not lose each other's changes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import TableSummary, intact, summary_from_row
from .ratings import Compute, Placed, RatingChange, RatingRow, updates
from .sqlite_ratings import CHANGES, ROWS, change

if TYPE_CHECKING:
    from .postgres import PostgresStore

__all__ = ["SCHEMA", "PostgresRatings"]

SCHEMA = [
    """CREATE TABLE IF NOT EXISTS laro_rated (
        table_id text PRIMARY KEY REFERENCES laro_tables (id),
        rated boolean NOT NULL,
        at double precision NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS laro_ratings (
        subject text NOT NULL,
        game text NOT NULL,
        mu double precision NOT NULL,
        sigma double precision NOT NULL,
        games integer NOT NULL,
        updated double precision NOT NULL,
        PRIMARY KEY (subject, game)
    )""",
    "CREATE INDEX IF NOT EXISTS laro_ratings_board ON laro_ratings (game, (mu - 3 * sigma) DESC)",
    """CREATE TABLE IF NOT EXISTS laro_rating_changes (
        table_id text NOT NULL REFERENCES laro_tables (id),
        seat integer NOT NULL,
        subject text NOT NULL,
        game text NOT NULL,
        place integer NOT NULL,
        mu_before double precision NOT NULL,
        sigma_before double precision NOT NULL,
        mu_after double precision NOT NULL,
        sigma_after double precision NOT NULL,
        at double precision NOT NULL,
        PRIMARY KEY (table_id, seat)
    )""",
    "CREATE INDEX IF NOT EXISTS laro_rating_changes_subject ON laro_rating_changes (subject, at)",
]

_RATING_LOCK = 0x6C61726F_72617465  # advisory lock key held while a game is rated


class PostgresRatings:
    """The ratings of one :class:`~laro.server.store.postgres.PostgresStore` (its ``ratings``)."""

    def __init__(self, store: PostgresStore) -> None:
        self._store = store

    async def unrated(self, limit: int) -> list[TableSummary]:
        from .postgres import _ROW as TABLE_ROW

        async with self._store._connection("find unrated games") as con:
            cursor = await con.execute(
                f"SELECT {TABLE_ROW}, updated FROM laro_tables AS t WHERE finished AND NOT EXISTS"
                " (SELECT 1 FROM laro_rated AS r WHERE r.table_id = t.id) ORDER BY updated, id LIMIT %s",
                (limit,),
            )
            rows = await cursor.fetchall()
        return intact([summary_from_row(row) for row in rows], "find unrated games")

    async def holders(self, table_id: str) -> dict[int, str]:
        async with self._store._connection("read a table's accounts") as con:
            cursor = await con.execute(
                "SELECT seat, account_id FROM laro_account_seats WHERE table_id = %s", (table_id,)
            )
            return {int(seat): str(account) for seat, account in await cursor.fetchall()}

    async def rate(self, table_id: str, game: str, at: float, placed: list[Placed] | None, compute: Compute) -> bool:
        async with self._store._connection("rate a game") as con, con.transaction():
            await con.execute("SELECT pg_advisory_xact_lock(%s)", (_RATING_LOCK,))
            cursor = await con.execute(
                "INSERT INTO laro_rated (table_id, rated, at) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                (table_id, placed is not None, at),
            )
            if cursor.rowcount != 1 or placed is None:
                return cursor.rowcount == 1
            cursor = await con.execute(
                "SELECT subject, mu, sigma FROM laro_ratings WHERE game = %s AND subject = ANY(%s)",
                (game, sorted({seat.subject for seat in placed})),
            )
            before = {subject: (mu, sigma) for subject, mu, sigma in await cursor.fetchall()}
            rows, new = updates(placed, before, compute)
            async with con.cursor() as many:
                await many.executemany(
                    "INSERT INTO laro_rating_changes VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                    [
                        (table_id, seat, subject, game, place, *start, *end, at)
                        for seat, subject, place, start, end in rows
                    ],
                )
                await many.executemany(
                    "INSERT INTO laro_ratings (subject, game, mu, sigma, games, updated) VALUES (%s, %s, %s, %s, 1, %s)"
                    " ON CONFLICT (subject, game) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
                    " games = laro_ratings.games + 1, updated = excluded.updated",
                    [(subject, game, mu, sigma, at) for subject, (mu, sigma) in new.items()],
                )
        return True

    async def of(self, subject: str) -> list[RatingRow]:
        async with self._store._connection("read ratings") as con:
            cursor = await con.execute(f"{ROWS} WHERE r.subject = %s ORDER BY r.game", (subject,))
            return [RatingRow(*row) for row in await cursor.fetchall()]

    async def changes(
        self, subject: str | None = None, table_id: str | None = None, limit: int = 50
    ) -> list[RatingChange]:
        where, value = ("c.subject = %s", subject) if subject is not None else ("c.table_id = %s", table_id)
        async with self._store._connection("read rating changes") as con:
            cursor = await con.execute(
                f"{CHANGES} WHERE {where} ORDER BY c.at DESC, c.table_id, c.seat LIMIT %s", (value, limit)
            )
            return [change(row) for row in await cursor.fetchall()]

    async def board(self, game: str, limit: int, offset: int) -> list[RatingRow]:
        async with self._store._connection("read a leaderboard") as con:
            cursor = await con.execute(
                f"{ROWS} WHERE r.game = %s ORDER BY r.mu - 3 * r.sigma DESC, r.subject LIMIT %s OFFSET %s",
                (game, limit, offset),
            )
            return [RatingRow(*row) for row in await cursor.fetchall()]
