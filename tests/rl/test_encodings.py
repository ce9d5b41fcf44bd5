"""The observation vectors stay inside their declared space (0..1) in whole random games of every size, and the
L.A.M.A. vector read from a state is the vector of its observation."""

from __future__ import annotations

import random

import numpy as np
import pytest

from laro.core import get_game
from laro.games.lama import GAME
from laro.rl.lama_encoding import LamaEncoding
from laro.rl.spec import Table


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [("lama", n, {}) for n in range(2, 7)]
    + [("lama", 4, {"edition": "party"})]
    + [("kamara", n, {}) for n in (2, 3, 5)]
    + [pytest.param("kamara", 8, {}, marks=pytest.mark.slow)],  # eight seats through six whole games
)
def test_every_entry_is_between_0_and_1(game: str, players: int, options: dict[str, object]) -> None:
    table = Table(game, players, options)
    for seed in range(6 if game == "kamara" else 20):
        state = get_game(game).new_game(players, seed=seed, options=options)
        rng = random.Random(seed)
        while not state.is_over:
            for seat in range(players):
                vector = table.encode(state, seat)
                assert vector.shape == (table.observation_size,)
                assert vector.min() >= 0.0 and vector.max() <= 1.0, (seed, seat, vector.argmax())
            state = state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("edition", ["classic", "party"])
def test_sizes_are_read_against_the_56_cards_of_either_edition(edition: str) -> None:
    table = Table("lama", 3, {"edition": edition})
    state = get_game("lama").new_game(3, seed=4, options={"edition": edition})
    vector = table.encode(state, 0)
    fields = {name: start for name, start, _ in table.encoding.fields()}
    observation = state.observation(0)
    assert vector[fields["draw_pile"]] == pytest.approx(observation["draw_pile_count"] / 56)  # 56 - 18 - 1 = 37
    assert vector[fields["seat+1.hand_size"]] == pytest.approx(6 / 56)
    assert float(vector[: len(table.encoding.kinds)].sum()) * 8 == pytest.approx(6)  # six cards, counts / 8


@pytest.mark.parametrize("options", [{}, {"edition": "party"}, {"edition": "party", "token_supply": "boxed"}])
@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_vector_read_from_a_state_is_the_vector_of_its_observation(
    players: int, options: dict[str, object]
) -> None:
    encoding = Table("lama", players, options).encoding
    assert isinstance(encoding, LamaEncoding)
    rng = random.Random(players)
    compared = 0
    for seed in range(4):
        state = GAME.new_game(players, seed=seed, options=options)
        while True:
            for seat in range(players):
                assert np.array_equal(encoding.encode_state(state, seat), encoding.encode(state.observation(seat)))
                compared += 1
            if state.is_over:
                break
            state = state.apply(rng.choice(state.legal_actions()))
    assert compared > 20 * players  # every seat, at every step of four whole games
