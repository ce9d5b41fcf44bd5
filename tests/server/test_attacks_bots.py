"""Bots' thinking is shared fairly between the addresses that made the tables: however many tables of searching
bots one stranger makes, another's bot is not stuck behind all of their turns. In-process, the pool's own code."""

from __future__ import annotations

import asyncio

from laro.server.bot_pool import BotPool
from laro.server.table import Table, bot_turn, create


def test_a_strangers_many_tables_do_not_starve_anothers_bot() -> None:
    """Twelve tables of one stranger and then one of another each send a bot's turn to a pool of one worker:
    the other's turn is decided third at the latest (one of the stranger's is thinking, one more may go first),
    not thirteenth as in a first-come line; the stranger's own turns keep their order."""

    async def main() -> list[str]:
        pool = BotPool(workers=0)
        pool.inline = lambda game, bot: False  # type: ignore[method-assign]  # every bot thinks in the worker
        decided: list[str] = []
        try:

            async def turn(table: Table, address: str) -> None:
                await pool.decide(table, bot_turn(table), address)
                decided.append(f"{address} {table.meta.id}")

            bots = {0: "random", 1: "random"}
            tables = [create("lama", 2, {}, bots, created=1.8e9, seed=n, table_id=f"t{n}")[0] for n in range(13)]
            turns = [asyncio.ensure_future(turn(table, "10.0.0.1")) for table in tables[:12]]
            turns.append(asyncio.ensure_future(turn(tables[12], "10.0.0.2")))
            await asyncio.wait_for(asyncio.gather(*turns), 20.0)
        finally:
            pool.close()
        return decided

    decided = asyncio.run(main())
    assert decided.index("10.0.0.2 t12") <= 2, decided
    strangers = [entry for entry in decided if entry.startswith("10.0.0.1")]
    assert strangers == [f"10.0.0.1 t{n}" for n in range(12)]
