"""Bots think in worker processes, at a lower priority, so that no bot ever delays a person's action.

A bot turn (:class:`laro.server.table.BotTurn`: the bot itself, its seat's observation, the legal actions and its
random generator) is sent to a worker process, decided there, and comes back with the bot as it is after deciding,
so a search bot's memory of the game (its reading of the other hands) follows it from move to move. The workers
run at ``nice`` 10: when people's actions and bots' thinking compete for the cores, the operating system gives the
server's own process the turn first. Each table has at most one bot turn in flight, and the pool shares the workers
fairly between the addresses that made the tables: the turns wait in one line per address (a table of no known
address, as after a restart, has a line of its own), and whenever a worker is free the next line in turn sends
its oldest turn. However many tables of bots one stranger makes, another's bot waits for at most one decision of
each other address with turns waiting.

A bot of a kind that never searches (``random``, ``heuristic``) decides its first move in the server's own process
(so the first move of a table never waits for the workers to start), and goes on doing so while it proves cheap —
on average under half a millisecond a decision, as measured (random bots; L.A.M.A.'s heuristic takes a few
microseconds): sending it to a worker and back would cost the server more than the decision itself. Should it
grow slower, it goes to the workers. A searching bot always thinks in a worker, however quick some of its moves
are; the workers are started in the background as soon as a table seats one (:meth:`BotPool.prepare`).

``workers=0`` decides in a thread of the server's own process instead (for tests and tiny servers).

The workers share queues with the server, and with them named semaphores that Python's resource tracker lists
until they are freed. When the server stops, :meth:`BotPool.close` ends the workers at once (a bot thinking then
would have moved for a table nobody drives here any more) and waits until their queues are freed, so that the
process may end without a word from the tracker about leaked semaphores — even with ``os._exit``, as a worker of
``laro serve --workers`` does. A worker also ends by itself when the server's process dies, however it dies.

>>> import asyncio
>>> from laro.server.table import bot_turn, create
>>> table, _ = create("lama", 2, {}, {0: "random", 1: "random"}, created=0.0, seed=3)
>>> async def one_move() -> str:
...     pool = BotPool(workers=0)
...     try:
...         return (await pool.decide(table, bot_turn(table))).type
...     finally:
...         pool.close()
>>> asyncio.run(one_move())
'act'
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import functools
import multiprocessing
import os
import signal
import sys
import time
from collections import OrderedDict, deque
from collections.abc import Iterable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from laro.server.table import BotTurn, Table, bot_done
from laro.server.table.events import Act

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
        self._lines: OrderedDict[str, deque[tuple[asyncio.Future[Any], BotTurn]]] = OrderedDict()  # per address
        self._busy = 0  # turns in the workers now

    def _pool(self) -> Executor:
        if self._executor is None:
            self._executor = worker_processes(self.workers, "laro-bot")
        return self._executor

    async def warm(self) -> None:
        """Start the workers now (each imports laro's bots), so the first bot turn does not wait for them."""
        await asyncio.get_running_loop().run_in_executor(self._pool(), _ready)

    def prepare(self, bots: Iterable[str]) -> None:
        """Start the workers in the background if any of ``bots`` will think in them and they are not started."""
        if self._executor is None and any(bot not in NEVER_SEARCH for bot in bots):
            self._pool().submit(_ready)

    async def decide(self, table: Table, turn: BotTurn, address: str | None = None) -> Act:
        """The event of ``turn``'s decision (made in a worker, in the line of the ``address`` that made the
        table), its bot's memory kept by ``table``."""
        key = (table.game.name, turn.name)
        cost = self._cost.get(key)
        if self.inline(*key):
            action, thought, seconds = _decide(turn)
        else:
            line = address if address is not None else f"table {table.meta.id}"
            try:
                action, thought, seconds = await self._in_line(line, turn)
            except BrokenProcessPool:  # a worker died (killed, out of memory): start afresh, think once more
                self._restart()
                action, thought, seconds = await self._in_line(line, turn)
        self._cost[key] = seconds if cost is None else (1 - _WEIGHT) * cost + _WEIGHT * seconds
        return bot_done(table, thought, action)

    async def _in_line(self, line: str, turn: BotTurn) -> tuple[Any, BotTurn, float]:
        """``turn`` decided in a worker, when its line's turn comes (see the module's notes)."""
        decided: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._lines.setdefault(line, deque()).append((decided, turn))
        self._send()
        result: tuple[Any, BotTurn, float] = await decided
        return result

    def _send(self) -> None:
        """While a worker is free: the next line in turn sends its oldest turn."""
        while self._busy < max(1, self.workers) and self._lines:
            line, waiting = next(iter(self._lines.items()))
            decided, turn = waiting.popleft()
            if waiting:
                self._lines.move_to_end(line)  # its next turn waits for the other lines' turns
            else:
                del self._lines[line]
            if decided.cancelled():
                continue
            self._busy += 1
            asyncio.wrap_future(self._pool().submit(_decide, turn)).add_done_callback(
                functools.partial(self._done, decided)
            )

    def _done(self, decided: asyncio.Future[Any], thought: asyncio.Future[Any]) -> None:
        self._busy -= 1
        if not decided.cancelled():
            error = None if thought.cancelled() else thought.exception()
            if thought.cancelled():
                decided.cancel()
            elif error is not None:
                decided.set_exception(error)
            else:
                decided.set_result(thought.result())
        self._send()

    def cost(self, game: str, bot: str) -> float | None:
        """The average seconds ``bot`` has taken to decide (None before its first decision)."""
        return self._cost.get((game, bot))

    def inline(self, game: str, bot: str) -> bool:
        """Whether ``bot`` now decides in the server's own process (it has proved cheap)."""
        cost = self._cost.get((game, bot))
        return bot in NEVER_SEARCH and (cost is None or cost < INLINE_BELOW)

    def _restart(self, at_once: bool = False) -> None:
        executor, self._executor = self._executor, None
        if executor is not None:
            close_workers(executor, at_once)

    def close(self) -> None:
        """The server stops: end the workers now (see the module's notes)."""
        self._restart(at_once=True)
