"""The observation vectors stay inside their declared space (0..1) in whole random games of every size."""

from __future__ import annotations

import random

import pytest

from laro.core import get_game
from laro.rl.spec import Table


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [("lama", n, {}) for n in range(2, 7)]
    + [("lama", 4, {"edition": "party"})]
    + [("kamara", n, {}) for n in (2, 3, 5, 8)],
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
