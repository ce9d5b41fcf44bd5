"""Training the learned L.A.M.A. bot on the batched engine: the batched heuristic that labels and opposes it makes
the heuristic bot's moves, and a short run gives a network the policy bot plays."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from laro.bots import get_bot
from laro.games.lama import GAME
from laro.rl.policy_bot import policy_bot, save_policy
from laro.rl.spec import Table
from laro.rl.train_lama import heuristic_actions, improve, train


@pytest.mark.parametrize("edition", ["classic", "party"])
def test_the_batched_heuristic_makes_the_heuristic_bots_moves(edition: str) -> None:
    options = {"edition": edition}
    encoding = Table("lama", 4, options).encoding
    heuristic = get_bot("heuristic", "lama")
    vectors, moves = [], []
    for seed in range(6):
        state = GAME.new_game(4, seed=seed, options=options)
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            observation = state.observation(seat)
            action = heuristic.choose(observation, state.legal_actions(), rng)
            vectors.append(encoding.encode(observation))
            moves.append(action.index)
            state = state.apply(action)
    assert heuristic_actions(np.array(vectors), 4, options).tolist() == moves


def test_a_short_training_run_gives_a_playable_policy(tmp_path: Path) -> None:
    layers, curve = train({"edition": "classic"}, seed=2, rounds=1, steps=4, envs=16, hidden=(8,), eval_games=8)
    assert len(curve) == 1 and 0.0 <= curve[0]["win_share"] <= 1.0
    before = [weights.copy() for weights, _ in layers]
    after = improve(layers, {"edition": "classic"}, 2, rounds=1, steps=40, envs=16, eval_games=8, eval_every=1)
    assert len(after) == 1 and any((weights != old).any() for (weights, _), old in zip(layers, before, strict=True))
    path = tmp_path / "learned.npz"
    save_policy(path, layers, "lama", 4, {"edition": "classic"}, "tanh")
    bot = policy_bot(str(path), "lama")
    state = GAME.new_game(4, seed=1)
    seat = state.current_player
    assert seat is not None
    assert bot.choose(state.observation(seat), state.legal_actions(), random.Random(0)) in state.legal_actions()
