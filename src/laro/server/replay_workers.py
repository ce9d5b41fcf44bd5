"""Replays are made in a worker process, a few at a time and one per address, never in the server's event loop.

A replay is the whole game replayed by the rules, every step's observation (and, in the open view, every seat's
hidden part) encoded as JSON and compressed: for a long game of many players, megabytes and seconds of work. Done
in the event loop (or in a thread, which holds the interpreter as much), it stalls every other client; so it is
done in a worker process at a lower priority (as the bots' and analyses' are), which hands back the answer's
bytes, compressed when the client takes gzip. At most ``at_once`` replays are made at once (default
:data:`AT_ONCE`) and four times as many more wait; beyond that the server is ``busy``. One address has at most
one replay in the making: a second is ``too_many`` until the first is sent. An answer may hold at most
:data:`MAX_BYTES` bytes of JSON (before compression), and a record at most
:data:`laro.server.replays.MAX_STEPS` actions.

>>> import asyncio, json
>>> import laro
>>> from laro.core import GameRecord
>>> record = GameRecord.start(laro.get_game("lama").new_game(2, seed=4), seed=4, players=["Ana", "Ben"])
>>> record.actions = ["draw", "quit"]
>>> async def made() -> int:
...     workers = ReplayWorkers(workers=0)
...     try:
...         body, encoding = await workers.render("10.0.0.1", record.to_json(), "open", gzip=False)
...         return len(json.loads(body)["steps"])
...     finally:
...         workers.close()
>>> asyncio.run(made())
3
"""

from __future__ import annotations

import asyncio
import gzip as gzip_module
import json
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool

from laro.core import GameRecord, JSONDict, RecordError
from laro.server.bot_pool import close_workers, worker_processes
from laro.server.errors import Code, Refusal
from laro.server.replays import replay_steps, with_table

__all__ = ["AT_ONCE", "MAX_BYTES", "ReplayWorkers"]

AT_ONCE = 2  # replays made at once, server-wide (four times as many may wait for their turn)
MAX_BYTES = 32 << 20  # bytes of JSON one replay may hold, before compression


def _render(
    record: JSONDict, view: int | str, table: tuple[list[str | None], str | None] | None, gzip: bool
) -> tuple[bytes, str | None] | tuple[Code, str]:
    """In the worker: the replay's answer as bytes and its content encoding, or a refusal's code and message
    (an exception of the server's own does not cross the process boundary intact)."""
    try:
        try:
            replayed = replay_steps(GameRecord.from_json(record), view)
        except RecordError as error:
            raise Refusal(Code.BAD_RECORD, str(error)) from None
        if table is not None:
            replayed = with_table(replayed, *table)
        body = json.dumps(replayed, separators=(",", ":"), ensure_ascii=False).encode()
        if len(body) > MAX_BYTES:
            raise Refusal(Code.TOO_LARGE, f"a replay holds at most {MAX_BYTES >> 20} MiB; ask for one seat's view")
    except Refusal as error:
        return error.code, str(error)
    if gzip:
        return gzip_module.compress(body, compresslevel=6), "gzip"
    return body, None


class ReplayWorkers:
    """Where replays are made: ``workers`` processes (1), or a thread of the server's own when 0; ``at_once`` of
    them at a time."""

    def __init__(self, workers: int = 1, at_once: int = AT_ONCE) -> None:
        self.workers = workers
        self.at_once = at_once
        self._executor: Executor | None = None
        self._turns = asyncio.Semaphore(at_once)
        self._in_flight: set[str] = set()  # addresses with a replay in the making
        self._waiting = 0

    async def render(
        self,
        address: str,
        record: JSONDict,
        view: int | str,
        gzip: bool,
        table: tuple[list[str | None], str | None] | None = None,
    ) -> tuple[bytes, str | None]:
        """The replay of ``record`` as ``view`` saw it (with what its ``table`` knew, for a finished table's), as
        the answer's bytes and content encoding; :class:`Refusal` ``too_many``, ``busy`` or the replay's own."""
        if address in self._in_flight:
            raise Refusal(Code.TOO_MANY, "a replay of yours is being made; ask again once it has come")
        if self._waiting >= 5 * self.at_once:
            raise Refusal(Code.BUSY, "the server makes as many replays as it may; try again in a moment")
        self._in_flight.add(address)
        self._waiting += 1
        try:
            async with self._turns:
                made = await self._run(record, view, table, gzip)
        finally:
            self._waiting -= 1
            self._in_flight.discard(address)
        body, encoding = made
        if isinstance(body, Code):  # a refusal, by its code
            raise Refusal(body, str(encoding))
        return body, encoding

    async def _run(
        self, record: JSONDict, view: int | str, table: tuple[list[str | None], str | None] | None, gzip: bool
    ) -> tuple[bytes, str | None] | tuple[Code, str]:
        loop = asyncio.get_running_loop()
        if self._executor is None:
            self._executor = worker_processes(self.workers, "laro-replay")
        try:
            return await loop.run_in_executor(self._executor, _render, record, view, table, gzip)
        except BrokenProcessPool:  # the worker died (killed, out of memory): start afresh, once
            self.close()
            self._executor = worker_processes(self.workers, "laro-replay")
            return await loop.run_in_executor(self._executor, _render, record, view, table, gzip)

    def close(self) -> None:
        executor, self._executor = self._executor, None
        if executor is not None:
            close_workers(executor, at_once=True)
