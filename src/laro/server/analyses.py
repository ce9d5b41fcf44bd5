"""Move analyses of finished tables: made in a worker process, at a lower priority, and kept in the store.

An analysis (:mod:`laro.bots.analysis`) takes seconds — far longer than any action — so it never runs in the
server's own process: a worker process of its own (not the bots', so no bot waits behind an analysis) thinks at
``nice`` 10, and the server answers everyone else meanwhile. Only a table that is over is analysed: its record
then holds everything, seed included, and nobody can learn a hidden card still in play. A finished analysis is
kept in the store under its seat and settings, so it is made once and read back after a restart. At most
:data:`MAX_PENDING` analyses wait or run at once; beyond that the server is ``busy``. One address may have at most
``per_address`` of them under way (:data:`PER_ADDRESS`; more is ``too_many``), so that one stranger cannot take
every slot.

Several processes on one store make each analysis once: the process that is asked first claims it in the store
(a row with a claimed-until time, taken with one conditional statement, so of two claimants one wins) and
renews its claim while it thinks; another process asked meanwhile answers ``running`` and waits for the result
in the store. If the maker dies, its claim runs out (in ``claim_seconds``) and a process still waiting claims
it and makes the analysis: no request is lost.

The server analyses with seed 0 at the game's default budget, so ``laro analyse`` of the downloaded record gives
the same figures.

>>> import asyncio
>>> from laro.server.store import SQLiteStore
>>> from laro.server.table import create, make_bot_event
>>> table, _ = create("lama", 2, {}, {0: "heuristic", 1: "heuristic"}, created=0.0, seed=3)
>>> while not table.over:
...     table.apply(make_bot_event(table), now=1.0)
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
import contextlib
import logging
import time
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool

from laro.bots.analysis import ANALYSIS_FORMAT, AnalysisError, analyse, default_budget
from laro.core import GameRecord, JSONDict, RecordError
from laro.server.bot_pool import close_workers, worker_processes
from laro.server.cluster import process_name
from laro.server.errors import Code, Refusal
from laro.server.records import record_of
from laro.server.store import Store, StoreError
from laro.server.table import Table

__all__ = ["CLAIM_SECONDS", "MAX_PENDING", "PER_ADDRESS", "SEED", "Analyses"]

log = logging.getLogger("laro.server.analyses")

MAX_PENDING = 4  # analyses waiting or running at once, server-wide
PER_ADDRESS = 1  # analyses one address may have under way at once
SEED = 0  # the search's seed for every analysis the server makes
CLAIM_SECONDS = 3.0  # how long a claim of making an analysis lasts, renewed every third of it while it is made


def _analyse(record: JSONDict, seat: int, budget: int) -> JSONDict:
    """In the worker: the analysis of ``seat`` in ``record``, as JSON."""
    return analyse(GameRecord.from_json(record), seat, budget, SEED).to_json()


class Analyses:
    """The analyses of finished tables: ``workers`` processes (1), or a thread of the server's own when 0.
    ``claim_seconds``: how long a claim of the making of an analysis lasts unless renewed (see the module)."""

    def __init__(
        self, store: Store, workers: int = 1, claim_seconds: float = CLAIM_SECONDS, per_address: int = PER_ADDRESS
    ) -> None:
        self.store = store
        self.per_address = per_address
        self._askers: dict[tuple[str, int], str] = {}  # an analysis under way -> the address that asked for it
        self.workers = workers
        self.claim_seconds = claim_seconds
        self.me = process_name()  # this process's name in the store's claims
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
            raise Refusal(Code.NOT_OVER, "a game is analysed once it is over")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < table.meta.num_players:
            raise Refusal(
                Code.BAD_REQUEST, f"give the seat to analyse: a number from 0 to {table.meta.num_players - 1}"
            )
        return seat

    async def look(self, table: Table, seat: object) -> JSONDict:
        """``{"status": "done", "analysis": …}``, ``{"status": "running"}`` (here or in another process),
        ``{"status": "failed", "message": …}`` or ``{"status": "none"}`` (never asked for)."""
        seat = self._check(table, seat)
        flight = (table.meta.id, seat)
        if flight in self._pending:
            return {"status": "running"}
        failed = self._failed.pop(flight, None)
        if failed is not None:
            return {"status": "failed", "message": failed}
        key = self.key(table, seat)
        try:
            kept = await self.store.load_analysis(table.meta.id, key)
            if kept is None and await self.store.analysis_claimed(table.meta.id, key, time.time()):
                return {"status": "running"}  # by another process
        except StoreError as error:
            log.warning("table %s: cannot read its analysis: %s", table.meta.id, error)
            raise Refusal(Code.UNAVAILABLE, "the server cannot read that analysis now; try again") from None
        return {"status": "none"} if kept is None else {"status": "done", "analysis": kept}

    async def request(self, table: Table, seat: object, address: str | None = None) -> JSONDict:
        """The analysis of ``seat`` if it is kept, else see that it is made (asked by ``address``):
        ``{"status": "running"}``. The process that claims it makes it; one that finds it claimed waits for it in
        the store, and makes it itself if the claim runs out without it (its maker died)."""
        found = await self.look(table, seat)
        if found["status"] == "done" or (found["status"] == "running" and (table.meta.id, seat) in self._pending):
            return found
        seat = self._check(table, seat)
        if address is not None and list(self._askers.values()).count(address) >= self.per_address:
            raise Refusal(
                Code.TOO_MANY, f"at most {self.per_address} analyses of your address at once; ask again once it is made"
            )
        if len(self._pending) >= MAX_PENDING:
            raise Refusal(Code.BUSY, f"the server is analysing {MAX_PENDING} games already; try again in a minute")
        flight = (table.meta.id, seat)
        record = record_of(table, None)
        if address is not None:
            self._askers[flight] = address
        self._pending[flight] = asyncio.create_task(self._see_made(table, seat, record))
        return {"status": "running"}

    async def wait(self, table_id: str, seat: int) -> None:
        """Until the analysis of ``seat`` in progress (if any) is made and kept."""
        task = self._pending.get((table_id, seat))
        if task is not None:
            await asyncio.shield(task)

    async def _see_made(self, table: Table, seat: int, record: JSONDict) -> None:
        """Make the analysis while this process holds its claim; else wait until the one that does has kept it,
        or its claim runs out (then claim it here)."""
        flight, key = (table.meta.id, seat), self.key(table, seat)
        try:
            while True:
                try:
                    if await self._claim(table.meta.id, key):
                        await self._make(table, seat, record)
                        return
                    if await self.store.load_analysis(table.meta.id, key) is not None:
                        return  # made by another process
                except StoreError as error:
                    log.warning("table %s: cannot see to the analysis of seat %d now: %s", table.meta.id, seat, error)
                await asyncio.sleep(min(1.0, self.claim_seconds / 3))
        except Exception as error:  # one failed analysis must not take the server down
            log.exception("table %s: the analysis of seat %d failed", table.meta.id, seat)
            self._failed[flight] = f"the analysis could not be made ({type(error).__name__})"
        finally:
            self._pending.pop(flight, None)
            self._askers.pop(flight, None)

    async def _claim(self, table_id: str, key: str) -> bool:
        now = time.time()
        return await self.store.claim_analysis(table_id, key, self.me, now, now + self.claim_seconds)

    async def _renew(self, table_id: str, key: str) -> None:
        """Keep this process's claim while it makes the analysis."""
        while True:
            await asyncio.sleep(self.claim_seconds / 3)
            try:
                if not await self._claim(table_id, key):
                    log.warning("table %s: the claim of analysis %s ran out while it was made", table_id, key)
            except StoreError as error:
                log.warning("table %s: the claim of analysis %s not renewed: %s", table_id, key, error)

    async def _make(self, table: Table, seat: int, record: JSONDict) -> None:
        flight, key = (table.meta.id, seat), self.key(table, seat)
        loop = asyncio.get_running_loop()
        budget = default_budget(table.game.name)
        renewing = loop.create_task(self._renew(table.meta.id, key))
        started = time.perf_counter()
        try:
            try:
                made = await loop.run_in_executor(self._pool(), _analyse, record, seat, budget)
            except BrokenProcessPool:  # the worker died (killed, out of memory): start afresh, once
                self._restart()
                made = await loop.run_in_executor(self._pool(), _analyse, record, seat, budget)
            await self.store.save_analysis(table.meta.id, key, made)
            log.info("table %s: seat %d analysed in %.1f s", table.meta.id, seat, time.perf_counter() - started)
        except (RecordError, AnalysisError, StoreError, BrokenProcessPool) as error:
            log.error("table %s: the analysis of seat %d failed: %s", table.meta.id, seat, error)
            self._failed[flight] = f"the analysis could not be made: {error}"
        finally:
            renewing.cancel()
            with contextlib.suppress(StoreError):  # else it runs out
                await self.store.release_analysis(table.meta.id, key, self.me)

    def _restart(self, at_once: bool = False) -> None:
        executor, self._executor = self._executor, None
        if executor is not None:
            close_workers(executor, at_once)

    def pending(self) -> int:
        """Analyses waiting or running now (here, or waited for here while another process makes them)."""
        return len(self._pending)

    def close(self) -> None:
        """The server stops: the analyses under way are dropped, their worker ended now (see bot_pool's notes)."""
        for task in self._pending.values():
            task.cancel()
        self._restart(at_once=True)
