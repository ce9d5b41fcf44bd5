"""The Kamara judge: legal model moves in every phase, values for every seat, win shares at the end."""

from __future__ import annotations

import random

import laro
from laro.bots.ismcts import IsmctsBot
from laro.bots.judges import judge_for, win_shares
from laro.bots.kamara_judge import KamaraJudge

KAMARA = laro.get_game("kamara")


def _states(seed: int, players: int, moves: int) -> list[laro.GameState]:
    state = KAMARA.new_game(players, seed=seed, options={"max_rounds": 6})
    rng = random.Random(seed)
    states = [state]
    for _ in range(moves):
        if state.is_over:
            break
        legal = state.legal_actions()
        state = state.apply(legal[rng.randrange(len(legal))])
        states.append(state)
    return states


def test_it_is_the_judge_for_kamara() -> None:
    assert isinstance(judge_for(KAMARA), KamaraJudge)


def test_policy_is_legal_and_values_cover_every_seat() -> None:
    judge = KamaraJudge()
    checked = 0
    for seed in range(6):
        for state in _states(seed, 2 + seed, 120)[::7]:
            if state.is_over:
                continue
            rng = random.Random(seed)
            assert judge.policy(state, rng) in state.legal_actions()
            values = judge.playout(state, rng)
            assert len(values) == state.num_players
            assert all(0.0 <= value <= 1.0 for value in values)
            checked += 1
    assert checked > 30


def test_a_finished_game_gives_win_shares() -> None:
    state = KAMARA.new_game(3, seed=2, options={"max_rounds": 2})
    rng = random.Random(0)
    while not state.is_over:
        legal = state.legal_actions()
        state = state.apply(legal[rng.randrange(len(legal))])
    assert list(KamaraJudge().playout(state, rng)) == list(win_shares(state))


def test_a_search_with_the_judge_is_legal_and_repeats() -> None:
    state = next(s for s in _states(4, 3, 200) if not s.is_over and getattr(s, "phase", "") == "play")
    seat = state.current_player or 0
    legal = state.legal_actions()
    first = IsmctsBot(level="easy").choose(state.observation(seat), legal, random.Random(3))
    assert first in legal
    assert IsmctsBot(level="easy").choose(state.observation(seat), legal, random.Random(3)) == first
