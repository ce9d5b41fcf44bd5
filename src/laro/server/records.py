"""A table as a game record (:mod:`laro.core.record`), for whoever asks: pure, no I/O.

Once a table is over its record is the whole game, seed included: ``laro replay`` replays it and the browser's
replay page steps through it. While it runs, a record is only what its reader may know (a
:class:`~laro.core.PartialRecord`): no seed, since the seed deals every hidden card, and each move as that reader
was told it — a spectator hears ``keep``, the seat that kept hears ``keep Y3``.

>>> from laro.server.table import commands, create
>>> table, tokens = create("lama", 2, {}, {1: "random"}, created=0.0, seed=7, table_id="t1")
>>> table.apply(commands.join(table, 0, tokens[0], "Ana"), now=1.0)
>>> record = record_of(table, reader=None)
>>> record["seed"], record["view"]["seat"], record["players"]
(None, None, ['Ana', 'random bot'])
"""

from __future__ import annotations

from laro.core import GameRecord, JSONDict, PartialRecord, result_of
from laro.server.table import Table
from laro.server.table.seats import name_of

__all__ = ["record_of"]


def _players(table: Table) -> tuple[list[str], dict[int, str]]:
    names = [name_of(table.seats, seat.index) for seat in table.seats]
    bots = {seat.index: seat.bot for seat in table.seats if seat.bot is not None}
    return names, bots


def record_of(table: Table, reader: int | None) -> JSONDict:
    """The record of ``table`` for ``reader`` (a seat, or ``None`` for a spectator): the whole game once the table
    is over, else only what ``reader`` may know."""
    names, bots = _players(table)
    if table.over:
        record = GameRecord.start(table.state, seed=table.meta.seed, players=names, bots=bots)
        record.actions = table.actions()
        record.result = result_of(table.state)
        record.practice, record.takebacks = table.practice, table.takebacks_taken
        return record.to_json()
    state = table.state
    told = [move.action if move.seat == reader else table.game.public_text(move.action) for move in table.moves]
    partial = PartialRecord(
        game=table.game.name,
        rules_version=table.game.rules_version,
        num_players=state.num_players,
        options=dict(state.to_json().get("options", {})),
        seat=reader,
        actions=told,
        seats=[move.seat for move in table.moves],
        players=names,
        bots=bots,
        observation=state.public_observation() if reader is None else state.observation(reader),
        practice=table.practice,
        takebacks=table.takebacks_taken,
    )
    return partial.to_json()
