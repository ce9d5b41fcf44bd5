"""Invariants of L.A.M.A. over random seeds, player counts, options and action sequences (hypothesis)."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from laro.games.lama import GAME, LamaState
from laro.games.lama.tokens import BOX_BLACK, BOX_PINK, BOX_WHITE, Supply, Tokens, give_back, pay

MAX_MOVES = 5000
FULL_DECK = Counter({card: 8 for card in "123456L"})
PARTY_DECK = Counter({card: 7 for card in "123456L"}) + Counter(["1+", "2+", "3+", "4+", "5+", "6+", "P"])


def full_deck(state: LamaState) -> Counter[str]:
    """The 56 cards of the state's edition."""
    return PARTY_DECK if state.party else FULL_DECK


options_strategy = st.fixed_dictionaries(
    {},
    optional={
        "edition": st.sampled_from(["classic", "party"]),
        "next_round_starter": st.sampled_from(["last_card", "ended_round"]),
        "token_supply": st.sampled_from(["unlimited", "boxed"]),
        "end_score": st.integers(min_value=1, max_value=60),
    },
)


@st.composite
def games(draw: st.DrawFn) -> list[LamaState]:
    """Every state of one game, from a random seed, player count and options, under a random policy.

    The policy's weight on quitting varies, so some games quit early and others draw the pile empty."""
    num_players = draw(st.integers(min_value=2, max_value=6), label="num_players")
    seed = draw(st.integers(min_value=0, max_value=2**63 - 1), label="seed")
    options = draw(options_strategy, label="options")
    quit_weight = draw(st.sampled_from([0.02, 0.2, 1.0]), label="quit_weight")
    rng = draw(st.randoms(use_true_random=False), label="policy")
    state = GAME.new_game(num_players, seed=seed, options=options)
    states = [state]
    while not state.is_over:
        assert len(states) <= MAX_MOVES, "the game did not end"
        legal = state.legal_actions()
        others = [action for action in legal if str(action) != "quit"]
        action = rng.choice(others) if others and rng.random() > quit_weight else rng.choice(legal)
        state = state.apply(action)
        states.append(state)
    return states


def _keys(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [key for key, item in value.items() for key in (key, *_keys(item))]
    if isinstance(value, list):
        return [key for item in value for key in _keys(item)]
    return []


def _cards(data: dict[str, Any]) -> Counter[str]:
    return Counter([*(c for hand in data["hands"] for c in hand), *data["draw_pile"], *data["discard_pile"]])


@given(games())
def test_the_56_cards_are_always_accounted_for(states: list[LamaState]) -> None:
    """Cards: hands + draw pile + discard pile always hold exactly the edition's 56 cards: eight of each of the
    seven cards, or (Party Edition) seven of each and one of each plus card and the pink llama."""
    for state in states:
        data = state.to_json()
        assert _cards(data) == full_deck(state)
        assert sum(_cards(data).values()) == 56
        assert state.draw_pile_count == len(data["draw_pile"])
        if not state.is_over:
            assert all(data["hands"][seat] for seat in range(state.num_players))


@given(games())
def test_every_game_ends(states: list[LamaState]) -> None:
    """Game: every game ends within the move bound, with winners, after someone reached the end score."""
    final = states[-1]
    assert final.is_over and final.winners
    assert max(final.scores) >= final.options["end_score"]
    assert all(max(state.scores) < state.options["end_score"] for state in states[:-1])
    assert set(final.winners) == {s for s, total in enumerate(final.scores) if total == min(final.scores)}


@given(games())
def test_scores_only_fall_by_the_return(states: list[LamaState]) -> None:
    """Scoring: totals change only when a round ends; a total only falls for the emptier, by 20 (Party Edition),
    10 or 1; a penalty is at most 31 (Party Edition: 41, with the pink llama's 20)."""
    for before, after in itertools.pairwise(states):
        if after.round == before.round and not after.is_over:
            assert after.scores == before.scores
            continue
        result = after.last_round
        assert result is not None and result.round == before.round
        for seat, (old, new) in enumerate(zip(before.scores, after.scores, strict=True)):
            if seat == result.emptied:
                assert old - new == result.returned
                if after.party and old >= 20:
                    assert result.returned == 20
                else:
                    assert result.returned == (10 if old >= 10 else 1 if old >= 1 else 0)
            else:
                assert new - old == result.penalties[seat]
                assert 1 <= new - old <= (41 if after.party else 31)


@given(games())
def test_boxed_tokens_add_up_to_the_scores(states: list[LamaState]) -> None:
    """Tokens (boxed): each seat's tokens equal its total, the box never goes negative, no token is lost."""
    for state in states:
        for seat in range(state.num_players):
            assert state.tokens_of(seat).points == state.scores[seat]
        data = state.to_json()
        if state.options["token_supply"] != "boxed":
            assert "tokens" not in data
            continue
        held = data["tokens"]
        colours = ("white", "black", "pink") if state.party else ("white", "black")
        assert all(t[key] >= 0 for t in held for key in (*colours, "owed"))
        assert all(data["supply"][key] >= 0 for key in colours)
        assert data["supply"]["white"] + sum(t["white"] for t in held) == BOX_WHITE
        assert data["supply"]["black"] + sum(t["black"] for t in held) == BOX_BLACK
        if state.party:
            assert data["supply"]["pink"] + sum(t["pink"] for t in held) == BOX_PINK
        else:
            assert "pink" not in data["supply"] and all("pink" not in t for t in held)


@given(games())
def test_observations_never_include_other_hands(states: list[LamaState]) -> None:
    """Observations: a seat sees its own hand and the sizes of the others, never their cards."""
    for state in states[::3]:
        data = state.to_json()
        for seat in range(state.num_players):
            observation = state.observation(seat)
            assert observation["hand"] == data["hands"][seat]
            assert observation["hand_sizes"] == [len(hand) for hand in data["hands"]]
            assert observation["draw_pile_count"] == len(data["draw_pile"])
            assert not {"hands", "draw_pile", "seed"} & set(observation)
            assert all(key != "seed" for key in _keys(observation))
            last_round = observation["last_round"]  # hands are shown at the end of a round, never before
            assert last_round is None or last_round["round"] < state.round or state.is_over


@given(games())
def test_json_round_trip_everywhere(states: list[LamaState]) -> None:
    """State: every state of every game survives to_json -> JSON text -> from_json exactly."""
    for state in states[::2]:
        data = state.to_json()
        again = GAME.from_json(json.loads(json.dumps(data)))
        assert again.to_json() == data
        assert again.legal_actions() == state.legal_actions()


@given(
    st.integers(0, BOX_WHITE),
    st.integers(0, BOX_BLACK),
    st.lists(st.tuples(st.integers(0, 21), st.integers(0, 1), st.booleans()), max_size=30),
)
def test_pay_and_give_back_keep_the_books(box_white: int, box_black: int, moves: list[tuple[int, ...]]) -> None:
    """Tokens: paying and returning (as the engine returns) keep every count >= 0 and points and tokens equal."""
    supply, held, total = Supply(box_white, box_black), Tokens(), 0
    for white, black, emptied in moves:
        supply, held = pay(supply, held, white, black)
        total += white + 10 * black
        assert held.white < 10 or supply.black == 0  # after a payment ten whites are exchanged for a black
        returned = 10 if total >= 10 else 1 if total >= 1 else 0
        if emptied and returned:
            supply, held = give_back(supply, held, returned)
            total -= returned
        assert held.points == total
        assert min(supply.white, supply.black, held.white, held.black, held.owed) >= 0
        assert supply.white + held.white == box_white and supply.black + held.black == box_black


@given(
    st.integers(0, BOX_WHITE),
    st.integers(0, BOX_BLACK),
    st.integers(0, BOX_PINK),
    st.lists(st.tuples(st.integers(0, 21), st.integers(0, 1), st.integers(0, 1), st.booleans()), max_size=30),
)
def test_pink_tokens_keep_the_books(
    box_white: int, box_black: int, box_pink: int, moves: list[tuple[int, ...]]
) -> None:
    """Tokens (Party Edition): paying pinks too and returning 20, 10 or 1 keep every count >= 0, points and tokens
    equal, and no token lost; after a payment two blacks are exchanged for a pink while the box has one."""
    supply, held, total = Supply(box_white, box_black, box_pink), Tokens(), 0
    for white, black, pink, emptied in moves:
        supply, held = pay(supply, held, white, black, pink)
        total += white + 10 * black + 20 * pink
        assert held.black < 2 or supply.pink == 0
        returned = 20 if total >= 20 else 10 if total >= 10 else 1 if total >= 1 else 0
        if emptied and returned:
            supply, held = give_back(supply, held, returned)
            total -= returned
        assert held.points == total
        assert min(supply.white, supply.black, supply.pink, held.white, held.black, held.pink, held.owed) >= 0
        assert supply.white + held.white == box_white and supply.black + held.black == box_black
        assert supply.pink + held.pink == box_pink
