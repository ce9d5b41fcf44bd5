"""Accounts, sessions and the seats they hold in the PostgreSQL store (see :mod:`.people`), on the store's pool.

Every process of a cluster reads the same rows, so a session ended on one is ended on all of them at once.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

import psycopg

from .people import NEUTRAL_NAME, Account, AccountExists, Login, SeatLink

if TYPE_CHECKING:
    from .postgres import PostgresStore

__all__ = ["SCHEMA", "PostgresAccounts"]

SCHEMA = [
    """CREATE TABLE IF NOT EXISTS laro_accounts (
        id text PRIMARY KEY,
        name text NOT NULL,
        name_key text NOT NULL UNIQUE,
        password_hash text NOT NULL,
        created double precision NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS laro_sessions (
        secret_hash text PRIMARY KEY,
        account_id text NOT NULL REFERENCES laro_accounts (id) ON DELETE CASCADE,
        created double precision NOT NULL,
        expires double precision NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS laro_sessions_account ON laro_sessions (account_id)",
    """CREATE TABLE IF NOT EXISTS laro_account_seats (
        table_id text NOT NULL REFERENCES laro_tables (id),
        seat integer NOT NULL,
        account_id text NOT NULL REFERENCES laro_accounts (id) ON DELETE CASCADE,
        token text NOT NULL,
        created double precision NOT NULL,
        PRIMARY KEY (table_id, seat)
    )""",
    "CREATE INDEX IF NOT EXISTS laro_account_seats_account ON laro_account_seats (account_id, created)",
]

_RENAME_JOINS = """
    UPDATE laro_events SET event = jsonb_set(event, '{name}', to_jsonb(%(name)s::text))
    WHERE table_id = %(id)s AND event->>'type' = 'join' AND event->'seat' = to_jsonb(%(seat)s::integer)
"""
_RENAME_RESULT = """
    UPDATE laro_tables SET result = jsonb_set(result, ARRAY['players', %(seat)s::text], to_jsonb(%(name)s::text))
    WHERE id = %(id)s AND jsonb_typeof(result->'players') = 'array'
"""


class PostgresAccounts:
    """The accounts of one :class:`~laro.server.store.postgres.PostgresStore` (its ``accounts``)."""

    def __init__(self, store: PostgresStore) -> None:
        self._store = store

    async def create(self, account: Account, key: str, password_hash: str) -> None:
        async with self._store._connection("create an account") as con:
            try:
                await con.execute(
                    "INSERT INTO laro_accounts (id, name, name_key, password_hash, created)"
                    " VALUES (%s, %s, %s, %s, %s)",
                    (account.id, account.name, key, password_hash, account.created),
                )
            except psycopg.errors.UniqueViolation as exc:
                raise AccountExists(f"the name {account.name!r} is taken") from exc

    async def login(self, key: str) -> Login | None:
        async with self._store._connection("sign in") as con:
            cursor = await con.execute(
                "SELECT id, name, created, password_hash FROM laro_accounts WHERE name_key = %s", (key,)
            )
            row = await cursor.fetchone()
        return None if row is None else Login(Account(row[0], row[1], row[2]), row[3])

    async def delete(self, account_id: str) -> list[tuple[str, int]]:
        async with self._store._connection("delete an account") as con, con.transaction():
            cursor = await con.execute(
                "SELECT table_id, seat FROM laro_account_seats WHERE account_id = %s ORDER BY table_id, seat",
                (account_id,),
            )
            held = [(str(table_id), int(seat)) for table_id, seat in await cursor.fetchall()]
            for table_id, seat in held:
                names = {"name": NEUTRAL_NAME, "id": table_id, "seat": seat}
                await con.execute(_RENAME_JOINS, names)
                await con.execute(_RENAME_RESULT, names)
            subject = f"person:{account_id}"  # its ratings go; its games' changes stay, under no name
            await con.execute("DELETE FROM laro_ratings WHERE subject = %s", (subject,))
            await con.execute(
                "UPDATE laro_rating_changes SET subject = %s WHERE subject = %s",
                (f"former:{secrets.token_hex(8)}", subject),
            )
            await con.execute("DELETE FROM laro_accounts WHERE id = %s", (account_id,))  # sessions, seats go with it
        return held

    async def start_session(self, secret_hash: str, account_id: str, now: float, until: float) -> None:
        async with self._store._connection("start a session") as con, con.transaction():
            await con.execute("DELETE FROM laro_sessions WHERE account_id = %s AND expires <= %s", (account_id, now))
            await con.execute(
                "INSERT INTO laro_sessions (secret_hash, account_id, created, expires) VALUES (%s, %s, %s, %s)",
                (secret_hash, account_id, now, until),
            )

    async def session(self, secret_hash: str, now: float) -> Account | None:
        async with self._store._connection("read a session") as con:
            cursor = await con.execute(
                "SELECT a.id, a.name, a.created FROM laro_sessions AS s JOIN laro_accounts AS a ON a.id = s.account_id"
                " WHERE s.secret_hash = %s AND s.expires > %s",
                (secret_hash, now),
            )
            row = await cursor.fetchone()
        return None if row is None else Account(row[0], row[1], row[2])

    async def end_session(self, secret_hash: str) -> None:
        async with self._store._connection("end a session") as con:
            await con.execute("DELETE FROM laro_sessions WHERE secret_hash = %s", (secret_hash,))

    async def hold_seat(self, account_id: str, table_id: str, seat: int, token: str, now: float) -> None:
        async with self._store._connection("hold a seat") as con:
            await con.execute(
                "INSERT INTO laro_account_seats (table_id, seat, account_id, token, created)"
                " VALUES (%s, %s, %s, %s, %s) ON CONFLICT (table_id, seat) DO UPDATE SET"
                " account_id = excluded.account_id, token = excluded.token, created = excluded.created",
                (table_id, seat, account_id, token, now),
            )

    async def seats(self, account_id: str, limit: int) -> list[SeatLink]:
        async with self._store._connection("read an account's seats") as con:
            cursor = await con.execute(
                "SELECT table_id, seat, token, created FROM laro_account_seats WHERE account_id = %s"
                " ORDER BY created DESC, table_id LIMIT %s",
                (account_id, limit),
            )
            rows = await cursor.fetchall()
        return [
            SeatLink(str(table_id), int(seat), str(token), float(created)) for table_id, seat, token, created in rows
        ]
