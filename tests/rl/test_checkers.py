"""The field's own checkers on both games: PettingZoo's api_test and seed_test (AEC and parallel), Gymnasium's
check_env."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test
from pettingzoo.test.seed_test import data_equivalence
from pettingzoo.utils.env import ParallelEnv
from pettingzoo.utils.wrappers.base_parallel import BaseParallelWrapper

import laro.rl
from laro.cli.views import terminal_text
from laro.rl import kamara_v0, lama_v0

GAMES = [
    pytest.param(lama_v0, 2, id="lama-2"),
    pytest.param(lama_v0, 5, id="lama-5"),
    pytest.param(kamara_v0, 3, id="kamara-3"),
]


@pytest.mark.parametrize(("module", "players"), GAMES)
def test_pettingzoo_api_test(module: object, players: int) -> None:
    env = module.env(num_players=players)  # type: ignore[attr-defined]
    env.reset(seed=7)  # the checker's own resets then continue from this seed: the same games every run
    api_test(env, num_cycles=200)


@pytest.mark.parametrize(("module", "players"), GAMES)
def test_pettingzoo_seed_test(module: object, players: int) -> None:
    seed_test(lambda: module.env(num_players=players), num_cycles=100)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("module", "players"), GAMES)
def test_pettingzoo_parallel_api_test_and_seed_test(module: object, players: int) -> None:
    env = module.parallel_env(num_players=players)  # type: ignore[attr-defined]
    env.reset(seed=7)
    parallel_api_test(env, num_cycles=300)
    parallel_seed_test(lambda: module.parallel_env(num_players=players), num_cycles=100)  # type: ignore[attr-defined]


def _sample(env: ParallelEnv[Any, Any, Any], agent: str, observation: dict[str, Any]) -> Any:
    """An action from the agent's seeded action space: within its mask, or any if it is not to move."""
    mask = observation["action_mask"]
    return env.action_space(agent).sample(mask if mask.any() else None)


def masked_parallel_seed_test(make: Callable[[], ParallelEnv[Any, Any, Any]], games: int) -> int:
    """PettingZoo's ``parallel_seed_test`` with the mask: two environments reset with the same seed, stepped with
    the same actions (each agent's sampled from its own mask by its seeded action space), must give the same
    observations, rewards, terminations, truncations and infos at every step of ``games`` whole games. PettingZoo's
    own test samples without the mask, so the first step's action usually ends the game, and it stops after the
    first step anyway. Returns the number of steps compared."""
    first, second = make(), make()
    steps = 0
    for game in range(games):
        got = [env.reset(seed=42 + game) for env in (first, second)]
        assert data_equivalence(got[0], got[1]), "different first observations"
        for env in (first, second):
            for agent in env.possible_agents:
                env.action_space(agent).seed(game)
        while first.agents:
            observations = got[0][0]
            actions = [
                {agent: _sample(env, agent, observations[agent]) for agent in env.agents} for env in (first, second)
            ]
            assert data_equivalence(actions[0], actions[1]), "the seeded action spaces sampled different actions"
            results = [env.step(chosen) for env, chosen in zip((first, second), actions, strict=True)]
            assert data_equivalence(results[0], results[1]), f"the environments differ at step {steps}"
            got = [(result[0], result[4]) for result in results]
            steps += 1
    return steps


@pytest.mark.parametrize(("module", "players"), GAMES)
def test_whole_games_through_the_parallel_api_repeat_with_their_seed(module: object, players: int) -> None:
    steps = masked_parallel_seed_test(lambda: module.parallel_env(num_players=players), games=2)  # type: ignore[attr-defined]
    assert steps >= 20  # whole games, not a first step


def test_the_masked_seed_test_catches_an_environment_that_ignores_its_seed() -> None:
    class Unseeded(BaseParallelWrapper):  # type: ignore[misc]
        def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
            return self.env.reset(seed=None, options=options)

    with pytest.raises(AssertionError, match=r"differ|different"):
        masked_parallel_seed_test(lambda: Unseeded(lama_v0.parallel_env(num_players=3)), games=1)


def test_a_whole_game_through_the_parallel_api_takes_only_the_action_of_the_agent_to_move() -> None:
    env = lama_v0.parallel_env(num_players=3, options={"end_score": 15})
    observations, _ = env.reset(seed=5)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    mover = env.unwrapped.agent_selection
    for _ in range(100_000):
        masks = {agent: observations[agent]["action_mask"] for agent in env.agents}
        assert [agent for agent, mask in masks.items() if mask.any()] == [mover]
        # the waiting agents' actions (here: 0, which is no legal move of theirs) are not taken
        actions = {agent: int(rng.choice(np.flatnonzero(mask))) if mask.any() else 0 for agent, mask in masks.items()}
        observations, rewards, terminations, _, infos = env.step(actions)
        for agent, reward in rewards.items():
            totals[agent] += reward
        if all(terminations.values()):
            break
        mover = infos[env.agents[0]]["active_agent"]
    state = env.unwrapped.state_
    assert state.is_over and env.agents == []
    assert totals == {f"player_{s}": (1 / len(state.winners) if s in state.winners else 0.0) for s in range(3)}


def test_pettingzoo_api_test_of_the_party_edition() -> None:
    """The L.A.M.A. Party Edition: 16 actions (the classic nine and 9..15), its cards in the observation."""
    env = lama_v0.env(num_players=4, options={"edition": "party"})
    api_test(env, num_cycles=200)
    env.reset(seed=3)
    assert env.action_space("player_0").n == 16


@pytest.mark.parametrize(
    ("env_id", "kwargs"),
    [
        ("laro/Lama-v0", {"num_players": 3, "opponents": "heuristic"}),
        ("laro/Lama-v0", {"num_players": 3, "opponents": "heuristic", "options": {"edition": "party"}}),
        ("laro/Lama-v0", {"num_players": 2, "opponents": ["hard"], "seat": 1, "reward": "score"}),
        ("laro/Kamara-v0", {"num_players": 2, "opponents": "random"}),
    ],
)
def test_gymnasium_check_env(env_id: str, kwargs: dict[str, object]) -> None:
    env = gymnasium.make(env_id, **kwargs)
    check_env(env.unwrapped, skip_render_check=False)


def test_whole_games_through_the_aec_api_end_with_the_rewards_of_the_game() -> None:
    env = lama_v0.env(num_players=3, options={"end_score": 15})
    rng = np.random.default_rng(0)
    env.reset(seed=5)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(max_iter=100_000):
        observation, reward, termination, truncation, _ = env.last()
        totals[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    state = env.unwrapped.state_
    assert state.is_over
    assert totals == {f"player_{s}": (1 / len(state.winners) if s in state.winners else 0.0) for s in range(3)}
    assert laro.rl.lama_v0 is lama_v0


@pytest.mark.parametrize(("module", "players"), GAMES)
def test_max_cycles_truncates_after_that_many_turns_of_every_seat(module: object, players: int) -> None:
    options = {"end_score": 500} if module is lama_v0 else {}  # a game longer than the cycles
    env = module.env(num_players=players, max_cycles=4, options=options)  # type: ignore[attr-defined]
    env.reset(seed=3)
    rng = np.random.default_rng(1)
    acted = 0
    for _agent in env.agent_iter(max_iter=1000):
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            assert all(env.truncations.values()) and not any(env.terminations.values())
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        acted += 1
    assert acted == 4 * players and env.agents == []


def test_an_action_outside_the_mask_ends_the_game_against_the_seat_that_took_it() -> None:
    env = lama_v0.env(num_players=3)
    env.reset(seed=1)
    agent = env.agent_selection
    illegal = int(np.flatnonzero(env.last()[0]["action_mask"] == 0)[0])
    env.step(illegal)
    assert env.rewards[agent] == -1.0 and all(env.terminations.values())
    assert env.infos[agent] == {"illegal_action": True}


def test_bad_arguments_are_refused_with_a_clear_message() -> None:
    with pytest.raises(ValueError, match="2 to 6 players"):
        lama_v0.env(num_players=7)
    with pytest.raises(ValueError, match="reward must be one of win, score"):
        kamara_v0.env(reward="points")
    with pytest.raises(ValueError, match="no bot 'genius' for lama"):
        gymnasium.make("laro/Lama-v0", opponents="genius")
    with pytest.raises(ValueError, match="end_score"):
        gymnasium.make("laro/Lama-v0", options={"end_score": 0})


def _plain(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def _hand_line(text: str) -> str:
    return next(line for line in _plain(text).splitlines() if line.startswith("Your hand:"))


def test_ansi_render_is_the_terminal_view_through_the_eyes_of_the_agent_to_move() -> None:
    env = lama_v0.env(num_players=3, render_mode="ansi", options={"end_score": 15})
    env.reset(seed=3)
    rng = np.random.default_rng(2)
    for _ in range(5):
        seat = env.unwrapped.state_.current_player
        text = env.render()
        state = env.unwrapped.state_
        assert text == terminal_text(state, seat) and "\x1b[" in text  # laro play's picture, with its colours
        assert f"player_{seat} (you)" in _plain(text) and "Your hand:" in text
        shown = "".join(ch for ch in _hand_line(text)[len("Your hand:") :] if ch not in " []")
        assert shown == "".join(str(card) for card in state.hand(seat))  # its own cards, and no one else's
        env.step(int(rng.choice(np.flatnonzero(env.last()[0]["action_mask"]))))


def test_ansi_render_of_a_finished_game_shows_the_ranking() -> None:
    env = lama_v0.env(num_players=2, render_mode="ansi", options={"end_score": 10})
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    for _agent in env.agent_iter(max_iter=10_000):
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            break
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert env.unwrapped.state_.is_over
    assert "Game over" in _plain(env.render())


def test_ansi_render_of_kamara_and_of_the_gymnasium_learner() -> None:
    env = kamara_v0.env(num_players=3, render_mode="ansi")
    env.reset(seed=1)
    plain = _plain(env.render())
    assert "a   b   c   d   e   f   g   h   i" in plain and "(you)" in plain
    gym_env = gymnasium.make("laro/Lama-v0", num_players=2, opponents="random", seat=1, render_mode="ansi")
    gym_env.reset(seed=2)
    state = gym_env.unwrapped.state_
    text = gym_env.render()
    assert text == terminal_text(state, 1) and "player_1 (you)" in _plain(text)


def test_ansi_render_without_the_terminal_views_is_a_spectators_short_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("laro.rl.spec.plugin", lambda group, name: None)  # as if laro ran uninstalled from src/
    env = lama_v0.env(num_players=2, render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    state = env.unwrapped.state_
    assert text.splitlines()[0] == "L.A.M.A. round 1 · top card 2 · draw pile 43 · seat 1 to move"
    assert "6 cards" in text and " ".join(state.hand(0)) not in text
