"""Reading the public parts of a L.A.M.A. table from JSON: the same fields in a full state and in a seat's
observation (who has quit, the totals, who started, who played last, the last round, the winners).

>>> from laro.games.lama import GAME
>>> state = GAME.new_game(num_players=3, seed=1)
>>> copy = object.__new__(type(state))
>>> read_public(copy, state.to_json(), 3)
>>> copy.scores, copy.starter == state.starter, copy.quit_mask
((0, 0, 0), True, 0)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from laro.core.checks import per_seat, seat_number, whole_number
from laro.games.lama.scoring import RoundResult

if TYPE_CHECKING:
    from laro.games.lama.state import LamaState

__all__ = ["read_public"]


def read_public(state: LamaState, data: Mapping[str, Any], n: int) -> None:
    """Set ``state``'s public fields from ``data`` (a state's JSON or an observation); malformed values raise."""
    quit_flags = per_seat(data["quit"], "quit", n)
    state.quit_mask = sum(1 << seat for seat, flag in enumerate(quit_flags) if flag is True)
    state.scores = tuple(whole_number(s, "scores") for s in per_seat(data["scores"], "scores", n))
    state.starter = seat_number(data["starter"], n, "starter")
    last = data.get("last_player")
    state.last_player = None if last is None else seat_number(last, n, "last_player")
    last_round = data.get("last_round")
    state.last_round = None if last_round is None else RoundResult.from_json(last_round)
    state.winners = tuple(seat_number(s, n, "winners") for s in data.get("winners", []))
