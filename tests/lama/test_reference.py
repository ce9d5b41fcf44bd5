"""The engine agrees with the straightforward reference implementation, move by move, over many games."""

from __future__ import annotations

import random

import pytest

import laro
from laro.sim.baselines.lama_reference import ReferenceLama

GAME = laro.get_game("lama")


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_engine_matches_reference(players: int) -> None:
    """Same seed, same actions: the same legal actions, hands, piles, turns, scores and winners."""
    rng = random.Random(players)
    for seed in range(40):
        state = GAME.new_game(players, seed=seed)
        ref = ReferenceLama.new_game(players, seed)
        while True:
            data = state.to_json()
            assert [str(a) for a in state.legal_actions()] == ref.legal_actions()
            assert data["current_player"] == ref.current_player
            assert data["scores"] == ref.scores
            if state.is_over:
                assert state.winners == ref.winners
                break
            assert data["round"] == ref.round
            assert data["hands"] == [sorted(hand, key="123456L".index) for hand in ref.hands]
            assert data["draw_pile"] == ref.draw_pile
            assert data["discard_pile"] == ref.discard_pile
            assert data["quit"] == ref.quit
            # bias towards playing so that rounds also end by emptied hands
            legal = ref.legal_actions()
            plays = [a for a in legal if a.startswith("play")]
            action = rng.choice(plays) if plays and rng.random() < 0.7 else rng.choice(legal)
            state = state.apply(action)
            ref = ref.apply(action)
