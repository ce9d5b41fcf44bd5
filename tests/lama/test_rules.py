"""Scenario tests for every rule and ruling of ``shared/rules/lama.md``, built from JSON states.

Cards are written as in the rules (``1``-``6``, ``L``); a hand or pile is a string of cards (``"4443L"``), and a
pile lists its bottom card first except the draw pile, which lists its top card first (as in ``to_json``).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

import laro
from laro.core import IllegalActionError, MalformedActionError, StateError, validate_options
from laro.games.lama import GAME, LamaState
from laro.games.lama.cards import hand_from_cards, penalty
from laro.games.lama.scoring import score_round
from laro.games.lama.tokens import BOX_BLACK, BOX_PINK, BOX_WHITE, Supply, Tokens, give_back, pay, unlimited_tokens

CARDS = "123456L"
FULL_DECK = Counter({card: 8 for card in CARDS})
PARTY_ORDER = ["1", "1+", "2", "2+", "3", "3+", "4", "4+", "5", "5+", "6", "6+", "L", "P"]
PARTY_DECK = Counter({card: 7 for card in CARDS}) + Counter(["1+", "2+", "3+", "4+", "5+", "6+", "P"])


def cards(text: str) -> list[str]:
    """The cards of a string: ``"33+PL"`` is a 3, a 3+, the pink llama and a llama."""
    return re.findall(r"[1-6]\+?|L|P", text)


def build(
    hands: list[str],
    discard: str = "3",
    draw: str | None = None,
    *,
    draw_top: str = "",
    current: int = 0,
    quit: tuple[int, ...] = (),
    scores: list[int] | None = None,
    options: dict[str, Any] | None = None,
    starter: int | None = None,
    last_player: int | None = None,
    round: int = 1,
    seed: int = 1,
    tokens: list[dict[str, int]] | None = None,
    supply: dict[str, int] | None = None,
) -> LamaState:
    """A valid L.A.M.A. state. ``draw_top`` goes on top of the draw pile; the cards not placed anywhere fill the
    draw pile below it, or, when ``draw`` gives the whole draw pile, go under the discard pile."""
    n = len(hands)
    party = (options or {}).get("edition") == "party"
    deck = PARTY_DECK if party else FULL_DECK
    placed = Counter(cards("".join(hands))) + Counter(cards(discard)) + Counter(cards(draw_top))
    placed += Counter(cards(draw or ""))
    assert not placed - deck, f"more copies of a card than the deck has: {placed - deck}"
    rest = sorted((deck - placed).elements(), key=PARTY_ORDER.index)
    if draw is None:
        draw_pile, discard_pile = [*cards(draw_top), *rest], cards(discard)
    else:
        draw_pile, discard_pile = [*cards(draw_top), *cards(draw)], [*rest, *cards(discard)]
    scores = scores or [0] * n
    data: dict[str, Any] = {
        "game": "lama",
        "rules_version": GAME.rules_version,
        "num_players": n,
        "options": validate_options(GAME.option_specs, options),
        "seed": seed,
        "round": round,
        "hands": [sorted(cards(hand), key=PARTY_ORDER.index) for hand in hands],
        "draw_pile": draw_pile,
        "discard_pile": discard_pile,
        "current_player": current,
        "starter": current if starter is None else starter,
        "last_player": last_player,
        "quit": [seat in quit for seat in range(n)],
        "scores": scores,
        "last_round": None,
        "winners": [],
    }
    if data["options"]["token_supply"] == "boxed":
        data["tokens"] = tokens or [unlimited_tokens(score, party).to_json(party) for score in scores]
        data["supply"] = supply or {
            "white": BOX_WHITE - sum(t["white"] for t in data["tokens"]),
            "black": BOX_BLACK - sum(t["black"] for t in data["tokens"]),
        }
        if party and "pink" not in data["supply"]:
            data["supply"]["pink"] = BOX_PINK - sum(t.get("pink", 0) for t in data["tokens"])
    return GAME.from_json(data)


def legal(state: LamaState) -> list[str]:
    return [str(action) for action in state.legal_actions()]


def play(state: LamaState, *actions: str) -> LamaState:
    for action in actions:
        state = state.apply(action)
    return state


def hands_of(state: LamaState) -> list[str]:
    return ["".join(hand) for hand in state.to_json()["hands"]]


def card_counts(data: dict[str, Any]) -> Counter[str]:
    return Counter([*(c for hand in data["hands"] for c in hand), *data["draw_pile"], *data["discard_pile"]])


# -- the builder itself ---------------------------------------------------------------------------------------


def test_builder_makes_full_valid_states() -> None:
    """The helper: every state it builds holds the 56 cards and round-trips through JSON."""
    state = build(["4443L", "12"], discard="56", draw="", current=1)
    data = state.to_json()
    assert card_counts(data) == FULL_DECK
    assert data["draw_pile"] == [] and data["discard_pile"][-2:] == ["5", "6"]
    assert GAME.from_json(data).to_json() == data


def _lose_a_card(data: dict[str, Any]) -> None:
    data["draw_pile"].pop()


def _empty_discard(data: dict[str, Any]) -> None:
    data["draw_pile"] += data["discard_pile"]
    data["discard_pile"] = []


def _not_a_card(data: dict[str, Any]) -> None:
    data["draw_pile"][0] = "X"


def _set(**changes: Any) -> Callable[[dict[str, Any]], None]:
    return lambda data: data.update(changes)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (_lose_a_card, "eight of each"),
        (_empty_discard, "discard pile cannot be empty"),
        (_not_a_card, "not a card"),
        (_set(current_player=1, quit=[False, True]), "current player must be in the round"),
        (_set(current_player=5), "seat"),
        (_set(current_player=None), "needs its winners"),
        (_set(winners=[0]), "no winners"),
        (_set(quit=[False]), "one entry per seat"),
        (_set(num_players=7), "2 to 6 players"),
        (_set(options={"end_score": 0}), "at least 1"),
        (_set(game="kamara"), "not L.A.M.A."),
        (_set(scores=[-1, 0]), "at least 0"),
    ],
)
def test_invalid_states_are_refused(change: Callable[[dict[str, Any]], None], message: str) -> None:
    """State: a JSON state that breaks the rules' invariants is refused with StateError saying why."""
    data = build(["4", "2"]).to_json()
    change(data)
    with pytest.raises(StateError, match=message):
        GAME.from_json(data)


# -- setup ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("num_players", [2, 3, 4, 5, 6])
def test_setup_deals_six_each_and_turns_one_card_up(num_players: int) -> None:
    """Setup: 56 cards shuffled, 6 dealt to each player, the top card of the rest starts the discard pile."""
    state = GAME.new_game(num_players, seed=5)
    data = state.to_json()
    assert [len(hand) for hand in data["hands"]] == [6] * num_players
    assert len(data["discard_pile"]) == 1
    assert len(data["draw_pile"]) == 56 - 6 * num_players - 1 == state.draw_pile_count
    assert card_counts(data) == FULL_DECK
    assert data["round"] == 1 and data["scores"] == [0] * num_players and not any(data["quit"])


def test_first_player_is_seeded_random() -> None:
    """Setup: the first round is started by a randomly chosen player, the same for the same seed."""
    starters = [GAME.new_game(4, seed=seed).current_player for seed in range(60)]
    assert starters == [GAME.new_game(4, seed=seed).current_player for seed in range(60)]
    assert set(starters) == {0, 1, 2, 3}
    for seed in range(10):
        state = GAME.new_game(4, seed=seed)
        assert state.starter == state.current_player


def test_deal_varies_with_seed_and_repeats_with_same_seed() -> None:
    """Setup: the shuffle is seeded: same seed, same deal; different seeds, different deals."""
    deals = [GAME.new_game(3, seed=seed).to_json() for seed in range(20)]
    assert deals[4] == GAME.new_game(3, seed=4).to_json()
    assert len({str((d["hands"], d["draw_pile"], d["discard_pile"])) for d in deals}) == 20


@pytest.mark.parametrize("num_players", [2, 6])
def test_two_and_six_players_play_whole_games(num_players: int) -> None:
    """Players: 2 and 6 players (the limits) play whole games to the end."""
    rng = random.Random(num_players)
    for seed in range(5):
        state = GAME.new_game(num_players, seed=seed)
        while not state.is_over:
            assert state.current_player in range(num_players)
            state = state.apply(rng.choice(state.legal_actions()))
        assert state.winners and max(state.scores) >= 40


# -- a turn: play ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("top", ["1", "2", "3", "4", "5"])
def test_play_on_a_number_same_or_one_higher(top: str) -> None:
    """Play: on a 1-5 a card of the same value or one higher may be played, nothing else."""
    state = build(["123456L", "1"], discard=top)
    plays = [action for action in legal(state) if action.startswith("play")]
    assert plays == [f"play {top}", f"play {int(top) + 1}"]
    for card in "123456L":
        if f"play {card}" not in plays:
            with pytest.raises(IllegalActionError):
                state.apply(f"play {card}")


def test_play_on_a_six_six_or_llama() -> None:
    """Play: on a 6 only a 6 or a llama may be played."""
    state = build(["123456L", "1"], discard="6")
    assert [a for a in legal(state) if a.startswith("play")] == ["play 6", "play L"]


def test_play_on_a_llama_llama_or_one() -> None:
    """Play: on a llama only a llama or a 1 may be played."""
    state = build(["123456L", "1"], discard="L")
    assert [a for a in legal(state) if a.startswith("play")] == ["play 1", "play L"]


def test_llama_as_first_discard_needs_no_special_case() -> None:
    """Setup: a llama turned up as the first discard works like any llama on the pile."""
    state = build(["1L2", "33"], discard="L")
    assert legal(state) == ["play 1", "play L", "draw", "quit"]


def test_only_cards_in_hand_are_playable() -> None:
    """Play: a card the player does not hold cannot be played, even if it would fit."""
    state = build(["4", "4"], discard="3")
    assert legal(state) == ["play 4", "draw", "quit"]
    with pytest.raises(IllegalActionError, match="hold no 3"):
        state.apply("play 3")


def test_play_moves_the_card_onto_the_discard_pile() -> None:
    """Play: the card leaves the hand and becomes the top of the discard pile; play passes left."""
    state = build(["445", "11", "22"], discard="3", current=0)
    after = state.apply("play 4")
    assert hands_of(after) == ["45", "11", "22"]
    assert after.to_json()["discard_pile"][-2:] == ["3", "4"] and after.top_card == "4"
    assert after.current_player == 1
    assert after.to_json()["draw_pile"] == state.to_json()["draw_pile"]


# -- a turn: draw ---------------------------------------------------------------------------------------------


def test_draw_takes_the_top_card_and_ends_the_turn() -> None:
    """Draw: the top card of the draw pile goes into the hand; nothing is played; the turn passes left."""
    state = build(["45", "11", "22"], discard="3", draw_top="L6")
    after = state.apply("draw")
    assert hands_of(after)[0] == "45L"
    assert after.to_json()["draw_pile"] == state.to_json()["draw_pile"][1:]
    assert after.to_json()["discard_pile"] == state.to_json()["discard_pile"]
    assert after.current_player == 1
    assert after.draw_pile_count == state.draw_pile_count - 1


def test_draw_not_allowed_with_an_empty_draw_pile() -> None:
    """Draw: not allowed when the draw pile is empty; the discard pile is never reshuffled into it."""
    state = build(["45", "11", "22"], discard="3", draw="")
    assert state.draw_pile_count == 0
    assert "draw" not in legal(state)
    with pytest.raises(IllegalActionError, match="draw pile is empty"):
        state.apply("draw")
    after = play(state, "play 4", "quit", "quit", "play 5")  # seat 0 empties its hand
    assert after.round == 2  # the round ended normally; nothing was reshuffled before that
    for seat_state in (state.apply("play 4"), state.apply("play 4").apply("quit")):
        assert "draw" not in legal(seat_state) and seat_state.draw_pile_count == 0


def test_last_card_of_the_draw_pile_can_be_drawn_then_no_more() -> None:
    """Draw: the last card of the draw pile may be drawn; after it, drawing is no longer allowed."""
    state = build(["45", "11"], discard="3", draw="6")
    after = state.apply("draw")
    assert hands_of(after)[0] == "456" and after.draw_pile_count == 0
    assert legal(after) == ["quit"]  # seat 1 holds only 1s on a 3
    assert "draw" not in legal(after.apply("quit"))


def test_drawing_until_the_pile_is_empty_in_a_real_game() -> None:
    """Draw: in a dealt game, drawing every turn empties the draw pile; then drawing stops being allowed."""
    for num_players in (2, 4, 6):
        state = GAME.new_game(num_players, seed=num_players)
        discard = state.to_json()["discard_pile"]
        while "draw" in legal(state):
            state = state.apply("draw")
        assert state.round == 1 and state.draw_pile_count == 0 and state.to_json()["draw_pile"] == []
        assert state.to_json()["discard_pile"] == discard  # never reshuffled
        assert state.observation(0)["draw_pile_count"] == 0
        with pytest.raises(IllegalActionError, match="draw pile is empty"):
            state.apply("draw")
        assert sum(len(hand) for hand in state.to_json()["hands"]) == 56 - 1


def test_draw_not_allowed_when_every_other_player_has_quit() -> None:
    """Draw: not allowed when every other player has quit this round."""
    state = build(["45", "11", "22"], discard="3", quit=(1, 2))
    assert state.draw_pile_count > 0
    assert legal(state) == ["play 4", "quit"]
    with pytest.raises(IllegalActionError, match="every other player has quit"):
        state.apply("draw")


def test_draw_allowed_while_one_other_player_remains() -> None:
    """Draw: allowed as long as at least one other player is still in the round."""
    state = build(["45", "11", "22"], discard="3", quit=(1,))
    assert "draw" in legal(state)


def test_draw_and_quit_allowed_while_a_card_is_playable() -> None:
    """Turn: drawing or quitting is allowed even when a card could be played."""
    state = build(["34", "11"], discard="3")
    assert legal(state) == ["play 3", "play 4", "draw", "quit"]
    assert hands_of(state.apply("draw"))[0] == "134"  # the draw pile starts with the leftover 1s
    assert state.apply("quit").has_quit(0)


def test_nothing_playable_but_may_draw() -> None:
    """Turn: a player with no playable card may draw or quit."""
    state = build(["11", "22"], discard="5")
    assert legal(state) == ["draw", "quit"]


def test_nothing_playable_and_no_draw_means_quit() -> None:
    """Turn: a player who holds no playable card and may not draw must quit."""
    empty_pile = build(["11", "22"], discard="5", draw="")
    others_quit = build(["11", "22", "33"], discard="5", quit=(1, 2))
    for state in (empty_pile, others_quit):
        assert legal(state) == ["quit"]
        for action in ("play 1", "draw", "play 5", "play 6"):
            with pytest.raises(IllegalActionError):
                state.apply(action)


# -- a turn: quit ---------------------------------------------------------------------------------------------


def test_quit_lays_the_hand_down_and_skips_the_player() -> None:
    """Quit: the hand is laid down (kept for scoring) and the player takes no further turn this round."""
    state = build(["45", "11", "22"], discard="3", current=0)
    after = state.apply("quit")
    assert after.has_quit(0) and after.to_json()["quit"] == [True, False, False]
    assert hands_of(after) == ["45", "11", "22"]  # laid down, not discarded
    assert after.current_player == 1
    after = play(after, "draw", "draw")  # seat 1, seat 2; seat 0 is skipped
    assert after.current_player == 1
    ended = play(after, "quit", "quit")
    assert ended.last_round is not None and ended.last_round.penalties[0] == 4 + 5


def test_quit_allowed_with_any_hand() -> None:
    """Quit: always one of the legal actions while the player is in the round."""
    for hand in ("1", "123456L", "LL"):
        for top in "123456L":
            assert "quit" in legal(build([hand, "2"], discard=top))


def test_turn_order_passes_left_and_wraps_around() -> None:
    """Turn order: play passes to the left (seat + 1), from the last seat back to seat 0."""
    state = build(["11", "11", "11", "11"], discard="5", current=2)
    assert [s.current_player for s in (state, state.apply("draw"), play(state, "draw", "draw"))] == [2, 3, 0]


def test_turn_order_skips_quitters() -> None:
    """Turn order: players who quit this round are skipped."""
    state = build(["11", "22", "11", "22", "33"], discard="5", current=0, quit=(1, 3))
    assert state.apply("draw").current_player == 2
    assert play(state, "draw", "draw").current_player == 4
    assert play(state, "draw", "draw", "draw").current_player == 0


def test_lone_remaining_player_keeps_taking_turns() -> None:
    """Round: if all players but one have quit, the remaining player keeps taking turns (play or quit, no draw)."""
    state = build(["345", "11", "22"], discard="3", current=1, quit=(2,))
    state = state.apply("quit")  # now only seat 0 is left
    assert state.current_player == 0 and legal(state) == ["play 3", "play 4", "quit"]
    state = state.apply("play 4")
    assert state.current_player == 0 and legal(state) == ["play 5", "quit"]
    state = state.apply("play 5")
    assert state.current_player == 0 and legal(state) == ["quit"]  # holds a 3 on a 5, may not draw
    ended = state.apply("quit")
    assert ended.round == 2 and ended.last_round is not None
    assert ended.last_round.ended_by == 0 and ended.last_round.emptied is None


def test_lone_player_emptying_their_hand_ends_the_round() -> None:
    """Round: the lone remaining player ends the round by playing their last card."""
    state = build(["4", "11", "22"], discard="3", quit=(1, 2))
    ended = state.apply("play 4")
    assert ended.round == 2 and ended.last_round is not None and ended.last_round.emptied == 0


# -- end of a round -------------------------------------------------------------------------------------------


def test_round_ends_at_once_when_a_hand_is_emptied() -> None:
    """Round end: the round ends at once when a player plays their last card, though others are still in."""
    state = build(["4", "55", "66L"], discard="3", scores=[3, 0, 0])
    ended = state.apply("play 4")
    result = ended.last_round
    assert result is not None
    assert result.round == 1 and result.emptied == 0 and result.ended_by == 0
    assert result.penalties == (0, 5, 16)
    assert result.returned == 1 and ended.scores == (2, 5, 16)
    assert ended.round == 2


def test_round_ends_when_every_player_has_quit() -> None:
    """Round end: the round ends when every player has quit; everyone scores their laid-down hand."""
    state = build(["45", "11", "2L"], discard="3", current=1)
    ended = play(state, "quit", "quit", "quit")
    result = ended.last_round
    assert result is not None
    assert result.emptied is None and result.ended_by == 0 and result.returned == 0
    assert result.penalties == (9, 1, 12) and ended.scores == (9, 1, 12)
    assert ended.round == 2


def test_round_result_is_recorded_in_the_state_and_observation() -> None:
    """Round end: the scored round (hands, penalties, who emptied, what was returned) is in the log."""
    ended = build(["4", "55"], discard="3", scores=[12, 0]).apply("play 4")
    logged = ended.to_json()["last_round"]
    assert logged == {
        "round": 1,
        "hands": [[], ["5", "5"]],
        "penalties": [0, 5],
        "emptied": 0,
        "ended_by": 0,
        "returned": 10,
        "scores": [2, 5],
    }
    assert ended.observation(1)["last_round"] == logged
    assert GAME.from_json(ended.to_json()).to_json() == ended.to_json()


# -- scoring --------------------------------------------------------------------------------------------------


def test_each_distinct_value_counts_once() -> None:
    """Scoring: each distinct value counts once, a number at face value, llamas 10 (4,4,4,3,L -> 17)."""
    assert penalty(hand_from_cards([3, 3, 3, 2, 6])) == 17
    ended = play(build(["4443L", "5"], discard="4", current=1), "play 5")
    assert ended.last_round is not None and ended.last_round.penalties == (17, 0)


def test_penalty_maximum_is_31() -> None:
    """Scoring: the maximum in one round is 1+2+3+4+5+6+10 = 31."""
    assert penalty(hand_from_cards([0, 1, 2, 3, 4, 5, 6, 6, 6, 0, 5])) == 31
    ended = play(build(["1234566LLL", "5"], discard="4", current=1), "play 5")
    assert ended.last_round is not None and ended.last_round.penalties == (31, 0)


def test_llamas_count_ten_once() -> None:
    """Scoring: any number of llamas counts 10 once."""
    for llamas in range(1, 9):
        assert penalty(hand_from_cards([6] * llamas)) == 10
    assert penalty(hand_from_cards([6, 6, 0])) == 11


def test_a_value_counts_once_with_any_number_of_copies() -> None:
    """Scoring: every set of values held, each with 1 to 8 copies, costs the values at face value and 10 for the
    llamas, once each."""
    for held in range(1 << 7):
        values = [card for card in range(7) if held >> card & 1]
        expected = sum(card + 1 for card in values if card < 6) + (10 if 6 in values else 0)
        for copies in range(1, 9):
            assert penalty(hand_from_cards(values * copies)) == expected


def test_scoring_needs_a_total_for_every_hand() -> None:
    with pytest.raises(ValueError, match="3 hands but 2 totals"):
        score_round(1, [0, 1, 1], (0, 0), ended_by=0)


@pytest.mark.parametrize(
    ("total", "returned", "after"),
    [(0, 0, 0), (1, 1, 0), (9, 1, 8), (10, 10, 0), (15, 10, 5), (39, 10, 29)],
)
def test_emptier_scores_nothing_and_returns_a_token(total: int, returned: int, after: int) -> None:
    """Scoring: who emptied their hand scores nothing and returns 10 if their total is >= 10, 1 if 1-9, else 0."""
    ended = build(["4", "55"], discard="3", scores=[total, 0]).apply("play 4")
    assert ended.last_round is not None
    assert ended.last_round.returned == returned and ended.last_round.penalties[0] == 0
    assert ended.scores == (after, 5)


def test_score_round_unit() -> None:
    """Scoring: score_round adds penalties, and only the emptier returns a token."""
    hands = [0, hand_from_cards([3, 3, 3, 2, 6]), hand_from_cards([0])]
    result = score_round(3, hands, (12, 5, 9), ended_by=0)
    assert result.penalties == (0, 17, 1) and result.returned == 10 and result.scores == (2, 22, 10)
    quit_all = score_round(3, [hand_from_cards([0])] * 3, (0, 0, 0), ended_by=1)
    assert quit_all.emptied is None and quit_all.returned == 0 and quit_all.scores == (1, 1, 1)


# -- next round -----------------------------------------------------------------------------------------------


def _round_with_a_play_then_quits(option: str) -> LamaState:
    """Seat 0 plays the last card of the round, then everyone quits; seat 2 quits last."""
    state = build(["44", "22", "55"], discard="3", options={"next_round_starter": option})
    return play(state, "play 4", "quit", "draw", "quit", "quit")


def test_next_round_starter_last_card_default() -> None:
    """Next round (default last_card): the player who played the last card starts, even if others quit later."""
    ended = _round_with_a_play_then_quits("last_card")
    assert ended.last_round is not None and ended.last_round.ended_by == 2
    assert ended.round == 2 and ended.current_player == 0 and ended.starter == 0
    assert GAME.new_game(3, seed=1).options["next_round_starter"] == "last_card"


def test_next_round_starter_last_card_when_nobody_played() -> None:
    """Next round (last_card): if nobody played a card that round, the player who ended it starts."""
    state = build(["11", "22", "11"], discard="5", current=1)
    ended = play(state, "quit", "draw", "quit", "quit")  # seat 1, seat 2 draws, seat 0, seat 2 quits last
    assert ended.last_round is not None and ended.last_round.ended_by == 2
    assert ended.current_player == 2


def test_next_round_starter_ended_round() -> None:
    """Next round (ended_round): the player who ended the round starts (quit last)."""
    ended = _round_with_a_play_then_quits("ended_round")
    assert ended.round == 2 and ended.current_player == 2


@pytest.mark.parametrize("option", ["last_card", "ended_round"])
def test_next_round_starter_after_emptying(option: str) -> None:
    """Next round (both options): the player who emptied their hand both played the last card and ended it."""
    state = build(["4", "22", "55"], discard="3", current=0, options={"next_round_starter": option})
    ended = play(state, "play 4")
    assert ended.current_player == 0


def test_new_round_reshuffles_all_cards_and_deals_again() -> None:
    """Next round: all 56 cards are reshuffled and dealt, 6 each, with a face-up discard; quits are reset."""
    state = build(["44", "LLLLLL", "123"], discard="3", current=0, quit=(2,), round=3, seed=99)
    ended = play(state, "play 4", "quit", "play 4")
    data = ended.to_json()
    assert data["round"] == 4
    assert [len(hand) for hand in data["hands"]] == [6, 6, 6]
    assert len(data["discard_pile"]) == 1 and len(data["draw_pile"]) == 56 - 18 - 1
    assert card_counts(data) == FULL_DECK
    assert data["quit"] == [False, False, False] and data["last_player"] is None
    assert ended.scores == (0, 10, 6)


def test_new_round_deal_depends_on_seed_and_round() -> None:
    """Next round: the new deal is seeded: the same for the same seed and round, different otherwise."""
    deals = []
    for seed, round_number in ((7, 1), (7, 1), (8, 1), (7, 2)):
        ended = build(["4", "22"], discard="3", seed=seed, round=round_number).apply("play 4")
        deals.append(ended.to_json()["hands"])
    assert deals[0] == deals[1] and deals[0] != deals[2] and deals[0] != deals[3]


# -- end of the game ------------------------------------------------------------------------------------------


def test_game_ends_when_a_total_reaches_40() -> None:
    """Game end: after a round is scored, the game ends if a total is 40 or more; fewest points win."""
    ended = build(["6", "5"], discard="5", scores=[0, 35]).apply("play 6")
    assert ended.is_over and ended.current_player is None and ended.legal_actions() == ()
    assert ended.scores == (0, 40) and ended.winners == (0,)
    assert ended.round == 1  # no new deal


def test_game_goes_on_below_40() -> None:
    """Game end: a total of 39 does not end the game; the next round is dealt."""
    ended = build(["6", "5"], discard="5", scores=[0, 34]).apply("play 6")
    assert not ended.is_over and ended.winners == () and ended.round == 2 and ended.scores == (0, 39)


def test_end_score_option() -> None:
    """Game end (option end_score): the game ends when a total reaches the chosen score."""
    default = build(["6", "5"], discard="5", scores=[0, 15]).apply("play 6")
    assert not default.is_over
    short = build(["6", "5"], discard="5", scores=[0, 15], options={"end_score": 20}).apply("play 6")
    assert short.is_over and short.winners == (0,) and short.options["end_score"] == 20


def test_return_counts_before_winners() -> None:
    """Game end: the emptier's returned token is applied before the winners are decided."""
    ended = build(["6", "5", "1"], discard="5", scores=[12, 35, 1]).apply("play 6")
    assert ended.is_over and ended.scores == (2, 40, 2) and ended.winners == (0, 2)


def test_end_is_checked_after_the_return() -> None:
    """Game end: the end is checked after the return, so a return that brings the total below 40 goes on."""
    # only reachable from a JSON state: in play the emptier's total is below the end score already
    ended = build(["6", "5"], discard="5", scores=[45, 0]).apply("play 6")
    assert not ended.is_over and ended.scores == (35, 5) and ended.round == 2


def test_fewest_points_win_and_ties_share() -> None:
    """Game end: the players with the fewest points win; equal totals share the win."""
    state = build(["5", "4", "5"], discard="1", scores=[4, 5, 35])
    ended = play(state, "quit", "quit", "quit")
    assert ended.is_over and ended.scores == (9, 9, 40) and ended.winners == (0, 1)


def test_finished_game_accepts_no_action() -> None:
    """Game end: once over, no action is legal and every action raises IllegalActionError."""
    ended = build(["6", "5"], discard="5", scores=[0, 35]).apply("play 6")
    for action in GAME.actions:
        with pytest.raises(IllegalActionError, match="game is over"):
            ended.apply(action)
    assert ended.observation(0)["is_over"] is True and ended.observation(1)["winners"] == [0]


# -- errors ---------------------------------------------------------------------------------------------------


def test_illegal_action_says_why_and_what_is_allowed() -> None:
    """Contract: an illegal action raises a ValueError naming the problem and the allowed actions."""
    state = build(["45", "11"], discard="3")
    before = state.to_json()
    with pytest.raises(ValueError, match=r"a 5 cannot go on a 3; allowed: play 4, draw, quit") as info:
        state.apply("play 5")
    assert isinstance(info.value, IllegalActionError)
    assert state.to_json() == before


@pytest.mark.parametrize("action", ["", "play", "play 7", "play 0", "take 3", "draws", 16, -1, None, 2.0, True])
def test_malformed_action_raises(action: Any) -> None:
    """Contract: an action text or index that names no action raises MalformedActionError."""
    state = build(["45", "11"], discard="3")
    with pytest.raises(MalformedActionError):
        state.apply(action)


@pytest.mark.parametrize("action", ["play 3+", "play P", 9, 15])
def test_party_edition_actions_are_illegal_in_the_classic_game(action: Any) -> None:
    """Notation: the Party Edition's actions (indices 9..15) name actions of the game, never legal in the classic
    edition, which says so."""
    state = build(["45", "11"], discard="3")
    with pytest.raises(IllegalActionError, match="the classic game has no plus cards and no pink llama"):
        state.apply(action)


def test_action_text_is_forgiving_about_case_and_spaces() -> None:
    """Notation: action texts are parsed regardless of case and extra spaces; l means the llama."""
    state = build(["4L", "11"], discard="6")
    assert play(state, " PLAY   l ").top_card == "L"
    assert laro.get_game("lama").parse_action("Quit") is GAME.parse_action("quit")


# -- token supply ---------------------------------------------------------------------------------------------


def _token_points(state: LamaState) -> list[int]:
    return [state.tokens_of(seat).points for seat in range(state.num_players)]


def test_unlimited_tokens_show_the_total() -> None:
    """Tokens (unlimited): a total S shows as S // 10 black and S % 10 white tokens."""
    ended = build(["4", "5L", "123456"], discard="3", scores=[0, 27, 3]).apply("play 4")
    assert ended.scores == (0, 42, 24)
    assert [ended.tokens_of(s).to_json() for s in range(3)] == [
        {"white": 0, "black": 0, "owed": 0},
        {"white": 2, "black": 4, "owed": 0},
        {"white": 4, "black": 2, "owed": 0},
    ]
    assert "tokens" not in ended.to_json()


def test_boxed_tokens_add_up_to_the_scores() -> None:
    """Tokens (boxed): after each round the tokens of every seat add up to its total."""
    state = build(["4", "5L", "1234"], discard="3", scores=[12, 9, 3], options={"token_supply": "boxed"})
    ended = state.apply("play 4")
    assert ended.scores == (2, 24, 13)
    assert _token_points(ended) == list(ended.scores)
    data = ended.to_json()
    assert data["tokens"][0] == {"white": 2, "black": 0, "owed": 0}  # returned the black token
    assert data["supply"]["white"] >= 0 and data["supply"]["black"] >= 0
    held_white = sum(t["white"] for t in data["tokens"])
    held_black = sum(t["black"] for t in data["tokens"])
    assert data["supply"]["white"] + held_white == BOX_WHITE
    assert data["supply"]["black"] + held_black == BOX_BLACK


def _boxed(hand: str, supply: dict[str, int], hoard: dict[str, int]) -> LamaState:
    """Seat 0 empties its hand; seat 1 pays for ``hand``; seat 2 holds ``hoard``, the rest of the box."""
    hoarded = hoard["white"] + 10 * hoard["black"]
    return build(
        ["4", hand, "1"],
        discard="3",
        scores=[0, 0, hoarded],
        options={"token_supply": "boxed", "end_score": 1000},
        tokens=[{"white": 0, "black": 0, "owed": 0}] * 2 + [{**hoard, "owed": 0}],
        supply=supply,
    )


def test_boxed_black_missing_paid_in_white() -> None:
    """Tokens (boxed): a llama the box has no black token for is paid with ten white tokens."""
    ended = _boxed("L", {"white": 20, "black": 0}, {"white": 30, "black": 20}).apply("play 4")
    assert ended.to_json()["tokens"][1] == {"white": 10, "black": 0, "owed": 0}
    assert ended.to_json()["supply"] == {"white": 9, "black": 0}  # seat 2 took a white for its 1


def test_boxed_white_missing_paid_in_black() -> None:
    """Tokens (boxed): ten points of numbers the box has no white tokens for are paid with a black token."""
    ended = _boxed("1234", {"white": 0, "black": 5}, {"white": 50, "black": 15}).apply("play 4")
    data = ended.to_json()
    assert data["tokens"][1] == {"white": 0, "black": 1, "owed": 0}
    # the box had no white for seat 2's 1; its exchange of whites for blacks refilled the box, so it settled
    assert data["tokens"][2]["owed"] == 0
    assert _token_points(ended) == list(ended.scores)


def test_boxed_empty_box_records_points_owed() -> None:
    """Tokens (boxed): what the box cannot cover in either colour is recorded as points owed."""
    ended = _boxed("4L", {"white": 3, "black": 0}, {"white": 47, "black": 20}).apply("play 4")
    data = ended.to_json()
    assert data["tokens"][1] == {"white": 3, "black": 0, "owed": 11}
    assert data["supply"] == {"white": 0, "black": 0}
    assert ended.scores[1] == 14 and _token_points(ended) == list(ended.scores)


def test_boxed_supply_and_tokens_round_trip() -> None:
    """Tokens (boxed): tokens and supply are part of the JSON state and restored exactly."""
    state = GAME.new_game(3, seed=4, options={"token_supply": "boxed"})
    assert state.to_json()["supply"] == {"white": BOX_WHITE, "black": BOX_BLACK}
    rng = random.Random(3)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
        assert GAME.from_json(state.to_json()).to_json() == state.to_json()
        assert _token_points(state) == list(state.scores)


def test_tokens_pay_unit() -> None:
    """Tokens: pay takes whites and blacks from the box, falls back to the other colour, then owes."""
    assert pay(Supply(), Tokens(), white=7, black=1) == (Supply(43, 19), Tokens(7, 1, 0))
    assert pay(Supply(white=10, black=0), Tokens(), white=0, black=1) == (Supply(0, 0), Tokens(10, 0, 0))
    assert pay(Supply(white=0, black=3), Tokens(), white=15, black=0) == (Supply(0, 2), Tokens(0, 1, 5))
    assert pay(Supply(white=0, black=0), Tokens(1, 1, 2), white=4, black=1) == (Supply(0, 0), Tokens(1, 1, 16))
    # ten whites in front of a seat are exchanged for a black while the box has one
    assert pay(Supply(white=40, black=5), Tokens(white=8), white=5, black=0) == (Supply(45, 4), Tokens(3, 1, 0))


def test_tokens_give_back_unit() -> None:
    """Tokens: a return gives back a black if held, else whites, else reduces the points owed."""
    assert give_back(Supply(10, 0), Tokens(3, 2, 0), 10) == (Supply(10, 1), Tokens(3, 1, 0))
    assert give_back(Supply(0, 0), Tokens(12, 0, 0), 10) == (Supply(10, 0), Tokens(2, 0, 0))
    assert give_back(Supply(0, 0), Tokens(3, 0, 9), 10) == (Supply(3, 0), Tokens(0, 0, 2))
    assert give_back(Supply(0, 0), Tokens(0, 0, 4), 1) == (Supply(0, 0), Tokens(0, 0, 3))
    assert give_back(Supply(5, 0), Tokens(2, 0, 0), 1) == (Supply(6, 0), Tokens(1, 0, 0))


def test_unlimited_tokens_unit() -> None:
    """Tokens: with an unlimited supply the total shows as blacks and whites, nothing owed."""
    assert unlimited_tokens(0) == Tokens(0, 0, 0)
    assert unlimited_tokens(47) == Tokens(7, 4, 0) and unlimited_tokens(47).points == 47
