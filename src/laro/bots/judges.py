"""How a search judges a position: it plays on from a state and returns a value in [0, 1] for every seat.

The generic judge plays uniformly random moves to the end of the game and gives each winner its share of the
win. A game can register a better judge (a shorter horizon and a value read from the position), which the
search then uses without knowing the game.

>>> import random, laro
>>> state = laro.get_game("lama").new_game(num_players=2, seed=3)
>>> values = PlayoutJudge().playout(state, random.Random(0))
>>> sorted(values) in ([0.0, 1.0], [0.5, 0.5])
True
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from typing import Protocol, cast

from laro.core.game import Action, Game, GameState

__all__ = ["Judge", "PlayoutJudge", "judge_for", "rank_values", "register_judge", "win_shares"]


class Judge(Protocol):
    """Values of a position for every seat, each in [0, 1] (higher is better for that seat)."""

    def playout(self, state: GameState, rng: random.Random) -> Sequence[float]: ...

    def policy(self, state: GameState, rng: random.Random) -> Action:
        """The move the playouts would make for the seat to act (a model of the other players)."""
        ...


# A judge may also offer, and the search then uses:
#   sampler(game, observation, memory) -> (rng -> state): determinisations that read more into what the seat has
#       seen, with ``memory`` (a dict) kept from one of the seat's decisions to the next;
#   candidates(observation, legal, rng) -> actions: for the paired search, its own move first and the others
#       worth comparing with it (the rest are not searched);
#   lookahead(state, rng) -> values: for the paired search, values that look further ahead than a playout;
#   play_each(state, actions, rng) -> [values]: for the paired search, a playout after each of the actions, the
#       same as ``playout`` of each action's state but cheaper to ask for at once.


def win_shares(state: GameState) -> tuple[float, ...]:
    """Each seat's share of the win of a finished game (a shared win is split).

    >>> import laro
    >>> state = laro.get_game("lama").new_game(num_players=3, seed=1)
    >>> win_shares(state)
    (0.0, 0.0, 0.0)
    """
    winners = state.winners
    share = 1.0 / len(winners) if winners else 0.0
    return tuple(share if seat in winners else 0.0 for seat in range(state.num_players))


def rank_values(totals: Sequence[float], lower_is_better: bool) -> tuple[float, ...]:
    """Each seat's fraction of the other seats it is ahead of (a tie counts half).

    >>> rank_values([10, 20, 20], lower_is_better=True)
    (1.0, 0.25, 0.25)
    """
    n = len(totals)
    sign = -1.0 if lower_is_better else 1.0
    values = []
    for mine in totals:
        ahead = sum(1.0 if sign * (mine - other) > 0 else 0.5 if mine == other else 0.0 for other in totals)
        values.append((ahead - 0.5) / (n - 1))  # minus the tie with itself
    return tuple(values)


class PlayoutJudge:
    """Uniformly random moves to the end of the game (or ``max_moves``, then ranked by score)."""

    def __init__(self, max_moves: int = 2_000) -> None:
        self.max_moves = max_moves

    def policy(self, state: GameState, rng: random.Random) -> Action:
        legal = state.legal_actions()
        return legal[int(rng.random() * len(legal))]

    def playout(self, state: GameState, rng: random.Random) -> Sequence[float]:
        for _ in range(self.max_moves):
            if state.current_player is None:
                return win_shares(state)
            legal = state.legal_actions()
            state = state.apply(legal[int(rng.random() * len(legal))])
        if state.current_player is None:
            return win_shares(state)
        return rank_values(state.scores, state.game.score_order == "low")


JudgeFactory = Callable[[], Judge]
_JUDGES: dict[str, str | JudgeFactory] = {
    "lama": "laro.bots.lama_judge:LamaJudge",
    "kamara": "laro.bots.kamara_judge:KamaraJudge",
}
_MADE: dict[str, Judge] = {}


def register_judge(game: str, factory: str | JudgeFactory) -> None:
    """Use ``factory``'s judge for ``game`` (a ``"module:attribute"`` path or a callable)."""
    _JUDGES[game] = factory
    _MADE.pop(game, None)


def judge_for(game: Game) -> Judge:
    """The judge registered for ``game``, or the generic :class:`PlayoutJudge`."""
    judge = _MADE.get(game.name)
    if judge is None:
        factory = _JUDGES.get(game.name, PlayoutJudge)
        if isinstance(factory, str):
            module_name, _, attribute = factory.partition(":")
            factory = cast(JudgeFactory, getattr(importlib.import_module(module_name), attribute))
        judge = _MADE[game.name] = factory()
    return judge
