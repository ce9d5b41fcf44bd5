"""What the tests of several server processes on one PostgreSQL database share: a fresh database for each test
(the fixture ``database``), the URL ``laro serve --db`` takes for it, which process holds a table's lease, and the
stored log of a finished table, replayed and checked."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import psycopg
import pytest
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from tests.polling import until

import laro
from laro.server.leases import LEASE_SECONDS

__all__ = ["TAKEOVER", "database", "driving_pid", "holder", "replay", "url"]

TAKEOVER = LEASE_SECONDS + 4.0  # seconds within which another process drives a killed process's tables


@pytest.fixture
def database(postgres_dsn: str) -> Iterator[str]:
    """A fresh database for the test (dropped after it): the connection string of the test's processes."""
    name = f"laro_cluster_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(postgres_dsn, autocommit=True) as con:
        con.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield make_conninfo(postgres_dsn, dbname=name)
    finally:
        with psycopg.connect(postgres_dsn, autocommit=True) as con:
            con.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))


def url(dsn: str) -> str:
    parts = {key: str(value) for key, value in conninfo_to_dict(dsn).items()}
    database = parts.pop("dbname")
    return f"postgresql:///{database}?{urlencode(parts)}"


def holder(dsn: str, table_id: str) -> tuple[str, float] | None:
    with psycopg.connect(dsn, autocommit=True) as con:
        row = con.execute("SELECT holder, expires FROM laro_leases WHERE table_id = %s", (table_id,)).fetchone()
    return None if row is None else (str(row[0]), float(row[1]))


def driving_pid(dsn: str, table_id: str, pids: set[int]) -> int:
    """Which of the processes ``pids`` holds the table's lease (a lease's holder is named by its process id)."""

    def driver() -> int | None:
        found = holder(dsn, table_id)
        pid = None if found is None else int(found[0].split(":")[-2])
        return pid if pid in pids else None

    return until(driver, f"none of the processes {sorted(pids)} holds the lease of table {table_id}", TAKEOVER, 0.05)


def stored(dsn: str, table_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    with psycopg.connect(dsn, autocommit=True) as con:
        row = con.execute(
            "SELECT game, num_players, options, seed, finished FROM laro_tables WHERE id = %s", (table_id,)
        ).fetchone()
        assert row is not None
        events = [
            e for (e,) in con.execute("SELECT event FROM laro_events WHERE table_id = %s ORDER BY seq", (table_id,))
        ]
    game, players, options, seed, finished = row
    return {"game": game, "players": players, "options": options, "seed": int(seed), "finished": finished}, events


def replay(dsn: str, table_id: str) -> list[dict[str, Any]]:
    """The stored log, checked: seqs without gaps, and every action legal for the seat to act when it was taken
    (a bot action taken twice would be a second action by a seat whose turn it no longer is)."""
    row, events = stored(dsn, table_id)
    assert [event["seq"] for event in events] == list(range(1, len(events) + 1))
    state = laro.get_game(row["game"]).new_game(row["players"], seed=row["seed"], options=row["options"])
    for event in events:
        if event["type"] == "act":
            assert state.current_player == event["seat"], f"event {event['seq']}: not seat {event['seat']}'s turn"
            state = state.apply(event["action"])
    assert state.is_over and row["finished"]
    return events
