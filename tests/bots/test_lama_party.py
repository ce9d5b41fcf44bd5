"""The L.A.M.A. bots in the Party Edition: always legal, they chain plus cards and use the pink llama, and the
heuristic clearly beats random play; the search bots' judge plays the Party Edition's rules to the round's end."""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.bots.test_lama_heuristic import play_game
from tests.lama.test_rules import build

from laro.bots import RandomBot, get_bot
from laro.bots.ismcts import IsmctsBot
from laro.bots.judges import judge_for
from laro.bots.lama_heuristic import LamaHeuristicBot
from laro.bots.lama_party import DRAW_MOVE, QUIT_MOVE, finish_party_round, party_move
from laro.games.lama import GAME, LamaState
from laro.games.lama.cards import PINK, PLUS, hand_from_cards, party_hand_size

PARTY = {"edition": "party"}


def decide(hands: list[str], discard: str, **kwargs: Any) -> str:
    """The heuristic's move for seat 0 at a Party Edition table."""
    state = build(hands, discard, options={**PARTY, **kwargs.pop("options", {})}, **kwargs)
    action = LamaHeuristicBot().choose(state.observation(0), state.legal_actions(), random.Random(0))
    assert action in state.legal_actions()
    return str(action)


# -- the heuristic --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("options", [{}, {"token_supply": "boxed", "end_score": 25}], ids=["default", "boxed-25"])
def test_always_legal_against_itself_and_random(players: int, options: dict[str, Any]) -> None:
    for seed in range(6):
        actions = play_game([LamaHeuristicBot() for _ in range(players)], seed, {**PARTY, **options})
        assert any("+" in action for action in actions)
        mixed: list[Any] = [LamaHeuristicBot() if seat % 2 == 0 else RandomBot() for seat in range(players)]
        play_game(mixed, seed + 100, {**PARTY, **options})


def test_plays_the_plus_card_first_when_a_card_can_follow_it() -> None:
    """Chain: 3+ then the 3 (or a 4) in the extra turn, two cards gone in one turn."""
    assert decide(["33+4", "111111"], "3") == "play 3+"


def test_plays_the_plus_card_before_its_number() -> None:
    """Chain: the 3+ first, then the 3 follows it in the extra turn."""
    assert decide(["33+1", "111111"], "3") == "play 3+"


def test_plays_on_in_the_extra_turn() -> None:
    state = build(["33+4", "111111"], "3", options=PARTY)
    bot = LamaHeuristicBot()
    first = bot.choose(state.observation(0), state.legal_actions(), random.Random(0))
    state = state.apply(first)
    assert state.current_player == 0
    second = bot.choose(state.observation(0), state.legal_actions(), random.Random(0))
    assert str(second) in ("play 3", "play 4")


def test_plays_the_pink_llama_rather_than_drawing() -> None:
    assert decide(["P5", "111111"], "1") == "play P"


def test_plays_the_pink_llama_when_an_opponent_is_about_to_go_out() -> None:
    """It costs 20 if still held: with an opponent on two cards it goes at once."""
    assert decide(["P23", "66"], "2") == "play P"
    assert decide(["P23", "666666"], "2") in ("play 2", "play 3")  # no hurry: play the numbers first


def test_goes_out_with_the_pink_llama() -> None:
    assert decide(["P", "666666"], "4") == "play P"


def test_party_move_units() -> None:
    hand = hand_from_cards([2, PLUS + 3])  # 3, 4+ on a 4: the 4+ fits; nothing follows, it is the only card
    assert party_move(hand, 3, opponents=3, shortest=5, held=2, leaning=0.0, can_draw=True) == PLUS + 3
    assert party_move(hand_from_cards([0]), 4, 3, 5, 1, 0.0, can_draw=False) == QUIT_MOVE
    expensive = hand_from_cards([5, 5, 4, 3, 6, 6])  # 6, 5, 4, L: 25 points, nothing fits on a 1
    assert party_move(expensive, 0, 3, 6, 6, 0.0, can_draw=True) == DRAW_MOVE


# -- the search bots ------------------------------------------------------------------------------------------


def _midgame(seed: int, moves: int, players: int = 4) -> LamaState:
    state = GAME.new_game(players, seed=seed, options=PARTY)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    return state


def test_the_judge_policy_is_legal_and_the_playout_plays_party_rules() -> None:
    judge = judge_for(GAME)
    for seed in range(40):
        state = _midgame(seed, seed % 9, players=2 + seed % 5)
        if state.is_over:
            continue
        assert judge.policy(state, random.Random(seed)) in state.legal_actions()
        values = judge.playout(state, random.Random(seed))
        assert len(values) == state.num_players and sum(values) == pytest.approx(1.0)


def test_the_playout_follows_the_rules_of_the_reference() -> None:
    """The judge's fast round, replayed move by move through the engine, is a legal Party Edition round."""
    for seed in range(30):
        state = _midgame(seed, 3)
        if state.is_over:
            continue
        hands = state.hands.copy()
        ended_by = finish_party_round(
            hands,
            state.deck,
            state.draw_pos,
            state.quit_mask,
            state.discard[-1],
            state.current_player or 0,
            (0.0,) * 4,
            0.3,
            random.Random(seed),
        )
        assert 0 <= ended_by < 4
        assert sum(map(party_hand_size, hands)) <= sum(state.hand_sizes()) + len(state.deck) - state.draw_pos


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_search_bots_play_a_whole_party_game(level: str) -> None:
    bots: list[Any] = [get_bot(level, "lama"), LamaHeuristicBot(), RandomBot()]
    if level == "hard":
        bots[0] = IsmctsBot(simulations=40)
    actions = play_game(bots, 5, {**PARTY, "end_score": 15})
    assert actions


def test_the_pink_llama_counts_in_the_playout() -> None:
    """A hand left with the pink llama costs 20 in the judge's scoring too (it uses the rules' own)."""
    state = build(["5", "P", "33"], "4", options=PARTY)
    values = judge_for(GAME).playout(state, random.Random(1))
    assert values[0] > values[1]
    assert PINK == 13
