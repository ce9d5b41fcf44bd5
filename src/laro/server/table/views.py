"""Views: what clients are told of a table — its public summary, its clocks, and the ``state`` message each seat
(or a spectator) gets, with its own observation and what it may do. Hidden information stays hidden: a seat sees
its own observation, a spectator the public one, and the summary holds no token, seed or hidden card. ``now`` is
the server's time, given by the caller.

>>> from laro.server.table.making import create
>>> table, tokens = create("lama", 2, {}, {1: "random"}, created=0.0, seed=7, table_id="t1")
>>> summary(table)["status"], state_message(table, None, now=0.0)["your_turn"]
('open', False)
"""

from __future__ import annotations

import json
import math
from typing import Any

from laro.core import JSONDict
from laro.server.table.commands import undo_refusal
from laro.server.table.model import Table
from laro.server.table.seats import name_of
from laro.server.undo import KINDS, Why

__all__ = [
    "clock_summary",
    "handover_at",
    "result",
    "standin_at",
    "state_message",
    "state_text",
    "stored_result",
    "summary",
    "undo_offer",
]


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def result(table: Table) -> JSONDict | None:
    if table.ended is not None:
        return {"winners": [], "scores": list(table.state.scores), "ended": table.ended}
    if not table.state.is_over:
        return None
    return {"winners": list(table.state.winners), "scores": list(table.state.scores)}


def stored_result(table: Table) -> JSONDict:
    """The result the store keeps once the table is over: :func:`result` with the players' names (what the list
    of finished games shows)."""
    return {**(result(table) or {}), "players": [name_of(table.seats, seat.index) for seat in table.seats]}


def summary(table: Table) -> JSONDict:
    """The public summary: no tokens, no seed, no hidden cards."""
    return {
        "id": table.meta.id,
        "game": table.game.name,
        "title": table.game.title,
        "players": table.meta.num_players,
        "options": table.meta.options,
        "status": table.status,
        "seq": table.seq,
        "current_player": table.state.current_player,
        "seats": [{**seat.public(), "handover_at": handover_at(table, seat.index)} for seat in table.seats],
        "result": result(table),
        "rematch": table.rematch,
        "clock": clock_summary(table),
        "takebacks": table.takebacks,
        "practice": table.practice,
        "takebacks_taken": table.takebacks_taken,
        "spectator_chat": table.spectator_chat,
        "created": table.meta.created,
        "updated": table.updated,
    }


def clock_summary(table: Table) -> JSONDict:
    """The clocks as the last event left them: each seat's time left (the running one's as of the start of its
    turn), whose clock runs, its ``deadline`` and the end of a round's pause (unix times)."""
    clocks = table.clocks
    return {
        **clocks.spec.to_json(),
        "remaining": [round(bank, 3) for bank in clocks.banks] if clocks.timed else None,
        "running": clocks.turn_seat,
        "deadline": clocks.deadline(),
        "paused_until": clocks.paused_until if clocks.paused_until and not table.over else None,
        "ready": sorted(table.ready),
        "standin_at": standin_at(table),
    }


def handover_at(table: Table, seat: int) -> float | None:
    """From when another player may hand ``seat`` over (unix time; see :func:`commands.away`), if its player is
    gone, at a timed table; None while they are here, when it is no person's seat to hand over, or at a table
    without a clock (where nobody's time runs out while they are gone)."""
    target = table.seats[seat]
    if target.token_hash is None or target.bot is not None or target.away or not target.joined:
        return None
    if not table.clocks.timed:
        return None
    if target.timeouts:
        return table.updated
    since = target.disconnected_since
    limit = table.clocks.spec.gone_limit(table.handover_after)
    return None if target.connections > 0 or since is None or limit == math.inf else since + limit


def standin_at(table: Table) -> float | None:
    """When the stand-in takes over the seat to act, whose clock runs, if its player stays without a connection:
    at the end of its time, or ``away_after`` seconds after the connection went (unix time)."""
    seat = table.clocks.turn_seat
    since = None if seat is None else table.seats[seat].disconnected_since
    if since is None:
        return None
    deadline = table.clocks.deadline()
    away = since + table.clocks.spec.gone_limit(table.away_after)
    due = min(away, deadline) if deadline is not None else away
    return due if due < math.inf else None


def undo_offer(table: Table, seat: int) -> JSONDict:
    """Which undos ``seat`` may ask for now, and why not (``null`` where it may): what the Undo button shows."""
    mine = table.seats[seat]
    playing = table.started and not table.over and mine.joined and not mine.played_by_standin
    offer: JSONDict = {}
    for kind in KINDS:
        reason = undo_refusal(table, seat, kind) if playing else Why("not_playing", "you are not playing this seat now")
        offer[kind] = reason is None
        offer[f"{kind}_refusal"] = reason and str(reason)
        offer[f"{kind}_why"] = reason and reason.to_json()
    return offer


def state_text(table: Table, seat: int | None, now: float) -> str:
    """:func:`state_message` as JSON text. The parts every connection shares (the summary, the log and the chat)
    are encoded once per change, not once per connection."""
    key = (table.seq, tuple(seat.connections > 0 for seat in table.seats), table.rematch)
    if table.shared is None or table.shared[0] != key:
        table.shared = (key, _dumps(summary(table)), _dumps(list(table.log)), _dumps(list(table.chat)))
    _, shared_summary, log, chat = table.shared
    head = _dumps(state_message(table, seat, now, shared=False))[:-1]  # the seat's own parts; the shared spliced in
    return f'{head},"table":{shared_summary},"log":{log},"chat":{chat}}}'


def state_message(table: Table, seat: int | None, now: float, shared: bool = True) -> JSONDict:
    """The ``state`` message for a seat (its own observation) or a spectator (``None``) at ``now``."""
    state = table.state
    mine = (
        seat is not None
        and state.current_player == seat
        and table.started
        and table.seats[seat].joined
        and not table.seats[seat].played_by_standin
        and not table.over
        and not table.paused(now)  # a round's end is shown: the turn is yours once it is over
    )
    message: JSONDict = {
        "type": "state",
        "seq": table.seq,
        "seat": seat,
        "observation": state.observation(seat) if seat is not None else state.public_observation(),
        "legal_actions": [str(a) for a in state.legal_actions()] if mine else [],
        "your_turn": mine,
        "server_time": now,  # to count the clocks down against the server's own time
    }
    if seat is not None:
        message["undo"] = undo_offer(table, seat)
    if shared:
        message["table"] = summary(table)
        message["log"] = list(table.log)
        message["chat"] = list(table.chat)
    return message
