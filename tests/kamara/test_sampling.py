"""Determinisations: every sample of a seat's observation is a full, valid state that shows that seat exactly
its observation, deals the unseen cards at random and plays on."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from tests.kamara.helpers import build, play, small_yellow_set

import laro
from laro.bots.kamara_heuristic import KamaraHeuristicBot
from laro.core import StateError
from laro.games.kamara import GAME, KamaraState
from laro.games.kamara.actions import KEEP, ORDER
from laro.games.kamara.components import CARD_IDS, DEFAULT_DATA, EFFECTS
from laro.games.kamara.sampling import sampler

THREE = (("red", "e5"), ("blue", "a1"), ("orange", "i1"))
# Kinds of action a playout prefers: green plays (silip and panaginip most), flips (they draw green cards), matches.
WEIGHTS = {"end": 1, "play ignore": 1, "move": 3, "flip": 8, "match": 20, "play silip": 30, "play panaginip": 30}


def _dreamy_green_set() -> dict[str, Any]:
    """The default green cards with six silip and six panaginip, so that decisions come often."""
    data: dict[str, Any] = copy.deepcopy(DEFAULT_DATA["green_cards"])
    for card in data["cards"]:
        if card["effect"] in ("silip", "panaginip"):
            card["count"] = 6
    return data


def _policy(state: KamaraState, rng: random.Random, bot: KamaraHeuristicBot) -> Any:
    """Half the time the heuristic bot's choice (it matches cards and renews hopeless ones), else a random
    legal action of a random kind, green plays and flips weighing more."""
    if rng.random() < 0.5:
        seat: int = state.current_player  # type: ignore[assignment]
        return bot.choose(state.observation(seat), state.legal_actions(), rng)
    kinds: dict[str, list[Any]] = {}
    for action in state.legal_actions():
        words = action.text.split()
        kinds.setdefault(" ".join(words[:2]) if words[0] == "play" else words[0], []).append(action)
    names = sorted(kinds)
    return rng.choice(kinds[rng.choices(names, [WEIGHTS.get(name, 4) for name in names])[0]])


def _deal_green(state: KamaraState) -> KamaraState:
    """The same state with every player holding a green card, silip and panaginip first (a legal position)."""
    data = state.to_json()
    for seat in range(state.num_players):
        deck = data["green_deck"]
        wanted = next((e for e in ("silip", "panaginip", "silip") if e in deck and seat % 2 == 0), deck[0])
        deck.remove(wanted)
        data["green"][seat] = wanted
    return GAME.from_json(data)


@st.composite
def positions(draw: st.DrawFn) -> list[tuple[KamaraState, int]]:
    """States of one seeded game (setup, play and its end) and a seat to observe each: every state with a
    pending decision or a silip's knowledge, the first of each phase, the last, and a few more at random."""
    num_players = draw(st.integers(min_value=2, max_value=8), label="num_players")
    options: dict[str, Any] = {
        "max_rounds": draw(st.integers(min_value=1, max_value=3), label="max_rounds"),
        "actions_per_turn": draw(st.sampled_from([3, 5]), label="actions_per_turn"),
        "open_cards": draw(st.booleans(), label="open_cards"),
    }
    if draw(st.booleans(), label="short yellow deck"):
        options["yellow_cards"] = small_yellow_set(max(8, num_players + 2))
    if draw(st.booleans(), label="dreamy green cards"):
        options["green_cards"] = _dreamy_green_set()
    if draw(st.integers(min_value=0, max_value=4), label="tiles given") == 0:
        options["tiles"] = copy.deepcopy(DEFAULT_DATA["tiles"])
    deal = draw(st.booleans(), label="deal green cards")
    rng = random.Random(draw(st.integers(min_value=0, max_value=2**32), label="policy seed"))
    state = GAME.new_game(num_players, seed=draw(st.integers(min_value=0, max_value=2**63 - 1)), options=options)
    bot = KamaraHeuristicBot()
    states = [state]
    while not state.is_over:
        state = state.apply(_policy(state, rng, bot))
        if deal and state.phase == "play" and states[-1].phase == "diwa":
            state = _deal_green(state)
        states.append(state)
    special = [s for s in states if s.pending is not None or any(s.known)]
    firsts = [next(s for s in states if s.phase == phase) for phase in ("tiles", "diwa", "play")]
    chosen = special[:8] + firsts + [states[-1]] + rng.sample(states, min(4, len(states)))
    picked = []
    for state in chosen:
        seats = {rng.randrange(num_players)}
        if state.current_player is not None:
            seats.add(state.current_player)
        if state.pending is not None or any(state.known):
            seats = set(range(num_players))
        picked += [(state, seat) for seat in sorted(seats)]
    return picked


def _unseen(state: KamaraState, observation: dict[str, Any]) -> tuple[Counter[int], Counter[int]]:
    """The yellow and green cards of ``state`` that the observing seat cannot see, wherever they are."""
    seat = observation["seat"]
    top = len(observation["seen_on_top"])
    pending = state.pending
    if pending is not None and pending[0] == ORDER and state.current_player == seat:
        top = pending[1]
    yellow = [card for s, card in enumerate(state.yellow) if observation["yellow"][s] == "?"]
    if pending is not None and pending[0] == KEEP and state.current_player != seat:
        yellow += pending[1:]
    yellow += state.yellow_deck[top:]
    green = [effect for s, effect in enumerate(state.green) if observation["green"][s] == "?"]
    return Counter(yellow), Counter([*green, *state.green_deck])


def _events(state: KamaraState, observation: dict[str, Any]) -> None:
    """Tell hypothesis's statistics which situations were sampled."""
    whose = "own" if state.current_player == observation["seat"] else "another seat's"
    if state.pending is not None:
        event(f"{whose} {'order' if state.pending[0] == ORDER else 'keep'} decision")
        if state.pending[1] < 3 if state.pending[0] == ORDER else len(state.pending) < 3:
            event("a decision on fewer cards (a short yellow deck)")
    if state.phase == "play" and not state.yellow_deck:
        event("an empty yellow deck")
    if observation["seen_on_top"]:
        event("silip's cards seen on top")
    if any(state.known) and not observation["seen_on_top"]:
        event("another seat saw the top")
    event(f"phase {state.phase}, open cards {state.options['open_cards']}")


def _hidden(state: KamaraState) -> tuple[Any, ...]:
    return state.yellow, state.green, state.yellow_deck, state.green_deck, state.pending


def _check_sample(state: KamaraState, seat: int, sample: KamaraState) -> None:
    observation = state.observation(seat)
    assert sample.observation(seat) == observation
    data = sample.to_json()
    again = GAME.from_json(json.loads(json.dumps(data)))  # every card of the set once, the deck top as seen ...
    assert again.to_json() == data
    assert _unseen(sample, observation) == _unseen(state, observation)
    assert sample.known[seat] == state.known[seat]
    assert all(not seen for s, seen in enumerate(sample.known) if s != seat)
    if state.current_player == seat:
        assert sample.legal_actions() == state.legal_actions()
        assert again.legal_actions() == state.legal_actions()


@settings(max_examples=40)
@given(positions())
def test_samples_agree_with_everything_the_seat_knows(picked: list[tuple[KamaraState, int]]) -> None:
    """A sample shows the seat exactly its observation, restores from JSON (so every card is once in its place),
    hides the same cards the true state hides, and offers the seat to move the same legal actions."""
    for state, seat in picked:
        observation = json.loads(json.dumps(state.observation(seat)))
        _events(state, observation)
        draw = GAME.sampler(observation)
        for seed in range(3):
            _check_sample(state, seat, draw(random.Random(seed)))


@settings(max_examples=25)
@given(positions())
def test_samples_are_random_and_reproducible(picked: list[tuple[KamaraState, int]]) -> None:
    """The same random.Random seed gives the same sample; different seeds deal the unseen cards differently
    (whenever they can be dealt in more than one way), and always give a fresh seed."""
    for state, seat in picked:
        observation = state.observation(seat)
        draw = GAME.sampler(observation)
        assert draw(random.Random(7)).to_json() == draw(random.Random(7)).to_json()
        samples = [draw(random.Random(seed)) for seed in range(40)]
        assert len({sample.seed for sample in samples}) == 40
        yellow, green = _unseen(state, observation)
        if len(yellow) > 1 or len(green) > 1:
            assert len({_hidden(sample) for sample in samples}) > 1


@settings(max_examples=25)
@given(positions(), st.integers(min_value=0, max_value=2**32))
def test_play_goes_on_from_a_sample(picked: list[tuple[KamaraState, int]], seed: int) -> None:
    """A few legal actions apply to a sample one after another, and the states they lead to are valid."""
    rng = random.Random(seed)
    for state, seat in picked:
        sample = GAME.sampler(state.observation(seat))(rng)
        for _ in range(6):
            if sample.is_over:
                break
            sample = sample.apply(rng.choice(sample.legal_actions()))
        assert GAME.from_json(sample.to_json()).to_json() == sample.to_json()


# -- the decisions of silip and panaginip ----------------------------------------------------------------------


def _samples(state: KamaraState, seat: int, count: int = 30) -> list[KamaraState]:
    draw = GAME.sampler(state.observation(seat))
    return [draw(random.Random(seed)) for seed in range(count)]


def test_own_order_decision_keeps_the_cards_on_top() -> None:
    """Silip: the seat deciding the order sees the top three cards; every sample has them on top, in order,
    and offers the same orders; the other seats' samples deal the top freely."""
    state = build(THREE, green=["silip", None, None], yellow_top=["Y05", "Y06", "Y07"]).apply("play silip")
    for sample in _samples(state, 0):
        assert sample.yellow_deck[:3] == (4, 5, 6)
        assert sample.legal_actions() == state.legal_actions()
    assert len({sample.yellow_deck[:3] for sample in _samples(state, 1)}) > 1


def test_what_silip_showed_stays_on_top() -> None:
    """Silip: after ``order`` (and an exchange that draws the first card) the rest of what the seat saw stays on
    top of every sample, in its order; to the others that seat knows nothing of the deck in a sample."""
    state = play(
        build(THREE, green=["silip", None, None], yellow_top=["Y05", "Y06", "Y07"]),
        "play silip",
        "order Y06 Y05 Y07",
        "exchange",
    )
    assert state.observation(0)["seen_on_top"] == ["Y05", "Y07"]
    for sample in _samples(state, 0):
        assert sample.yellow_deck[:2] == (4, 6) and sample.known[0] == (4, 6)
        assert sample.yellow[0] == state.yellow[0] == 5
    assert all(sample.known == ((), (), ()) for sample in _samples(state, 1))


def test_own_keep_decision_keeps_the_drawn_cards() -> None:
    """Panaginip: the seat keeping a card knows the two drawn; every sample holds them in the pending draw."""
    state = build(THREE, green=["panaginip", None, None], yellow_top=["Y05", "Y06"]).apply("play panaginip")
    for sample in _samples(state, 0):
        assert sample.pending == (KEEP, 4, 5)
        assert sample.legal_actions() == state.legal_actions()


def test_another_seats_keep_decision_is_dealt() -> None:
    """Panaginip: the others know only that two cards were drawn; samples deal them from the unseen cards."""
    state = build(THREE, green=["panaginip", None, None], yellow_top=["Y05", "Y06"]).apply("play panaginip")
    drawn = {sample.pending for sample in _samples(state, 1)}
    assert len(drawn) > 1
    assert all(pending is not None and pending[0] == KEEP and len(pending) == 3 for pending in drawn)
    assert all(25 not in pending[1:] for pending in drawn if pending)  # Y26 is seat 1's own


def test_keep_of_the_last_card() -> None:
    """Panaginip with one card left: one card is drawn and the deck is empty in every sample; to another seat
    the drawn card is any it does not see."""
    state = build(
        THREE,
        green=["panaginip", None, None],
        matched=[["Y01", "Y02"], ["Y03", "Y08"], []],
        yellow=["Y04", "Y05", "Y06"],
        yellow_deck=["Y07"],
        options={"yellow_cards": small_yellow_set(8)},
    ).apply("play panaginip")
    assert state.pending == (KEEP, 6)
    assert all(sample.pending == (KEEP, 6) and sample.yellow_deck == () for sample in _samples(state, 0))
    drawn = {sample.pending for sample in _samples(state, 2)}
    assert drawn == {(KEEP, 3), (KEEP, 4), (KEEP, 6)}  # Y04, Y05 or Y07: Y06 is seat 2's own


def test_open_cards_are_kept() -> None:
    """Option ``open_cards``: every held card is seen, so only the decks are dealt."""
    state = build(THREE, green=["tulak", "sigla", None], options={"open_cards": True})
    for sample in _samples(state, 2):
        assert sample.yellow == state.yellow and sample.green == state.green
        assert sorted(sample.yellow_deck) == sorted(state.yellow_deck)


def test_hidden_cards_go_anywhere_unseen() -> None:
    """Every unseen card lands in another seat's hand in some sample, and never a seen one."""
    state = build(THREE, green=["tulak", "sigla", None])
    held = Counter(card for sample in _samples(state, 0, 400) for card in sample.yellow[1:])
    assert set(held) == set(range(32)) - {24}  # Y25 is seat 0's own
    greens = Counter(EFFECTS[e] for sample in _samples(state, 0, 400) for e in sample.green[1:] if e >= 0)
    assert "tulak" in greens and len(greens) == len(EFFECTS)


def test_through_the_game_object() -> None:
    """``GAME.sampler`` is the sampler of this module, for the same observation."""
    state = build(THREE, green=["tulak", "sigla", None])
    observation = state.observation(1)
    one = GAME.sampler(observation)(random.Random(4))
    two = sampler(GAME, observation)(random.Random(4))
    assert one.to_json() == two.to_json()
    assert [CARD_IDS[c] for c in one.yellow] == one.to_json()["yellow"]


# -- what is not an observation to sample --------------------------------------------------------------------


def test_a_spectator_has_nothing_to_sample() -> None:
    state = build(THREE)
    with pytest.raises(ValueError, match="spectator"):
        GAME.sampler(state.public_observation())


def test_another_games_observation_is_refused() -> None:
    lama = laro.get_game("lama").new_game(3, seed=1)
    with pytest.raises(ValueError, match="not Kamara"):
        GAME.sampler(lama.observation(0))


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda o: o.update(yellow_deck_count=o["yellow_deck_count"] + 1), "unseen yellow cards"),
        (lambda o: o.update(green_deck_count=o["green_deck_count"] - 1), "unseen green cards"),
        (lambda o: o["yellow"].__setitem__(0, "?"), "its own cards"),
        (lambda o: o["yellow"].__setitem__(0, "Y99"), "unknown card"),
        (lambda o: o.update(seen_on_top=["Y25"]), "distinct"),
        (lambda o: o.update(code={"N": "light"}), "code"),
        (lambda o: o.update(scores=[1, 0, 0]), "scores"),
        (lambda o: o.pop("pending"), "missing key"),
        (lambda o: o.update(num_players=9), "2 to 8 players"),
        (lambda o: o.update(seat=5), "seat"),
    ],
)
def test_impossible_observations_are_refused(change: Any, reason: str) -> None:
    """An observation no state could show raises StateError (a ValueError) saying what is wrong."""
    observation = build(THREE, green=["tulak", "sigla", None]).observation(0)
    change(observation)
    with pytest.raises(ValueError, match=reason):
        GAME.sampler(observation)


def test_not_a_mapping() -> None:
    with pytest.raises(StateError, match="JSON object"):
        GAME.sampler([])  # type: ignore[arg-type]
