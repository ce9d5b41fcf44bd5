"""The bots of a table's seats: each kept for the game, so that it remembers what it saw, and its turns.

A bot turn (:class:`BotTurn`) is all a decision needs, read from the table at once, so that it may be thought
over anywhere (another thread or process); :func:`bot_done` makes its event and keeps the bot as it came back.
After moves are undone, no bot may remember them: :meth:`SeatBots.fresh` makes anew those that moved among them.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from laro.bots import Bot, Follower, get_bot
from laro.core import JSONDict, derive_seed
from laro.server.table.events import Act
from laro.server.undo import Move

if TYPE_CHECKING:
    from laro.server.table.model import Table

__all__ = ["BotTurn", "SeatBots", "bot_done", "bot_turn", "make_bot_event"]


@dataclass(slots=True)
class BotTurn:
    """One decision of a bot seat, with all it needs: ``decide()`` runs the bot (and may change its memory)."""

    seq: int
    seat: int
    name: str
    bot: Bot
    observation: JSONDict
    legal: list[Any]
    rng: random.Random

    def decide(self) -> Any:
        return self.bot.choose(self.observation, self.legal, self.rng)


class SeatBots:
    """Seat -> its bot's name and the bot, kept for the game of ``game``."""

    def __init__(self, game: str) -> None:
        self.game = game
        self._kept: dict[int, tuple[str, Bot]] = {}

    def bot(self, seat: int, name: str) -> Bot:
        """The bot ``name`` of ``seat``: the one kept, or a new one (the seat's bot changed, or it has none yet)."""
        kept = self._kept.get(seat)
        if kept is None or kept[0] != name:
            kept = self._kept[seat] = (name, get_bot(name, self.game))
        return kept[1]

    def held(self) -> dict[int, Bot]:
        """Each seat's bot as it is kept now."""
        return {seat: bot for seat, (_, bot) in self._kept.items()}

    def keep(self, turn: BotTurn) -> None:
        """Keep the bot of ``turn`` as it came back from thinking, unless the seat's bot was made anew since."""
        kept = self._kept.get(turn.seat)
        if kept is not None and kept[0] == turn.name:
            self._kept[turn.seat] = (turn.name, turn.bot)

    def fresh(self, gone: Iterable[Move]) -> dict[int, tuple[str, Bot]]:
        """After ``gone`` were undone: every bot that moved among them is dropped (a new one is made at its next
        turn), and those that can rebuild their memory (``follow``) are made anew and returned, to follow the
        game replayed; :meth:`update` keeps them then."""
        followers: dict[int, tuple[str, Bot]] = {}
        for seat in {move.seat for move in gone if not move.person}:
            kept = self._kept.pop(seat, None)
            if kept is not None and isinstance(kept[1], Follower):
                followers[seat] = (kept[0], get_bot(kept[0], self.game))
        return followers

    def update(self, followers: dict[int, tuple[str, Bot]]) -> None:
        self._kept.update(followers)


def bot_turn(table: Table) -> BotTurn:
    """What the current bot seat decides from: its bot (kept for the game, so it remembers what it saw), its
    observation, the legal actions and its random generator (from the table's seed and seq)."""
    state, seq = table.state, table.seq
    current = state.current_player
    assert current is not None
    name = table.bot_to_move()
    assert name is not None
    bot = table.bots.bot(current, name)
    rng = random.Random(derive_seed(table.meta.seed, "bot", current, seq))
    return BotTurn(seq, current, name, bot, state.observation(current), list(state.legal_actions()), rng)


def bot_done(table: Table, turn: BotTurn, action: object) -> Act:
    """The event of a bot turn's chosen ``action``; the bot is kept as it came back, unless the table moved on
    meanwhile (an undo may have rebuilt the seat's bot: the one that thought is out of date)."""
    if table.seq == turn.seq:
        table.bots.keep(turn)
    return Act(turn.seq + 1, turn.seat, str(action))


def make_bot_event(table: Table) -> Act:
    """The current bot seat's move, thought here and now."""
    turn = bot_turn(table)
    return bot_done(table, turn, turn.decide())
