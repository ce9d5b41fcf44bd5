"""The reducer: how each event changes a table, one small function per kind of event. The same code applies an
event live and when a table is rebuilt from its stored log, so a restart restores it exactly. No clock is read
here: ``now`` is when the event happened (the hub's time when it stored it).

Each event also adds one entry to the table's public log: who did what, in English (``text``), with the parts a
client may show in its own words. A line of chat is the one exception: it goes to the table's chat, not its log,
and changes nothing else.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from laro.core import GameState, JSONDict, round_of
from laro.server.errors import Damaged
from laro.server.table.events import Act, Away, BotSeat, Chat, End, Event, Join, Leave, Ready, Resume, Timeout, Undo
from laro.server.table.seats import Seat, name_of
from laro.server.undo import Move, next_turn

if TYPE_CHECKING:
    from laro.server.table.model import Table

__all__ = ["ENDS", "apply", "scored_round"]

ENDS = {
    "expired": "the table expired: not every seat was taken in time",
    "abandoned": "the table ended: every player was away and their stand-in bots played alone",
    "too_long": "the table ended: it reached the most events a table may have",
    "time_up": "the table ended: bots alone may play a table only so long",
}


def apply(table: Table, event: Event, now: float) -> None:
    """Apply ``event``, which happened at ``now``, to ``table`` (already checked, or read from the log)."""
    if event.seq != table.seq + 1:
        raise Damaged(f"event {event.seq} does not follow {table.seq}")
    if isinstance(event, Chat):
        _chat(table, event, now)
        return
    if isinstance(event, End | Resume):
        entry: JSONDict = {"seq": event.seq, "seat": None, "type": event.type}
        text = _end(table, event, entry) if isinstance(event, End) else _resume(table, now)
        _logged(table, event, entry, text, now)
        return
    if not 0 <= event.seat < len(table.seats):
        raise Damaged(f"event {event.seq} names seat {event.seat} of {len(table.seats)}")
    seat = table.seats[event.seat]
    entry = {"seq": event.seq, "seat": seat.index, "type": event.type, "by": name_of(table.seats, seat.index)}
    text = _SEAT_EVENTS[type(event)](table, event, seat, entry, now)
    _next_turn(table, now)
    _logged(table, event, entry, text, now)


def _chat(table: Table, event: Chat, now: float) -> None:
    """A line of chat: kept with the last ones; the game, its clocks and its log are as they were."""
    if event.seat is not None and not 0 <= event.seat < len(table.seats):
        raise Damaged(f"event {event.seq} names seat {event.seat} of {len(table.seats)}")
    by = None if event.seat is None else name_of(table.seats, event.seat)
    table.chat.append({"seq": event.seq, "seat": event.seat, "by": by, "text": event.text, "time": now})
    table.chats += 1
    table.seq = event.seq


def _end(table: Table, event: End, entry: JSONDict) -> str:
    if event.reason not in ENDS:
        raise Damaged(f"event {event.seq} ends the table for no known reason: {event.reason[:40]!r}")
    table.ended = entry["reason"] = event.reason
    return ENDS[event.reason]


def _resume(table: Table, now: float) -> str:
    table.clocks.resume(now)
    return "the server is back: the clock of the seat to act starts again"


def _act(table: Table, event: Act, seat: Seat, entry: JSONDict, now: float) -> str:
    action = table.state.parse_action(event.action)
    round_before = scored_round(table.state)
    if table.paused(now):  # a bot moved on during a round's end nobody was looking at: it is over
        table.clocks.pause(now)
    if seat.played_by_standin:
        entry["standin"] = seat.standin
        entry["by"] = f"{seat.standin} bot for {entry['by']}"
    else:
        seat.timeouts = 0
    table.clocks.charge(now)
    person = seat.bot is None and not seat.played_by_standin
    turn = next_turn(table.game.name, table.moves, seat.index)
    bot = None if person else (seat.bot or seat.standin)
    table.moves.append(Move(event.seq, seat.index, str(action), person=person, turn=turn, bot=bot))
    table.state = table.state.apply(action)
    entry["action"] = table.game.public_text(str(action))
    if seat.bot is not None:
        entry["bot"] = seat.bot  # the bot that made this move (for a person's seat: a bot playing for them)
    text = f"{entry['by']}: {entry['action']}"
    round_after = scored_round(table.state)
    if round_after != round_before and not table.state.is_over and table.round_pause > 0:
        table.clocks.pause(now + table.round_pause)  # show the round's end; nobody's clock runs meanwhile
        table.ready.clear()
    if round_after != round_before:
        entry["round_over"] = round_before  # the log marks the round's end (its text stays the action's)
    return text


def scored_round(state: GameState) -> int | None:
    """The game's scored round (L.A.M.A.'s: one that ends with a result), or None for a game whose rounds are
    only turns around the table (Kamara's), which neither pause nor are marked: what the game declares
    (:func:`laro.core.round_of`)."""
    return round_of(state)


def _undo(table: Table, event: Undo, seat: Seat, entry: JSONDict, now: float) -> str:
    """Take the moves of an ``undo`` event out of force and replay the game without them."""
    undone = list(event.undone)
    keep = len(table.moves) - len(undone)
    if not undone or keep < 0 or [move.seq for move in table.moves[keep:]] != undone:
        raise Damaged(f"undo {event.seq} names moves that are not the last in force")
    gone = table.moves[keep:]
    del table.moves[keep:]
    table.clocks.charge(now)  # the time spent on the undone moves is not given back
    followers = table.bots.fresh(gone)
    table.state = table.replayed(followers)
    table.bots.update(followers)
    if table.paused(now):  # a takeback back over a round's end: the next round is not shown any more
        table.clocks.pause(now)
        table.ready.clear()
    entry["kind"] = event.kind
    entry["undone"] = [table.game.public_text(move.action) for move in gone]
    if event.kind == "step":
        return f"{entry['by']} takes back {entry['undone'][0]}"
    table.takebacks_taken += 1
    count = len(gone)
    return f"{entry['by']} takes back their last turn ({count} move{'' if count == 1 else 's'} undone)"


def _timeout(table: Table, event: Timeout, seat: Seat, entry: JSONDict, now: float) -> str:
    seat.timeouts += 1
    seat.standing_in = True
    table.clocks.timed_out(seat.index)
    entry["standin"] = seat.standin
    text = f"{entry['by']} ran out of time — the {seat.standin} bot played for them"
    if seat.timeouts >= 2:
        seat.away = True
        text += " (and plays on until they come back)"
    return text


def _away(table: Table, event: Away, seat: Seat, entry: JSONDict, now: float) -> str:
    seat.away = True
    if table.clocks.turn_seat == seat.index:
        table.clocks.stop(now)  # the time spent is the player's; an unfinished turn earns no increment
    entry["standin"] = seat.standin
    entry["reason"] = event.reason
    who = entry["by"]
    if event.reason == "handed":
        if event.by is None:
            raise Damaged(f"event {event.seq} hands seat {seat.index} over, but says not by whom")
        return f"{name_of(table.seats, event.by)} handed {who}'s seat to the {seat.standin} bot until they come back"
    return f"{who} is away — the {seat.standin} bot plays for them until they come back"


def _ready(table: Table, event: Ready, seat: Seat, entry: JSONDict, now: float) -> str:
    table.ready.add(seat.index)
    if event.last:
        table.clocks.pause(now)  # everyone here is ready: the next round starts now
    return f"{entry['by']} is ready for the next round"


def _join(table: Table, event: Join, seat: Seat, entry: JSONDict, now: float) -> str:
    # back from away: with the bank the seat had, less the time it spent (a time-out left a small one)
    seat.away, seat.timeouts, seat.standing_in = False, 0, False
    seat.bot, seat.name, seat.joined = None, event.name, True
    if seat.connections == 0:  # joined without connecting (yet): absent since now
        seat.disconnected_since = now
    entry["by"] = entry["name"] = seat.name
    if all(s.joined or s.bot for s in table.seats):
        table.started = True
    return f"{seat.name} takes seat {seat.index}"


def _leave(table: Table, event: Leave, seat: Seat, entry: JSONDict, now: float) -> str:
    seat.joined = False
    return f"{entry['by']} leaves seat {seat.index}"


def _bot(table: Table, event: BotSeat, seat: Seat, entry: JSONDict, now: float) -> str:
    seat.bot, seat.joined = event.bot, False
    entry["bot"] = seat.bot
    if all(s.joined or s.bot for s in table.seats):
        table.started = True
    return f"seat {seat.index} is now played by the {seat.bot} bot"


_SEAT_EVENTS: dict[type[Any], Callable[[Table, Any, Seat, JSONDict, float], str]] = {
    Act: _act,
    Undo: _undo,
    Timeout: _timeout,
    Away: _away,
    Ready: _ready,
    Join: _join,
    Leave: _leave,
    BotSeat: _bot,
}


def _next_turn(table: Table, now: float) -> None:
    """Whose clock runs after an event at ``now``: the seat to act, if a person plays it now."""
    for seat in table.seats:  # a stand-in plays only the rest of the turn that ran out
        if seat.standing_in and seat.index != table.state.current_player:
            seat.standing_in = False
    current = table.state.current_player
    if (
        table.ended is not None
        or not table.started
        or current is None
        or table.seats[current].bot is not None
        or table.seats[current].played_by_standin
    ):
        current = None
    if table.clocks.turn_seat is not None and table.clocks.turn_seat != current:
        table.clocks.end_turn(now)
    if current is not None and table.clocks.turn_seat != current:
        table.clocks.start_turn(current, now)


def _logged(table: Table, event: Event, entry: JSONDict, text: str, now: float) -> None:
    table.seq = table.moved = event.seq
    entry["text"] = text  # the whole entry in English, as the server's log line says it
    table.log.append(entry)
    table.updated = now
