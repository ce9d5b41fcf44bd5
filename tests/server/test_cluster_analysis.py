"""A move analysis among several ``laro serve`` processes on one PostgreSQL database: asked of two processes at the
same moment it is made once, by the process that claimed it, and both answer with it; when the maker is killed
in the middle, its claim runs out and the process still asked makes it."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import psycopg
import pytest
from tests.polling import until
from tests.server.client import Api, analysed, played_by_bots, request
from tests.server.cluster_support import TAKEOVER, database, url  # noqa: F401  (a fixture)
from tests.server.server_process import ServerProcess

pytestmark = pytest.mark.slow

DEADLINE = 120.0  # seconds for an analysis to be made on a busy machine


def _ask(server: ServerProcess, table_id: str, seat: int) -> tuple[int, Any]:
    return request(server.base, "POST", f"/api/tables/{table_id}/analysis", {"seat": seat})


def _claims(dsn: str) -> list[tuple[str, str, str]]:
    with psycopg.connect(dsn, autocommit=True) as con:
        rows = con.execute("SELECT table_id, key, holder FROM laro_analysis_claims").fetchall()
    return [(str(t), str(k), str(h)) for t, k, h in rows]


def _made_lines(server: ServerProcess, table_id: str, seat: int) -> int:
    """How many times the process logged making the analysis."""
    return server.log_text().count(f"table {table_id}: seat {seat} analysed in")


def test_an_analysis_asked_of_two_processes_at_once_is_made_once(
    database: str,  # noqa: F811
    server_factory: Callable[..., ServerProcess],
) -> None:
    servers = [server_factory(db=url(database), quiet=False) for _ in range(2)]
    table_id = played_by_bots(Api(servers[0].base), "lama", 3, {"end_score": 20}, seed=404)
    start = threading.Barrier(2)
    answers: list[tuple[int, Any]] = []

    def ask(server: ServerProcess) -> None:
        start.wait(timeout=10)
        answers.append(_ask(server, table_id, 1))

    threads = [threading.Thread(target=ask, args=(server,)) for server in servers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(answers) == [(202, {"status": "running"})] * 2, answers
    first, second = (analysed(server.base, table_id, 1, DEADLINE) for server in servers)
    assert first == second and first["seat"] == 1
    assert [_made_lines(server, table_id, 1) for server in servers] in ([1, 0], [0, 1])  # made once, by one
    assert _claims(database) == []  # released once kept
    assert [_ask(server, table_id, 1) for server in servers] == [(200, {"status": "done", "analysis": first})] * 2


def test_a_killed_makers_claim_runs_out_and_another_process_makes_it(
    database: str,  # noqa: F811
    server_factory: Callable[..., ServerProcess],
) -> None:
    maker, other = (server_factory(db=url(database), quiet=False) for _ in range(2))
    table_id = played_by_bots(Api(maker.base), "kamara", 4, {}, seed=77)
    assert _ask(maker, table_id, 2) == (202, {"status": "running"})
    assert maker.process is not None
    pid = maker.process.pid

    def claimed() -> bool:
        return any(int(holder.split(":")[-2]) == pid for _, _, holder in _claims(database))

    until(claimed, "the process asked first did not claim the analysis", timeout=10)
    # asked of the other process while the first one makes it: it waits for the first
    assert _ask(other, table_id, 2) == (202, {"status": "running"})
    maker.kill()  # in the middle of its search
    assert _made_lines(maker, table_id, 2) == 0, "the analysis was made before the kill: make it a longer one"
    killed_at = time.monotonic()
    data = analysed(other.base, table_id, 2, DEADLINE)
    assert data["seat"] == 2 and _made_lines(other, table_id, 2) == 1
    assert time.monotonic() - killed_at < TAKEOVER + DEADLINE
    assert _claims(database) == []
