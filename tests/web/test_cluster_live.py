"""Two people in real browsers at one table of ``laro serve --workers 2`` on PostgreSQL: each worker in turn is
stopped gracefully (SIGTERM: its WebSockets are closed with 1012, "reconnect") and started again by the parent;
the pages reconnect by themselves, to whichever worker takes them, and play goes on."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from tests.server.cluster_support import database, url  # noqa: F401  (a fixture)
from tests.server.conftest import postgres_dsn  # noqa: F401  (a fixture)
from tests.web.conftest import Server
from tests.web.test_table_live import play_and_check, two_players

pytestmark = pytest.mark.slow


def _workers(server: Server) -> set[int]:
    assert server.process is not None
    pid = server.process.pid
    return {int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()}


def _two_workers(server: Server, without: int | None = None) -> set[int]:
    deadline = time.monotonic() + 15
    while True:
        workers = _workers(server)
        if len(workers) == 2 and without not in workers:
            return workers
        assert time.monotonic() < deadline, f"two workers expected, found {sorted(workers)}"
        time.sleep(0.05)


def test_pages_reconnect_when_each_worker_stops_in_turn(
    database: str,  # noqa: F811
    tmp_path: Path,
    browser: Browser,
) -> None:
    server = Server(tmp_path, 0.05, extra=("--db", url(database), "--workers", "2"))
    server.start()
    try:
        with two_players(server, browser) as (_, pages):
            play_and_check(pages, moves=3)
            for pid in sorted(_two_workers(server)):  # every connection is closed once at least
                os.kill(pid, signal.SIGTERM)
                _two_workers(server, without=pid)  # the parent started it again
                for page in pages:
                    expect(page.locator("body")).to_have_attribute("data-connection", "open", timeout=15_000)
                play_and_check(pages, moves=2)
        log = (tmp_path / "server.log").read_text()
        assert log.count("ended (signal SIGTERM); starting it again") == 2  # each stopped once, and started again
        assert "stopping: handed over the leases of 1 tables" in log  # the table's driver gave it to the other
    finally:
        server.stop()
