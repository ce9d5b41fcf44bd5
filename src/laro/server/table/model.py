"""A table in memory: its game, seats, clocks and the moves in force, as its events left them. It holds no
clock of its own: every time it needs (when an event happened, what ``now`` is) is given to it.

It changes only by :meth:`Table.apply` (:mod:`laro.server.table.reducer`); what a client may ask is checked by
:mod:`laro.server.table.commands`, which make the events; what clients are told is rendered by
:mod:`laro.server.table.views`; how a table is made, by :mod:`laro.server.table.making`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any

from laro.bots import Bot, Follower
from laro.core import Game, GameState, JSONDict, LaroError, get_game
from laro.server.clocks import AWAY_AFTER, HANDOVER_AFTER, Clocks, clock_spec
from laro.server.errors import Damaged
from laro.server.store.base import StoredTable, TableMeta
from laro.server.table import reducer
from laro.server.table.bots import SeatBots
from laro.server.table.events import Event, event_from_json
from laro.server.table.seats import Seat
from laro.server.undo import Move

__all__ = ["CHAT_SIZE", "LOG_SIZE", "Table"]

LOG_SIZE = 40  # public log entries sent with every state
CHAT_SIZE = 50  # the last lines of chat sent with every state


class Table:
    """A table in memory: built from its row (``Table(meta)``) or from its stored log (:meth:`restore`)."""

    def __init__(self, meta: TableMeta) -> None:
        self.meta = meta
        self.game: Game = get_game(meta.game)
        self.state: GameState = self.game.new_game(meta.num_players, seed=meta.seed, options=meta.options)
        self.seats = [
            Seat(i, seat.get("token_hash"), seat.get("bot"), standin=str(seat.get("standin", "heuristic")))
            for i, seat in enumerate(meta.seats)
        ]
        first = meta.seats[0] if meta.seats else {}
        self.clocks = Clocks(clock_spec(first.get("clock", "none")), meta.num_players)
        self.ready: set[int] = set()  # seats that asked for the next round during a round's end
        self.round_pause = float(first.get("round_pause", 0.0))
        self.away_after = AWAY_AFTER  # the server's (the hub sets it): no connection this long on a turn is away
        self.handover_after = HANDOVER_AFTER  # the server's (the hub sets it): gone this long, others may hand over
        self.seq = 0
        self.moved = 0  # the seq of the last event that was not chat: a state seen since then is still the state
        self.started = all(seat.bot for seat in self.seats)
        self.log: deque[JSONDict] = deque(maxlen=LOG_SIZE)
        self.chat: deque[JSONDict] = deque(maxlen=CHAT_SIZE)  # the last lines of chat (never in the record)
        self.chats = 0  # lines of chat in all
        self.spectator_chat = bool(first.get("spectator_chat", False))  # spectators may write, not only read
        self.updated = meta.created  # when the last event happened
        self.shared: tuple[Any, str, str, str] | None = None  # (key, summary, log and chat JSON) of the last change
        self.rematch: str | None = None  # the id of the table where these players play again, once it is made
        self.bots = SeatBots(self.game.name)  # seat -> its bot, kept so that it remembers the game
        self.ended: str | None = None  # why a table ended before its game did ("expired")
        self.takebacks = bool(first.get("takebacks", False))  # created with takebacks allowed: a practice game
        self.moves: list[Move] = []  # the actions in force (an undo takes some away), in order: the record
        self.takebacks_taken = 0

    @classmethod
    def restore(cls, stored: StoredTable) -> Table:
        """The table as its log left it: every event applied again, in order."""
        try:
            table = cls(stored.meta)
        except (LaroError, ValueError, LookupError, TypeError) as error:
            raise Damaged(f"table {stored.meta.id} cannot be set up: {error}") from error
        if stored.meta.rules_version != table.game.rules_version:
            raise Damaged(f"table {stored.meta.id} was played under other rules")
        table.apply_stored(stored.events)
        return table

    def apply(self, event: Event, now: float) -> None:
        """Apply one event (checked by a command, or read from the log) that happened at ``now``."""
        reducer.apply(self, event, now)

    def apply_stored(self, events: Iterable[JSONDict]) -> None:
        """Apply events as the store keeps them (JSON, with the time each was stored), in order; :class:`Damaged`
        for one that cannot be applied (a gap, a field missing, an action its game does not take), never a
        client's refusal. An event stored without its time happened when the one before it did."""
        for data in events:
            try:
                self.apply(event_from_json(data), float(data.get("time", self.updated)))
            except Damaged:
                raise
            except (LaroError, ValueError, LookupError, TypeError, AttributeError) as error:
                raise Damaged(f"the event after {self.seq} cannot be applied: {error}") from error

    # -- what the table is now ------------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """The table takes no more events: its game is over, or the table ended before it (``ended``)."""
        return self.ended is not None or self.state.is_over

    @property
    def has_humans(self) -> bool:
        """Some seat was made for a person (it has a token), whoever plays it now."""
        return any(seat.token_hash is not None for seat in self.seats)

    @property
    def status(self) -> str:
        if self.ended is not None:
            return self.ended
        if self.state.is_over:
            return "over"
        return "running" if self.started else "open"

    @property
    def practice(self) -> bool:
        """An unrated practice game: it was created with takebacks allowed."""
        return self.takebacks

    def actions(self) -> list[str]:
        """The actions in force, in order: what a record of this table replays (undone ones left out)."""
        return [move.action for move in self.moves]

    def paused(self, now: float) -> bool:
        """A round's end is being shown at ``now``: nobody acts, no clock runs."""
        until = self.clocks.paused_until
        return until is not None and now < until and not self.over

    def abandoned(self) -> bool:
        """Every person's seat is handed to its stand-in: the bots would play alone."""
        humans = [seat for seat in self.seats if seat.token_hash is not None and seat.bot is None]
        return bool(humans) and all(seat.away for seat in humans) and self.started and not self.over

    def expired(self, now: float, ttl: float) -> bool:
        """True for a table still waiting for its players ``ttl`` seconds after it was made."""
        return not self.started and not self.over and now - self.meta.created > ttl

    def bots_alone(self, now: float, seconds: float) -> bool:
        """True for a table not over that bots alone play (made so, or every person handed their seat to a bot)
        ``seconds`` after it was made."""
        alone = all(seat.bot is not None for seat in self.seats)
        return alone and self.started and not self.over and now - self.meta.created > seconds

    def bot_to_move(self) -> str | None:
        """The bot whose turn it is, if play is on and a bot holds the current seat."""
        current = self.state.current_player
        if not self.started or current is None or self.ended is not None:
            return None
        seat = self.seats[current]
        return seat.standin if seat.bot is None and seat.played_by_standin else seat.bot

    def replayed(self, followers: dict[int, tuple[str, Bot]] | None = None) -> GameState:
        """The game replayed from its start with the actions in force: the engine's states are never changed. On
        the way, each bot of ``followers`` (seat -> its name and a fresh bot) reads again what it saw at each of
        its decisions (see :meth:`SeatBots.fresh`)."""
        state = self.game.new_game(self.meta.num_players, seed=self.meta.seed, options=self.meta.options)
        for move in self.moves:
            followed = followers.get(move.seat) if followers else None
            if followed is not None and move.bot == followed[0] and isinstance(followed[1], Follower):
                followed[1].follow(state.observation(move.seat))
            state = state.apply(move.action)
        return state
