"""L.A.M.A. determinisations: every sample agrees with the seat's observation, and nothing it could not hold."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.lama.test_properties import full_deck, games

from laro.core.errors import StateError
from laro.games.lama import GAME, LamaState


def _all_cards(state: LamaState) -> Counter[str]:
    data = state.to_json()
    return Counter([*(c for hand in data["hands"] for c in hand), *data["draw_pile"], *data["discard_pile"]])


@settings(max_examples=60, deadline=None)
@given(states=games(), pick=st.randoms(use_true_random=False))
def test_samples_agree_with_every_observation(states: list[LamaState], pick: random.Random) -> None:
    for state in pick.sample(states, min(len(states), 8)):
        n = state.num_players
        seat = state.current_player if state.current_player is not None else pick.randrange(n)
        observation = state.observation(seat)
        sample = GAME.sampler(observation)
        unseen = Counter(c for other, hand in enumerate(state.to_json()["hands"]) if other != seat for c in hand)
        unseen += Counter(state.to_json()["draw_pile"])
        for k in range(3):
            drawn = sample(random.Random(k))
            assert drawn.observation(seat) == observation  # everything the seat knows, exactly
            assert _all_cards(drawn) == full_deck(state)  # never a card that cannot exist
            assert drawn.hand_sizes() == state.hand_sizes()  # never a hand of the wrong size
            assert drawn.hand(seat) == state.hand(seat)
            data = drawn.to_json()
            hidden = Counter(c for other, hand in enumerate(data["hands"]) if other != seat for c in hand)
            assert hidden + Counter(data["draw_pile"]) == unseen  # the unseen cards, dealt anew
            assert GAME.from_json(data).to_json() == data
            if not drawn.is_over:
                assert drawn.legal_actions() == state.legal_actions()


def test_samples_differ_and_repeat() -> None:
    state = GAME.new_game(4, seed=12)
    sample = GAME.sampler(state.observation(2))
    deals = {tuple(map(tuple, sample(random.Random(k)).to_json()["hands"])) for k in range(20)}
    assert len(deals) == 20
    assert sample(random.Random(5)).to_json() == sample(random.Random(5)).to_json()
    assert len({sample(random.Random(k)).seed for k in range(20)}) == 20  # later rounds are unknown too


def test_the_boxed_supply_and_last_player_carry_over() -> None:
    state = GAME.new_game(3, seed=8, options={"token_supply": "boxed", "next_round_starter": "last_card"})
    rng = random.Random(3)
    while state.round < 3 and not state.is_over:
        legal = state.legal_actions()
        state = state.apply(legal[rng.randrange(len(legal))])
    seat = state.current_player or 0
    drawn = GAME.sampler(state.observation(seat))(random.Random(0))
    assert drawn.supply == state.supply and drawn.tokens == state.tokens
    assert drawn.last_player == state.last_player


def test_bad_observations_are_refused() -> None:
    observation = GAME.new_game(3, seed=2).observation(1)
    with pytest.raises(StateError, match="spectator"):
        GAME.sampler({**observation, "seat": None})
    with pytest.raises(StateError, match="more copies"):
        GAME.sampler({**observation, "hand": ["L"] * 6, "discard_pile": ["L"] * 3})
    with pytest.raises(StateError, match="hand size"):
        GAME.sampler({**observation, "hand": observation["hand"][:-1]})
    with pytest.raises(StateError, match="draw pile"):
        GAME.sampler({**observation, "draw_pile_count": observation["draw_pile_count"] + 1})
    with pytest.raises(StateError, match="missing key"):
        GAME.sampler({key: value for key, value in observation.items() if key != "scores"})


def test_party_samples_deal_the_unseen_special_cards() -> None:
    """Party Edition: a determinisation deals exactly the plus cards and pink llama the seat has not seen."""
    state = GAME.new_game(4, seed=21, options={"edition": "party"})
    seat = state.current_player or 0
    data = state.to_json()
    seen = Counter([*data["hands"][seat], *data["discard_pile"]])
    special = {"1+", "2+", "3+", "4+", "5+", "6+", "P"}
    sample = GAME.sampler(state.observation(seat))
    for k in range(20):
        drawn = sample(random.Random(k))
        assert drawn.party and _all_cards(drawn) == full_deck(state)
        dealt = drawn.to_json()
        unseen = Counter(c for other, hand in enumerate(dealt["hands"]) if other != seat for c in hand)
        unseen += Counter(dealt["draw_pile"])
        assert {card for card in unseen if card in special} == special - set(seen)
