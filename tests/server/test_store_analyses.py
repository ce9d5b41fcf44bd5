"""Move analyses kept in the store beside their tables, in SQLite and PostgreSQL, and the claims of the process
making one; a database made before there were analyses, or claims, still loads, and gains their tables."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from laro.server.store import SQLiteStore, Store, StoredTable, TableMeta, TableNotFound, new_table_id

if TYPE_CHECKING:
    from conftest import Backend  # the fixture's type (tests/server/conftest.py)


def meta() -> TableMeta:
    return TableMeta(
        id=new_table_id(),
        game="lama",
        rules_version="1.0",
        num_players=2,
        options={},
        seed=12,
        seats=[{"token_hash": None, "bot": "random"}] * 2,
        created=1_700_000_000.0,
    )


def run(backend: Backend | Path, body: Callable[[Store], Awaitable[None]]) -> None:
    async def main() -> None:
        async with SQLiteStore(backend) if isinstance(backend, Path) else backend.make() as store:
            await body(store)

    asyncio.run(main())


ANALYSIS = {"format": "laro-analysis/1", "seat": 1, "player": "Bé", "decisions": [{"move": 2, "loss": 0.25}]}


def test_an_analysis_is_kept_and_replaced(backend: Backend) -> None:
    table = meta()

    async def body(store: Store) -> None:
        await store.create_table(table)
        assert await store.load_analysis(table.id, "seat=1") is None
        await store.save_analysis(table.id, "seat=1", ANALYSIS)
        assert await store.load_analysis(table.id, "seat=1") == ANALYSIS
        assert await store.load_analysis(table.id, "seat=0") is None
        await store.save_analysis(table.id, "seat=1", {**ANALYSIS, "player": "Ana"})
        assert (await store.load_analysis(table.id, "seat=1") or {})["player"] == "Ana"
        with pytest.raises(TableNotFound, match="no table 'nope'"):
            await store.save_analysis("nope", "seat=0", ANALYSIS)

    run(backend, body)


def test_a_database_made_before_analyses_still_loads(backend: Backend) -> None:
    table = meta()

    async def first(store: Store) -> None:
        await store.create_table(table)
        await store.append(table.id, {"seq": 1, "type": "act", "seat": 0, "action": "draw"})

    run(backend, first)
    backend.execute("DROP TABLE laro_analysis_claims")  # as a store of an earlier laro left it
    backend.execute("DROP TABLE laro_analyses")

    async def later(store: Store) -> None:
        loaded = await store.load(table.id)
        assert isinstance(loaded, StoredTable) and loaded.last_seq == 1
        assert await store.claim_analysis(table.id, "seat=0", "p1", 10.0, 13.0)
        await store.save_analysis(table.id, "seat=0", ANALYSIS)
        assert await store.load_analysis(table.id, "seat=0") == ANALYSIS

    run(backend, later)


def test_one_process_at_a_time_claims_the_making_of_an_analysis(backend: Backend) -> None:
    """A claim is won by one holder; renewed by it; taken by another only once it ran out or was released; and
    refused to everyone once the analysis is kept."""
    table = meta()

    async def body(store: Store) -> None:
        await store.create_table(table)
        tid = table.id
        assert not await store.analysis_claimed(tid, "seat=1", 10.0)
        assert await store.claim_analysis(tid, "seat=1", "p1", 10.0, 13.0)
        assert await store.analysis_claimed(tid, "seat=1", 12.9) and not await store.analysis_claimed(tid, "seat=1", 13)
        assert not await store.claim_analysis(tid, "seat=1", "p2", 12.0, 15.0)  # p1 holds it
        assert await store.claim_analysis(tid, "seat=1", "p2", 12.0, 15.0) is False
        assert await store.claim_analysis(tid, "seat=0", "p2", 12.0, 15.0)  # another seat is another analysis
        assert await store.claim_analysis(tid, "seat=1", "p1", 12.0, 16.0)  # renewed by its holder
        assert not await store.claim_analysis(tid, "seat=1", "p2", 15.5, 18.5)
        assert await store.claim_analysis(tid, "seat=1", "p2", 16.0, 19.0)  # ran out: p1 stopped renewing
        assert not await store.claim_analysis(tid, "seat=1", "p1", 16.5, 19.5)
        await store.release_analysis(tid, "seat=1", "p1")  # not p1's any more: nothing changes
        assert not await store.claim_analysis(tid, "seat=1", "p3", 17.0, 20.0)
        await store.release_analysis(tid, "seat=1", "p2")
        assert not await store.analysis_claimed(tid, "seat=1", 17.0)
        assert await store.claim_analysis(tid, "seat=1", "p3", 17.0, 20.0)
        await store.save_analysis(tid, "seat=1", ANALYSIS)
        await store.release_analysis(tid, "seat=1", "p3")
        assert not await store.claim_analysis(tid, "seat=1", "p4", 30.0, 33.0)  # it is made: nothing to claim

    run(backend, body)


def test_of_claimants_at_once_exactly_one_wins(backend: Backend) -> None:
    table = meta()

    async def body(store: Store) -> None:
        await store.create_table(table)
        for round_ in range(5):
            key = f"seat={round_}"
            won = await asyncio.gather(*(store.claim_analysis(table.id, key, f"p{n}", 1.0, 4.0) for n in range(6)))
            assert sum(won) == 1, won

    run(backend, body)


def test_an_unreadable_analysis_is_made_again(tmp_path: Path) -> None:
    """SQLite keeps text (PostgreSQL's jsonb column holds only valid JSON): a damaged one reads back as none."""
    path = tmp_path / "laro.db"
    table = meta()

    async def first(store: Store) -> None:
        await store.create_table(table)
        await store.save_analysis(table.id, "seat=0", ANALYSIS)

    run(path, first)
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("UPDATE laro_analyses SET analysis = '[1, 2'")
    con.close()

    async def later(store: Store) -> None:
        assert await store.load_analysis(table.id, "seat=0") is None

    run(path, later)
