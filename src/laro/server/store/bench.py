"""How fast the SQLite store takes appends: grouped commits against one commit per append, measured in one run.

Each writer is a task appending to a table of its own, the next event as soon as the last one is acknowledged, as
a table's players do at their fastest. The same run measures each number of writers with ``group_commit`` off (one
transaction and one fsync per append) and on (every append waiting when the worker is free shares one), each on a
new file in the same folder, and reports appends per second, appends per commit and the latency of an append.

>>> [run.writers for run in run_store_bench((1, 3), seconds=0.05)]
[1, 1, 3, 3]
"""

from __future__ import annotations

import asyncio
import os
import statistics
import tempfile
import time
from dataclasses import asdict, dataclass
from typing import Any

from .base import TableMeta
from .sqlite import SQLiteStore

__all__ = ["AppendRun", "measure_appends", "run_store_bench"]


@dataclass(frozen=True, slots=True)
class AppendRun:
    """What one measurement saw."""

    writers: int
    grouped: bool
    synchronous: str
    seconds: float
    appends: int
    commits: int
    p50_ms: float
    p99_ms: float

    @property
    def appends_per_second(self) -> float:
        return self.appends / self.seconds if self.seconds else 0.0

    @property
    def appends_per_commit(self) -> float:
        return self.appends / self.commits if self.commits else 0.0

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data.update(appends_per_second=self.appends_per_second, appends_per_commit=self.appends_per_commit)
        return data


async def measure_appends(
    path: str, writers: int, grouped: bool, seconds: float, synchronous: str = "FULL"
) -> AppendRun:
    """``writers`` tasks appending to their own tables for ``seconds`` on a new store at ``path``."""
    async with SQLiteStore(path, synchronous=synchronous, group_commit=grouped) as store:
        ids = [f"bench-{number}" for number in range(writers)]
        for table_id in ids:
            await store.create_table(TableMeta(table_id, "lama", "1", 2, {}, 1, [{}, {}], time.time()))
        latencies: list[float] = []
        commits_before = store.commits
        started = time.perf_counter()
        stop = started + seconds

        async def write(table_id: str) -> None:
            seq = 1
            while time.perf_counter() < stop:
                sent = time.perf_counter()
                await store.append(table_id, {"seq": seq, "type": "act", "seat": seq % 2, "action": "play 3"})
                latencies.append(time.perf_counter() - sent)
                seq += 1

        await asyncio.gather(*(write(table_id) for table_id in ids))
        elapsed = time.perf_counter() - started
        commits = store.commits - commits_before
    ordered = sorted(latencies)
    return AppendRun(
        writers=writers,
        grouped=grouped,
        synchronous=synchronous,
        seconds=elapsed,
        appends=len(latencies),
        commits=commits,
        p50_ms=1000 * statistics.median(ordered) if ordered else 0.0,
        p99_ms=1000 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] if ordered else 0.0,
    )


def run_store_bench(
    writer_counts: tuple[int, ...] = (1, 50, 400),
    seconds: float = 3.0,
    synchronous: str = "FULL",
    folder: str | None = None,
) -> list[AppendRun]:
    """For each number of writers, one commit per append then grouped commits, each on a new file in ``folder``
    (a temporary folder if None: on the disk that holds it, which is what is measured)."""
    runs = []
    with tempfile.TemporaryDirectory(prefix="laro-store-bench-", dir=folder) as where:
        for writers in writer_counts:
            for grouped in (False, True):
                path = os.path.join(where, f"{writers}-{'grouped' if grouped else 'single'}.db")
                runs.append(asyncio.run(measure_appends(path, writers, grouped, seconds, synchronous)))
    return runs
