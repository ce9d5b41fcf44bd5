"""A table: a game, its seats and its event log. Pure logic, no I/O and no clock: the hub persists and broadcasts,
and gives every time the table needs.

- :mod:`~laro.server.table.events`: the events, each a frozen record with its JSON form (the stored one);
- :mod:`~laro.server.table.model`: :class:`Table`, the table in memory as its events left it;
- :mod:`~laro.server.table.reducer`: how each event changes it (``Table.apply(event, now)``);
- :mod:`~laro.server.table.commands`: what may be asked of it, checked and made into events;
- :mod:`~laro.server.table.views`: what clients are told of it (summary, ``state`` messages);
- :mod:`~laro.server.table.making`, :mod:`~laro.server.table.seats`, :mod:`~laro.server.table.bots`: new tables
  and rematches; seats, names and tokens; the seats' bots and their turns.

>>> table, tokens = create("lama", 2, {}, {1: "random"}, created=0.0, seed=7, table_id="t1")
>>> table.apply(commands.join(table, 0, tokens[0], "Ana"), now=1.0)
>>> table.status, table.seq, views.summary(table)["seats"][0]["name"]
('running', 1, 'Ana')
"""

from laro.server.table import commands, views
from laro.server.table.bots import BotTurn, bot_done, bot_turn, make_bot_event
from laro.server.table.events import Event, event_from_json
from laro.server.table.making import create, rematch_id, rematch_meta
from laro.server.table.model import Table
from laro.server.table.reducer import scored_round
from laro.server.table.seats import Seat, clean_name, hash_token

__all__ = [
    "BotTurn",
    "Event",
    "Seat",
    "Table",
    "bot_done",
    "bot_turn",
    "clean_name",
    "commands",
    "create",
    "event_from_json",
    "hash_token",
    "make_bot_event",
    "rematch_id",
    "rematch_meta",
    "scored_round",
    "views",
]
