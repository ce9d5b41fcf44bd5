"""The SQLite store commits the appends waiting together in one transaction, each still checked on its own.

``SQLiteStore.commits`` counts the write transactions a store committed; with ``group_commit=False`` it is one per
append (the baseline that shows the count is a count), with grouping fewer. Every accepted append is in the file
when another store opens it, a refused one leaves the others of its transaction in, and a writer killed with
``kill -9`` loses none of the appends it was told were accepted.
"""

from __future__ import annotations

import asyncio
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from tests.server.test_store import event, make_meta

from laro.server.store import (
    SeqConflict,
    SQLiteStore,
    StoredTable,
    StoreError,
    TableFinished,
    TableMeta,
    TableNotFound,
)
from laro.server.store.bench import run_store_bench


async def make_tables(store: SQLiteStore, count: int) -> list[TableMeta]:
    tables = [make_meta(f"t{number}") for number in range(count)]
    for meta in tables:
        await store.create_table(meta)
    return tables


async def write(store: SQLiteStore, table_id: str, events: int) -> None:
    for seq in range(1, events + 1):
        await store.append(table_id, event(seq, table=table_id))


async def logs(path: Path) -> dict[str, list[int]]:
    """Every table's seqs, read by a new store on the file."""
    async with SQLiteStore(path) as store:
        found = [table async for table in store.iter_tables()]
    assert all(isinstance(table, StoredTable) for table in found)
    return {table.meta.id: [e["seq"] for e in table.events] for table in found if isinstance(table, StoredTable)}


@pytest.mark.parametrize("grouped", [True, False], ids=["grouped", "one-per-append"])
def test_concurrent_appends_share_commits(tmp_path: Path, grouped: bool) -> None:
    path, writers, events = tmp_path / "tables.db", 40, 10

    async def main() -> int:
        async with SQLiteStore(path, group_commit=grouped) as store:
            tables = await make_tables(store, writers)
            before = store.commits
            await asyncio.gather(*(write(store, meta.id, events) for meta in tables))
            return store.commits - before

    commits = asyncio.run(main())
    if grouped:
        assert commits <= writers * events // 4, commits
    else:
        assert commits == writers * events
    assert asyncio.run(logs(path)) == {f"t{number}": list(range(1, events + 1)) for number in range(writers)}


def test_a_refused_append_leaves_the_others_of_its_commit(tmp_path: Path) -> None:
    """Another connection holds the write lock, so every append below waits and goes into one or two commits;
    the refused ones among them (a lost race, a finished table, no such table) are refused alone."""
    path = tmp_path / "tables.db"

    async def main() -> tuple[list[object], int]:
        async with SQLiteStore(path) as store:
            tables = await make_tables(store, 6)
            for meta in tables:
                await store.append(meta.id, event(1))
            await store.finish("t5", {"winners": [0]})
            blocker = sqlite3.connect(path, isolation_level=None)
            blocker.execute("BEGIN IMMEDIATE")  # the store's worker waits for this lock (busy_timeout)
            before = store.commits
            attempts = [
                store.append("t0", event(2)),
                store.append("t1", event(2)),
                store.append("t1", event(2, note="lost the race")),
                store.append("t2", event(5)),
                store.append("t5", event(2)),
                store.append("nowhere", event(1)),
                store.append("t3", event(2)),
                store.append("t4", event(2)),
                store.append("t4", event(3)),
            ]
            running = asyncio.gather(*attempts, return_exceptions=True)
            await asyncio.sleep(0.3)
            blocker.execute("ROLLBACK")
            blocker.close()
            outcomes = await asyncio.wait_for(running, timeout=10)
            return outcomes, store.commits - before

    outcomes, commits = asyncio.run(main())
    kinds = [type(outcome).__name__ if outcome is not None else None for outcome in outcomes]
    assert kinds == [None, None, "SeqConflict", "SeqConflict", "TableFinished", "TableNotFound", None, None, None]
    assert isinstance(outcomes[2], SeqConflict) and outcomes[2].expected == 3
    assert isinstance(outcomes[4], TableFinished) and isinstance(outcomes[5], TableNotFound)
    assert commits <= 2  # nine appends, the refused ones among them
    assert asyncio.run(logs(path)) == {"t0": [1, 2], "t1": [1, 2], "t2": [1], "t3": [1, 2], "t4": [1, 2, 3], "t5": [1]}


def test_a_failed_commit_fails_every_append_of_it(tmp_path: Path) -> None:
    """When the transaction cannot be had at all (the lock is held past busy_timeout), every append waiting in
    it is told so, and nothing of them is in the file."""
    path = tmp_path / "tables.db"

    async def main() -> list[object]:
        async with SQLiteStore(path, busy_timeout=0.2) as store:
            tables = await make_tables(store, 3)
            blocker = sqlite3.connect(path, isolation_level=None)
            blocker.execute("BEGIN IMMEDIATE")
            try:
                outcomes = await asyncio.wait_for(
                    asyncio.gather(*(store.append(meta.id, event(1)) for meta in tables), return_exceptions=True),
                    timeout=10,
                )
            finally:
                blocker.execute("ROLLBACK")
                blocker.close()
            await store.append("t0", event(1))  # and the store works on
            return outcomes

    outcomes = asyncio.run(main())
    assert all(isinstance(outcome, StoreError) and "locked" in str(outcome) for outcome in outcomes), outcomes
    assert asyncio.run(logs(path)) == {"t0": [1], "t1": [], "t2": []}


WRITERS = textwrap.dedent(
    """
    import asyncio, sys
    from laro.server.store import SQLiteStore

    path, tables = sys.argv[1], int(sys.argv[2])

    async def write(store, table_id):
        seq = 1
        while True:
            await store.append(table_id, {"seq": seq, "type": "act"})
            print(table_id, seq, flush=True)
            seq += 1

    async def main():
        async with SQLiteStore(path) as store:
            await asyncio.gather(*(write(store, f"t{number}") for number in range(tables)))

    asyncio.run(main())
    """
)


@pytest.mark.timeout(60)
def test_many_writers_killed_lose_nothing_acknowledged(tmp_path: Path) -> None:
    """Fifty tasks in one process append at once (so in shared commits); each prints an append once it returned.
    After ``kill -9``, every printed append is in the file, and every log is without a gap."""
    path, tables = tmp_path / "tables.db", 50

    async def create() -> None:
        async with SQLiteStore(path) as store:
            await make_tables(store, tables)

    asyncio.run(create())
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITERS, str(path), str(tables)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    printed: dict[str, int] = {}
    count, deadline = 0, time.monotonic() + 30
    while count < 1500 and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        table_id, seq = line.split()
        printed[table_id] = int(seq)
        count += 1
    proc.send_signal(signal.SIGKILL)
    _, err = proc.communicate(timeout=10)
    assert proc.returncode == -signal.SIGKILL, err
    assert count >= 500, f"only {count} appends were printed: {err}"
    stored = asyncio.run(logs(path))
    for table_id, seqs in stored.items():
        assert seqs == list(range(1, len(seqs) + 1)), table_id
    assert all(len(stored[table_id]) >= seq for table_id, seq in printed.items())


def test_the_store_bench_measures_both_ways(tmp_path: Path) -> None:
    runs = run_store_bench((1, 30), seconds=0.3, folder=str(tmp_path))
    assert [(run.writers, run.grouped) for run in runs] == [(1, False), (1, True), (30, False), (30, True)]
    assert all(run.appends > 0 and run.commits > 0 for run in runs)
    assert [run.appends == run.commits for run in runs] == [True, True, True, False]  # one writer: nothing to group
    assert runs[3].appends_per_commit > 2
    assert list(tmp_path.iterdir()) == []  # its files are gone
