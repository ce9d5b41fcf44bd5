"""OpenSpiel: both games pass pyspiel's random simulation test; resampling keeps what the player knows; OpenSpiel's
own ISMCTS bot plays whole games."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

import laro.rl.spiel  # noqa: F401  # registers the games
from laro.games.lama import GAME
from laro.games.lama.cards import ALL_CARD_TEXT
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
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
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
