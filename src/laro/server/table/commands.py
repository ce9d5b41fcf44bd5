"""Commands: what a client (or the server itself) asks of a table, checked against it, made into the event
that does it; a :class:`Refusal` says why not. A command changes nothing: the hub stores its event, then the
table applies it (:mod:`laro.server.table.reducer`). Whatever time a check needs is passed in as ``now``.

>>> from laro.server.table.making import create
>>> table, tokens = create("lama", 2, {}, {1: "random"}, created=0.0, seed=7, table_id="t1")
>>> join(table, 0, tokens[0], "  Ana ")
Join(seq=1, seat=0, name='Ana')
>>> act(table, 0, "play 1", seq=0, now=0.0)
Traceback (most recent call last):
  ...
laro.server.errors.Refusal: the table waits for every player to take their seat
"""

from __future__ import annotations

from laro.bots import list_bots
from laro.server.chat import clean_text
from laro.server.errors import Code, Refusal
from laro.server.table.events import Act, Away, BotSeat, Chat, End, Join, Leave, Ready, Resume, Timeout, Undo
from laro.server.table.model import Table
from laro.server.table.seats import clean_name, name_of, seat_of_token
from laro.server.undo import KINDS, Why, step_refusal, takeback_refusal, turn_back

__all__ = [
    "act",
    "away",
    "chat",
    "check_open",
    "end",
    "hand_over",
    "hand_to_bot",
    "join",
    "leave",
    "ready",
    "resume",
    "timeout",
    "undo",
    "undo_refusal",
]


def check_open(table: Table) -> None:
    """Refuse (``game_over``, ``expired``) once the table takes no more events."""
    if table.ended == "expired":
        raise Refusal(Code.EXPIRED, "this table expired: not every seat was taken in time")
    if table.over:
        raise Refusal(Code.GAME_OVER, "the game is over")


def chat(table: Table, seat: int | None, text: str, most: int) -> Chat:
    """A line of chat by ``seat`` (``None``: a spectator, if the table lets them write); refused once the table
    is over, or holds ``most`` lines already (``too_many``), or for a line that is empty or too long."""
    check_open(table)
    if seat is None and not table.spectator_chat:
        raise Refusal(Code.SPECTATOR, "spectators read the chat; this table lets only its players write")
    if seat is not None:
        _check_seat(table, seat)
    line = clean_text(text)
    if table.chats >= most:
        raise Refusal(Code.TOO_MANY, f"this table has had its {most} lines of chat")
    return Chat(table.seq + 1, seat, line)


def _check_token(table: Table, seat: int, token: str) -> None:
    check_open(table)  # the seats of a finished game stay as they were
    _check_seat(table, seat)
    if seat_of_token(table.seats, token) != seat:
        raise Refusal(Code.BAD_TOKEN, "that token is not this seat's")


def _check_seat(table: Table, seat: int) -> None:
    if not 0 <= seat < len(table.seats):
        raise Refusal(Code.BAD_REQUEST, f"seat must be 0..{len(table.seats) - 1}")


def _check_seq(table: Table, seq: int, what: str) -> None:
    # first: of two racing requests the loser hears it lost, whatever the winner did; chat since changes nothing
    if not table.moved <= seq <= table.seq:
        raise Refusal(Code.STALE_SEQ, f"you {what} on state {seq}, but the table is at state {table.seq}: look again")


def join(table: Table, seat: int, token: str, name: str) -> Join:
    """A human takes (or takes back) their seat."""
    _check_token(table, seat, token)
    name = clean_name(name)
    if not name:
        raise Refusal(Code.BAD_REQUEST, "a name is needed to join")
    return Join(table.seq + 1, seat, name)


def leave(table: Table, seat: int, token: str) -> Leave:
    _check_token(table, seat, token)
    if not table.seats[seat].joined:
        raise Refusal(Code.BAD_REQUEST, f"seat {seat} is not taken")
    return Leave(table.seq + 1, seat)


def hand_to_bot(table: Table, seat: int, token: str, bot: str) -> BotSeat:
    """A human hands their seat to a bot (joining again takes it back)."""
    _check_token(table, seat, token)
    bots = list_bots(table.game.name)
    if bot not in bots:
        raise Refusal(Code.BAD_REQUEST, f"no bot {bot!r} for {table.game.name}; bots: {', '.join(bots)}")
    return BotSeat(table.seq + 1, seat, bot)


def end(table: Table, reason: str) -> End:
    """The table ends before its game does: ``expired`` (nobody took every seat in time), ``abandoned`` (every
    person's seat was handed to its stand-in), ``too_long`` (it holds the most events a table may have) or
    ``time_up`` (bots alone played it as long as they may)."""
    check_open(table)
    return End(table.seq + 1, reason)


def act(table: Table, seat: int, action: str, seq: int, now: float) -> Act:
    """``seat`` takes ``action`` having seen state ``seq``; refused unless it is legal at ``now``."""
    _check_seq(table, seq, "acted")
    check_open(table)
    if table.paused(now):
        raise Refusal(Code.PAUSED, "the round's end is being shown; the next round starts in a moment")
    if table.seats[seat].played_by_standin:
        raise Refusal(Code.NOT_JOINED, "your stand-in plays this turn; take your seat back by joining it again")
    if not table.started:
        raise Refusal(Code.NOT_STARTED, "the table waits for every player to take their seat")
    if table.state.current_player != seat:
        raise Refusal(Code.NOT_YOUR_TURN, f"it is seat {table.state.current_player}'s turn, not yours")
    if not table.seats[seat].joined:
        raise Refusal(Code.NOT_JOINED, "take your seat first (join it with your token and a name)")
    try:
        chosen = table.state.parse_action(action)
        table.state.apply(chosen)
    except ValueError as error:
        raise Refusal(Code.ILLEGAL_ACTION, str(error)) from None
    # the canonical text, never the client's spelling: ``KEEP Y12`` would pass its hidden card on to the log
    return Act(table.seq + 1, seat, str(chosen))


def undo(table: Table, seat: int, kind: str, seq: int) -> Undo:
    """``seat`` takes back a ``step`` or its last turn (``takeback``) having seen state ``seq``; :class:`Refusal`
    ``cannot_undo`` says why not when it may not."""
    _check_seq(table, seq, "asked")
    check_open(table)
    if kind not in KINDS:
        raise Refusal(Code.BAD_REQUEST, f"an undo is a step or a takeback; got {kind!r}")
    if not table.started:
        raise Refusal(Code.NOT_STARTED, "the table waits for every player to take their seat")
    if not table.seats[seat].joined or table.seats[seat].played_by_standin:
        raise Refusal(Code.NOT_JOINED, "only the player at the seat can take its moves back")
    reason = undo_refusal(table, seat, kind)
    if reason is not None:
        raise Refusal(Code.CANNOT_UNDO, reason)
    undone = table.moves[-1:] if kind == "step" else turn_back(table.moves, seat)
    return Undo(table.seq + 1, seat, kind, tuple(move.seq for move in undone))


def undo_refusal(table: Table, seat: int, kind: str) -> Why | None:
    """Why ``seat`` may not take back a ``step`` or its last turn now (None: it may)."""
    if kind == "step":
        return step_refusal(table.game.name, table.moves, seat, table.state.current_player)
    seats = table.seats
    others = all(other.bot is not None and other.token_hash is None for other in seats if other.index != seat)
    return takeback_refusal(table.takebacks, others, table.moves, seat)


def timeout(table: Table, now: float) -> Timeout | None:
    """The time-out of the seat whose clock ran out by ``now``, if one did."""
    deadline = table.clocks.deadline()
    if table.over or deadline is None or now < deadline or table.clocks.turn_seat is None:
        return None
    return Timeout(table.seq + 1, table.clocks.turn_seat)


def away(table: Table, seat: int, reason: str, now: float, by: int | None = None) -> Away:
    """``seat`` is handed to its stand-in until its player comes back: ``disconnected`` (no connection on its turn
    for a while) or ``handed`` (another player ``by`` did it from the table, which may be done to a seat that ran
    out of time, or whose player has been gone ``handover_after`` seconds by ``now``)."""
    check_open(table)
    target = table.seats[seat]
    if target.token_hash is None or target.bot is not None or target.away:
        raise Refusal(Code.BAD_REQUEST, f"seat {seat} is not a person's seat that could be handed over")
    if reason == "handed" and not target.timeouts:
        since = target.disconnected_since
        if target.connections > 0 or since is None:
            name = name_of(table.seats, seat)
            raise Refusal(Code.BAD_REQUEST, f"{name} is here: only an away seat can be handed over")
        gone = now - since
        if table.clocks.spec.correspondence:
            raise Refusal(
                Code.TOO_SOON,
                f"{name_of(table.seats, seat)} plays on a clock of days: their seat can be handed over once their "
                "turn's time has run out",
            )
        if gone < table.handover_after:
            raise Refusal(
                Code.TOO_SOON,
                f"{name_of(table.seats, seat)} has been gone for {gone:.0f} s: their seat can be handed over after "
                f"{table.handover_after:.0f} s (a page reloading, or a train in a tunnel, comes back by then)",
            )
    return Away(table.seq + 1, seat, reason, by)


def hand_over(table: Table, seat: int, token: str, now: float) -> Away:
    """Another player of this table hands the away ``seat`` to its stand-in (see :func:`away`)."""
    _check_seat(table, seat)
    by = seat_of_token(table.seats, token)
    if by == seat:
        raise Refusal(Code.BAD_REQUEST, 'to let a bot play your own seat, use "bot"')
    return away(table, seat, "handed", now, by)


def ready(table: Table, seat: int, now: float) -> Ready:
    """A player is ready for the next round (during a round's end at ``now``)."""
    if not table.paused(now):
        raise Refusal(Code.BAD_REQUEST, "there is no round's end to move on from")
    # the last of the players here to be ready ends the pause; the event says so, so the log replays it exactly
    present = {s.index for s in table.seats if s.joined and not s.away and s.connections > 0}
    return Ready(table.seq + 1, seat, present <= table.ready | {seat})


def resume(table: Table) -> Resume:
    """A restarted server drives a running table again: the running clock starts its turn afresh."""
    return Resume(table.seq + 1)
