"""The ``heuristic`` L.A.M.A. bot: always legal, deterministic, deliberate in the situations of its strategy, and
clearly stronger than random play.

Scenarios are real engine states restored from JSON, so the bot sees exactly the observation and the legal
actions a game would give it.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from laro.bots import RandomBot, get_bot
from laro.bots.lama_heuristic import LamaHeuristicBot, chain_value, penalty, quit_threshold, read_hand
from laro.core.game import JSONDict
from laro.games.lama import GAME, LamaAction, LamaState

CARDS = ("1", "2", "3", "4", "5", "6", "L")


def table(
    hand: list[str],
    top: str,
    others: list[int],
    *,
    quit_seats: tuple[int, ...] = (),
    scores: list[int] | None = None,
    draw_pile: int = 20,
    options: dict[str, Any] | None = None,
) -> LamaState:
    """A state with seat 0 to move, holding ``hand`` on ``top``; ``others`` are the other seats' hand sizes.

    The other hands and the draw pile are filled from the cards left, the rest lies under the top card.
    """
    left = Counter({card: 8 for card in CARDS})
    left.subtract([*hand, top])
    pool = [card for card in CARDS for _ in range(left[card])]
    hands = [hand]
    for size in others:
        hands.append(pool[:size])
        pool = pool[size:]
    draw, under = pool[:draw_pile], pool[draw_pile:]
    seats = len(hands)
    data: JSONDict = {
        "game": "lama",
        "num_players": seats,
        "options": options or {},
        "seed": 1,
        "round": 1,
        "hands": hands,
        "draw_pile": draw,
        "discard_pile": [*under, top],
        "current_player": 0,
        "starter": 0,
        "last_player": None,
        "quit": [seat in quit_seats for seat in range(seats)],
        "scores": scores or [0] * seats,
        "last_round": None,
        "winners": [],
    }
    return GAME.from_json(data)


def decide(state: LamaState, seed: int = 0) -> str:
    action = LamaHeuristicBot().choose(state.observation(0), state.legal_actions(), random.Random(seed))
    assert action in state.legal_actions()
    return str(action)


def play_game(bots: list[Any], seed: int, options: dict[str, Any] | None = None) -> list[str]:
    """Play one seeded game, checking every action is legal; returns the actions' texts."""
    state = GAME.new_game(len(bots), seed=seed, options=options)
    rngs = [random.Random(seed * 10 + seat) for seat in range(len(bots))]
    actions: list[str] = []
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        legal = state.legal_actions()
        action: LamaAction = bots[seat].choose(state.observation(seat), legal, rngs[seat])
        assert action in legal, f"{action} is not legal in {state!r}; legal: {legal}"
        actions.append(str(action))
        state = state.apply(action)
    return actions


# -- the bot is registered, legal and deterministic -----------------------------------------------------------


def test_registered_as_heuristic() -> None:
    bot = get_bot("heuristic", "lama")
    assert isinstance(bot, LamaHeuristicBot)
    assert bot.name == "heuristic"


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize(
    "options",
    [{}, {"next_round_starter": "ended_round"}, {"token_supply": "boxed", "end_score": 25}],
    ids=["default", "ended_round", "boxed-25"],
)
def test_always_legal_against_itself_and_random(players: int, options: dict[str, Any]) -> None:
    for seed in range(8):
        play_game([LamaHeuristicBot() for _ in range(players)], seed, options)
        mixed: list[Any] = [LamaHeuristicBot() if seat % 2 == 0 else RandomBot() for seat in range(players)]
        play_game(mixed, seed + 100, options)


def test_deterministic_for_the_same_seeds() -> None:
    for seed in range(5):
        first = play_game([LamaHeuristicBot(), RandomBot(), LamaHeuristicBot(), RandomBot()], seed)
        again = play_game([LamaHeuristicBot(), RandomBot(), LamaHeuristicBot(), RandomBot()], seed)
        assert first == again


def test_the_same_decision_whatever_the_rng_without_a_tie() -> None:
    state = table(["6", "6", "L"], "6", [5, 5, 5])
    assert {decide(state, seed) for seed in range(20)} == {"play 6"}


# -- step 1: a card that can be played is played ------------------------------------------------------------


def test_goes_out_with_the_last_card() -> None:
    assert decide(table(["4"], "3", [1, 1, 1])) == "play 4"


def test_does_not_hang_on_to_a_single_llama() -> None:
    # on a 6 the llama is the only play: it sheds 10 points, so it is played rather than drawing or quitting
    assert decide(table(["3", "L"], "6", [5, 5, 5])) == "play L"


def test_plays_rather_than_quits_even_when_an_opponent_is_about_to_go_out() -> None:
    # playing the 5 removes 5 points; quitting next turn is still possible
    assert decide(table(["2", "5"], "5", [1, 6, 6])) == "play 5"


# -- step 2: keep the chain, or move on ----------------------------------------------------------------------


def test_keeps_a_follow_up_in_hand() -> None:
    # 4,4,5,5 on a 4: a 4 now keeps 4,5,5 playable next turn; a 5 would leave the 4s behind the top
    assert decide(table(["4", "4", "5", "5"], "4", [5, 5, 5])) == "play 4"


def test_on_a_six_plays_the_six_and_keeps_the_llama_to_follow() -> None:
    # 6,6,L on a 6: the 6 keeps the chain 6 -> L; the llama still follows while the top stays on 6 or a llama
    assert decide(table(["6", "6", "L"], "6", [5, 5, 5])) == "play 6"


def test_never_buries_llamas_under_a_1() -> None:
    assert decide(table(["1", "L", "L"], "L", [5, 5, 5])) == "play L"


def test_moves_on_with_a_big_hand_at_a_crowded_table() -> None:
    # eight cards will not run out soon, and three opponents move the top past the follow-up anyway
    hand = ["2", "2", "3", "3", "5", "6", "6", "L"]
    assert chain_value(read_hand(hand), 1, opponents_in=3) < 0
    assert decide(table(hand, "2", [5, 5, 5])) == "play 3"


def test_keeps_the_chain_with_a_smaller_hand_at_the_same_table() -> None:
    assert decide(table(["2", "2", "3", "3", "5"], "2", [5, 5, 5])) == "play 2"


# -- step 3: nothing to play, draw or quit -------------------------------------------------------------------


def test_quits_a_cheap_hand_when_an_opponent_holds_one_card() -> None:
    # 2 and 3 on a 5 cost 5 points; with an opponent about to go out, drawing would likely only add points
    assert decide(table(["2", "3"], "5", [1, 6, 6])) == "quit"


def test_draws_the_same_cheap_hand_when_nobody_is_close_to_going_out() -> None:
    assert decide(table(["2", "3"], "5", [6, 6, 6])) == "draw"


def test_draws_with_an_expensive_hand_even_when_an_opponent_is_close() -> None:
    # 5, 6 and a llama cost 21: quitting locks that in, drawing can only add 1-4 points and may shed a lot
    hand = ["5", "6", "L"]
    assert penalty(read_hand(hand)) == 21
    assert decide(table(hand, "2", [2, 6, 6])) == "draw"


def test_quits_a_nearly_free_hand() -> None:
    # a lone 1 costs 1 point; with an opponent on three cards, the round may end before it can be shed
    assert decide(table(["1"], "3", [3, 6, 6])) == "quit"


def test_takes_the_risk_when_trailing_in_the_last_round() -> None:
    # someone is within reach of 40: not leading, the bot draws a hand it would lay down when leading
    hand, others = ["2", "3"], [2, 6, 6]
    leading = table(hand, "5", others, scores=[20, 36, 30, 30])
    trailing = table(hand, "5", others, scores=[35, 36, 20, 30])
    assert decide(leading) == "quit"
    assert decide(trailing) == "draw"


def test_quit_threshold_grows_with_the_danger_of_the_round_ending() -> None:
    hand = read_hand(["2", "3"])
    thresholds = [
        quit_threshold(hand, 4, shortest, opponents_in=3, total=0, trailing_in_last_round=False)
        for shortest in (1, 2, 3, 4, 5)
    ]
    assert thresholds == sorted(thresholds, reverse=True)


def test_never_draws_from_an_empty_draw_pile() -> None:
    state = table(["5", "6", "L"], "2", [6, 6, 6], draw_pile=0)
    assert "draw" not in {str(action) for action in state.legal_actions()}
    assert decide(state) == "quit"


def test_never_draws_when_everyone_else_has_quit() -> None:
    state = table(["5", "6", "L"], "2", [6, 6, 6], quit_seats=(1, 2, 3))
    assert "draw" not in {str(action) for action in state.legal_actions()}
    assert decide(state) == "quit"


# -- strength -----------------------------------------------------------------------------------------------


def test_clearly_beats_three_random_bots() -> None:
    """300 seeded four-player games, the bot's seat rotating: about 0.9 of the wins (a fair share is 0.25)."""
    games, wins, points = 300, 0.0, 0
    for seed in range(games):
        seat = seed % 4
        bots: list[Any] = [RandomBot() for _ in range(4)]
        bots[seat] = LamaHeuristicBot()
        state = GAME.new_game(4, seed=seed)
        rngs = [random.Random(seed * 10 + s) for s in range(4)]
        while not state.is_over:
            player = state.current_player
            assert player is not None
            state = state.apply(bots[player].choose(state.observation(player), state.legal_actions(), rngs[player]))
        if seat in state.winners:
            wins += 1 / len(state.winners)
        points += state.scores[seat]
    assert wins / games > 0.7
    assert points / games < 25  # random bots end near 40
