"""``laro bench server --db postgresql://… --workers N``: the same load on 1, 2, … N server processes sharing one
PostgreSQL store, and the time a table's lease takes to move when the process that drives it is killed.

Each run is :func:`laro.server.bench.run_server_bench` against ``laro serve --workers k`` in a schema of its own in
the given database (made for the run, dropped after it), so no run sees another's tables. The lease figure: a
server of ``max(2, N)`` processes plays tables of bots only; for each trial the process holding one table's lease
is killed (``kill -9``), and the report gives the seconds until another process holds the lease, and until the
table's next action is stored.
"""

from __future__ import annotations

import os
import signal
import time
import uuid
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

import psycopg
from psycopg import sql

from laro.server.bench import ServerBenchReport, _post, run_server_bench, serving

__all__ = ["ClusterBenchReport", "LeaseMove", "run_cluster_bench"]


@dataclass(slots=True)
class LeaseMove:
    """One kill: seconds from ``kill -9`` until another process held the lease, and until the next action."""

    lease_seconds: float
    next_action_seconds: float


@dataclass(slots=True)
class ClusterBenchReport:
    runs: list[ServerBenchReport]  # one per number of processes, 1 to N
    moves: list[LeaseMove] = field(default_factory=list)
    lease_setting: float = 3.0

    def to_json(self) -> dict[str, Any]:
        return {
            "runs": [run.to_json() for run in self.runs],
            "lease_seconds_setting": self.lease_setting,
            "lease_moves": [
                {
                    "lease_seconds": round(move.lease_seconds, 3),
                    "next_action_seconds": round(move.next_action_seconds, 3),
                }
                for move in self.moves
            ],
        }


def in_schema(url: str, schema: str) -> str:
    """The store URL with its search path set to ``schema`` (libpq's ``options``).

    >>> in_schema("postgresql://laro@db/laro", "run1")
    'postgresql://laro@db/laro?options=-csearch_path%3Drun1'
    >>> in_schema("postgresql:///laro?host=/run/postgresql", "run1")
    'postgresql:///laro?host=/run/postgresql&options=-csearch_path%3Drun1'
    """
    return url + ("&" if "?" in url else "?") + urlencode({"options": f"-csearch_path={schema}"})


class _Schema:
    """A schema of the database's own for one run, dropped after it."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.name = f"laro_bench_{uuid.uuid4().hex[:10]}"

    def __enter__(self) -> str:
        with psycopg.connect(self.url, autocommit=True) as con:
            con.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(self.name)))
        return in_schema(self.url, self.name)

    def __exit__(self, *exc_info: object) -> None:
        with psycopg.connect(self.url, autocommit=True) as con:
            con.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(self.name)))


def run_cluster_bench(
    database: str,
    workers: int,
    tables: int = 200,
    players: int = 4,
    game: str = "lama",
    seconds: float = 30.0,
    think: float = 0.5,
    bots: int = 0,
    bot_delay: float = 0.6,
    kills: int = 3,
) -> ClusterBenchReport:
    """Measure the load on 1 to ``workers`` processes, then ``kills`` lease moves."""
    runs = []
    for count in range(1, workers + 1):
        with _Schema(database) as url:
            runs.extend(run_server_bench(tables, players, game, seconds, think, url, bots, 0, bot_delay, count))
    report = ClusterBenchReport(runs)
    with _Schema(database) as url:
        report.moves = _lease_moves(url, max(2, workers), kills)
    return report


def _lease_moves(url: str, workers: int, kills: int) -> list[LeaseMove]:
    moves = []
    options = ["--db", url, "--workers", str(workers), "--bot-delay", "0.05", "--bot-tables", str(4 * kills)]
    with serving(options) as served, psycopg.connect(url, autocommit=True) as con:
        for _ in range(kills):
            body = {"game": "lama", "players": 4, "options": {"end_score": 1000}}
            body["bots"] = {str(seat): "heuristic" for seat in range(4)}
            moves.append(_kill_driver(con, _post(served.base, "/api/tables", body)["id"]))
    return moves


def _kill_driver(con: psycopg.Connection[Any], table_id: str) -> LeaseMove:
    """Kill the process driving ``table_id`` once it plays, and time the lease's move and the next action."""
    deadline = time.monotonic() + 30
    while True:
        row = con.execute(
            "SELECT l.holder, t.last_seq FROM laro_leases AS l JOIN laro_tables AS t ON t.id = l.table_id"
            " WHERE l.table_id = %s",
            (table_id,),
        ).fetchone()
        if row is not None and int(row[1]) >= 5:
            break
        if time.monotonic() > deadline:
            raise RuntimeError(f"table {table_id} did not start playing")
        time.sleep(0.02)
    holder = str(row[0])
    os.kill(int(holder.split(":")[-2]), signal.SIGKILL)
    killed = time.monotonic()
    time.sleep(0.05)  # a commit the killed process had already sent may still complete
    seq = _seq(con, table_id)
    lease_at = action_at = None
    while lease_at is None or action_at is None:
        now = time.monotonic()
        if now - killed > 60:
            raise RuntimeError(f"table {table_id}: nobody took over within a minute")
        found = con.execute("SELECT holder FROM laro_leases WHERE table_id = %s", (table_id,)).fetchone()
        if lease_at is None and found is not None and found[0] != holder:
            lease_at = now
        if action_at is None and _seq(con, table_id) > seq:
            action_at = now
        time.sleep(0.01)
    return LeaseMove(lease_at - killed, action_at - killed)


def _seq(con: psycopg.Connection[Any], table_id: str) -> int:
    row = con.execute("SELECT last_seq FROM laro_tables WHERE id = %s", (table_id,)).fetchone()
    return int(row[0]) if row else 0
