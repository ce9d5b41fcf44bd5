"""The server's few analysis slots are shared fairly: one address has at most one analysis under way, so one
stranger cannot take every slot. In-process, on a real SQLite store, with the analyses' real worker process."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from laro.server.analyses import Analyses
from laro.server.errors import Refusal
from laro.server.store import SQLiteStore
from laro.server.table import Table, create, make_bot_event


def _finished(seed: int) -> Table:
    table, _ = create("lama", 2, {}, {0: "heuristic", 1: "heuristic"}, created=1.8e9, seed=seed, table_id=f"t{seed}")
    while not table.over:
        table.apply(make_bot_event(table), 1.8e9)
    return table


def test_one_address_has_one_analysis_under_way(tmp_path: Path) -> None:
    """A stranger asks for four analyses at once: the first is under way, the other three are refused
    (``too_many``; before: all four were taken, and the server was busy for everyone else); another address
    still gets its own."""

    async def main() -> None:
        tables = [_finished(seed) for seed in range(1, 5)]
        async with SQLiteStore(tmp_path / "t.db") as store:
            for table in tables:
                await store.create_table(table.meta)
            analyses = Analyses(store, workers=1)
            try:
                assert (await analyses.request(tables[0], 0, "10.0.0.1"))["status"] == "running"
                for table in tables[1:]:
                    with pytest.raises(Refusal) as refused:
                        await analyses.request(table, 0, "10.0.0.1")
                    assert refused.value.code == "too_many"
                assert (await analyses.request(tables[1], 1, "10.0.0.2"))["status"] == "running"
                assert (await analyses.request(tables[0], 0, "10.0.0.1"))["status"] == "running"  # its own, again
            finally:
                analyses.close()

    asyncio.run(main())
