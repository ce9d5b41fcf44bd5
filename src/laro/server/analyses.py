"""Move analyses of finished tables: made in a worker process, at a lower priority, and kept in the store.

An analysis (:mod:`laro.bots.analysis`) takes seconds — far longer than any action — so it never runs in the
server's own process: a worker process of its own (not the bots', so no bot waits behind an analysis) thinks at
``nice`` 10, and the server answers everyone else meanwhile. Only a table that is over is analysed: its record
then holds everything, seed included, and nobody can learn a hidden card still in play. A finished analysis is
kept in the store under its seat and settings, so it is made once and read back after a restart. At most
:data:`MAX_PENDING` analyses wait or run at once; beyond that the server is ``busy``.

The server analyses with seed 0 at the game's default budget, so ``laro analyse`` of the downloaded record gives
the same figures.

>>> import asyncio
>>> from laro.server.store import SQLiteStore
>>> from laro.server.tables import Table
>>> table, _ = Table.create("lama", 2, {}, {0: "heuristic", 1: "heuristic"}, seed=3)
>>> while not table.over:
...     table.apply(table.make_bot_event())
>>> async def analysed() -> str:
...     async with SQLiteStore(":memory:") as store:
...         await store.create_table(table.meta)
...         analyses = Analyses(store, workers=0)
...         try:
...             assert (await analyses.request(table, 1))["status"] == "running"
...             await analyses.wait(table.meta.id, 1)
...             return (await analyses.look(table, 1))["analysis"]["format"]
...         finally:
...             analyses.close()
>>> asyncio.run(analysed())
'laro-analysis/1'
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool

from laro.bots.analysis import ANALYSIS_FORMAT, AnalysisError, analyse, default_budget
from laro.core import GameRecord, JSONDict, RecordError
from laro.server.bot_pool import close_workers, worker_processes
from laro.server.records import record_of
from laro.server.store import Store, StoreError
from laro.server.tables import Refusal, Table

__all__ = ["MAX_PENDING", "SEED", "Analyses"]

log = logging.getLogger("laro.server.analyses")

MAX_PENDING = 4  # analyses waiting or running at once, server-wide
SEED = 0  # the search's seed for every analysis the server makes


def _analyse(record: JSONDict, seat: int, budget: int) -> JSONDict:
    """In the worker: the analysis of ``seat`` in ``record``, as JSON."""
    return analyse(GameRecord.from_json(record), seat, budget, SEED).to_json()


class Analyses:
    """The analyses of finished tables: ``workers`` processes (1), or a thread of the server's own when 0."""

    def __init__(self, store: Store, workers: int = 1) -> None:
        self.store = store
        self.workers = workers
        self._executor: Executor | None = None
        self._pending: dict[tuple[str, int], asyncio.Task[None]] = {}
        self._failed: dict[tuple[str, int], str] = {}  # why an analysis could not be made (said once, then forgotten)

    def _pool(self) -> Executor:
        if self._executor is None:
            self._executor = worker_processes(self.workers, "laro-analysis")
        return self._executor

    @staticmethod
    def key(table: Table, seat: int) -> str:
        """What an analysis is kept under: its seat and settings (a change of them makes a new one)."""
        return f"seat={seat} budget={default_budget(table.game.name)} seed={SEED} {ANALYSIS_FORMAT}"

    @staticmethod
    def _check(table: Table, seat: object) -> int:
        if not table.over:
            raise Refusal("not_over", "a game is analysed once it is over")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < table.meta.num_players:
            raise Refusal("bad_request", f"give the seat to analyse: a number from 0 to {table.meta.num_players - 1}")
        return seat

    async def look(self, table: Table, seat: object) -> JSONDict:
        """``{"status": "done", "analysis": …}``, ``{"status": "running"}``, ``{"status": "failed", "message": …}``
        or ``{"status": "none"}`` (never asked for)."""
        seat = self._check(table, seat)
        flight = (table.meta.id, seat)
        if flight in self._pending:
            return {"status": "running"}
        failed = self._failed.pop(flight, None)
        if failed is not None:
            return {"status": "failed", "message": failed}
        try:
            kept = await self.store.load_analysis(table.meta.id, self.key(table, seat))
        except StoreError as error:
            log.warning("table %s: cannot read its analysis: %s", table.meta.id, error)
            raise Refusal("unavailable", "the server cannot read that analysis now; try again") from None
        return {"status": "none"} if kept is None else {"status": "done", "analysis": kept}

    async def request(self, table: Table, seat: object) -> JSONDict:
        """The analysis of ``seat`` if it is kept, else start making it: ``{"status": "running"}``."""
        found = await self.look(table, seat)
        if found["status"] in ("done", "running"):
            return found
        seat = self._check(table, seat)
        if len(self._pending) >= MAX_PENDING:
            raise Refusal("busy", f"the server is analysing {MAX_PENDING} games already; try again in a minute")
        flight = (table.meta.id, seat)
        record = record_of(table, None)
        self._pending[flight] = asyncio.create_task(self._make(table, seat, record))
        return {"status": "running"}

    async def wait(self, table_id: str, seat: int) -> None:
        """Until the analysis of ``seat`` in progress (if any) is made and kept."""
        task = self._pending.get((table_id, seat))
        if task is not None:
            await asyncio.shield(task)

    async def _make(self, table: Table, seat: int, record: JSONDict) -> None:
        flight = (table.meta.id, seat)
        loop = asyncio.get_running_loop()
        budget = default_budget(table.game.name)
        try:
            try:
                made = await loop.run_in_executor(self._pool(), _analyse, record, seat, budget)
            except BrokenProcessPool:  # the worker died (killed, out of memory): start afresh, once
                self._restart()
                made = await loop.run_in_executor(self._pool(), _analyse, record, seat, budget)
            await self.store.save_analysis(table.meta.id, self.key(table, seat), made)
        except (RecordError, AnalysisError, StoreError, BrokenProcessPool) as error:
            log.error("table %s: the analysis of seat %d failed: %s", table.meta.id, seat, error)
            self._failed[flight] = f"the analysis could not be made: {error}"
        except Exception as error:  # one failed analysis must not take the server down
            log.exception("table %s: the analysis of seat %d failed", table.meta.id, seat)
            self._failed[flight] = f"the analysis could not be made ({type(error).__name__})"
        finally:
            self._pending.pop(flight, None)

    def _restart(self, at_once: bool = False) -> None:
        executor, self._executor = self._executor, None
        if executor is not None:
            close_workers(executor, at_once)

    def pending(self) -> int:
        """Analyses waiting or running now."""
        return len(self._pending)

    def close(self) -> None:
        """The server stops: the analyses under way are dropped, their worker ended now (see bot_pool's notes)."""
        for task in self._pending.values():
            task.cancel()
        self._restart(at_once=True)
