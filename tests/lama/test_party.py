"""Scenario tests for every rule and ruling of the L.A.M.A. Party Edition (``edition = party``), from JSON states.

Cards are written as in the rules: ``1``-``6``, the plus cards ``1+``-``6+``, ``L`` and the pink llama ``P``; a
hand or pile is a string of cards (``"33+PL"``), as in ``tests/lama/test_rules.py``, whose builder these use.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from tests.lama.test_rules import PARTY_DECK, build, cards, legal, play

from laro.core import IllegalActionError, StateError
from laro.games.lama import GAME
from laro.games.lama.cards import PARTY_COPIES, PINK, PLUS, hand_from_cards, party_card_from_text, party_penalty
from laro.games.lama.scoring import score_round
from laro.games.lama.tokens import BOX_PINK, Supply, Tokens, give_back, pay, unlimited_tokens

PARTY = {"edition": "party"}


def party(hands: list[str], discard: str = "3", **kwargs: Any) -> Any:
    options = {**PARTY, **kwargs.pop("options", {})}
    return build(hands, discard, options=options, **kwargs)


def points(text: str) -> int:
    return party_penalty(hand_from_cards(party_card_from_text(card) for card in cards(text)))


# -- components and setup -------------------------------------------------------------------------------------


@pytest.mark.parametrize("num_players", [2, 4, 6])
def test_the_56_cards_and_the_deal(num_players: int) -> None:
    """Components: seven of each number and one plus card of each, seven llamas and the pink llama; six each."""
    state = GAME.new_game(num_players, seed=num_players, options=PARTY)
    data = state.to_json()
    everything = Counter([*(c for hand in data["hands"] for c in hand), *data["draw_pile"], *data["discard_pile"]])
    assert everything == PARTY_DECK and sum(everything.values()) == 56
    assert all(len(hand) == 6 for hand in data["hands"]) and len(data["discard_pile"]) == 1


def test_the_classic_game_is_the_default_and_unchanged() -> None:
    """Option: ``edition`` defaults to ``classic``, whose deck has no plus cards and no pink llama."""
    state = GAME.new_game(4, seed=4)
    assert state.options["edition"] == "classic" and not state.party
    data = state.to_json()
    assert not {"1+", "2+", "3+", "4+", "5+", "6+", "P"} & {*data["draw_pile"], *(c for h in data["hands"] for c in h)}


# -- plus cards -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("top", "allowed"), [("2", True), ("3", True), ("2+", True), ("4", False), ("L", False)])
def test_a_plus_card_goes_where_its_number_goes(top: str, allowed: bool) -> None:
    """Plus card: a 3+ may be played where a 3 may (on a 2 or a 3, or a 2+), nowhere else."""
    state = party(["3+5", "11"], discard=top)
    assert ("play 3+" in legal(state)) is allowed


@pytest.mark.parametrize(("top", "follows"), [("3+", ["play 3", "play 4"]), ("6+", ["play 6", "play L"])])
def test_what_follows_a_plus_card_is_what_follows_its_number(top: str, follows: list[str]) -> None:
    """Plus card: it counts as its number for what may be played on it."""
    state = party(["1234566L", "11"], discard=top)
    assert [a for a in legal(state) if a.startswith("play")] == follows


def test_a_plus_card_gives_another_turn_at_once() -> None:
    """Plus card: whoever plays one takes another turn at once, with the plus card now on top."""
    state = party(["3+45", "11", "22"], discard="3")
    after = play(state, "play 3+")
    assert after.current_player == 0 and after.top_card == "3+"
    assert legal(after) == ["play 4", "draw", "quit"]
    assert play(after, "play 4").current_player == 1  # an ordinary card ends the turn


def test_another_turn_may_draw_or_quit() -> None:
    """Plus card: the extra turn is a whole turn: play, draw or quit as usual."""
    state = party(["3+45", "11", "22"], discard="3")
    after = play(state, "play 3+")
    drawn = play(after, "draw")
    assert drawn.current_player == 1 and drawn.hand_sizes()[0] == 3
    quit_ = play(after, "quit")
    assert quit_.current_player == 1 and quit_.has_quit(0)


def test_nothing_to_play_after_a_plus_card_means_draw_or_quit() -> None:
    """Plus card: if nothing can follow it, the player must draw or quit."""
    state = party(["3+66", "11"], discard="2")
    after = play(state, "play 3+")
    assert after.current_player == 0 and legal(after) == ["draw", "quit"]


def test_plus_cards_chain() -> None:
    """Plus card: another plus card in the extra turn gives yet another turn."""
    state = party(["3+4+45", "11"], discard="3")
    state = play(state, "play 3+", "play 4+")
    assert state.current_player == 0 and state.top_card == "4+"
    state = play(state, "play 5")
    assert state.current_player == 1


def test_a_plus_card_as_the_last_card_ends_the_round() -> None:
    """Plus card: playing it as the last card ends the round at once, as any last card does."""
    state = party(["3+", "2L", "44"], discard="3", scores=[12, 0, 0])
    after = play(state, "play 3+")
    result = after.last_round
    assert result is not None and result.emptied == 0 and result.ended_by == 0
    assert result.penalties == (0, 12, 4) and after.round == 2 and result.returned == 10


def test_a_plus_card_turned_up_gives_nobody_another_turn() -> None:
    """Plus card: as the first card of the discard pile it is only its number."""
    state = party(["45", "11"], discard="4+")
    assert legal(state) == ["play 4", "play 5", "draw", "quit"]
    assert play(state, "play 4").current_player == 1


def test_the_lone_player_keeps_the_extra_turn_without_drawing() -> None:
    """Plus card: when everyone else has quit, the lone player still takes the extra turn, and may not draw."""
    state = party(["3+5", "11", "22"], discard="3", quit=(1, 2))
    after = play(state, "play 3+")
    assert after.current_player == 0 and legal(after) == ["quit"]


# -- the pink llama ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("top", ["1", "3", "6", "L", "2+", "6+"])
def test_the_pink_llama_goes_on_any_card(top: str) -> None:
    """Pink llama: it may be played on any card."""
    state = party(["P4", "11"], discard=top)
    assert "play P" in legal(state)


@pytest.mark.parametrize("discard", ["4P", "P"])
def test_only_a_llama_or_a_1_follows_the_pink_llama(discard: str) -> None:
    """Pink llama: only a llama or a 1 (a 1+ too) may follow it, also when it is the first card turned up."""
    state = party(["11+2345L", "22"], discard=discard)
    assert legal(state) == ["play 1", "play L", "play 1+", "draw", "quit"]


def test_the_pink_llama_ends_the_turn() -> None:
    """Pink llama: it is no plus card; play passes left."""
    state = party(["P3", "L1"], discard="5")
    after = play(state, "play P")
    assert after.current_player == 1 and after.top_card == "P"


def test_the_pink_llama_as_the_last_card_ends_the_round() -> None:
    state = party(["P", "3"], discard="5", scores=[25, 0])
    after = play(state, "play P")
    result = after.last_round
    assert result is not None and result.emptied == 0 and result.returned == 20 and after.scores == (5, 3)


# -- scoring ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "penalty"),
    [("P", 20), ("PL", 20), ("PLL3", 23), ("L", 10), ("33+", 3), ("3+", 3), ("123456P", 41), ("1+2+3+4+5+6+PL", 41)],
)
def test_penalties(hand: str, penalty: int) -> None:
    """Scoring: a plus card counts as its number (once with it); the llama group counts 10, or 20 with the pink
    llama in it (ruling: not 30); the most a round can cost is 1+2+3+4+5+6+20 = 41."""
    assert points(hand) == penalty


def test_penalty_of_every_set_of_cards_held() -> None:
    """Scoring: whatever cards are held, with one copy or all of them, each value counts once (a plus card as its
    number), the llama group 10, or 20 with the pink llama."""
    for held in range(1 << 14):
        kinds = [card for card in range(14) if held >> card & 1]
        values = {card - PLUS if PLUS <= card < PINK else card for card in kinds} - {6, PINK}
        llamas = 20 if PINK in kinds else 10 if 6 in kinds else 0
        expected = sum(value + 1 for value in values) + llamas
        assert party_penalty(hand_from_cards(kinds)) == expected
        assert party_penalty(hand_from_cards(card for card in kinds for _ in range(PARTY_COPIES[card]))) == expected


@pytest.mark.parametrize(("total", "returned"), [(0, 0), (5, 1), (10, 10), (19, 10), (20, 20), (35, 20)])
def test_the_emptier_returns_the_largest_token(total: int, returned: int) -> None:
    """Return: with tokens exchangeable at any time the best return is a pink (20) from 20 points up, a black
    (10) from 10, else a white (1)."""
    result = score_round(1, [0, hand_from_cards([3])], (total, 0), ended_by=0, party=True)
    assert result.returned == returned and result.scores[0] == total - returned


def test_a_round_in_a_whole_game_scores_the_party_way() -> None:
    """Scoring: the engine's round end uses the Party Edition's penalties."""
    state = party(["5", "PL33+", "1+1"], discard="4", scores=[0, 0, 0])
    result = play(state, "play 5").last_round
    assert result is not None and result.penalties == (0, 23, 1)


# -- tokens ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("total", "shown"), [(47, (2, 0, 7)), (35, (1, 1, 5)), (19, (0, 1, 9)), (40, (2, 0, 0))])
def test_unlimited_tokens_show_pinks(total: int, shown: tuple[int, int, int]) -> None:
    """Tokens: with an unlimited supply a total shows as the fewest tokens: pinks (20), a black (10), whites."""
    tokens = unlimited_tokens(total, party=True)
    assert (tokens.pink, tokens.black, tokens.white) == shown and tokens.points == total


def test_observations_show_pink_tokens_only_in_the_party_edition() -> None:
    party_view = GAME.new_game(3, seed=1, options=PARTY).observation(0)
    classic_view = GAME.new_game(3, seed=1).observation(0)
    assert all("pink" in tokens for tokens in party_view["tokens"])
    assert all("pink" not in tokens for tokens in classic_view["tokens"])


def test_boxed_pink_llama_is_paid_with_a_pink_token() -> None:
    """Tokens (boxed): the llama group with the pink llama is paid with a pink token, the numbers in whites."""
    state = party(["5", "PL3", "11"], discard="4", options={"token_supply": "boxed"})
    after = play(state, "play 5")
    assert after.tokens_of(1) == Tokens(white=3, black=0, owed=0, pink=1)
    assert after.supply is not None and after.supply.pink == BOX_PINK - 1


def test_boxed_missing_pink_is_paid_in_blacks() -> None:
    supply, held = pay(Supply(white=50, black=20, pink=0), Tokens(), white=3, black=0, pink=1)
    assert held == Tokens(white=3, black=2, owed=0, pink=0) and supply.black == 18


def test_boxed_two_blacks_are_exchanged_for_a_pink() -> None:
    supply, held = pay(Supply(white=50, black=19, pink=6), Tokens(black=1), white=0, black=1)
    assert held == Tokens(white=0, black=0, owed=0, pink=1) and supply == Supply(white=50, black=20, pink=5)


def test_boxed_return_gives_back_a_pink() -> None:
    supply, held = give_back(Supply(pink=5), Tokens(white=2, black=1, pink=1), 20)
    assert held == Tokens(white=2, black=1, owed=0, pink=0) and supply.pink == 6
    supply, held = give_back(Supply(pink=0), Tokens(white=2, black=1, pink=0, owed=12), 20)  # no pink to give
    assert held.points == 4 and held.black == 0


# -- notation and states ---------------------------------------------------------------------------------------


def test_action_texts_and_indices() -> None:
    """Notation: ``play 1+`` .. ``play 6+`` are indices 9..14 and ``play P`` 15; the classic indices stay."""
    assert [GAME.action_from_index(i).text for i in range(9, 16)] == [
        "play 1+",
        "play 2+",
        "play 3+",
        "play 4+",
        "play 5+",
        "play 6+",
        "play P",
    ]
    assert GAME.parse_action(" PLAY  p ") is GAME.action_from_index(15)
    assert GAME.parse_action("play 4+").card == PLUS + 3 and GAME.parse_action("play P").card == PINK
    assert [str(GAME.action_from_index(i)) for i in range(9)][-3:] == ["play L", "draw", "quit"]


def test_illegal_party_actions_say_why() -> None:
    state = party(["3+5", "11"], discard="5")
    with pytest.raises(IllegalActionError, match="a 3\\+ cannot go on a 5"):
        state.apply("play 3+")
    with pytest.raises(IllegalActionError, match="you hold no P"):
        state.apply("play P")


def test_states_of_the_wrong_deck_are_refused() -> None:
    """States: a Party Edition state must hold its own 56 cards; a classic state knows no plus card."""
    data = party(["3+5", "11"]).to_json()
    data["draw_pile"][0] = "3"
    with pytest.raises(StateError, match="seven of each number"):
        GAME.from_json(data)
    classic = build(["35", "11"]).to_json()
    classic["draw_pile"][0] = "3+"
    with pytest.raises(StateError, match="not a card"):
        GAME.from_json(classic)


def test_a_whole_party_game_replays_from_its_json() -> None:
    state = GAME.new_game(5, seed=99, options={**PARTY, "token_supply": "boxed"})
    moves = 0
    while not state.is_over:
        state = state.apply(state.legal_actions()[0])
        moves += 1
        assert GAME.from_json(state.to_json()) == state
    assert moves > 10 and state.winners
