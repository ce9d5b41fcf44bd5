"""The Gymnasium vector environments over the batched engine: Gymnasium's own checks where they take a vector
environment, and the rules of the learner's turns, rewards, illegal actions and partial resets."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
import pytest
from gymnasium.utils import env_checker
from gymnasium.utils.env_match import check_environments_match

import laro.rl  # noqa: F401  # registers laro/Lama-v0 and its vector entry point
from laro.core.errors import OptionError
from laro.rl.gym_vector import LamaSelfPlayEnv, LamaVectorEnv, PolicyPool, greedy
from laro.rl.vector import VectorLama

PARTY = {"edition": "party"}


def _legal(infos: dict[str, Any], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    masks = infos["action_mask"]
    return np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])


@pytest.mark.parametrize("options", [{}, PARTY])
def test_gymnasiums_checks_pass_on_the_vector_environment(options: dict[str, object]) -> None:
    envs = gymnasium.make_vec("laro/Lama-v0", num_envs=16, num_players=3, options=options)
    assert isinstance(envs.unwrapped, LamaVectorEnv) and envs.unwrapped.spec is not None
    env_checker.check_reset_return_type(envs)
    env_checker.check_reset_seed_determinism(envs)
    env_checker.check_reset_options(envs)
    # these two read a step's terminated and truncated as one bool each, so they take a single game
    one = [gymnasium.make_vec("laro/Lama-v0", num_envs=1, num_players=3, options=options) for _ in range(2)]
    env_checker.check_returned_data_not_reused(one[0])
    check_environments_match(one[0], one[1], num_steps=200, seed=3)  # mostly actions outside the mask


def test_gymnasiums_checks_pass_on_the_self_play_environment() -> None:
    envs = LamaSelfPlayEnv(16, num_players=4)
    env_checker.check_reset_return_type(envs)
    env_checker.check_reset_seed_determinism(envs)
    env_checker.check_reset_options(envs)
    env_checker.check_returned_data_not_reused(LamaSelfPlayEnv(1, num_players=4))
    check_environments_match(LamaSelfPlayEnv(1, 4), LamaSelfPlayEnv(1, 4), num_steps=200, seed=3)


@pytest.mark.parametrize("options", [{}, PARTY])
def test_the_learner_always_moves_and_is_paid_its_share_of_each_win(options: dict[str, object]) -> None:
    envs = LamaVectorEnv(32, num_players=4, options=options)
    observations, infos = envs.reset(seed=5)
    to_move = {name: start for name, start, _ in envs.engine.encoding.fields()}["self.to_move"]
    rng = np.random.default_rng(5)
    finished = 0
    for _ in range(300):
        assert (envs.engine.current == 0).all()  # every game waits for the learner
        assert np.array_equal(infos["action_mask"], envs.action_masks()) and infos["action_mask"].any(axis=1).all()
        assert (observations[:, to_move] == 1.0).all()  # the observer is the seat to move
        observations, rewards, terminated, truncated, infos = envs.step(_legal(infos, rng))
        assert not truncated.any()
        assert np.array_equal(terminated, infos.get("_final_scores", np.zeros(32, bool)))  # no illegal actions
        for game in np.flatnonzero(terminated):
            scores = infos["final_scores"][game]
            winners = np.flatnonzero(scores == scores.min())
            assert rewards[game] == pytest.approx(1 / len(winners) if 0 in winners else 0.0)
            finished += 1
        assert not rewards[~terminated].any()
    assert finished >= 100


def test_an_action_outside_the_mask_ends_that_game_with_minus_one() -> None:
    envs = LamaVectorEnv(8, num_players=3)
    _, infos = envs.reset(seed=2)
    actions = _legal(infos, np.random.default_rng(2))
    actions[3] = int(np.flatnonzero(~infos["action_mask"][3])[0])
    before = envs.engine.game_number.copy()
    _, rewards, terminated, _, infos = envs.step(actions)
    assert rewards[3] == -1.0 and terminated[3] and envs.engine.game_number[3] != before[3]
    assert not infos.get("_final_scores", np.zeros(8, bool))[3]  # abandoned, not scored
    with pytest.raises(ValueError, match=r"one action per environment, shape \(8,\)"):
        envs.step(actions[:5])


def test_a_reset_mask_starts_only_those_games_again() -> None:
    envs = LamaVectorEnv(6, num_players=2)
    observations, _ = envs.reset(seed=4)
    before = envs.engine.game_number.copy()
    mask = np.array([True, False, False, True, False, False])
    again, _ = envs.reset(options={"reset_mask": mask})
    assert (envs.engine.game_number[mask] != before[mask]).all()
    assert (envs.engine.game_number[~mask] == before[~mask]).all()
    assert np.array_equal(again[~mask], observations[~mask])


def test_self_play_moves_every_seat_and_pays_every_seat_at_the_end() -> None:
    envs = LamaSelfPlayEnv(24, num_players=3)
    _, infos = envs.reset(seed=6)
    rng = np.random.default_rng(6)
    seats_moved = set()
    ends = 0
    for _ in range(400):
        player = envs.engine.current.copy()
        assert np.array_equal(infos["player"] if "next_player" not in infos else infos["next_player"], player)
        _, rewards, terminated, _, infos = envs.step(_legal(infos, rng))
        seats_moved |= set(infos["player"].tolist())
        assert np.array_equal(rewards, infos["rewards"][np.arange(24), player])
        paid = infos["rewards"][terminated].sum(axis=1)
        assert paid == pytest.approx(np.ones(len(paid)))  # the shares of each finished game's win
        assert not infos["rewards"][~terminated].any()
        ends += int(terminated.sum())
    assert seats_moved == {0, 1, 2} and ends >= 50


def test_a_pool_of_past_policies_plays_the_opponents() -> None:
    size = VectorLama(1, 2).obs_size
    rng = np.random.default_rng(0)
    pool = PolicyPool(size=2, seed=1)
    for _ in range(3):  # the first leaves the full pool
        pool.add(greedy([(rng.normal(size=(size, 8)), np.zeros(8)), (rng.normal(size=(8, 9)), np.zeros(9))]))
    assert len(pool.policies) == 2
    envs = LamaVectorEnv(16, num_players=2, opponents=pool)
    _, infos = envs.reset(seed=1)
    for _ in range(100):
        infos = envs.step(_legal(infos, rng))[4]
        assert (envs.engine.current == 0).all()
    masks = np.array([[False] * 7 + [True, True]])
    best = greedy([(np.eye(9, dtype=np.float32), np.arange(9, dtype=np.float32))])
    assert best(np.zeros((1, 9), np.float32), masks, np.array([0])).tolist() == [8]


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(OptionError, match=r"L\.A\.M\.A\. only"):
        LamaVectorEnv(4, game="kamara")
    with pytest.raises(OptionError, match="opponents are 'random' or a function"):
        LamaVectorEnv(4, opponents="heuristic")
    with pytest.raises(OptionError, match="2 to 6 players"):
        LamaVectorEnv(4, num_players=7)
    with pytest.raises(OptionError, match="edition"):
        LamaSelfPlayEnv(4, options={"edition": "deluxe"})
