"""A table: a game, its seats and its event log. Pure logic, no I/O: the hub persists and broadcasts.

Every change of a table is an event numbered by ``seq`` — ``join``, ``leave``, ``bot``, ``act``, ``undo`` (see
:mod:`laro.server.undo`), ``end``, and the clock's ``timeout``, ``away``, ``ready`` and ``resume`` (see
:mod:`laro.server.clocks`) — and the same
code applies an event live and when a table is rebuilt from its stored log, so a restart restores it exactly.

>>> table, tokens = Table.create("lama", 2, {}, {1: "random"}, seed=7, table_id="t1")
>>> sorted(tokens), table.status
([0], 'open')
>>> table.apply(table.join_event(0, tokens[0], "Ana"))
>>> table.status, table.seq, table.summary()["seats"][0]["name"]
('running', 1, 'Ana')
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import random
import secrets
import time
import unicodedata
from collections import deque
from dataclasses import dataclass
from typing import Any

from laro.bots import Bot, Follower, get_bot, list_bots
from laro.core import Game, GameState, JSONDict, LaroError, derive_seed, get_game, new_seed
from laro.server.clocks import ClockError, Clocks, clock_spec, default_profile
from laro.server.store.base import StoredTable, TableMeta, new_table_id
from laro.server.undo import KINDS, Move, Why, next_turn, step_refusal, takeback_refusal, turn_back

__all__ = ["BotTurn", "Refusal", "Seat", "Table", "clean_name", "hash_token", "rematch_id", "scored_round"]

MAX_NAME = 24
LOG_SIZE = 40  # public log entries sent with every state
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})  # characters a name may not hold


class Refusal(LaroError, ValueError):
    """Something a client asked for that is refused; ``code`` is the protocol's error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def rematch_id(table_id: str) -> str:
    """The id of the table where the players of ``table_id`` play again, derived from it (12 characters, like every
    table id): every process, before and after a restart, names the same one, and of two processes making it at
    once the store takes one and refuses the other (its id is taken), so the finished table needs no link stored.

    >>> rematch_id("t1") == rematch_id("t1") != rematch_id("t2"), len(rematch_id("t1"))
    (True, 12)
    """
    digest = hashlib.blake2b(f"laro rematch {table_id}".encode(), digest_size=9).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii")


def clean_name(name: object) -> str:
    """A player's name as shown to everyone: control, format (bidirectional overrides, zero-width) and private-use
    characters dropped, runs of blanks made one space, at most ``MAX_NAME`` characters.

    >>> clean_name("  Ana\u202e\x07 \t Lee ")
    'Ana Lee'
    """
    kept = "".join(c for c in str(name) if unicodedata.category(c) not in _HIDDEN_CATEGORIES)
    return " ".join(kept.split())[:MAX_NAME]


def scored_round(state: GameState) -> object:
    """The game's scored round (L.A.M.A.'s: one that ends with a result, ``last_round``), or None for a game
    whose rounds are only turns around the table (Kamara's), which neither pause nor are marked."""
    if not hasattr(state, "last_round"):
        return None
    return getattr(state, "round", None)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


_ENDS = {
    "expired": "the table expired: not every seat was taken in time",
    "abandoned": "the table ended: every player was away and their stand-in bots played alone",
}


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


@dataclass(slots=True)
class Seat:
    """A seat: a human (with a secret token, of which only the hash is kept) or a bot."""

    index: int
    token_hash: str | None
    bot: str | None
    name: str | None = None
    joined: bool = False  # a human has taken the seat (and not left)
    connections: int = 0
    standin: str = "heuristic"  # the bot that plays for the seat when its player is away or out of time
    away: bool = False  # handed to its stand-in until the player comes back (joins again)
    timeouts: int = 0  # time-outs in a row
    standing_in: bool = False  # the stand-in plays the rest of this turn (the player ran out of time)
    disconnected_since: float | None = None  # in memory only: since when no connection is open

    @property
    def kind(self) -> str:
        return "bot" if self.bot else "human"

    @property
    def played_by_standin(self) -> bool:
        return self.away or self.standing_in

    def public(self) -> JSONDict:
        return {
            "seat": self.index,
            "kind": self.kind,
            "bot": self.bot,
            "name": self.name if self.bot is None else (self.name or f"{self.bot} bot"),
            "joined": self.joined or self.bot is not None,
            "connected": self.connections > 0,
            "standin": self.standin,
            "away": self.away or self.timeouts > 0,  # shown as away: out of time last turn, or handed over
            "handed": self.away,  # its stand-in plays until the player comes back
        }


class Table:
    """A table in memory: built by :meth:`create` or :meth:`restore`, changed only by :meth:`apply`."""

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
        self.seq = 0
        self.started = all(seat.bot for seat in self.seats)
        self.log: deque[JSONDict] = deque(maxlen=LOG_SIZE)
        self.updated = meta.created
        self._shared: tuple[Any, str, str] | None = None  # (key, summary JSON, log JSON) of the last change
        self.rematch: str | None = None  # the id of the table where these players play again, once it is made
        self._bots: dict[int, tuple[str, Bot]] = {}  # seat -> its bot, kept so that it remembers the game
        self.ended: str | None = None  # why a table ended before its game did ("expired")
        self.takebacks = bool(first.get("takebacks", False))  # created with takebacks allowed: a practice game
        self.moves: list[Move] = []  # the actions in force (an undo takes some away), in order: the record
        self.takebacks_taken = 0

    # -- building ---------------------------------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        game_name: str,
        players: int,
        options: dict[str, Any],
        bots: dict[int, str],
        seed: int | None = None,
        table_id: str | None = None,
        created: float | None = None,
        clock: object = None,
        standin: str = "heuristic",
        round_pause: float = 0.0,
        takebacks: bool = False,
    ) -> tuple[Table, dict[int, str]]:
        """A new table and one secret token per human seat; :class:`Refusal` for anything invalid. ``clock`` is a
        profile's name or figures (default: ``normal`` with several people, ``none`` for one against bots);
        ``standin`` the bot that plays for a seat whose player is away; ``round_pause`` the seconds a round's end
        is shown before the next round starts; ``takebacks`` allows a person playing against bots only to take
        their last turn back (an unrated practice game)."""
        try:
            game = get_game(game_name)
            seed = new_seed() if seed is None else seed
            game.new_game(players, seed=seed, options=options)  # checks the players and options
        except LaroError as error:
            raise Refusal("bad_request", str(error)) from None
        for seat, bot in bots.items():
            if not 0 <= seat < players:
                raise Refusal("bad_request", f"bot seat {seat} is not a seat of a {players}-player table")
            if bot not in list_bots(game_name):
                raise Refusal("bad_request", f"no bot {bot!r} for {game_name}; bots: {', '.join(list_bots(game_name))}")
        if standin not in list_bots(game_name):
            raise Refusal("bad_request", f"no bot {standin!r} to stand in; bots: {', '.join(list_bots(game_name))}")
        humans = players - len(bots)
        try:
            spec = clock_spec(default_profile(humans) if clock is None else clock)
        except ClockError as error:
            raise Refusal("bad_request", str(error)) from None
        tokens = {seat: secrets.token_urlsafe(24) for seat in range(players) if seat not in bots}
        meta = TableMeta(
            id=table_id or new_table_id(),
            game=game.name,
            rules_version=game.rules_version,
            num_players=players,
            options=dict(options),
            seed=seed,
            seats=[
                {
                    "token_hash": hash_token(tokens[seat]) if seat in tokens else None,
                    "bot": bots.get(seat),
                    "standin": standin,
                    "clock": spec.to_json(),
                    "round_pause": round_pause,
                    "takebacks": bool(takebacks),
                }
                for seat in range(players)
            ],
            created=time.time() if created is None else created,
        )
        return cls(meta), tokens

    def rematch_meta(self, token: str) -> TableMeta:
        """A new game for the same players: same game, seats, bots and options, a new seed; every human seat
        keeps its secret token, so each player takes their seat again with what they already hold. Its id is
        :func:`rematch_id` of this table's."""
        if not self.state.is_over:
            raise Refusal("not_over", "a rematch begins once the game is over")
        self.seat_of_token(token)  # only a player of this table may start it
        return TableMeta(
            id=rematch_id(self.meta.id),
            game=self.meta.game,
            rules_version=self.game.rules_version,
            num_players=self.meta.num_players,
            options=self.meta.options,
            seed=new_seed(),
            seats=[dict(seat) for seat in self.meta.seats],
            created=time.time(),
        )

    @classmethod
    def restore(cls, stored: StoredTable) -> Table:
        """The table as its log left it: every event applied again, in order."""
        table = cls(stored.meta)
        if stored.meta.rules_version != table.game.rules_version:
            raise Refusal("bad_state", f"table {stored.meta.id} was played under other rules")
        for event in stored.events:
            table.apply(event)
        return table

    # -- what clients may ask ---------------------------------------------------------------------------------

    def seat_of_token(self, token: str) -> int:
        """The seat whose secret token this is; :class:`Refusal` ``bad_token`` otherwise."""
        wanted = hash_token(token)
        for seat in self.seats:
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, wanted):
                return seat.index
        raise Refusal("bad_token", "that token opens no seat at this table")

    def join_event(self, seat: int, token: str, name: str) -> JSONDict:
        """The event of a human taking (or taking back) their seat."""
        self._check_token(seat, token)
        name = clean_name(name)
        if not name:
            raise Refusal("bad_request", "a name is needed to join")
        return {"seq": self.seq + 1, "type": "join", "seat": seat, "name": name}

    def leave_event(self, seat: int, token: str) -> JSONDict:
        self._check_token(seat, token)
        if not self.seats[seat].joined:
            raise Refusal("bad_request", f"seat {seat} is not taken")
        return {"seq": self.seq + 1, "type": "leave", "seat": seat}

    def bot_event(self, seat: int, token: str, bot: str) -> JSONDict:
        """A human hands their seat to a bot (joining again takes it back)."""
        self._check_token(seat, token)
        if bot not in list_bots(self.game.name):
            raise Refusal(
                "bad_request", f"no bot {bot!r} for {self.game.name}; bots: {', '.join(list_bots(self.game.name))}"
            )
        return {"seq": self.seq + 1, "type": "bot", "seat": seat, "bot": bot}

    def end_event(self, reason: str) -> JSONDict:
        """The event that ends a table before its game ends: ``expired`` (nobody took every seat in time)."""
        self.check_open()
        return {"seq": self.seq + 1, "type": "end", "reason": reason}

    def expired(self, now: float, ttl: float) -> bool:
        """True for a table still waiting for its players ``ttl`` seconds after it was made."""
        return not self.started and not self.over and now - self.meta.created > ttl

    def act_event(self, seat: int, action: str, seq: int, now: float | None = None) -> JSONDict:
        """The event of ``seat`` taking ``action`` having seen state ``seq``; refused unless it is legal now."""
        if seq != self.seq:  # first: of two racing actions the loser hears it lost, whatever the winner did
            raise Refusal("stale_seq", f"you acted on state {seq}, but the table is at state {self.seq}: look again")
        self.check_open()
        if self.paused(time.time() if now is None else now):
            raise Refusal("paused", "the round's end is being shown; the next round starts in a moment")
        if self.seats[seat].played_by_standin:
            raise Refusal("not_joined", "your stand-in plays this turn; take your seat back by joining it again")
        if not self.started:
            raise Refusal("not_started", "the table waits for every player to take their seat")
        if self.state.current_player != seat:
            raise Refusal("not_your_turn", f"it is seat {self.state.current_player}'s turn, not yours")
        if not self.seats[seat].joined:
            raise Refusal("not_joined", "take your seat first (join it with your token and a name)")
        try:
            chosen = self.state.parse_action(action)
            self.state.apply(chosen)
        except ValueError as error:
            raise Refusal("illegal_action", str(error)) from None
        # the canonical text, never the client's spelling: ``KEEP Y12`` would pass its hidden card on to the log
        return {"seq": self.seq + 1, "type": "act", "seat": seat, "action": str(chosen)}

    def undo_event(self, seat: int, kind: str, seq: int) -> JSONDict:
        """The event of ``seat`` taking back a ``step`` or its last turn (``takeback``) having seen state ``seq``;
        :class:`Refusal` ``cannot_undo`` says why not when it may not."""
        if seq != self.seq:
            raise Refusal("stale_seq", f"you asked on state {seq}, but the table is at state {self.seq}: look again")
        self.check_open()
        if kind not in KINDS:
            raise Refusal("bad_request", f"an undo is a step or a takeback; got {kind!r}")
        if not self.started:
            raise Refusal("not_started", "the table waits for every player to take their seat")
        if not self.seats[seat].joined or self.seats[seat].played_by_standin:
            raise Refusal("not_joined", "only the player at the seat can take its moves back")
        reason = self._undo_refusal(seat, kind)
        if reason is not None:
            raise Refusal("cannot_undo", reason)
        undone = self.moves[-1:] if kind == "step" else turn_back(self.moves, seat)
        return {"seq": self.seq + 1, "type": "undo", "seat": seat, "kind": kind, "undone": [m.seq for m in undone]}

    def _undo_refusal(self, seat: int, kind: str) -> Why | None:
        if kind == "step":
            return step_refusal(self.game.name, self.moves, seat, self.state.current_player)
        others = all(other.bot is not None and other.token_hash is None for other in self.seats if other.index != seat)
        return takeback_refusal(self.takebacks, others, self.moves, seat)

    def undo_offer(self, seat: int) -> JSONDict:
        """Which undos ``seat`` may ask for now, and why not (``null`` where it may): what the Undo button shows."""
        playing = self.started and not self.over and self.seats[seat].joined and not self.seats[seat].played_by_standin
        offer: JSONDict = {}
        for kind in KINDS:
            reason = (
                self._undo_refusal(seat, kind) if playing else Why("not_playing", "you are not playing this seat now")
            )
            offer[kind] = reason is None
            offer[f"{kind}_refusal"] = reason and str(reason)
            offer[f"{kind}_why"] = reason and reason.to_json()
        return offer

    def actions(self) -> list[str]:
        """The actions in force, in order: what a record of this table replays (undone ones left out)."""
        return [move.action for move in self.moves]

    @property
    def practice(self) -> bool:
        """An unrated practice game: it was created with takebacks allowed."""
        return self.takebacks

    def timeout_event(self, now: float) -> JSONDict | None:
        """The time-out of the seat whose clock ran out by ``now``, if one did."""
        deadline = self.clocks.deadline()
        if self.over or deadline is None or now < deadline or self.clocks.turn_seat is None:
            return None
        return {"seq": self.seq + 1, "type": "timeout", "seat": self.clocks.turn_seat}

    def away_event(self, seat: int, reason: str, by: int | None = None) -> JSONDict:
        """The event that hands ``seat`` to its stand-in until its player comes back: ``disconnected`` (no
        connection on its turn for a while) or ``handed`` (another player ``by`` did it from the table)."""
        self.check_open()
        target = self.seats[seat]
        if target.token_hash is None or target.bot is not None or target.away:
            raise Refusal("bad_request", f"seat {seat} is not a person's seat that could be handed over")
        if reason == "handed" and not (target.timeouts > 0 or target.connections == 0):
            raise Refusal("bad_request", f"{self.name_of(seat)} is here: only an away seat can be handed over")
        event: JSONDict = {"seq": self.seq + 1, "type": "away", "seat": seat, "reason": reason}
        if by is not None:
            event["by"] = by
        return event

    def hand_over_event(self, seat: int, token: str) -> JSONDict:
        """Another player of this table hands the away ``seat`` to its stand-in."""
        if not 0 <= seat < len(self.seats):
            raise Refusal("bad_request", f"seat must be 0..{len(self.seats) - 1}")
        by = self.seat_of_token(token)
        if by == seat:
            raise Refusal("bad_request", 'to let a bot play your own seat, use "bot"')
        return self.away_event(seat, "handed", by)

    def ready_event(self, seat: int, now: float) -> JSONDict:
        """A player is ready for the next round (during a round's end)."""
        if not self.paused(now):
            raise Refusal("bad_request", "there is no round's end to move on from")
        # the last of the players here to be ready ends the pause; the event says so, so the log replays it exactly
        present = {s.index for s in self.seats if s.joined and not s.away and s.connections > 0}
        last = present <= self.ready | {seat}
        return {"seq": self.seq + 1, "type": "ready", "seat": seat, "last": last}

    def resume_event(self) -> JSONDict:
        """The event a restarted server writes for a running table: the running clock starts its turn afresh."""
        return {"seq": self.seq + 1, "type": "resume"}

    def paused(self, now: float) -> bool:
        """A round's end is being shown at ``now``: nobody acts, no clock runs."""
        until = self.clocks.paused_until
        return until is not None and now < until and not self.over

    def abandoned(self) -> bool:
        """Every person's seat is handed to its stand-in: the bots would play alone."""
        humans = [seat for seat in self.seats if seat.token_hash is not None and seat.bot is None]
        return bool(humans) and all(seat.away for seat in humans) and self.started and not self.over

    def check_open(self) -> None:
        """Refuse (``game_over``, ``expired``) once the table takes no more events."""
        if self.ended == "expired":
            raise Refusal("expired", "this table expired: not every seat was taken in time")
        if self.over:
            raise Refusal("game_over", "the game is over")

    def _check_token(self, seat: int, token: str) -> None:
        self.check_open()  # the seats of a finished game stay as they were
        if not 0 <= seat < len(self.seats):
            raise Refusal("bad_request", f"seat must be 0..{len(self.seats) - 1}")
        if self.seat_of_token(token) != seat:
            raise Refusal("bad_token", "that token is not this seat's")

    # -- applying events --------------------------------------------------------------------------------------

    def apply(self, event: JSONDict) -> None:
        """Apply one event (already checked, or read from the log)."""
        if event["seq"] != self.seq + 1:
            raise Refusal("bad_state", f"event {event['seq']} does not follow {self.seq}")
        kind = event["type"]
        at = float(event.get("time", time.time()))
        if kind in ("end", "resume"):
            entry: JSONDict = {"seq": event["seq"], "seat": None, "type": kind}
            if kind == "end":
                self.ended = entry["reason"] = str(event["reason"])
                text = _ENDS[self.ended]
            else:
                self.clocks.resume(at)
                text = "the server is back: the clock of the seat to act starts again"
            self._logged(event, entry, text)
            return
        seat = self.seats[event["seat"]]
        who = self.name_of(seat.index)
        entry = {"seq": event["seq"], "seat": seat.index, "type": kind, "by": who}
        if kind == "act":
            action = self.state.parse_action(event["action"])
            round_before = self._round()
            if seat.played_by_standin:
                entry["standin"] = seat.standin
                who = entry["by"] = f"{seat.standin} bot for {who}"
            else:
                seat.timeouts = 0
            self.clocks.charge(at)
            person = seat.bot is None and not seat.played_by_standin
            turn = next_turn(self.game.name, self.moves, seat.index)
            bot = None if person else (seat.bot or seat.standin)
            self.moves.append(Move(event["seq"], seat.index, str(action), person=person, turn=turn, bot=bot))
            self.state = self.state.apply(action)
            entry["action"] = self.game.public_text(str(action))
            if seat.bot is not None:
                entry["bot"] = seat.bot  # the bot that made this move (for a person's seat: a bot playing for them)
            text = f"{who}: {entry['action']}"
            if self._round() != round_before and not self.state.is_over and self.round_pause > 0:
                self.clocks.pause(at + self.round_pause)  # show the round's end; nobody's clock runs meanwhile
                self.ready.clear()
            if self._round() != round_before:
                entry["round_over"] = round_before  # the log marks the round's end (its text stays the action's)
        elif kind == "undo":
            text = self._undo(event, entry, at)
        elif kind == "timeout":
            seat.timeouts += 1
            seat.standing_in = True
            self.clocks.timed_out(seat.index)
            entry["standin"] = seat.standin
            text = f"{who} ran out of time — the {seat.standin} bot played for them"
            if seat.timeouts >= 2:
                seat.away = True
                text += " (and plays on until they come back)"
        elif kind == "away":
            seat.away = True
            entry["standin"] = seat.standin
            entry["reason"] = event["reason"]
            if event["reason"] == "handed":
                text = f"{self.name_of(event['by'])} handed {who}'s seat to the {seat.standin} bot until they come back"
            else:
                text = f"{who} is away — the {seat.standin} bot plays for them until they come back"
        elif kind == "ready":
            self.ready.add(seat.index)
            text = f"{who} is ready for the next round"
            if event.get("last"):
                self.clocks.pause(at)  # everyone here is ready: the next round starts now
        elif kind == "join":
            if seat.away or seat.timeouts:
                self.clocks.banks[seat.index] = self.clocks.spec.grace  # back from away, with a fresh small bank
            seat.away, seat.timeouts, seat.standing_in = False, 0, False
            seat.bot, seat.name, seat.joined = None, event["name"], True
            if seat.connections == 0:  # joined without connecting (yet): absent since now
                seat.disconnected_since = at
            entry["by"] = entry["name"] = seat.name
            text = f"{seat.name} takes seat {seat.index}"
            if all(s.joined or s.bot for s in self.seats):
                self.started = True
        elif kind == "leave":
            seat.joined = False
            text = f"{who} leaves seat {seat.index}"
        elif kind == "bot":
            seat.bot, seat.joined = event["bot"], False
            entry["bot"] = seat.bot
            text = f"seat {seat.index} is now played by the {seat.bot} bot"
            if all(s.joined or s.bot for s in self.seats):
                self.started = True
        else:
            raise Refusal("bad_state", f"unknown event type {kind!r}")
        self._next_turn(at)
        self._logged(event, entry, text)

    def _undo(self, event: JSONDict, entry: JSONDict, at: float) -> str:
        """Take the moves of an ``undo`` event out of force and replay the game without them."""
        undone = [int(seq) for seq in event["undone"]]
        keep = len(self.moves) - len(undone)
        if not undone or keep < 0 or [move.seq for move in self.moves[keep:]] != undone:
            raise Refusal("bad_state", f"undo {event['seq']} names moves that are not the last in force")
        gone = self.moves[keep:]
        del self.moves[keep:]
        self.clocks.charge(at)  # the time spent on the undone moves is not given back
        followers = self._fresh_bots(gone)
        self.state = self.replayed(followers)
        self._bots.update(followers)
        if self.paused(at):  # a takeback back over a round's end: the next round is not shown any more
            self.clocks.pause(at)
            self.ready.clear()
        kind = entry["kind"] = str(event["kind"])
        entry["undone"] = [self.game.public_text(move.action) for move in gone]
        who = entry["by"]
        if kind == "step":
            return f"{who} takes back {entry['undone'][0]}"
        self.takebacks_taken += 1
        count = len(gone)
        return f"{who} takes back their last turn ({count} move{'' if count == 1 else 's'} undone)"

    def replayed(self, followers: dict[int, tuple[str, Bot]] | None = None) -> GameState:
        """The game replayed from its start with the actions in force: the engine's states are never changed. On
        the way, each bot of ``followers`` (seat -> its name and a fresh bot) reads again what it saw at each of
        its decisions (``follow``)."""
        state = self.game.new_game(self.meta.num_players, seed=self.meta.seed, options=self.meta.options)
        for move in self.moves:
            followed = followers.get(move.seat) if followers else None
            if followed is not None and move.bot == followed[0] and isinstance(followed[1], Follower):
                followed[1].follow(state.observation(move.seat))
            state = state.apply(move.action)
        return state

    def _fresh_bots(self, gone: list[Move]) -> dict[int, tuple[str, Bot]]:
        """After moves were undone, no bot may remember them: every bot that moved among them is dropped (a new
        one is made at its next turn), and those that can rebuild their memory (``follow``) are made anew here."""
        followers: dict[int, tuple[str, Bot]] = {}
        for seat in {move.seat for move in gone if not move.person}:
            kept = self._bots.pop(seat, None)
            if kept is not None and isinstance(kept[1], Follower):
                followers[seat] = (kept[0], get_bot(kept[0], self.game.name))
        return followers

    def _round(self) -> object:
        return scored_round(self.state)

    def _next_turn(self, at: float) -> None:
        """Whose clock runs after an event at ``at``: the seat to act, if a person plays it now."""
        for seat in self.seats:  # a stand-in plays only the rest of the turn that ran out
            if seat.standing_in and seat.index != self.state.current_player:
                seat.standing_in = False
        current = self.state.current_player
        if (
            self.ended is not None
            or not self.started
            or current is None
            or self.seats[current].bot is not None
            or self.seats[current].played_by_standin
        ):
            current = None
        if self.clocks.turn_seat is not None and self.clocks.turn_seat != current:
            self.clocks.end_turn(at)
        if current is not None and self.clocks.turn_seat != current:
            self.clocks.start_turn(current, at)

    def _logged(self, event: JSONDict, entry: JSONDict, text: str) -> None:
        self.seq = event["seq"]
        entry["text"] = text  # the whole entry in English, as the server's log line says it
        self.log.append(entry)
        self.updated = float(event.get("time", time.time()))  # the hub stamps each event when it stores it

    # -- what clients are told --------------------------------------------------------------------------------

    def name_of(self, seat: int) -> str:
        name = self.seats[seat].public()["name"]
        return str(name) if name else f"seat {seat}"

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

    def bot_to_move(self) -> str | None:
        """The bot whose turn it is, if play is on and a bot holds the current seat."""
        current = self.state.current_player
        if not self.started or current is None or self.ended is not None:
            return None
        seat = self.seats[current]
        return seat.standin if seat.bot is None and seat.played_by_standin else seat.bot

    def bot_turn(self) -> BotTurn:
        """What the current bot seat decides from: its bot (kept for the game, so it remembers what it saw), its
        observation, the legal actions and its random generator (from the table's seed and seq). The turn may be
        thought over anywhere (another thread or process); :meth:`bot_done` takes the bot back after it."""
        state, seq = self.state, self.seq
        current = state.current_player
        assert current is not None
        name = self.bot_to_move()
        assert name is not None
        kept = self._bots.get(current)
        if kept is None or kept[0] != name:
            kept = self._bots[current] = (name, get_bot(name, self.game.name))
        rng = random.Random(derive_seed(self.meta.seed, "bot", current, seq))
        return BotTurn(seq, current, name, kept[1], state.observation(current), list(state.legal_actions()), rng)

    def bot_done(self, turn: BotTurn, action: object) -> JSONDict:
        """The event of a bot turn's chosen ``action``; the bot (as it came back from thinking) is kept, unless the
        table moved on meanwhile (an undo may have rebuilt the seat's bot: the one that thought is out of date)."""
        kept = self._bots.get(turn.seat)
        if kept is not None and kept[0] == turn.name and self.seq == turn.seq:
            self._bots[turn.seat] = (turn.name, turn.bot)
        return {"seq": turn.seq + 1, "type": "act", "seat": turn.seat, "action": str(action)}

    def make_bot_event(self) -> JSONDict:
        """The current bot seat's move, thought here and now. It reads the table once, so it may think in another
        thread: a table changed meanwhile refuses the event as stale."""
        turn = self.bot_turn()
        return self.bot_done(turn, turn.decide())

    def result(self) -> JSONDict | None:
        if self.ended is not None:
            return {"winners": [], "scores": list(self.state.scores), "ended": self.ended}
        if not self.state.is_over:
            return None
        return {"winners": list(self.state.winners), "scores": list(self.state.scores)}

    def stored_result(self) -> JSONDict:
        """The result the store keeps once the table is over: :meth:`result` with the players' names (what the
        list of finished games shows)."""
        return {**(self.result() or {}), "players": [self.name_of(seat.index) for seat in self.seats]}

    def summary(self) -> JSONDict:
        """The public summary: no tokens, no seed, no hidden cards."""
        return {
            "id": self.meta.id,
            "game": self.game.name,
            "title": self.game.title,
            "players": self.meta.num_players,
            "options": self.meta.options,
            "status": self.status,
            "seq": self.seq,
            "current_player": self.state.current_player,
            "seats": [seat.public() for seat in self.seats],
            "result": self.result(),
            "rematch": self.rematch,
            "clock": self.clock_summary(),
            "takebacks": self.takebacks,
            "practice": self.practice,
            "takebacks_taken": self.takebacks_taken,
            "created": self.meta.created,
            "updated": self.updated,
        }

    def clock_summary(self) -> JSONDict:
        """The clocks as the last event left them: each seat's time left (the running one's as of the start of
        its turn), whose clock runs, its ``deadline`` and the end of a round's pause (unix times)."""
        clocks = self.clocks
        spec = clocks.spec
        return {
            **spec.to_json(),
            "remaining": [round(bank, 3) for bank in clocks.banks] if clocks.timed else None,
            "running": clocks.turn_seat,
            "deadline": clocks.deadline(),
            "paused_until": clocks.paused_until if clocks.paused_until and not self.over else None,
            "ready": sorted(self.ready),
        }

    def state_text(self, seat: int | None) -> str:
        """:meth:`state_message` as JSON text. The parts every connection shares (the summary and the log) are
        encoded once per change, not once per connection."""
        key = (self.seq, tuple(seat.connections > 0 for seat in self.seats), self.rematch)
        if self._shared is None or self._shared[0] != key:
            table, log = _dumps(self.summary()), _dumps(list(self.log))
            self._shared = (key, table, log)
        _, table, log = self._shared
        message = self.state_message(seat, shared=False)
        head = _dumps(message)[:-1]  # the seat's own parts; the shared ones are spliced in
        return f'{head},"table":{table},"log":{log}}}'

    def state_message(self, seat: int | None, shared: bool = True) -> JSONDict:
        """The ``state`` message for a seat (its own observation) or a spectator (``None``)."""
        state = self.state
        mine = (
            seat is not None
            and state.current_player == seat
            and self.started
            and self.seats[seat].joined
            and not self.seats[seat].played_by_standin
            and not self.over
            and not self.paused(time.time())  # a round's end is shown: the turn is yours once it is over
        )
        message: JSONDict = {
            "type": "state",
            "seq": self.seq,
            "seat": seat,
            "observation": state.observation(seat) if seat is not None else state.public_observation(),
            "legal_actions": [str(a) for a in state.legal_actions()] if mine else [],
            "your_turn": mine,
            "server_time": time.time(),  # to count the clocks down against the server's own time
        }
        if seat is not None:
            message["undo"] = self.undo_offer(seat)
        if shared:
            message["table"] = self.summary()
            message["log"] = list(self.log)
        return message
