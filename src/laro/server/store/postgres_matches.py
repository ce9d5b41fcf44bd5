"""The quick-match queue in the PostgreSQL store (see :mod:`.matches`), on the store's pool. Every process of a
cluster reads the same queue; a claim is one ``UPDATE`` in a transaction, and a row another transaction claimed
meanwhile is seen again once that one commits (READ COMMITTED), so two processes never claim one ticket."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import psycopg

from .matches import Ticket

if TYPE_CHECKING:
    from .postgres import PostgresStore

__all__ = ["SCHEMA", "PostgresMatches"]

SCHEMA = [
    """CREATE TABLE IF NOT EXISTS laro_match_queue (
        account_id text PRIMARY KEY REFERENCES laro_accounts (id) ON DELETE CASCADE,
        name text NOT NULL,
        game text NOT NULL,
        players integer NOT NULL,
        clock text NOT NULL,
        rating integer NOT NULL,
        bots_after double precision,
        joined double precision NOT NULL,
        holder text,
        held_until double precision NOT NULL DEFAULT 0,
        table_id text,
        seat integer,
        token text
    )""",
    "CREATE INDEX IF NOT EXISTS laro_match_queue_waiting ON laro_match_queue (table_id, joined)",
]
_COLUMNS = "account_id, name, game, players, clock, rating, bots_after, joined, table_id, seat, token"
_ENTER = f"""
    INSERT INTO laro_match_queue ({_COLUMNS}, holder, held_until)
    VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, NULL, 0)
    ON CONFLICT (account_id) DO UPDATE SET name = excluded.name, game = excluded.game, players = excluded.players,
        clock = excluded.clock, rating = excluded.rating, bots_after = excluded.bots_after, joined = excluded.joined,
        table_id = excluded.table_id, seat = excluded.seat, token = excluded.token, holder = NULL, held_until = 0
"""


def _ticket(row: Any) -> Ticket:
    return Ticket(
        str(row[0]), str(row[1]), str(row[2]), int(row[3]), str(row[4]), int(row[5]),
        None if row[6] is None else float(row[6]), float(row[7]),
        None if row[8] is None else str(row[8]), None if row[9] is None else int(row[9]),
        None if row[10] is None else str(row[10]),
    )  # fmt: skip


class PostgresMatches:
    """The quick-match queue of one :class:`~laro.server.store.postgres.PostgresStore` (its ``matches``)."""

    def __init__(self, store: PostgresStore) -> None:
        self._store = store

    async def enter(self, ticket: Ticket) -> None:
        row = (
            ticket.account_id, ticket.name, ticket.game, ticket.players, ticket.clock, ticket.rating,
            ticket.bots_after, ticket.joined, ticket.table_id, ticket.seat, ticket.token,
        )  # fmt: skip
        async with self._store._connection("enter the match queue") as con:
            await con.execute(_ENTER, row)

    async def leave(self, account_id: str) -> bool:
        async with self._store._connection("leave the match queue") as con:
            cursor = await con.execute("DELETE FROM laro_match_queue WHERE account_id = %s", (account_id,))
            return cursor.rowcount > 0

    async def ticket(self, account_id: str) -> Ticket | None:
        async with self._store._connection("read a match ticket") as con:
            cursor = await con.execute(f"SELECT {_COLUMNS} FROM laro_match_queue WHERE account_id = %s", (account_id,))
            row = await cursor.fetchone()
        return None if row is None else _ticket(row)

    async def waiting(self, now: float) -> list[Ticket]:
        async with self._store._connection("read the match queue") as con:
            cursor = await con.execute(
                f"SELECT {_COLUMNS} FROM laro_match_queue WHERE table_id IS NULL AND held_until <= %s"
                " ORDER BY joined, account_id",
                (now,),
            )
            rows = await cursor.fetchall()
        return [_ticket(row) for row in rows]

    async def claim(self, account_ids: list[str], holder: str, now: float, until: float) -> bool:
        async with self._store._connection("claim match tickets") as con, con.transaction():
            cursor = await con.execute(
                "UPDATE laro_match_queue SET holder = %s, held_until = %s"
                " WHERE table_id IS NULL AND held_until <= %s AND account_id = ANY(%s)",
                (holder, until, now, account_ids),
            )
            if cursor.rowcount != len(set(account_ids)):
                raise psycopg.Rollback()  # one of them is gone or someone else's: claim none
            return True
        return False

    async def seat(self, holder: str, seats: list[tuple[str, str, int, str]]) -> None:
        async with self._store._connection("seat match tickets") as con, con.transaction():
            for account_id, table_id, seat, token in seats:
                await con.execute(
                    "UPDATE laro_match_queue SET table_id = %s, seat = %s, token = %s, held_until = 0"
                    " WHERE account_id = %s AND holder = %s",
                    (table_id, seat, token, account_id, holder),
                )

    async def release(self, holder: str, account_ids: list[str]) -> None:
        async with self._store._connection("release match tickets") as con:
            await con.execute(
                "UPDATE laro_match_queue SET holder = NULL, held_until = 0"
                " WHERE holder = %s AND table_id IS NULL AND account_id = ANY(%s)",
                (holder, account_ids),
            )

    async def counts(self) -> dict[str, int]:
        async with self._store._connection("count the match queue") as con:
            cursor = await con.execute(
                "SELECT game, count(*) FROM laro_match_queue WHERE table_id IS NULL GROUP BY game"
            )
            rows = await cursor.fetchall()
        return {str(game): int(count) for game, count in rows}
