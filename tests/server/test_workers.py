"""``laro serve --workers N``: N processes on one port, on PostgreSQL only; a worker killed is started again while
the others drive its tables; SIGTERM to the parent stops every worker gracefully."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from tests.polling import until
from tests.server.client import Api, Client, Closed
from tests.server.cluster_support import TAKEOVER, database, driving_pid, replay, url  # noqa: F401  (a fixture)
from tests.server.server_process import RELAXED, ServerProcess

from laro.cli.main import cli


def test_several_workers_need_postgresql(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["serve", "--workers", "2", "--data-dir", str(tmp_path / "data")])
    assert result.exit_code == 1
    assert "--workers 2 needs a PostgreSQL store" in result.output
    assert not (tmp_path / "data" / "tables.db").exists()  # nothing made


def _workers(server: ServerProcess) -> set[int]:
    assert server.process is not None
    pid = server.process.pid
    return {int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()}


@pytest.mark.slow
def test_workers_share_a_port_and_a_killed_worker_is_replaced(
    database: str,  # noqa: F811
    server_factory: Callable[..., ServerProcess],
) -> None:
    server = server_factory(db=url(database), limits=[*RELAXED, "--workers", "3"], bot_delay=0.02)
    until(lambda: len(_workers(server)) >= 3, "three workers did not start", 10, every=0.05)
    first = _workers(server)
    created = Api(server.base).seated("kamara", 3, {"max_rounds": 6}, bots={2: "heuristic"}, seed=6)

    killed = driving_pid(database, created.id, first)

    async def seat(token: str, rng: random.Random) -> dict[str, Any]:
        """Play a seat to the end, connecting again whenever the connection is lost (its worker killed)."""
        while True:
            client = await Client.connect(server.ws_base, created.id, token)
            try:
                return await client.play(rng)
            except Closed:
                continue
            finally:
                await client.close()

    async def play() -> list[dict[str, Any]]:
        game = asyncio.gather(*(seat(token, random.Random(n)) for n, token in created.tokens.items()))
        await asyncio.sleep(0.5)
        os.kill(killed, signal.SIGKILL)
        return await game

    finals = asyncio.run(play())
    events = replay(database, created.id)  # the game finished, every move in its turn
    assert all(final["seq"] == events[-1]["seq"] for final in finals)

    def replaced() -> bool:
        workers = _workers(server)
        return len(workers) == 3 and killed not in workers

    until(replaced, "the killed worker was not replaced", TAKEOVER, every=0.05)
    assert f"(process {killed}) ended (signal SIGKILL); starting it again" in server.log_text()
    assert server.stop() == 0  # SIGTERM: every worker stops, then the parent


def test_the_cluster_benchmark_needs_postgresql() -> None:
    result = CliRunner().invoke(cli, ["bench", "server", "--workers", "2"])
    assert result.exit_code == 2
    assert "several processes share a PostgreSQL store" in result.output


@pytest.mark.slow
def test_the_cluster_benchmark_measures_each_number_of_processes_and_the_lease_moves(
    database: str,  # noqa: F811
) -> None:
    command = ["bench", "server", "--db", url(database), "--workers", "2", "--tables", "3", "--seconds", "1.5"]
    result = CliRunner().invoke(cli, [*command, "--think", "0.05", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert [run["workers"] for run in report["runs"]] == [1, 2]
    for run in report["runs"]:
        assert run["actions"] > 0 and run["lost"] == 0 and run["errors"] == 0
    assert len(report["lease_moves"]) == 3
    for move in report["lease_moves"]:  # a dead process's lease expires, then the next heartbeat claims it
        assert 0 < move["lease_seconds"] <= move["next_action_seconds"] < TAKEOVER
