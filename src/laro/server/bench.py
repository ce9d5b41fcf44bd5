"""``laro bench server``: a real server on loopback, many tables of bot-driven WebSocket clients, measured.

Every human seat of every table is a client that, on its turn, waits ``think`` seconds (a quick player's pause)
and sends a random legal action; the latency of an action is the time from sending it to receiving the state that
includes it. ``bots`` seats of each table (the last ones) are the server's ``heuristic`` bots, playing at the
server's pace (``bot_delay``). When a game ends a new table takes its place, so ``tables`` games are always
running. At the end each table's ``seq`` on the server is compared with what its clients saw acknowledged:
nothing may be lost.

With ``heavy`` > 0 the run has two phases on one server: first the tables alone (the baseline), then the same
load again while ``heavy`` more tables of 6 ``hard`` L.A.M.A. bots think all the time, so the report shows what
heavy bots do to people's latency, measured in the same run.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["Served", "ServerBenchReport", "run_server_bench", "serving"]


@dataclass(slots=True)
class ServerBenchReport:
    tables: int
    players: int
    game: str
    think: float
    bots: int = 0
    heavy: int = 0
    workers: int = 1
    seconds: float = 0.0
    actions: int = 0
    games_finished: int = 0
    errors: list[str] = field(default_factory=list)
    lost: int = 0
    latencies: list[float] = field(default_factory=list)
    server_log_tail: str = ""

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    def percentile(self, p: float) -> float:
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]

    def to_json(self) -> dict[str, Any]:
        return {
            "tables": self.tables,
            "players": self.players,
            "bots": self.bots,
            "heavy_bot_tables": self.heavy,
            "workers": self.workers,
            "game": self.game,
            "think_seconds": self.think,
            "seconds": round(self.seconds, 2),
            "actions": self.actions,
            "actions_per_second": round(self.actions_per_second, 1),
            "games_finished": self.games_finished,
            "latency_ms": {
                "p50": round(1000 * self.percentile(50), 2),
                "p95": round(1000 * self.percentile(95), 2),
                "p99": round(1000 * self.percentile(99), 2),
                "max": round(1000 * max(self.latencies, default=float("nan")), 2),
                "mean": round(1000 * statistics.fmean(self.latencies), 2) if self.latencies else None,
            },
            "errors": len(self.errors),
            "error_kinds": dict(Counter(":".join(error.split(":")[:2]) for error in self.errors).most_common()),
            "error_samples": list(dict.fromkeys(self.errors))[:5],
            "lost": self.lost,
        }


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        data: dict[str, Any] = json.loads(response.read())
        return data


def _get(base: str, path: str) -> dict[str, Any]:
    with urllib.request.urlopen(base + path, timeout=30) as response:
        data: dict[str, Any] = json.loads(response.read())
        return data


# what a client meets when the server is too busy to answer: counted as errors, and the client tries again
_CLIENT_FAILURES: tuple[type[Exception], ...] = (OSError, TimeoutError, ValueError, KeyError)
_RETRY_AFTER = 0.5  # seconds a client waits before it tries again


class _Run:
    def __init__(
        self, base: str, report: ServerBenchReport, deadline: float, offset: int = 0, open_timeout: float = 10.0
    ) -> None:
        self.offset = offset  # the tables' numbers start here (their clients' random generators follow from them)
        self.base = base
        self.ws_base = base.replace("http://", "ws://")
        self.report = report
        self.deadline = deadline
        self.open_timeout = open_timeout  # for a WebSocket's opening handshake
        self.acknowledged: dict[str, int] = {}  # table id -> highest seq a client saw

    def failed(self, what: str, error: BaseException) -> None:
        """Count a request or connection that failed (the run goes on)."""
        self.report.errors.append(f"{what}: {type(error).__name__}: {error}")

    async def pause(self) -> None:
        await asyncio.sleep(max(0.0, min(_RETRY_AFTER, self.deadline - time.monotonic())))

    async def table_loop(self, number: int) -> None:
        """Keep one table playing until the deadline, starting a new game when one ends; a table that cannot be
        created or joined is counted as an error and tried again."""
        rng = random.Random(self.offset + number)
        players, bots = self.report.players, self.report.bots
        body = {
            "game": self.report.game,
            "players": players,
            "bots": {str(players - 1 - i): "heuristic" for i in range(bots)},
        }
        while time.monotonic() < self.deadline:
            try:
                created = await asyncio.to_thread(_post, self.base, "/api/tables", body)
                table_id = created["id"]
                for seat in created["seats"]:
                    await asyncio.to_thread(
                        _post,
                        self.base,
                        f"/api/tables/{table_id}/seats/{seat['seat']}/join",
                        {"token": seat["token"], "name": f"bench{seat['seat']}"},
                    )
            except _CLIENT_FAILURES as error:
                self.failed("new table", error)
                await self.pause()
                continue
            finished = await asyncio.gather(
                *(self.seat_loop(table_id, seat["token"], random.Random(rng.random())) for seat in created["seats"])
            )
            if any(finished):
                self.report.games_finished += 1

    async def seat_loop(self, table_id: str, token: str, rng: random.Random) -> bool:
        """Play one seat until its game ends (True) or time is up (False). A client that cannot connect, or whose
        connection drops, is counted as an error and connects again, as a player's browser does."""
        from websockets.exceptions import WebSocketException

        failures: tuple[type[Exception], ...] = (*_CLIENT_FAILURES, WebSocketException)
        while time.monotonic() < self.deadline:
            try:
                return await self.play_seat(table_id, token, rng)
            except failures as error:
                self.failed("client", error)
                await self.pause()
        return False

    async def play_seat(self, table_id: str, token: str, rng: random.Random) -> bool:
        """One connection of a seat: on each turn think, act, and time the answer. True if the game ended."""
        import websockets

        url = f"{self.ws_base}/ws/tables/{table_id}"
        async with websockets.connect(url, max_size=2**22, open_timeout=self.open_timeout) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            sent_at: float | None = None
            sent_seq = -1
            while True:
                try:
                    raw = await asyncio.wait_for(ws.recv(), max(0.05, self.deadline - time.monotonic()))
                except TimeoutError:
                    return False  # time is up (an action still in flight is not counted)
                message = json.loads(raw)
                if message["type"] == "error":
                    self.report.errors.append(f"{message['code']}: {message['message']}")
                    sent_at = None
                    await ws.send(json.dumps({"type": "sync"}))
                    continue
                if message["type"] != "state":
                    continue
                seq = message["seq"]
                self.acknowledged[table_id] = max(self.acknowledged.get(table_id, 0), seq)
                if sent_at is not None and seq > sent_seq:
                    self.report.latencies.append(time.perf_counter() - sent_at)
                    self.report.actions += 1
                    sent_at = None
                if message["table"]["status"] == "over":
                    return True
                if message["your_turn"] and sent_at is None:
                    if time.monotonic() >= self.deadline:
                        return False
                    await asyncio.sleep(self.report.think * (0.5 + rng.random()))
                    legal = message["legal_actions"]
                    sent_seq = seq
                    sent_at = time.perf_counter()
                    await ws.send(json.dumps({"type": "act", "action": rng.choice(legal), "seq": seq}))


def run_server_bench(
    tables: int = 200,
    players: int = 4,
    game: str = "lama",
    seconds: float = 30.0,
    think: float = 0.5,
    database: str | None = None,
    bots: int = 0,
    heavy: int = 0,
    bot_delay: float = 0.6,
    workers: int = 1,
) -> list[ServerBenchReport]:
    """Start a server (SQLite in a temporary directory, or the store at ``database``, with ``workers``
    processes), run the tables for ``seconds``, and measure: one report, or two with ``heavy`` (without, then with
    the heavy bot tables)."""
    if not 0 <= bots < players:
        raise ValueError(f"bots must leave a human seat: 0 to {players - 1}, not {bots}")
    options = ["--bot-delay", str(bot_delay), "--bot-tables", str(max(4, 4 * heavy)), *_ONE_ADDRESS]
    if database:
        options += ["--db", database]
    if workers > 1:
        options += ["--workers", str(workers)]
    reports = []
    with serving(options) as served:
        for phase in range(2 if heavy else 1):
            if phase:
                _start_heavy(served.base, heavy)
            report = ServerBenchReport(tables, players, game, think, bots, heavy if phase else 0, workers=workers)
            start = time.monotonic()
            run = _Run(served.base, report, start + seconds, offset=phase * tables)
            asyncio.run(_main(run, tables))
            report.seconds = time.monotonic() - start
            for table_id, seen in run.acknowledged.items():
                try:
                    if _get(served.base, f"/api/tables/{table_id}")["seq"] < seen:
                        report.lost += 1
                except _CLIENT_FAILURES as error:
                    run.failed(f"checking table {table_id}", error)
            reports.append(report)
    for report in reports:
        report.server_log_tail = served.log_tail
    return reports


@dataclass(slots=True)
class Served:
    """A server started for a benchmark: its address, and once it is stopped the end of what it printed."""

    base: str
    log_tail: str = ""


@contextlib.contextmanager
def serving(options: list[str], stop_timeout: float = 15.0) -> Iterator[Served]:
    """``laro serve`` with ``options`` on a free loopback port and a temporary data directory, until the end of
    the ``with`` (then SIGTERM, and SIGKILL after ``stop_timeout`` seconds)."""
    port = _free_port()
    served = Served(f"http://127.0.0.1:{port}")
    with tempfile.TemporaryDirectory(prefix="laro-bench-") as data_dir:
        command = [sys.executable, "-m", "laro", "serve", "--port", str(port), "--data-dir", data_dir, "--quiet"]
        log_path = Path(data_dir) / "server.log"
        with log_path.open("wb") as server_log:
            server = subprocess.Popen(
                [*command, *options], stdout=server_log, stderr=subprocess.STDOUT, env=dict(os.environ)
            )
        try:
            _wait_for(served.base, server, log_path)
            yield served
        finally:
            server.terminate()
            try:
                server.wait(timeout=stop_timeout)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
            served.log_tail = log_path.read_text(errors="replace")[-2000:]


# the bench's clients all come from one address: lift the limits one stranger has (the others stay)
_ONE_ADDRESS = (
    "--tables-per-minute=1000000",
    "--seat-requests-per-second=1000000",
    "--tables-per-address=100000",
    "--connections-per-address=100000",
    "--websockets-per-address=100000",
    "--hellos-per-address=100000",  # hundreds of clients connect at once: on a busy machine not all say hello in 1 s
)


def _start_heavy(base: str, heavy: int) -> None:
    """``heavy`` tables of 6 hard L.A.M.A. bots, which search at every decision (long games: they think for as
    long as the phase lasts)."""
    body = {"game": "lama", "players": 6, "options": {"end_score": 1000}, "bots": {str(s): "hard" for s in range(6)}}
    for _ in range(heavy):
        _post(base, "/api/tables", body)
    time.sleep(2.0)  # let them start thinking


async def _main(run: _Run, tables: int) -> None:
    """Every table until the deadline; a table that failed in a way not foreseen is counted, the others go on."""
    outcomes = await asyncio.gather(*(run.table_loop(number) for number in range(tables)), return_exceptions=True)
    for number, outcome in enumerate(outcomes):
        if isinstance(outcome, Exception):
            run.failed(f"table {run.offset + number}", outcome)
        elif isinstance(outcome, BaseException):
            raise outcome  # Ctrl+C and the like stop the run


_START_SECONDS = 60.0  # a busy machine may take a while to start a Python server


def _wait_for(base: str, server: subprocess.Popen[bytes], log_path: Path) -> None:
    deadline = time.monotonic() + _START_SECONDS
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server did not start: {log_path.read_text(errors='replace')[-500:]}")
        try:
            _get(base, "/api/tables")
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"the server did not answer within {_START_SECONDS:g} seconds")
