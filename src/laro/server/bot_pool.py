"""Bots think in worker processes, at a lower priority, so that no bot ever delays a person's action.

A bot turn (:class:`laro.server.tables.BotTurn`: the bot itself, its seat's observation, the legal actions and its
random generator) is sent to a worker process, decided there, and comes back with the bot as it is after deciding,
so a search bot's memory of the game (its reading of the other hands) follows it from move to move. The workers
run at ``nice`` 10: when people's actions and bots' thinking compete for the cores, the operating system gives the
server's own process the turn first. Each table has at most one bot turn in flight and the pool takes turns in the
order they came, so busy tables share the workers fairly, one decision at a time.

A bot of a kind that never searches (``random``, ``heuristic``) that has proved cheap — on average under half a
millisecond a decision, as measured (random bots; L.A.M.A.'s heuristic takes a few microseconds) — decides in
the server's own process instead: sending it to a worker and back would cost the server more than the decision
itself. Should it grow slower, it goes back to the workers. A searching bot always thinks in a worker, however
quick some of its moves are.

``workers=0`` decides in a thread of the server's own process instead (for tests and tiny servers).

The workers share queues with the server, and with them named semaphores that Python's resource tracker lists
until they are freed. When the server stops, :meth:`BotPool.close` ends the workers at once (a bot thinking then
would have moved for a table nobody drives here any more) and waits until their queues are freed, so that the
process may end without a word from the tracker about leaked semaphores — even with ``os._exit``, as a worker of
``laro serve --workers`` does. A worker also ends by itself when the server's process dies, however it dies.

>>> import asyncio
>>> from laro.server.tables import Table
>>> table, _ = Table.create("lama", 2, {}, {0: "random", 1: "random"}, seed=3)
>>> async def one_move() -> str:
...     pool = BotPool(workers=0)
...     try:
...         return (await pool.decide(table, table.bot_turn()))["type"]
...     finally:
...         pool.close()
>>> asyncio.run(one_move())
'act'
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from laro.core import JSONDict
from laro.server.tables import BotTurn, Table

__all__ = ["BotPool", "close_workers", "default_workers", "worker_processes"]

NICE = 10  # how much lower the workers' priority is than the server's


def default_workers() -> int:
    """One worker per core but one, and at least one: a core stays free for the server's own work."""
    return max(1, (os.cpu_count() or 1) - 1)


def _lower_priority(server: int) -> None:  # pragma: no cover - runs in each worker process as it starts
    with contextlib.suppress(OSError, AttributeError):
        os.nice(NICE)
    if sys.platform == "linux":  # a server killed outright (kill -9) takes its workers with it, not leaving them idle
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != server:
        # the server died while this worker was starting, before the signal above was asked for: nobody would ever
        # send it work, and it holds its own queues open, so it would wait for ever
        os._exit(0)


def worker_processes(workers: int, name: str) -> Executor:
    """``workers`` processes at the lower priority, or one thread of the server's own (called ``name``) when 0."""
    if workers <= 0:
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
    # spawned, not forked: the server's threads and sockets stay out of the workers
    context = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(workers, mp_context=context, initializer=_lower_priority, initargs=(os.getpid(),))


def close_workers(executor: Executor, at_once: bool = False) -> None:
    """Shut ``executor`` down, dropping the work that waits. ``at_once`` (the server stops): its worker processes
    end now, with whatever they were doing, and this returns once they are gone and the queues they shared with
    this process are freed (their semaphores unlinked), not later when the process exits."""
    if not isinstance(executor, ProcessPoolExecutor):
        executor.shutdown(wait=False, cancel_futures=True)
        return
    if at_once:
        for process in list((executor._processes or {}).values()):  # the standard library has no public way yet
            process.terminate()
    executor.shutdown(wait=at_once, cancel_futures=True)


def _ready() -> None:
    import laro.bots  # noqa: F401  # the bots' modules load with the package


INLINE_BELOW = 0.0005  # seconds: bots that decide faster than this on average decide in the server's process
NEVER_SEARCH = frozenset({"random", "heuristic"})  # the kinds of bot that may decide there
_WEIGHT = 0.1  # of the newest decision in a bot's average


def _decide(turn: BotTurn) -> tuple[Any, BotTurn, float]:
    start = time.perf_counter()
    action = turn.decide()
    return action, turn, time.perf_counter() - start


class BotPool:
    """Where bots think: ``workers`` processes (default :func:`default_workers`), or a thread when 0."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = default_workers() if workers is None else workers
        self._executor: Executor | None = None
        self._cost: dict[tuple[str, str], float] = {}  # (game, bot) -> average seconds a decision takes

    def _pool(self) -> Executor:
        if self._executor is None:
            self._executor = worker_processes(self.workers, "laro-bot")
        return self._executor

    async def warm(self) -> None:
        """Start the workers now (each imports laro's bots), so the first bot turn does not wait for them."""
        await asyncio.get_running_loop().run_in_executor(self._pool(), _ready)

    async def decide(self, table: Table, turn: BotTurn) -> JSONDict:
        """The event of ``turn``'s decision (made in a worker), its bot's memory kept by ``table``."""
        key = (table.game.name, turn.name)
        cost = self._cost.get(key)
        if self.inline(*key):
            action, thought, seconds = _decide(turn)
        else:
            loop = asyncio.get_running_loop()
            try:
                action, thought, seconds = await loop.run_in_executor(self._pool(), _decide, turn)
            except BrokenProcessPool:  # a worker died (killed, out of memory): start afresh, think once more
                self._restart()
                action, thought, seconds = await loop.run_in_executor(self._pool(), _decide, turn)
        self._cost[key] = seconds if cost is None else (1 - _WEIGHT) * cost + _WEIGHT * seconds
        return table.bot_done(thought, action)

    def cost(self, game: str, bot: str) -> float | None:
        """The average seconds ``bot`` has taken to decide (None before its first decision)."""
        return self._cost.get((game, bot))

    def inline(self, game: str, bot: str) -> bool:
        """Whether ``bot`` now decides in the server's own process (it has proved cheap)."""
        cost = self._cost.get((game, bot))
        return bot in NEVER_SEARCH and cost is not None and cost < INLINE_BELOW

    def _restart(self, at_once: bool = False) -> None:
        executor, self._executor = self._executor, None
        if executor is not None:
            close_workers(executor, at_once)

    def close(self) -> None:
        """The server stops: end the workers now (see the module's notes)."""
        self._restart(at_once=True)
