"""OpenSpiel: both games pass pyspiel's random simulation test; resampling keeps what the player knows; OpenSpiel's
own ISMCTS bot plays whole games."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.observation import make_observation

import laro.rl.spiel  # noqa: F401  # registers the games
from laro.games.lama import GAME
from laro.games.lama.cards import ALL_CARD_TEXT, party_card_from_text
from laro.rl.spec import Table
from laro.rl.spiel_match import play_spiel_game


@pytest.mark.parametrize(
    ("name", "params", "sims"),
    [
        ("python_laro_lama", {"players": 2}, 20),
        ("python_laro_lama", {"players": 4, "next_round_starter": "ended_round"}, 10),
        ("python_laro_lama", {"players": 6, "end_score": 20}, 10),
        ("python_laro_lama", {"players": 2, "edition": "party"}, 20),
        ("python_laro_lama", {"players": 3, "edition": "party", "next_round_starter": "ended_round"}, 10),
        ("python_laro_lama", {"players": 5, "edition": "party", "end_score": 30}, 10),
        ("python_laro_kamara", {"players": 2, "max_rounds": 10}, 3),
        ("python_laro_kamara", {"players": 4}, 1),
    ],
)
def test_random_sim_test(name: str, params: dict[str, object], sims: int) -> None:
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=False, verbose=False)


def _playout(game: pyspiel.Game, seed: int, steps: int) -> list[pyspiel.State]:
    rng = np.random.RandomState(seed)
    state, states = game.new_initial_state(), []
    while not state.is_terminal() and len(states) < steps:
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        else:
            states.append(state.clone())
            state.apply_action(int(rng.choice(state.legal_actions())))
    return states


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("python_laro_lama", {"players": 3}),
        ("python_laro_lama", {"players": 3, "edition": "party"}),
        ("python_laro_kamara", {"players": 3}),
    ],
)
def test_a_resampled_state_is_one_the_player_cannot_tell_apart(name: str, params: dict[str, object]) -> None:
    game = pyspiel.load_game(name, params)
    sampler = pyspiel.UniformProbabilitySampler(7, 0.0, 1.0)  # seeded: without one, the clock seeds it
    differed = 0
    for state in _playout(game, seed=4, steps=300)[::7]:
        player = state.current_player()
        sample = state.resample_from_infostate(player, sampler)
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.observation_string(player) == state.observation_string(player)
        assert sample.information_state_tensor(player) == state.information_state_tensor(player)
        assert sample.legal_actions() == state.legal_actions()
        differed += sample.laro.to_json() != state.laro.to_json()
    assert differed > 0  # the hidden cards were dealt again


def test_a_kamara_clone_shares_what_was_heard_and_branches_apart() -> None:
    """A clone copies no history (it shares the entries), yet a move made after the clone is heard only in the
    state that made it, and what an earlier state heard never changes."""
    game = pyspiel.load_game("python_laro_kamara", {"players": 3})
    state = next(s for s in reversed(_playout(game, seed=5, steps=80)) if len(s.legal_actions()) > 1)
    actor = state.current_player()
    heard = [state.heard.by(seat) for seat in range(3)]
    clone = state.clone()
    assert clone.heard.entries is state.heard.entries
    first, second = state.legal_actions()[0], state.legal_actions()[-1]
    state.apply_action(first)
    clone.apply_action(second)
    later = state.clone()
    later.apply_action(later.legal_actions()[0])
    for seat in range(3):
        assert state.heard.by(seat)[:-1] == clone.heard.by(seat)[:-1] == heard[seat]
        assert later.heard.by(seat)[:-1] == state.heard.by(seat)
        assert state.information_state_string(seat).endswith(" | " + ", ".join(state.heard.by(seat)))
    assert state.heard.by(actor)[-1] == f"p{actor} {state.action_to_string(actor, first)}"
    assert clone.heard.by(actor)[-1] == f"p{actor} {clone.action_to_string(actor, second)}"


def test_the_information_state_hides_the_others_cards() -> None:
    game = pyspiel.load_game("python_laro_lama", {"players": 3})
    state = _playout(game, seed=2, steps=20)[-1]
    me = state.current_player()
    text = state.information_state_string(me)
    assert text.startswith(f"p{me}: ") and "dealt" in text
    others_hand = " ".join(state.laro.hand((me + 1) % 3))
    assert state.information_state_string((me + 1) % 3) != text
    assert f"holds {others_hand}" not in text


def test_openspiel_ismcts_plays_whole_games_against_laro_bots() -> None:
    result = play_spiel_game(["openspiel-ismcts", "hard", "heuristic"], seed=7, simulations=20)
    assert result.winners and max(result.scores) >= 40
    assert sum(result.returns) == pytest.approx(0.0)
    assert (
        result.decisions["openspiel-ismcts"] > 0 and result.decisions["hard"] > 0 and result.decisions["heuristic"] > 0
    )


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="2 to 6 players"):
        pyspiel.load_game("python_laro_lama", {"players": 9})
    with pytest.raises(ValueError, match="'edition' must be one of classic, party"):
        pyspiel.load_game("python_laro_lama", {"players": 3, "edition": "deluxe"})


@pytest.mark.parametrize(("edition", "actions", "kinds"), [("classic", 9, 7), ("party", 16, len(ALL_CARD_TEXT))])
def test_the_game_info_is_the_editions(edition: str, actions: int, kinds: int) -> None:
    players = 4
    game = pyspiel.load_game("python_laro_lama", {"players": players, "edition": edition})
    assert game.get_parameters()["edition"] == edition
    assert game.num_distinct_actions() == actions and game.max_chance_outcomes() == kinds
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-0.25, 0.75, 0.0)
    table = Table("lama", players, {"edition": edition})  # the environments' encoding of the edition
    assert game.observation_tensor_size() == table.observation_size == 3 * kinds + 1 + 6 * players
    assert game.information_state_tensor_size() == table.observation_size + 2 * kinds * players
    highest = 0
    for state in [state for seed in range(5) for state in _playout(game, seed=seed, steps=200)]:
        player = state.current_player()
        highest = max(highest, *state.legal_actions())
        assert state.observation_tensor(player) == table.encode(state.laro, player).tolist()
    assert highest == actions - 1  # the edition's last action (quit; play P) was legal, none beyond it


def test_a_plus_card_gives_openspiel_another_turn() -> None:
    game = pyspiel.load_game("python_laro_lama", {"players": 3, "edition": "party"})
    plus = [GAME.parse_action(f"play {n}+").index for n in range(1, 7)]
    turns = 0
    states = [state for seed in range(10) for state in _playout(game, seed=seed, steps=400)]
    for state in states:
        for action in set(plus) & set(state.legal_actions()):
            after = state.child(action)
            if after.laro.round == state.laro.round and not after.is_terminal():
                assert after.current_player() == state.current_player()
                turns += 1
    assert turns >= 10


def test_openspiel_ismcts_plays_a_party_game_to_the_end() -> None:
    seats = ["openspiel-ismcts", "random", "heuristic"]
    result = play_spiel_game(seats, seed=1, simulations=30, options={"edition": "party"})
    assert result.winners and max(result.scores) >= 40
    assert sum(result.returns) == pytest.approx(0.0)
    ismcts_moves = [text.split(" ", 1)[1] for text in result.actions if text.startswith("p0 ")]
    assert len(ismcts_moves) == result.decisions["openspiel-ismcts"] > 0
    assert any(move.endswith("+") or move == "play P" for move in ismcts_moves), ismcts_moves  # its own cards


def _observer(game: pyspiel.Game, private: pyspiel.PrivateInfoType, recall: bool = False) -> Any:
    kind = pyspiel.IIGObservationType(public_info=True, perfect_recall=recall, private_info=private)
    return make_observation(game, kind)


@pytest.mark.parametrize("params", [{"players": 3}, {"players": 4, "edition": "party"}])
def test_the_observer_shows_the_hands_that_private_info_asks_for(params: dict[str, object]) -> None:
    game = pyspiel.load_game("python_laro_lama", params)
    kinds, n = len(game.cards), game.num_players()
    nobody = _observer(game, pyspiel.PrivateInfoType.NONE)
    everyone = _observer(game, pyspiel.PrivateInfoType.ALL_PLAYERS)
    nobody_recall = _observer(game, pyspiel.PrivateInfoType.NONE, recall=True)
    everyone_recall = _observer(game, pyspiel.PrivateInfoType.ALL_PLAYERS, recall=True)
    assert list(nobody.dict) == ["public"] and list(everyone.dict) == ["hands", "public"]
    for state in _playout(game, seed=3, steps=120)[::5]:
        me = state.current_player()
        default = state.observation_tensor(me)
        nobody.set_from(state, me)
        assert nobody.tensor.tolist() == default[kinds:]  # the public part only
        assert "hand " not in nobody.string_from(state, me)
        nobody_recall.set_from(state, me)
        assert not re.search(r"\b(dealt|drew)\b", nobody_recall.string_from(state, me))
        everyone.set_from(state, me)
        for r in range(n):
            seat = (me + r) % n
            held = Counter(party_card_from_text(card) for card in state.laro.hand(seat))
            assert (everyone.dict["hands"][r] * 8).round().tolist() == [held[card] for card in range(kinds)]
        assert everyone.tensor[: n * kinds].sum() > everyone.tensor[:kinds].sum()  # the others' cards too
        text = everyone.string_from(state, me)
        assert all(" ".join(state.laro.hand(seat)) in text for seat in range(n))
        history = everyone_recall.string_from(state, me)
        assert all(f"p{seat} dealt" in history for seat in range(n))


def test_a_states_string_is_the_whole_state() -> None:
    game = pyspiel.load_game("python_laro_lama", {"players": 3})
    sampler = pyspiel.UniformProbabilitySampler(7, 0.0, 1.0)  # seeded: without one, the clock seeds it
    differed = 0
    for state in _playout(game, seed=5, steps=200)[::9]:
        text = str(state)
        assert all(f"p{seat} hand {' '.join(state.laro.hand(seat))} |" in text for seat in range(3))
        assert f"scores {list(state.laro.scores)}" in text
        sample = state.resample_from_infostate(state.current_player(), sampler)
        if sample.laro.hands != state.laro.hands:  # the same history, other hidden cards: another string
            differed += 1
            assert str(sample) != text
    assert differed > 0
    dealing = game.new_initial_state()
    for action in (1, 0, 0, 3):  # p1 starts; p0 is dealt 1, 1, 4
        dealing.apply_action(action)
    assert str(dealing) == "round 1 being dealt, p1 starts | p0 dealt 1 1 4 | p1 dealt  | p2 dealt  | scores [0, 0, 0]"


@pytest.mark.slow
def test_openspiels_pytorch_dqn_learns_on_the_game() -> None:
    """OpenSpiel's PyTorch algorithms need dm-tree (in the rl extra) besides torch (in the train extra)."""
    torch = pytest.importorskip("torch")
    from open_spiel.python import rl_environment
    from open_spiel.python.pytorch import dqn

    sampler = rl_environment.ChanceEventSampler(seed=0)
    env = rl_environment.Environment("python_laro_lama", chance_event_sampler=sampler, players=2)
    size, actions = env.observation_spec()["info_state"][0], env.action_spec()["num_actions"]
    torch.manual_seed(0)
    np.random.seed(0)  # DQN explores with numpy's global generator
    agents = [
        dqn.DQN(
            seat,
            size,
            actions,
            hidden_layers_sizes=[16],
            replay_buffer_capacity=500,
            batch_size=8,
            min_buffer_size_to_learn=16,
            learn_every=4,
        )
        for seat in range(2)
    ]
    for _ in range(8):  # about 90 moves: enough for each agent to learn from a batch
        step = env.reset()
        while not step.last():
            step = env.step([agents[step.observations["current_player"]].step(step).action])
        for agent in agents:
            agent.step(step)
        assert sum(step.rewards) == pytest.approx(0.0)
    assert all(agent.loss is not None for agent in agents)  # each learned from its replay buffer
