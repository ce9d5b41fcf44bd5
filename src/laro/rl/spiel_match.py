"""Games of the OpenSpiel L.A.M.A. between OpenSpiel's own ISMCTS bot and laro's bots.

A seat is ``"openspiel-ismcts"`` (OpenSpiel's ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with random
rollouts, ``simulations`` per move) or a laro bot's name; the laro bots play from the engine state's observation
of their seat, as everywhere in laro.

>>> result = play_spiel_game(["openspiel-ismcts", "random"], seed=1, simulations=5)
>>> len(result.returns), result.decisions["openspiel-ismcts"] > 0
(2, True)
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from laro.bots import Bot, check_table, get_bot
from laro.games.lama.actions import ALL_ACTIONS
from laro.rl.spiel_lama import LamaSpielState

__all__ = ["OPENSPIEL_ISMCTS", "SpielGameResult", "play_spiel_game"]

OPENSPIEL_ISMCTS = "openspiel-ismcts"


@dataclass(slots=True)
class SpielGameResult:
    seats: list[str]
    returns: list[float]
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    decisions: Counter[str] = field(default_factory=Counter)
    seconds: dict[str, float] = field(default_factory=dict)
    actions: list[str] = field(default_factory=list)  # every player's action in order, as ``p<seat> <action>``


def _seeded_resampler(rng: np.random.RandomState) -> Callable[[LamaSpielState, int], LamaSpielState]:
    """ISMCTS's hidden-card samples drawn from ``rng``, so that a game is the same for the same seed."""
    return lambda state, player: state.resample_from_infostate(player, rng.random_sample)


def play_spiel_game(
    seats: Sequence[str], seed: int, simulations: int = 100, options: dict[str, object] | None = None
) -> SpielGameResult:
    """One whole game of ``python_laro_lama``; chance is sampled from ``seed``; ``options`` are the game's other
    parameters (``{"edition": "party"}`` plays the Party Edition)."""
    params = {"players": len(seats), **(options or {})}
    game = pyspiel.load_game("python_laro_lama", params)
    chance = np.random.RandomState(seed)
    players: list[ismcts.ISMCTSBot | Bot] = []
    for seat, name in enumerate(seats):
        if name == OPENSPIEL_ISMCTS:
            search_rng = np.random.RandomState(seed * 100 + seat)
            evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=search_rng)
            bot = ismcts.ISMCTSBot(game, evaluator, 2.0, simulations, random_state=search_rng)
            bot.set_resampler(_seeded_resampler(search_rng))  # OpenSpiel's own sampler is seeded by the clock
            players.append(bot)
        else:
            players.append(get_bot(name, "lama"))
            check_table(players[-1], len(seats), game.laro_options)
    bot_rng = random.Random(seed)
    state: LamaSpielState = game.new_initial_state()
    result = SpielGameResult(list(seats), [], (), ())
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(chance.choice(outcomes, p=probabilities)))
            continue
        seat = state.current_player()
        player = players[seat]
        start = time.perf_counter()
        if isinstance(player, ismcts.ISMCTSBot):
            action = int(player.step(state))
        else:
            laro_state = state.laro
            assert laro_state is not None
            action = player.choose(laro_state.observation(seat), laro_state.legal_actions(), bot_rng).index
        result.seconds[seats[seat]] = result.seconds.get(seats[seat], 0.0) + time.perf_counter() - start
        result.decisions[seats[seat]] += 1
        assert ALL_ACTIONS[action] in state.laro.legal_actions()  # type: ignore[union-attr]
        result.actions.append(f"p{seat} {ALL_ACTIONS[action]}")
        state.apply_action(action)
    final = state.laro
    assert final is not None
    result.returns, result.winners, result.scores = list(state.returns()), final.winners, final.scores
    return result
