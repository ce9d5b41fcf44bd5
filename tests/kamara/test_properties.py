"""Invariants of Kamara over random seeds, player counts, options and legal action sequences (hypothesis)."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from laro.games.kamara import GAME, KamaraState
from laro.games.kamara.chamber import OUTWARD, SLOT_KIND, chamber_geometry
from laro.games.kamara.components import CARD_IDS, EFFECTS, default_components
from laro.sim.baselines.kamara_uncached import reference_geometry

EXAMPLES = settings(max_examples=40)
ALL_GREEN = Counter(EFFECTS[effect] for effect in default_components().green_deck)


WEIGHTS = {"end": 1, "play ignore": 1, "exchange": 1, "port": 1, "poke": 3, "move": 4, "flip": 8, "match": 20}


def _towards_paltik(state: KamaraState) -> set[int]:
    """The squares from which a legal step leads closer to a paltik (breadth first from every paltik)."""
    geometry = state.geometry
    distance = {sq: 0 for sq in range(81) if geometry.paltik_slot[sq] >= 0}
    frontier = list(distance)
    while frontier:
        nearer = []
        for square in frontier:
            for target in geometry.steps(square):
                if target not in distance:
                    distance[target] = distance[square] + 1
                    nearer.append(target)
        frontier = nearer
    return {t for t, d in distance.items() if d < distance.get(state.diwa[state.current_player], 99)}  # type: ignore[index]


def _policy(state: KamaraState, rng: random.Random) -> Any:
    """A random legal action: its kind first (green plays, flips and matches weigh more, ``end`` less), and a
    move most often one that heads for a paltik, so that tiles turn and green cards come and go."""
    kinds: dict[str, list[Any]] = {}
    for action in state.legal_actions():
        words = action.text.split()
        kinds.setdefault(" ".join(words[:2]) if words[0] == "play" else words[0], []).append(action)
    names = sorted(kinds)
    kind = rng.choices(names, [WEIGHTS.get(name, 6) for name in names])[0]
    if kind == "move" and rng.random() < 0.7:
        nearer = _towards_paltik(state)
        step = state.geometry.step
        here = state.diwa[state.current_player]  # type: ignore[index]
        better = [a for a in kinds[kind] if step[here * 8 + a.args[0]] in nearer]
        if better:
            return rng.choice(better)
    return rng.choice(kinds[kind])


def _deal_green(state: KamaraState) -> KamaraState:
    """The same state with every player holding the next green card of the deck (a legal position)."""
    data = state.to_json()
    for seat in range(state.num_players):
        data["green"][seat] = data["green_deck"].pop(0)
    return GAME.from_json(data)


@st.composite
def games(draw: st.DrawFn) -> list[KamaraState]:
    """Every state of one game (setup included), from a random seed, player count and options; in some games
    every player is dealt a green card when play begins."""
    num_players = draw(st.integers(min_value=2, max_value=8), label="num_players")
    seed = draw(st.integers(min_value=0, max_value=2**63 - 1), label="seed")
    options = {
        "max_rounds": draw(st.integers(min_value=1, max_value=4), label="max_rounds"),
        "actions_per_turn": draw(st.sampled_from([2, 5, 8]), label="actions_per_turn"),
        "target_matches": draw(st.integers(min_value=1, max_value=3), label="target_matches"),
    }
    deal = draw(st.booleans(), label="deal green cards")
    rng = draw(st.randoms(use_true_random=False), label="policy")
    state = GAME.new_game(num_players, seed=seed, options=options)
    states = [state]
    while not state.is_over:
        assert len(states) < 5000, "the game did not end"
        state = state.apply(_policy(state, rng))
        if deal and state.phase == "play" and states[-1].phase == "diwa":
            state = _deal_green(state)
        states.append(state)
    return states


def _connected(geometry: Any) -> bool:
    """Whether every open square is reached from one by legal steps (breadth first over ``step``)."""
    open_squares = [sq for sq in range(81) if not (geometry.blocked >> sq) & 1]
    seen = {open_squares[0]}
    frontier = [open_squares[0]]
    while frontier:
        square = frontier.pop()
        for target in geometry.step[square * 8 : square * 8 + 8]:
            if target >= 0 and target not in seen:
                seen.add(target)
                frontier.append(target)
    return len(seen) == len(open_squares)


@EXAMPLES
@given(games())
def test_yellow_cards_are_conserved(states: list[KamaraState]) -> None:
    """Cards: every yellow card is exactly once in the deck, a hand, a match or a pending draw."""
    for state in states:
        data = state.to_json()
        drawn = (data["pending"] or {}).get("drawn", [])
        cards = [c for c in data["yellow"] if c] + data["yellow_deck"] + [c for m in data["matched"] for c in m]
        assert sorted(cards + drawn) == list(CARD_IDS)


@EXAMPLES
@given(games())
def test_green_cards_are_conserved(states: list[KamaraState]) -> None:
    """Cards: the 24 green cards are always in the green deck or in a hand, one at most per player."""
    for state in states:
        data = state.to_json()
        assert Counter([e for e in data["green"] if e] + data["green_deck"]) == ALL_GREEN


@EXAMPLES
@given(games())
def test_diwa_never_share_a_square_or_stand_on_a_block(states: list[KamaraState]) -> None:
    """Chamber: no two diwa on one square, none on a block; the logo never leaves the centre."""
    for state in states:
        squares = [sq for sq in state.diwa if sq >= 0]
        assert len(set(squares)) == len(squares)
        if state.phase != "tiles":
            assert all(not (state.geometry.blocked >> sq) & 1 for sq in squares)


@EXAMPLES
@given(games())
def test_the_chamber_stays_connected(states: list[KamaraState]) -> None:
    """Chamber: every open square is reachable from every other in every state, whatever flip, pitik, ikot or
    palitan did; border tiles always face out."""
    for state in states:
        if state.phase == "tiles":
            continue
        assert _connected(state.geometry)
        for slot, (_, _, turns) in enumerate(state.tiles):  # type: ignore[misc]
            assert SLOT_KIND[slot] == "centre" or turns == OUTWARD[slot]


@EXAMPLES
@given(games())
def test_json_round_trip_everywhere(states: list[KamaraState]) -> None:
    """State: every state survives to_json -> JSON text -> from_json with the same legal actions."""
    for state in states[::3] + states[-1:]:
        data = state.to_json()
        again = GAME.from_json(json.loads(json.dumps(data)))
        assert again.to_json() == data
        assert again.legal_actions() == state.legal_actions()


@EXAMPLES
@given(games())
def test_games_end_by_the_rules(states: list[KamaraState]) -> None:
    """End: every game ends, by a winning match (one winner, on target) or with the most matched sharing."""
    final = states[-1]
    assert final.is_over and final.winners
    target = final.options["target_matches"]
    if max(final.scores) >= target:
        assert final.winners == (final.scores.index(max(final.scores)),)
        assert sum(score >= target for score in final.scores) == 1
    else:
        assert set(final.winners) == {s for s, score in enumerate(final.scores) if score == max(final.scores)}
    for before, after in itertools.pairwise(states):
        assert all(b <= a for b, a in zip(before.scores, after.scores, strict=True))
        assert after.round <= after.options["max_rounds"]


@settings(max_examples=200)
@given(
    st.permutations([1, 2, 3, 4]),
    st.permutations([5, 6, 7, 8]),
    st.lists(st.integers(min_value=0, max_value=1), min_size=9, max_size=9),
    st.integers(min_value=0, max_value=3),
)
def test_every_arrangement_is_connected(corners: list[int], edges: list[int], faces: list[int], logo: int) -> None:
    """Chamber: whatever the tiles' places, faces and the logo's rotation, the chamber is connected, and its
    geometry put together from the tiles' fragments is the one read square by square from the walls."""
    numbers = iter(corners)
    edge_numbers = iter(edges)
    tiles = tuple(
        (
            0 if SLOT_KIND[slot] == "centre" else next(numbers if SLOT_KIND[slot] == "corner" else edge_numbers),
            faces[slot],
            logo if SLOT_KIND[slot] == "centre" else OUTWARD[slot],
        )
        for slot in range(9)
    )
    geometry = chamber_geometry(default_components(), tiles)
    assert _connected(geometry)
    assert geometry == reference_geometry(default_components(), tiles)


@EXAMPLES
@given(st.integers(0, 10_000), st.integers(2, 8))
def test_apply_legal_is_apply_for_a_legal_action(seed: int, players: int) -> None:
    rng = random.Random(seed)
    state = GAME.new_game(players, seed=seed)
    for _ in range(150):
        if state.is_over:
            break
        action = rng.choice(state.legal_actions())
        applied = state.apply(action)
        assert state.apply_legal(action).to_json() == applied.to_json()
        state = applied
