"""Kamara's ``hard`` bot (also called ``turns``): whole turns searched under sampled hidden cards, judged a round on.

At the first decision of a turn where the ``heuristic`` would work toward its card (a Move, Port, Flip, Poke, Match
or End), the bot lists the turns it could play: every sequence of those actions that ends the turn, one per
position it leads to (the diwa, the tiles, the card held or matched, the green card drawn). Each is valued at once
by the judge's race estimate (:meth:`~laro.bots.kamara_judge.KamaraJudge.values`) and the best few, with the
heuristic's own turn, are compared on the same determinisations: the other seats' cards dealt at random as the
seat's observation allows, the turn played, then every other seat's turn played by the judge's model of the
heuristic, and the position valued when the bot's next turn begins. The bot plays the turn with the best mean
unless the heuristic's own turn is within ``margin`` standard errors of the paired differences, and keeps the plan
for the rest of the turn while the chamber goes as planned.

Every other decision (setup, an Exchange, a green card, a ``silip`` or ``panaginip`` choice) is the paired
search's (:mod:`laro.bots.ismcts`, Kamara's ``easy`` bot), which plays the heuristic's move and weighs its
Exchanges. Kamara's ``medium`` is the same search as ``hard`` on half the determinisations.

>>> import random, laro
>>> state = laro.get_game("kamara").new_game(num_players=3, seed=3)
>>> bot = TurnSearchBot()
>>> while state.current_player is not None and state.phase != "play":
...     seat = state.current_player
...     state = state.apply(bot.choose(state.observation(seat), state.legal_actions(), random.Random(seat)))
>>> seat = state.current_player
>>> bot.choose(state.observation(seat), state.legal_actions(), random.Random(1)) in state.legal_actions()
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar, cast

from laro.bots.ismcts import IsmctsBot
from laro.bots.judges import judge_for, win_shares
from laro.bots.kamara_judge import KamaraJudge, heuristic_move, play_on
from laro.core.game import Action, JSONDict
from laro.core.registry import get_game
from laro.games.kamara.actions import END, FLIP, MATCH, MOVE, POKE, PORT, KamaraAction
from laro.games.kamara.state import KamaraState

__all__ = ["Settings", "TurnSearchBot", "easy", "hard", "medium", "turns"]

A = TypeVar("A", bound=Action)

_SEARCHED = frozenset((MOVE, PORT, FLIP, MATCH, POKE, END))  # public actions whose outcome every sample shares


@dataclass(frozen=True, slots=True)
class Settings:
    """``samples``: determinisations compared; ``shortlist``: turns compared besides the heuristic's, the best by
    the race estimate; ``margin``: standard errors of the paired differences a turn must be ahead by;
    ``positions``: the most positions a turn's listing visits."""

    samples: int = 96
    shortlist: int = 12
    margin: float = 1.0
    positions: int = 4_000


_Key = tuple[object, ...]


def _key(state: KamaraState, seat: int) -> _Key:
    """What a turn's actions can change, and so tells two of its positions apart."""
    return (
        state.diwa,
        state.tiles,
        state.actions_left,
        state.current_player,
        state.yellow[seat],
        len(state.matched[seat]),
        state.green[seat],
    )


def turns(state: KamaraState, limit: int) -> list[tuple[KamaraState, tuple[KamaraAction, ...]]]:
    """Every position in which the seat to play can end its turn by the searched actions, each with the shortest
    sequence that reaches it (breadth first; at most ``limit`` positions visited)."""
    seat: int = state.current_player  # type: ignore[assignment]
    seen = {_key(state, seat)}
    frontier: list[tuple[KamaraState, tuple[KamaraAction, ...]]] = [(state, ())]
    ended: list[tuple[KamaraState, tuple[KamaraAction, ...]]] = []
    while frontier:
        following = []
        for position, path in frontier:
            for action in position.legal_actions():
                if action.kind not in _SEARCHED:
                    continue
                after = position.apply_legal(action)
                key = _key(after, seat)
                if key in seen:
                    continue
                seen.add(key)
                if after.current_player != seat or after.pending is not None:
                    ended.append((after, (*path, action)))
                elif len(seen) < limit:
                    following.append((after, (*path, action)))
        frontier = following
    return ended


class TurnSearchBot:
    """Kamara's ``hard`` bot (see the module docstring)."""

    def __init__(self, settings: Settings | None = None, name: str = "hard") -> None:
        self.name = name
        self.settings = settings or Settings()
        self.paired = IsmctsBot(level="hard", name=name)  # every decision that is not a turn's work
        self.plan: list[tuple[KamaraAction, _Key]] = []  # the rest of the turn chosen: action, position before it
        self.searched = 0  # turns searched, and turns where the heuristic's own was left
        self.left = 0

    @property
    def stats(self) -> object:
        return self.paired.stats

    def follow(self, observation: JSONDict) -> None:
        self.paired.follow(observation)

    def choose(self, observation: JSONDict, legal: Sequence[A], rng: random.Random) -> A:
        game = get_game(observation["game"])
        judge = cast(KamaraJudge, judge_for(game))
        if observation["phase"] != "play" or observation["pending"] is not None or len(legal) == 1:
            self.plan = []
            return self.paired.choose(observation, legal, rng)
        seat: int = observation["seat"]
        sample = cast(Callable[[random.Random], KamaraState], game.sampler(observation))
        state = sample(rng)
        planned = self._planned(state, seat, legal)
        if planned is not None:
            self.paired.follow(observation)
            return planned
        model = heuristic_move(state)
        if model.kind not in _SEARCHED:  # an Exchange or a green card: the paired search's
            self.plan = []
            return self.paired.choose(observation, legal, rng)
        chosen = self._search(state, seat, sample, judge, rng)
        if not chosen:
            self.plan = []
            return self.paired.choose(observation, legal, rng)
        self.plan = chosen
        planned = self._planned(state, seat, legal)
        assert planned is not None  # the plan was made from this position
        self.paired.follow(observation)
        return planned

    def _planned(self, state: KamaraState, seat: int, legal: Sequence[A]) -> A | None:
        """The plan's next action, if the turn is where the plan expected it."""
        if not self.plan:
            return None
        action, expected = self.plan[0]
        if _key(state, seat) != expected:
            self.plan = []
            return None
        self.plan = self.plan[1:]
        return next((found for found in legal if found.index == action.index), None)

    def _search(
        self,
        state: KamaraState,
        seat: int,
        sample: Callable[[random.Random], KamaraState],
        judge: KamaraJudge,
        rng: random.Random,
    ) -> list[tuple[KamaraAction, _Key]]:
        """The turn to play, as actions with the position before each; empty for the heuristic's own."""
        settings = self.settings
        self.searched += 1
        listed = turns(state, settings.positions)
        if not listed:
            return []
        ranked = sorted(listed, key=lambda item: -_value(judge, item[0], seat))[: settings.shortlist]
        sequences = [path for _, path in ranked]
        gains = [[0.0, 0.0] for _ in sequences]
        pairs = 0
        others = state.num_players - 1
        for _ in range(settings.samples):
            world = sample(rng)
            base = _value(judge, play_on(world, 1 + others), seat)
            for k, path in enumerate(sequences):
                after = world
                for action in path:
                    after = after.apply_legal(action)
                gain = _value(judge, play_on(after, others), seat) - base
                gains[k][0] += gain
                gains[k][1] += gain * gain
            pairs += 1
        best, best_mean = -1, 0.0
        for k, (total, squares) in enumerate(gains):
            mean = total / pairs
            spread = math.sqrt(max(squares / pairs - mean * mean, 0.0) / pairs)
            if mean > best_mean and mean > settings.margin * spread:
                best, best_mean = k, mean
        if best < 0:
            return []
        self.left += 1
        plan = []
        position = state
        for action in sequences[best]:
            plan.append((action, _key(position, seat)))
            position = position.apply_legal(action)
        return plan


def _value(judge: KamaraJudge, state: KamaraState, seat: int) -> float:
    if state.current_player is None:
        return win_shares(state)[seat]
    return judge.values(state)[seat]


def easy() -> IsmctsBot:
    """Kamara's ``easy`` bot (also called ``ismcts``): the paired search alone, which plays the heuristic's moves
    and weighs its Exchanges (the search's ``hard`` level in Kamara)."""
    return IsmctsBot(level="hard", name="easy")


def medium() -> TurnSearchBot:
    """Kamara's ``medium`` bot: the turn search on half the determinisations."""
    return TurnSearchBot(Settings(samples=48), name="medium")


def hard() -> TurnSearchBot:
    """Kamara's ``hard`` bot (also called ``turns``): the turn search with its default settings."""
    return TurnSearchBot(name="hard")
