"""The list of finished games, a page at a time, newest end first, by the players' names (for the lobby).

Each finished table's stored result names its players (see :func:`laro.server.table.views.stored_result`); a
table finished by an older laro, whose result does not, is read back once to find them. Tables that expired
before anyone played are left out: there is no game to watch.

>>> from laro.server.store.base import TableMeta, TableSummary
>>> meta = TableMeta("t1", "lama", "1", 2, {}, 7, [{}, {"bot": "random"}], 1700000000.0)
>>> result = {"winners": [1], "scores": [12, 3], "players": ["Ana", "random bot"]}
>>> row = TableSummary(meta, True, 40, 1700000100.5, result)
>>> entry_of(row, None)["players"], entry_of(row, None)["ended"]
(['Ana', 'random bot'], 1700000100.5)
"""

from __future__ import annotations

from laro.core import JSONDict, get_game
from laro.server.errors import Refusal
from laro.server.hub import Hub
from laro.server.lobby import cursor_of, key_of_cursor
from laro.server.store.base import TableSummary
from laro.server.table.seats import name_of

__all__ = ["entry_of", "finished_page"]


def entry_of(row: TableSummary, names: list[str] | None) -> JSONDict:
    """One line of the list: the table, its game, players (``names`` when the stored result lacks them), result
    and when it ended."""
    result = dict(row.result or {})
    players = result.pop("players", None) or names or [None] * row.meta.num_players
    return {
        "id": row.meta.id,
        "game": row.meta.game,
        "title": get_game(row.meta.game).title,
        "options": row.meta.options,
        "players": players,
        "result": result,
        "ended": row.updated,
    }


async def finished_page(hub: Hub, limit: int, before: str | None) -> JSONDict:
    """A page of finished games: ``limit`` of them ended before the cursor ``before``, and the cursor of the next
    page (None on the last)."""
    rows = await hub.store.list_finished(limit, None if before is None else key_of_cursor(before))
    games = []
    for row in rows:
        if (row.result or {}).get("ended") == "expired":
            continue
        names = None
        if not (row.result or {}).get("players"):
            try:
                table = await hub.get(row.meta.id)
            except Refusal:  # damaged: its players stay unnamed
                table = None
            names = None if table is None else [name_of(table.seats, seat) for seat in range(row.meta.num_players)]
        games.append(entry_of(row, names))
    more = len(rows) == limit and rows
    return {"games": games, "next": cursor_of((rows[-1].updated, rows[-1].meta.id)) if more else None}
