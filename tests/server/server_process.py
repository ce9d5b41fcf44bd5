"""The real server as a child process: ``python -m laro serve`` on a free port, for the end-to-end tests.

``ServerProcess`` starts the server, waits until it answers over HTTP, stops it with SIGTERM (then SIGKILL if
it does not go), kills it with SIGKILL on demand (a crash) and starts it again on the same data directory and
port. Its output goes to a log file that outlives every restart, so tests can scan everything it ever printed.
``stored(table_id)`` reads a table straight from the server's SQLite file (its seed and event log) and replays
its game, so tests can compare what clients were told with the whole truth.

The fixtures ``server`` (one server per test module, bots without delay, quiet) and ``server_factory`` (servers
made to measure, each stopped at the end of the test) are registered in conftest.py. Whatever happens, a server
never outlives the tests: the fixtures stop it, any left at exit are killed, and on Linux a server started from
the main thread also gets SIGKILL if pytest itself dies.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from tests.server.client import Api

import laro
from laro.core import GameState

__all__ = [
    "RELAXED",
    "Served",
    "ServerProcess",
    "StoredGame",
    "api",
    "free_port",
    "make_server",
    "server",
    "server_factory",
]

# the limits of a server for tests that make many tables at once from one address, with seeds they choose (the
# attack tests start servers with the real defaults: ``limits=()``)
RELAXED = (
    "--tables-per-minute=1000000",
    "--seat-requests-per-second=1000000",
    "--tables-per-address=100000",
    "--bot-tables=1000",
    "--websockets-per-address=100000",
    "--sign-ups-per-hour=1000000",
    "--sign-ins-per-minute=1000000",
    "--sign-ins-per-account-per-hour=1000000",
    "--password-memory=1",  # a password's hash in milliseconds, not hundreds of them
    "--allow-seeds",
    "--round-pause=0",
)
START_TIMEOUT = 30.0  # seconds for a server to answer after it was started (a busy CI machine is slow to import)
STOP_TIMEOUT = 10.0  # seconds SIGTERM has before SIGKILL follows


def free_port() -> int:
    """A TCP port nobody listens on now (the kernel's pick for port 0)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _die_with_parent() -> None:  # pragma: no cover - runs in the child between fork and exec
    """Linux: the child gets SIGKILL when the thread that started it ends (the main thread: the test process)."""
    with contextlib.suppress(Exception):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


_RUNNING: set[subprocess.Popen[bytes]] = set()  # every server process not yet waited for, killed at exit


@atexit.register
def _kill_leftovers() -> None:
    for process in list(_RUNNING):
        with contextlib.suppress(OSError):
            process.kill()


_NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))


@dataclass(frozen=True)
class StoredGame:
    """A table as its store holds it, with its game replayed: ``state_at(seq)`` is the game after event ``seq``."""

    table_id: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    finished: bool
    result: dict[str, Any] | None
    events: list[dict[str, Any]]
    states: list[GameState]  # states[seq]: the game after the events up to seq (joins and leaves change nothing;
    # an undo goes back to the state before the actions it undid)

    def state_at(self, seq: int) -> GameState:
        return self.states[seq]

    @property
    def final(self) -> GameState:
        return self.states[-1]


def answers(base: str) -> bool:
    """Whether a server answers at ``base`` (its list of games, over HTTP)."""
    try:
        with _NO_PROXY.open(base + "/api/games", timeout=2) as response:
            return bool(response.status == 200)
    except (OSError, urllib.error.URLError):
        return False


class Served:
    """What every server of the tests has, in a process of its own or not: its ``laro serve`` options, its
    addresses, and its SQLite store read directly (``stored``)."""

    def __init__(
        self,
        data_dir: Path,
        *,
        bot_delay: float = 0.0,
        quiet: bool = True,
        db: str | None = None,
        limits: Sequence[str] = RELAXED,
        extra: Sequence[str] = (),
    ) -> None:
        self.db = db  # a store URL instead of SQLite in data_dir
        self.limits = list(limits)  # laro serve's options for its limits
        self.extra = list(extra)  # more of its options (after the limits, so they win)
        self.data_dir = data_dir
        self.bot_delay = bot_delay
        self.quiet = quiet
        self.port = free_port()

    def options(self) -> list[str]:
        """The options of ``laro serve`` for this server."""
        options = ["--port", str(self.port), "--data-dir", str(self.data_dir), "--bot-delay", str(self.bot_delay)]
        if self.db:
            options += ["--db", self.db]
        options += [*self.limits, *self.extra]
        return [*options, "--quiet"] if self.quiet else options

    def start(self) -> None:
        """Start the server and wait until it answers."""
        raise NotImplementedError

    def stop(self) -> int | None:
        """Stop the server as SIGTERM does."""
        raise NotImplementedError

    # -- addresses ----------------------------------------------------------------------------------------------

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def db_path(self) -> Path:
        return self.data_dir / "tables.db"

    # -- the store, read directly -------------------------------------------------------------------------------

    def stored_finished(self, table_id: str) -> StoredGame | None:
        """The table as the store holds it if the store has marked it finished, else None (to poll with)."""
        stored = self.stored(table_id)
        return stored if stored.finished else None

    def stored(self, table_id: str) -> StoredGame:
        """The table's row and events from the SQLite file (read-only; the server may be running)."""
        return read_stored(self.db_path, table_id)


class ServerProcess(Served):
    """One ``laro serve`` process on ``data_dir``; ``start``, ``stop``, ``kill`` and ``start`` again at will."""

    def __init__(self, data_dir: Path, log_path: Path, **settings: Any) -> None:
        super().__init__(data_dir, **settings)
        self.log_path = log_path
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    # -- life and death -----------------------------------------------------------------------------------------

    def command(self) -> list[str]:
        return [sys.executable, "-m", "laro", "serve", *self.options()]

    def start(self) -> None:
        """Start the server (on the same port and data directory as before) and wait until it answers."""
        assert not self.running, "the server is running already"
        on_main_thread = threading.current_thread() is threading.main_thread()
        for attempt in range(3):
            with self.log_path.open("ab") as log:
                log.write(f"--- start {self.starts + 1} on port {self.port} ---\n".encode())
                log.flush()
                self.process = subprocess.Popen(
                    self.command(),
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    stdin=subprocess.DEVNULL,
                    env={**os.environ, "PYTHONUNBUFFERED": "1"},
                    # a server started from another thread (a test's helper thread) must outlive that thread
                    preexec_fn=_die_with_parent if sys.platform == "linux" and on_main_thread else None,
                )
            _RUNNING.add(self.process)
            self.starts += 1
            if self._wait_until_ready():
                return
            # the port was taken in the meantime (or the server failed): try another port, then give up
            self.kill()
            if attempt < 2 and "address already in use" in self.log_text().lower():
                self.port = free_port()
                continue
            break
        pytest.fail(f"the server did not start; its output:\n{self.log_text()[-3000:]}")

    def _wait_until_ready(self) -> bool:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                return False
            if answers(self.base):
                return True
            time.sleep(0.03)
        self.kill()
        return False

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self) -> int | None:
        """SIGTERM, then SIGKILL after ``STOP_TIMEOUT`` seconds; the exit code (None if it was not running)."""
        process, self.process = self.process, None
        if process is None:
            return None
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                process.kill()
        _RUNNING.discard(process)
        return process.wait()

    def kill(self) -> None:
        """A crash: SIGKILL, no goodbye to anyone."""
        process, self.process = self.process, None
        if process is not None:
            if process.poll() is None:
                process.kill()
            process.wait()
            _RUNNING.discard(process)

    def restart(self) -> None:
        self.stop()
        self.start()

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


def read_stored(db_path: Path, table_id: str) -> StoredGame:
    """The table's row and events from the SQLite file at ``db_path``, read-only, with its game replayed."""
    con = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=10)
    try:
        row = con.execute(
            "SELECT game, num_players, options, seed, seats, finished, result FROM laro_tables WHERE id = ?",
            (table_id,),
        ).fetchone()
        assert row is not None, f"no table {table_id} in the store"
        rows = con.execute("SELECT seq, event FROM laro_events WHERE table_id = ? ORDER BY seq", (table_id,))
        events = [json.loads(text) for _, text in rows.fetchall()]
    finally:
        con.close()
    game_name, players, options, seed, seats, finished, result = row
    assert [event["seq"] for event in events] == list(range(1, len(events) + 1)), "a gap in the log"
    game = laro.get_game(game_name)
    state = game.new_game(int(players), seed=int(seed), options=json.loads(options))
    states = [state]
    in_force: list[GameState] = []  # the state before each action in force
    for event in events:
        if event["type"] == "act":
            in_force.append(state)
            state = state.apply(event["action"])
        elif event["type"] == "undo":  # back to the state before the first undone action
            state = in_force[-len(event["undone"])]
            del in_force[-len(event["undone"]) :]
        states.append(state)
    return StoredGame(
        table_id=table_id,
        game=game_name,
        players=int(players),
        options=json.loads(options),
        seed=int(seed),
        seats=json.loads(seats),
        finished=bool(finished),
        result=json.loads(result) if result else None,
        events=events,
        states=states,
    )


def make_server(tmp_path_factory: pytest.TempPathFactory, **settings: Any) -> ServerProcess:
    """A server (not started) with a data directory and a log of its own; whoever starts it must stop it."""
    folder = tmp_path_factory.mktemp("laro-server")
    return ServerProcess(folder / "data", folder / "server.log", **settings)


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """A running server for the test module: bots act at once, only warnings are logged. A ``laro serve``
    process, or in a module marked ``in_process`` the same command in a thread of the test process."""
    if request.node.get_closest_marker("in_process") is not None:
        from tests.server.in_process import InProcessServer  # it imports this module

        running: Served = InProcessServer(tmp_path_factory.mktemp("laro-server") / "data")
    else:
        running = make_server(tmp_path_factory)
    running.start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def api(server: Served) -> Api:
    """The HTTP API of the module's server."""
    return Api(server.base)


@pytest.fixture
def server_factory(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[..., ServerProcess]]:
    """``server_factory(bot_delay=0.0, quiet=True, start=True)``: a server of the test's own, stopped after it."""
    made: list[ServerProcess] = []

    def make(*, start: bool = True, **settings: Any) -> ServerProcess:
        process = make_server(tmp_path_factory, **settings)
        made.append(process)
        if start:
            process.start()
        return process

    try:
        yield make
    finally:
        for process in made:
            process.stop()
