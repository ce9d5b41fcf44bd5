"""What a server leaves behind when it stops: nothing. Its bots think in worker processes that share queues (and
named semaphores) with it; a server that stops gracefully ends them and frees the queues first, so Python's
resource tracker has no leaked semaphore to speak of, and a worker whose server is killed while it starts ends too
instead of waiting for ever."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from pathlib import Path

import pytest
from tests.polling import until
from tests.server.client import Api
from tests.server.cluster_support import database, url  # noqa: F401  (a fixture)
from tests.server.server_process import RELAXED, ServerProcess

pytestmark = pytest.mark.slow

LEAK = "leaked semaphore"
DEADLINE = 20.0


def _children(pid: int) -> set[int]:
    try:
        return {int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()}
    except OSError:
        return set()


def _bot_workers(pid: int) -> set[int]:
    """The worker processes a server process started for its bots (multiprocessing's spawned children)."""
    found = set()
    for child in _children(pid):
        try:
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                found.add(child)
        except OSError:
            continue
    return found


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def _searching(server: ServerProcess) -> str:
    """A table of four searching bots, once they have made a few moves (in their worker processes)."""
    table = Api(server.base).create("lama", 4, bots={seat: "hard" for seat in range(4)}).id
    until(lambda: Api(server.base).table(table)["seq"] >= 3, "the bots do not move", DEADLINE, every=0.01)
    return table


def test_a_server_stopped_with_sigterm_leaves_no_semaphore_behind(
    server_factory: Callable[..., ServerProcess],
) -> None:
    server = server_factory()
    _searching(server)
    assert server.process is not None
    workers = _bot_workers(server.process.pid)
    assert workers, "the bots think in worker processes"
    server.stop()  # SIGTERM (uvicorn ends by raising it again once it has stopped: the exit code says SIGTERM)
    log = server.log_text()
    assert LEAK not in log and "resource_tracker" not in log, log[-2000:]
    until(lambda: not any(_alive(pid) for pid in workers), "a bot worker outlived its server", DEADLINE, every=0.01)


def test_laro_serve_workers_stopped_with_sigterm_leave_no_semaphore_behind(
    database: str,  # noqa: F811
    server_factory: Callable[..., ServerProcess],
) -> None:
    """Each worker of ``laro serve --workers`` ends with ``os._exit`` (it is a fork of the parent): nothing that
    Python would free at a normal exit is freed then, so the bot workers must be gone and their queues freed
    before."""
    server = server_factory(db=url(database), limits=[*RELAXED, "--workers", "2"])
    _searching(server)
    assert server.process is not None
    until(lambda: len(_children(server.process.pid)) == 2, "two workers", DEADLINE, every=0.01)  # type: ignore[union-attr]
    assert any(_bot_workers(worker) for worker in _children(server.process.pid))
    assert server.stop() == 0  # SIGTERM to the parent, passed on to each worker
    log = server.log_text()
    assert "stopping: handed over the leases of 1 tables" in log
    assert LEAK not in log and "resource_tracker" not in log, log[-2000:]


def test_a_bot_worker_whose_server_is_killed_as_it_starts_ends_too(
    database: str,  # noqa: F811
    server_factory: Callable[..., ServerProcess],
) -> None:
    """A worker asks, as it starts, to be killed with its server (Linux's PR_SET_PDEATHSIG); a server killed before
    that moment (kill -9, while the worker still imports laro) must not leave it waiting for ever."""
    server = server_factory(db=url(database), limits=[*RELAXED, "--workers", "2"], bot_delay=0.0)
    assert server.process is not None
    parent = server.process.pid
    until(lambda: len(_children(parent)) == 2, "two workers", DEADLINE, every=0.01)
    Api(server.base).create("lama", 4, bots={seat: "hard" for seat in range(4)})
    found: dict[int, set[int]] = {}

    def starting() -> bool:  # a worker of the server has just started a bot worker
        found.update((worker, _bot_workers(worker)) for worker in _children(parent))
        return any(found.values())

    until(starting, "no bot worker started", DEADLINE, every=0.01)
    killed, orphans = next((worker, bots) for worker, bots in found.items() if bots)
    os.kill(killed, signal.SIGKILL)
    until(
        lambda: not any(_alive(pid) for pid in orphans),
        f"bot workers {sorted(orphans)} outlived their server",
        DEADLINE,
        every=0.01,
    )
    assert server.stop() == 0
