"""Reading the other L.A.M.A. hands from their draws and quits, and determinisations that follow the reading."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from laro.bots.base import get_bot
from laro.bots.lama_judge import LamaJudge
from laro.bots.lama_reading import Reading
from laro.core.errors import StateError
from laro.games.lama import GAME, LamaState
from laro.games.lama.cards import CARD_TEXT, NUM_KINDS, card_from_text, party_card_from_text
from laro.games.lama.sampling import sampler


def _fits(masks: list[int], hand: list[str], party: bool = False) -> bool:
    """Whether the cards of ``hand`` can be laid on the limited cards ``masks`` (each card at most once). The
    masks are nested (an older card's limits include a newer one's), so the narrowest ``k`` cards need at least
    ``k`` cards among the values the ``k``-th of them may be."""
    kinds = [(party_card_from_text if party else card_from_text)(text) for text in hand]
    for k, mask in enumerate(sorted(masks, key=lambda m: -m.bit_count()), start=1):
        if sum(1 for kind in kinds if not (mask >> kind) & 1) < k:
            return False
    return True


def _heuristic_decisions(players: int, seed: int, edition: str = "classic") -> list[tuple[LamaState, Reading | None]]:
    """Every decision of seat 0 in a game of heuristic bots, with the reading it has followed so far."""
    state = GAME.new_game(players, seed=seed, options={"edition": edition})
    bots = [get_bot("heuristic", "lama") for _ in range(players)]
    rng = random.Random(seed)
    reading: Reading | None = None
    seen = []
    while not state.is_over:
        seat = state.current_player or 0
        observation = state.observation(seat)
        if seat == 0:
            reading = Reading.follow(reading, observation)
            seen.append((state, reading))
        state = state.apply(bots[seat].choose(observation, state.legal_actions(), rng))
    return seen


@pytest.mark.parametrize("edition", ["classic", "party"])
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_the_reading_of_careful_players_is_always_true(players: int, edition: str) -> None:
    """Against bots that play whenever they can, every decision has a reading, and the hands really held fit it."""
    limited = 0
    for seed in range(6):
        for state, reading in _heuristic_decisions(players, seed, edition):
            assert reading is not None
            for other in range(1, players):
                masks = reading.excluded[other]
                limited += len(masks)
                assert len(masks) <= len(state.hand(other))
                assert _fits(masks, state.hand(other), party=edition == "party")
            assert reading.excluded[0] == []
    assert limited > 50 * players  # the reading does say something


def test_a_draw_rules_out_the_top_and_the_next() -> None:
    state = GAME.new_game(3, seed=5)
    first = state.current_player or 0
    top = card_from_text(state.top_card)
    state = state.apply("draw")
    reader = state.current_player or 0
    reading = Reading.follow(None, state.observation(reader))
    assert reading is not None
    ruled_out = (1 << top) | (1 << (top + 1) % NUM_KINDS)
    assert reading.excluded[first] == [ruled_out] * 6  # the new card is open
    assert reading.slots[first][-1] == 0


def test_a_played_card_takes_the_most_limited_card_it_may_be() -> None:
    reading = Reading(
        seat=0,
        round=1,
        discard=("1",),
        sizes=(3, 3),
        quit=(False, False),
        scores=(0, 0),
        slots=((0, 0, 0), (0b11, 0b11, 0)),
    )
    observation = {
        "seat": 0,
        "round": 1,
        "discard_pile": ["1", "1", "2"],
        "hand_sizes": [2, 2],
        "quit": [False, False],
        "scores": [0, 0],
        "num_players": 2,
        "starter": 0,
    }
    # the reader played a 1; seat 1 played a 2, which only its open card may be
    found = Reading.follow(reading, observation)
    assert found is not None and found.slots[1] == (0b11, 0b11)


def test_observations_that_do_not_follow_on_start_again_or_claim_nothing() -> None:
    seen = _heuristic_decisions(4, seed=3)
    late_state, _ = seen[-1]
    # a reading of another round is dropped; what the deal cannot explain gives no reading rather than a wrong one
    early_state, early = seen[0]
    fresh = Reading.follow(early, late_state.observation(0))
    if late_state.round != early_state.round:
        assert fresh == Reading.follow(None, late_state.observation(0))
    assert Reading.follow(None, {"seat": 0}) is None


def test_determinisations_follow_the_reading() -> None:
    for state, reading in _heuristic_decisions(4, seed=9)[3:12]:
        assert reading is not None
        observation = state.observation(0)
        sample = sampler(GAME, observation, reading.excluded)
        unseen = Counter(state.to_json()["draw_pile"]) + Counter(c for s in range(1, 4) for c in state.hand(s))
        for k in range(20):
            drawn = sample(random.Random(k))
            assert drawn.observation(0) == observation
            data = drawn.to_json()
            assert Counter(data["draw_pile"]) + Counter(c for s in range(1, 4) for c in data["hands"][s]) == unseen
            for other in range(1, 4):
                assert _fits(reading.excluded[other], drawn.hand(other))


def test_limits_narrow_the_deal() -> None:
    """Limits say that seat 1's six cards are not a 1 or a 2: no sample gives it one, while plain samples do."""
    state = GAME.new_game(2, seed=1)
    observation = state.observation(0)
    unseen = Counter(state.to_json()["draw_pile"]) + Counter(state.hand(1))
    assert unseen["1"] + unseen["2"] > 0
    limited = sampler(GAME, observation, [[], [0b11] * 6])
    plain = sampler(GAME, observation)
    low = {CARD_TEXT[0], CARD_TEXT[1]}
    assert not any(low & set(limited(random.Random(k)).hand(1)) for k in range(50))
    assert any(low & set(plain(random.Random(k)).hand(1)) for k in range(50))


def test_wrong_limits_are_refused() -> None:
    observation = GAME.new_game(3, seed=2).observation(0)
    with pytest.raises(StateError, match="seats"):
        sampler(GAME, observation, [[], [1]])
    with pytest.raises(StateError, match="holds 6 cards"):
        sampler(GAME, observation, [[], [1] * 7, []])


def _party(discard: list[str], sizes: list[int], quit_: list[bool] | None = None) -> dict[str, object]:
    n = len(sizes)
    return {
        "seat": 0,
        "round": 1,
        "discard_pile": discard,
        "hand_sizes": sizes,
        "quit": quit_ or [False] * n,
        "scores": [0] * n,
        "num_players": n,
        "starter": 0,
        "options": {"edition": "party"},
    }


def _open(sizes: tuple[int, ...], discard: tuple[str, ...]) -> Reading:
    n = len(sizes)
    return Reading(0, 1, discard, sizes, (False,) * n, (0,) * n, tuple((0,) * size for size in sizes))


def test_a_party_turn_of_plus_cards_ended_by_a_draw_rules_out_what_fits_the_last_one() -> None:
    # the reader played a 3; seat 1 played 3+ and 4+ (another turn each), then drew: nothing fit the 4+
    found = Reading.follow(_open((4, 4), ("2",)), _party(["2", "3", "3+", "4+"], [3, 3]))
    assert found is not None
    fits_four = {party_card_from_text(text) for text in ("4", "5", "4+", "5+", "P")}
    assert found.slots[1] == (sum(1 << card for card in fits_four),) * 2 + (0,)  # the two kept cards, and the new one


def test_a_party_turn_of_plus_cards_ended_by_a_card_or_a_quit() -> None:
    found = Reading.follow(
        _open((4, 4, 4), ("2",)), _party(["2", "3", "3+", "4", "4+"], [3, 2, 3], [False, False, True])
    )
    assert found is not None
    assert found.slots[1] == (0, 0)  # 3+ then 4: played cards, no limit
    fits_four = {party_card_from_text(text) for text in ("4", "5", "4+", "5+", "P")}
    assert found.slots[2] == (sum(1 << card for card in fits_four),) * 3  # 4+, then quit on it


def test_after_the_readers_own_plus_card_nobody_else_has_moved() -> None:
    found = Reading.follow(_open((4, 4), ("2",)), _party(["2", "3+"], [3, 4]))
    assert found is not None and found.slots[1] == (0, 0, 0, 0)
    assert Reading.follow(_open((4, 4), ("2",)), _party(["2", "3+", "3"], [3, 3])) is None  # seat 1 cannot have moved


def test_the_judge_carries_the_reading_from_decision_to_decision() -> None:
    judge = LamaJudge()
    memory: dict[object, object] = {}
    for state, reading in _heuristic_decisions(3, seed=4)[:10]:
        judge.sampler(GAME, state.observation(0), memory)
        assert memory[("lama reading", 0)] == reading
