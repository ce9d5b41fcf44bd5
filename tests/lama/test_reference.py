"""The engine agrees with the straightforward reference implementation, move by move, over many games."""

from __future__ import annotations

import random

import pytest

import laro
from laro.sim.baselines.lama_reference import ReferenceLama

GAME = laro.get_game("lama")


ORDER = ["1", "1+", "2", "2+", "3", "3+", "4", "4+", "5", "5+", "6", "6+", "L", "P"]  # how a state sorts hands


@pytest.mark.parametrize("edition", ["classic", "party"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_engine_matches_reference(players: int, edition: str) -> None:
    """Same seed, same actions: the same legal actions, hands, piles, turns, scores and winners."""
    rng = random.Random(players if edition == "classic" else f"party:{players}")
    for seed in range(40):
        state = GAME.new_game(players, seed=seed, options={"edition": edition})
        ref = ReferenceLama.new_game(players, seed, party=edition == "party")
        while True:
            data = state.to_json()
            assert [str(a) for a in state.legal_actions()] == ref.legal_actions()
            assert data["current_player"] == ref.current_player
            assert data["scores"] == ref.scores
            if state.is_over:
                assert state.winners == ref.winners
                break
            assert data["round"] == ref.round
            assert data["hands"] == [sorted(hand, key=ORDER.index) for hand in ref.hands]
            assert data["draw_pile"] == ref.draw_pile
            assert data["discard_pile"] == ref.discard_pile
            assert data["quit"] == ref.quit
            # bias towards playing so that rounds also end by emptied hands
            legal = ref.legal_actions()
            plays = [a for a in legal if a.startswith("play")]
            action = rng.choice(plays) if plays and rng.random() < 0.7 else rng.choice(legal)
            state = state.apply(action)
            ref = ref.apply(action)
