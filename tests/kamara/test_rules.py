"""Scenario tests for the rules of ``shared/rules/kamara.md`` and the rulings of ``docs/kamara-rulings.md``.

Play-phase states are built from JSON (``helpers.build``); the chamber they start from is drawn in
``helpers``' docstring. The green effects have their own file, ``test_effects.py``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.kamara.helpers import (
    build,
    legal,
    legal_of,
    moves,
    play,
    refused,
    slot_tiles,
    small_yellow_set,
    where,
    without,
)

from laro.core import IllegalActionError, MalformedActionError, StateError
from laro.games.kamara import GAME, KamaraState, public_text
from laro.games.kamara.components import CARD_IDS

# Y01 shows NE light, S dark, W light, NW dark. With every other paltik light (face A), these faces make the
# chamber show it when the logo points north (0°).
Y01_FACES = {"S": "B", "NW": "B"}
THREE_ON_PALTIK = (("red", "b8"), ("blue", "e8"), ("orange", "g7"))


# -- the builder ----------------------------------------------------------------------------------------------


def test_builder_makes_valid_play_states() -> None:
    """The helper: its states hold every card once, start a turn and survive a JSON round trip."""
    state = build(yellow_top=["Y05"], green=["tulak", None, None], green_top=["silip"])
    data = state.to_json()
    yellow = [c for c in data["yellow"] if c] + data["yellow_deck"] + [c for m in data["matched"] for c in m]
    assert sorted(yellow) == list(CARD_IDS)
    assert len(data["green_deck"]) + 1 == 24 and data["green_deck"][0] == "silip"
    assert data["yellow_deck"][0] == "Y05" and data["actions_left"] == 5
    assert where(state) == {"red": "e5", "blue": "a1", "orange": "i1"}
    assert GAME.from_json(json.loads(json.dumps(data))).to_json() == data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["yellow_deck"].pop(), "yellow cards"),
        (lambda d: d["green_deck"].pop(), "green cards"),
        (lambda d: d["diwa"].update(blue="e5"), "share a square"),
        (lambda d: d["diwa"].update(blue="e9"), "block"),
        (lambda d: d["tiles"].update(N={"tile": "sulok", "face": "A", "rotation": 0}), "slot N"),
        (lambda d: d["tiles"]["NE"].update(rotation=0), "rotation"),
        (lambda d: d.update(known=[["Y09"], [], []]), "silip"),
    ],
)
def test_impossible_states_are_refused(change: Any, message: str) -> None:
    """State: from_json refuses a state that loses a card, stacks or blocks a diwa, or misplaces a tile."""
    data = build().to_json()
    change(data)
    with pytest.raises(StateError, match=message):
        GAME.from_json(data)


@pytest.mark.parametrize(
    ("effect", "pending", "message"),
    [
        ("silip", {"decision": "order", "count": 2}, "top three"),
        ("panaginip", {"decision": "keep", "count": 0, "drawn": []}, "keep decision"),
    ],
)
def test_impossible_decisions_are_refused(effect: str, pending: dict[str, Any], message: str) -> None:
    """State: a pending order covers the top three yellow cards (all, if fewer); a keep follows a draw."""
    data = build(green=[effect, None, None]).apply(f"play {effect}").to_json()
    if effect == "panaginip":  # put the drawn cards back on the deck
        data["yellow_deck"] = data["pending"]["drawn"] + data["yellow_deck"]
    data["pending"] = pending
    with pytest.raises(StateError, match=message):
        GAME.from_json(data)


# -- setup ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("num_players", [2, 3, 5, 8])
def test_setup_deals_one_yellow_card_each(num_players: int) -> None:
    """Setup 1: both decks are shuffled and each player draws one yellow card; the elder starts placing tiles."""
    state = GAME.new_game(num_players, seed=7)
    data = state.to_json()
    assert data["phase"] == "tiles" and len(data["pool"]) == 9
    assert all(data["yellow"]) and len(data["yellow_deck"]) == 32 - num_players
    assert len(data["green_deck"]) == 24 and not any(data["green"])
    assert state.current_player == data["elder"]
    decks = {json.dumps(GAME.new_game(num_players, seed=seed).to_json()["yellow"]) for seed in range(10)}
    assert len(decks) > 1 and GAME.new_game(num_players, seed=7).to_json() == data


def test_the_elder_is_an_option_or_drawn_from_the_seed() -> None:
    """Setup 2: option ``elder`` names the seat that places first; by default a seat is drawn from the seed."""
    assert GAME.new_game(4, seed=3, options={"elder": 2}).current_player == 2
    elders = [GAME.new_game(4, seed=seed).current_player for seed in range(40)]
    assert set(elders) == {0, 1, 2, 3}
    assert elders == [GAME.new_game(4, seed=seed).current_player for seed in range(40)]


def _setup(num_players: int, elder: int) -> tuple[list[int], list[int], KamaraState]:
    """Play the setup with the first legal action each time; who placed each tile, who chose each diwa."""
    state = GAME.new_game(num_players, seed=1, options={"elder": elder})
    placers: list[Any] = []
    choosers: list[Any] = []
    while state.phase == "tiles":
        placers.append(state.current_player)
        state = state.apply(state.legal_actions()[0])
    while state.phase == "diwa":
        choosers.append(state.current_player)
        state = state.apply(state.legal_actions()[0])
    return placers, choosers, state


@pytest.mark.parametrize(("num_players", "elder"), [(2, 0), (3, 1), (4, 3), (5, 2), (8, 6)])
def test_setup_order(num_players: int, elder: int) -> None:
    """Setup 2-4: the elder places first, then each player to the left; the player to the right of the last
    placer chooses a diwa first, choosing continues right; whoever placed the last diwa takes the first turn."""
    placers, choosers, state = _setup(num_players, elder)
    assert placers == [(elder + i) % num_players for i in range(9)]
    last = placers[-1]
    assert choosers == [(last - 1 - i) % num_players for i in range(num_players)]
    assert choosers[-1] == last
    assert state.phase == "play" and state.current_player == last
    assert state.first_player == last and state.round == 1 and state.actions_left == 5


def test_tiles_go_only_into_slots_of_their_kind() -> None:
    """Setup 2: any tile of the pool, any empty slot of its kind, face A or B; other placements are no actions."""
    state = GAME.new_game(3, seed=1, options={"elder": 0})
    places = legal(state)
    assert {text.split()[2] for text in places if text.startswith("place sulok ")} == {"NW", "NE", "SW", "SE"}
    assert {text.split()[2] for text in places if text.startswith("place pinto ")} == {"N", "W", "E", "S"}
    assert {text.split()[2] for text in places if text.startswith("place kamara ")} == {"C"}
    assert len(places) == 2 * (4 * 4 * 2) + 2 * 4  # (corner and edge tiles) x slots x faces; faces x rotations
    for text in ("place sulok N A", "place pinto C A", "place kamara NW A", "place kamara C A", "place sulok NW A 90"):
        with pytest.raises(MalformedActionError):
            state.apply(text)
    state = state.apply("place sulok NW B")
    refused(state, "place balon NW A", "slot NW is taken")
    refused(state, "place sulok SE A", "already in the chamber")


def test_the_centre_rotation_is_chosen_and_border_tiles_face_out() -> None:
    """Setup 2 / chamber: the centre tile takes the rotation its placer names; border tiles are turned so their
    yellow edges face out (corners NW 0, NE 90, SE 180, SW 270; edges N 0, E 90, S 180, W 270)."""
    state = GAME.new_game(2, seed=1, options={"elder": 0})
    state = play(
        state,
        "place kamara C B 270",
        "place sulok NE A",
        "place balon SE B",
        "place hagdan SW A",
        "place haligi NW A",
        "place pinto W A",
        "place bintana S B",
        "place pasilyo E A",
        "place silid N A",
    )
    assert state.phase == "diwa"
    assert slot_tiles(state) == {
        "NW": ("haligi", "A", 0),
        "N": ("silid", "A", 0),
        "NE": ("sulok", "A", 90),
        "W": ("pinto", "A", 270),
        "C": ("kamara", "B", 270),
        "E": ("pasilyo", "A", 90),
        "SW": ("hagdan", "A", 270),
        "S": ("bintana", "B", 180),
        "SE": ("balon", "B", 180),
    }


def _standard_diwa_phase() -> KamaraState:
    state = GAME.new_game(3, seed=1, options={"elder": 0})
    return play(
        state,
        "place sulok NW A",
        "place pinto N A",
        "place balon NE A",
        "place bintana W A",
        "place kamara C A 0",
        "place pasilyo E A",
        "place hagdan SW A",
        "place silid S A",
        "place haligi SE A",
    )


def test_diwa_setup_squares() -> None:
    """Setup 3: a diwa starts on an empty square of a corner or edge tile, not a block, not the paltik; a tapos
    is fine, the centre tile is not; colours are unique."""
    state = _standard_diwa_phase()
    assert state.phase == "diwa" and state.current_player == 1  # seat 2 placed the last tile; seat 1 chooses first
    squares = {text.split()[2] for text in legal(state) if text.startswith("diwa red ")}
    centre = {f + r for f in "def" for r in "456"}
    blocks = {"e9", "a7", "i7", "g6", "g4", "a4", "b1", "d1", "h2"}
    paltik = {"b8", "e8", "g7", "a6", "h5", "b2", "f3", "g3"}
    every = {f + r for f in "abcdefghi" for r in "123456789"}
    assert squares == every - centre - blocks - paltik
    assert len(legal(state)) == 8 * 55
    assert "a9" in squares  # a tapos
    refused(state, "diwa red e5", "not e5")
    refused(state, "diwa red b8", "paltik")
    refused(state, "diwa red a7", "block")
    state = state.apply("diwa red a9")
    assert state.current_player == 0  # choosing continues to the right
    refused(state, "diwa blue a9", "not a9")
    refused(state, "diwa red b9", "red is taken")
    state = play(state, "diwa blue b9", "diwa teal c9")
    assert state.phase == "play" and state.current_player == 2
    assert where(state) == {"red": "a9", "blue": "b9", "teal": "c9"}
    assert state.to_json()["colours"] == ["blue", "red", "teal"]


# -- move -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("square", "direction", "allowed"),
    [
        ("b9", "S", False),  # a thick line between b9 and b8
        ("b9", "E", True),
        ("c9", "E", False),  # the seam c9|d9 is a wall: sulok marks it (E0), pinto does not
        ("d9", "W", False),  # the same seam seen from the other tile
        ("c8", "E", True),  # a seam without a thick line
        ("e6", "N", True),  # from the centre tile: the middle squares of inner sides meet unwalled
        ("e4", "S", True),
        ("d5", "W", True),
        ("e8", "N", False),  # e9 is a block
        ("a9", "N", False),  # the yellow border
        ("a9", "W", False),
        ("a9", "NW", False),
        ("i1", "E", False),
        ("i1", "SE", False),
        ("a5", "W", False),
        ("b8", "SE", True),  # a diagonal inside one tile, nothing beside it
        ("c8", "SW", True),
        ("f9", "SE", False),  # across the seam between N and NE, though f9-g9-g8 is open
        ("c7", "SW", False),  # across the seam between NW and W
        ("d9", "SE", False),  # a block (e9) beside the diagonal
        ("e8", "NW", False),
        ("d8", "SE", False),  # the thick line d8/d7 touches the crossed corner
        ("e8", "SE", False),  # the thick line f8/f7, between a side square and the target, touches the corner
        ("b9", "SW", False),  # the thick line b9/b8 touches the corner
    ],
)
def test_move(square: str, direction: str, allowed: bool) -> None:
    """Move: inside the chamber, not onto a block, not across a thick line (a seam is a wall where either tile
    marks one); a diagonal only inside one tile, with no block beside it and no thick line touching the corner."""
    state = build([("red", square), ("blue", "e5" if square != "e5" else "a1")])
    assert (direction in moves(state)) == allowed
    action = f"move {direction}"
    if not allowed:
        refused(state, action, f"you cannot step {direction}")


@pytest.mark.parametrize(
    ("square", "direction", "reason"),
    [
        ("a9", "N", "the yellow border is there"),
        ("e8", "N", "e9 is a block"),
        ("d8", "S", "a thick line lies between d8 and d7"),
        ("f9", "SE", "a diagonal step stays inside one tile"),
        ("d9", "SE", "a block stands beside the diagonal"),
        ("d8", "SE", "a thick line touches the corner it crosses"),
    ],
)
def test_a_refused_move_says_which_rule_stops_it(square: str, direction: str, reason: str) -> None:
    """Move: the error names the part of the rule that stops the step."""
    refused(build([("red", square), ("blue", "a1")]), f"move {direction}", reason)
    refused(build([("red", "d8"), ("blue", "d9")]), "move N", "the blue diwa stands on d9")


def test_the_legal_moves_of_one_square() -> None:
    """Move: from d8 only N, E and W: S crosses a thick line, SE has a line at its corner, NE is a block, SW and
    NW cross a seam diagonally."""
    assert moves(build([("red", "d8"), ("blue", "a1")])) == {"N", "E", "W"}


def test_moving_around_a_wall() -> None:
    """Move: a diwa goes round a thick line by legal steps (b9 to b8 by a9 and a8); each step costs one action."""
    state = build([("red", "b9"), ("blue", "a1")])
    assert "S" not in moves(state)
    state = play(state, "move W", "move S", "move E")
    assert where(state)["red"] == "b8" and state.actions_left == 2 and state.current_player == 0


def test_walls_are_those_of_the_face_shown() -> None:
    """Chamber: only the thick lines of the face shown count; pinto's face B has no line d8/d7 but one e8/e7."""
    state = build([("red", "d8"), ("blue", "e8")])
    assert "S" not in moves(state)
    assert "S" in moves(build([("red", "d8"), ("blue", "e8")], faces={"N": "B"}))
    assert "S" in moves(build([("red", "e8"), ("blue", "a1")]))
    assert "S" not in moves(build([("red", "e8"), ("blue", "a1")], faces={"N": "B"}))


def test_no_move_onto_a_diwa() -> None:
    """Move: the target square must not be occupied."""
    state = build([("red", "d8"), ("blue", "d9")])
    assert moves(state) == {"E", "W"}
    refused(state, "move N", "cannot step N")


# -- poke -----------------------------------------------------------------------------------------------------


def test_poke_moves_an_adjacent_diwa_to_a_square_next_to_you() -> None:
    """Poke: the diwa is one legal step from you; it moves one legal step to an empty square also one legal step
    from you (blue at c8 may go to c9, d8, c7 or b7; only c7 and b7 are next to red at b8)."""
    state = build([("red", "b8"), ("blue", "c8")])
    assert legal_of(state, "poke") == {"poke blue c7", "poke blue b7"}
    refused(state, "poke blue c9", "poke needs")
    refused(state, "poke blue d8", "poke needs")
    state = state.apply("poke blue b7")
    assert where(state) == {"red": "b8", "blue": "b7"} and state.actions_left == 4


def test_poke_needs_a_legal_step_between_you() -> None:
    """Poke: a diwa next to you across a thick line (or a walled diagonal) is not adjacent."""
    assert legal_of(build([("red", "b9"), ("blue", "b8")]), "poke") == set()
    assert legal_of(build([("red", "a9"), ("blue", "b8")]), "poke") == set()
    assert legal_of(build([("red", "d8"), ("blue", "d7")]), "poke") == set()


def test_poke_only_to_an_empty_square() -> None:
    """Poke: the target square must be empty; adjacency itself ignores occupancy."""
    state = build([("red", "b8"), ("blue", "c8"), ("orange", "c7")])
    assert legal_of(state, "poke") == {"poke blue b7", "poke orange b7"}
    refused(state, "poke blue c7", "poke needs")
    refused(state, "poke blue c7", "c7 is not an empty square one step from both of you")


# -- port -----------------------------------------------------------------------------------------------------


def test_port_between_tapos() -> None:
    """Port: from a tapos to another, empty tapos; the logo square counts as a tapos."""
    state = build([("red", "a9"), ("blue", "a1"), ("orange", "c8")])
    assert legal_of(state, "port") == {"port i9", "port i1", "port e5"}
    refused(state, "port a1", "empty tapos as target (a diwa stands on a1)")
    refused(state, "port a9", "empty tapos as target (you are there already)")
    refused(state, "port c9", "empty tapos as target (c9 is not a tapos)")
    state = state.apply("port e5")
    assert where(state)["red"] == "e5" and state.actions_left == 4
    assert legal_of(state, "port") == {"port a9", "port i9", "port i1"}


def test_no_port_off_a_tapos() -> None:
    """Port: only from a tapos."""
    state = build([("red", "b9"), ("blue", "a1")])
    assert legal_of(state, "port") == set()
    refused(state, "port i9", "you on a tapos and another, empty tapos as target (b9 is not a tapos)")


# -- match ----------------------------------------------------------------------------------------------------

# For each logo rotation, the faces that show Y01 (NE light, S dark, W light, NW dark) read from the logo; every
# other paltik is light. Card position p names the slot p turned by the logo's rotation.
Y01_READINGS = {
    0: {"NE": "A", "S": "B", "W": "A", "NW": "B"},
    90: {"SE": "A", "W": "B", "N": "A", "NE": "B"},  # the logo points east: card N is slot E, card NE slot SE ...
    180: {"SW": "A", "N": "B", "E": "A", "SE": "B"},
    270: {"NW": "A", "E": "B", "S": "A", "SW": "B"},
}


@pytest.mark.parametrize("reading", [0, 90, 180, 270])
@pytest.mark.parametrize("logo", [0, 90, 180, 270])
def test_match_reads_the_card_from_the_logo(reading: int, logo: int) -> None:
    """Cards: the chamber matches a card when every shown position's slot, turned with the logo, shows that
    state; the same faces match under one logo rotation only."""
    state = build([("red", "e5"), ("blue", "a1")], faces=Y01_READINGS[reading], logo=logo, yellow=["Y01", "Y02"])
    assert ("match" in legal(state)) == (reading == logo)


def test_match_sets_the_card_aside() -> None:
    """Match: on a tapos with a yellow card the chamber shows: the card is set aside face up; no exchange or
    match follows this turn; a new card is drawn at the start of the player's next turn."""
    state = build([("red", "a9"), ("blue", "a1")], faces=Y01_FACES, yellow=["Y01", "Y02"], yellow_top=["Y07"])
    state = state.apply("match")
    data = state.to_json()
    assert data["matched"] == [["Y01"], []] and data["yellow"] == [None, "Y02"]
    assert state.actions_left == 4 and not state.is_over
    assert "exchange" not in legal(state) and "match" not in legal(state)
    refused(state, "exchange", "exchange needs")
    state = play(state, "end", "end")
    assert state.current_player == 0 and state.to_json()["yellow"] == ["Y07", "Y02"]


def test_match_needs_a_tapos() -> None:
    """Match: the chamber showing your card is not enough off a tapos."""
    state = build([("red", "a8"), ("blue", "a1")], faces=Y01_FACES, yellow=["Y01", "Y02"])
    refused(state, "match", "match needs")
    assert "match" in legal(build([("red", "i1"), ("blue", "a1")], faces=Y01_FACES, yellow=["Y01", "Y02"]))


def test_match_needs_a_yellow_card_the_chamber_shows() -> None:
    """Match: a player without a yellow card, or whose card the chamber does not show, cannot match."""
    state = build([("red", "a9"), ("blue", "a1")], faces=Y01_FACES, yellow=[None, "Y02"])
    refused(state, "match", "match needs")
    state = build([("red", "a9"), ("blue", "a1")], yellow=["Y01", "Y02"])
    refused(state, "match", "match needs")


def test_the_third_match_wins_at_once() -> None:
    """End: matching your third yellow card wins at once, alone, with actions still left."""
    state = build(
        [("red", "a9"), ("blue", "a1")], faces=Y01_FACES, yellow=["Y01", "Y02"], matched=[["Y10", "Y11"], ["Y12"]]
    )
    state = state.apply("match")
    assert state.is_over and state.winners == (0,) and state.scores == (3, 1)
    assert state.phase == "over" and state.legal_actions() == ()
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply("end")


def test_target_matches_option() -> None:
    """End: option ``target_matches`` sets how many matched cards win at once."""
    state = build(
        [("red", "a9"), ("blue", "a1")],
        faces=Y01_FACES,
        yellow=["Y01", "Y02"],
        matched=[["Y10", "Y11"], []],
        options={"target_matches": 4},
    )
    state = state.apply("match")
    assert not state.is_over and state.scores == (3, 0)
    state = build(
        [("red", "a9"), ("blue", "a1")], faces=Y01_FACES, yellow=["Y01", "Y02"], options={"target_matches": 1}
    )
    assert state.apply("match").winners == (0,)


# -- flip -----------------------------------------------------------------------------------------------------


def test_flip_turns_the_tile_and_draws_a_green_card() -> None:
    """Flip: on a paltik, the tile turns to its other face (walls and paltik state change, diwa stay); then a
    player holding no green card who has drawn none this turn draws the top one."""
    state = build([("red", "b8"), ("blue", "c9")], green_top=["tawag", "silip"])
    assert moves(state) == {"E", "SE", "S", "W"}  # face A: a thick line b9/b8
    state = state.apply("flip")
    assert slot_tiles(state)["NW"] == ("sulok", "B", 0)
    assert where(state) == {"red": "b8", "blue": "c9"}
    data = state.to_json()
    assert data["green"] == ["tawag", None] and data["green_deck"][0] == "silip" and data["green_drawn"]
    assert state.actions_left == 4
    assert moves(state) == {"N", "E"}  # face B: thick lines a8/b8 and b8/b7
    state = play(state, "play ignore", "flip")  # a card drawn and played this turn still counts as drawn
    data = state.to_json()
    assert slot_tiles(state)["NW"] == ("sulok", "A", 0) and data["green"] == [None, None]
    assert data["green_deck"][:1] == ["silip"]


def test_flip_twice_is_the_identity() -> None:
    """Flip: flipping a tile twice gives back the same state, but for the actions spent."""
    state = build([("red", "e8"), ("blue", "d9")], green=["sigla", None])
    twice = play(state, "flip", "flip")
    assert twice.actions_left == state.actions_left - 2
    assert without(twice, "actions_left") == without(state, "actions_left")


def test_no_green_card_from_an_empty_green_deck() -> None:
    """Flip: with the green deck empty, nothing is drawn (and the flip still happens)."""
    cards = {"format": "laro-kamara-green/1", "cards": [{"effect": "sigla", "count": 1}]}
    state = build([("red", "b8"), ("blue", "a8")], green=[None, "sigla"], options={"green_cards": cards})
    assert state.to_json()["green_deck"] == []
    state = state.apply("flip")
    data = state.to_json()
    assert data["green"] == [None, "sigla"] and data["green_deck"] == [] and not data["green_drawn"]
    assert slot_tiles(state)["NW"][1] == "B" and state.actions_left == 4


def test_flip_needs_a_paltik_and_an_unlocked_tile() -> None:
    """Flip: only on a paltik, and not when its tile is locked, whoever locked it."""
    refused(build([("red", "b9"), ("blue", "a1")]), "flip", "paltik")
    refused(build([("red", "b8"), ("blue", "a1")], locks={"NW": 1}), "flip", "unlocked")
    refused(build([("red", "b8"), ("blue", "a1")], locks={"NW": 0}), "flip", "unlocked")
    assert "flip" in legal(build([("red", "b8"), ("blue", "a1")], locks={"N": 1}))


# -- exchange -------------------------------------------------------------------------------------------------


def test_exchange_draws_then_recycles() -> None:
    """Exchange: draw the top yellow card, then put the old one at the bottom of the yellow deck."""
    state = build([("red", "b9"), ("blue", "a1")], yellow=["Y01", "Y02"], yellow_top=["Y05", "Y06"])
    state = state.apply("exchange")
    data = state.to_json()
    assert data["yellow"] == ["Y05", "Y02"] and data["yellow_deck"][0] == "Y06" and data["yellow_deck"][-1] == "Y01"
    assert len(data["yellow_deck"]) == 30 and state.actions_left == 4 and data["exchanged"]


def test_exchange_once_per_turn() -> None:
    """Exchange: once per turn; the next turn allows it again."""
    state = build([("red", "b9"), ("blue", "a1")]).apply("exchange")
    refused(state, "exchange", "an unused exchange this turn")
    state = play(state, "end")
    assert "exchange" in legal(state)
    assert "exchange" in legal(play(state, "exchange", "end"))


def test_exchange_with_the_last_card_of_the_deck() -> None:
    """Exchange: with one card left you get that card, and your old card becomes the whole deck."""
    state = build(
        [("red", "b9"), ("blue", "a1"), ("orange", "i1")],
        yellow=["Y01", "Y02", "Y03"],
        matched=[["Y04"], ["Y05", "Y06"], ["Y07"]],
        options={"yellow_cards": small_yellow_set(8)},
    )
    assert state.to_json()["yellow_deck"] == ["Y08"]
    data = state.apply("exchange").to_json()
    assert data["yellow"][0] == "Y08" and data["yellow_deck"] == ["Y01"]


def test_exchange_needs_a_yellow_deck_and_a_card() -> None:
    """Exchange: not with an empty yellow deck, and not without a yellow card."""
    state = build(
        [("red", "b9"), ("blue", "a1"), ("orange", "i1")],
        yellow=["Y01", "Y02", "Y03"],
        matched=[["Y04", "Y08"], ["Y05", "Y06"], ["Y07"]],
        options={"yellow_cards": small_yellow_set(8)},
    )
    assert state.to_json()["yellow_deck"] == []
    refused(state, "exchange", "a yellow deck")
    refused(build(yellow=[None, "Y02", "Y03"]), "exchange", "needs a yellow card")


# -- a turn ---------------------------------------------------------------------------------------------------


def test_the_turn_ends_when_no_action_is_left() -> None:
    """A turn: five actions, then play passes left by itself; the next turn starts afresh."""
    state = build([("red", "b9"), ("blue", "a1"), ("orange", "i1")])
    state = play(state, "exchange", "move W", "move E", "move W")
    assert state.current_player == 0 and state.actions_left == 1
    state = state.apply("move E")
    assert state.current_player == 1 and state.actions_left == 5
    data = state.to_json()
    assert not data["exchanged"] and not data["green_drawn"] and where(state)["red"] == "b9"


def test_end_passes_left_at_any_time() -> None:
    """A turn: ``end`` is always possible during your actions; play passes to the left (the next seat, seat 0
    after the last)."""
    state = build([("red", "b9"), ("blue", "a1"), ("orange", "i1")])
    assert "end" in legal(state)
    assert [play(state, *["end"] * k).current_player for k in range(1, 5)] == [1, 2, 0, 1]
    assert play(state, "move E", "end").actions_left == 5


@pytest.mark.parametrize("per_turn", [1, 2, 7])
def test_actions_per_turn_option(per_turn: int) -> None:
    """A turn: option ``actions_per_turn`` sets how many actions a turn has."""
    state = build([("red", "b9"), ("blue", "a1")], options={"actions_per_turn": per_turn})
    assert state.actions_left == per_turn
    for _ in range(per_turn):
        assert state.current_player == 0
        state = state.apply("move E" if where(state)["red"] == "b9" else "move W")
    assert state.current_player == 1 and state.actions_left == per_turn


def test_a_player_without_a_yellow_card_draws_one() -> None:
    """A turn 1: a player holding no yellow card draws the top one at the start of their turn."""
    state = build(yellow=["Y01", None, "Y03"], matched=[[], ["Y02"], []], yellow_top=["Y09", "Y10"])
    data = state.apply("end").to_json()
    assert data["yellow"] == ["Y01", "Y09", "Y03"] and data["yellow_deck"][0] == "Y10"


# -- the end of the game --------------------------------------------------------------------------------------


def test_an_empty_deck_ends_the_game_when_a_card_must_be_drawn() -> None:
    """End: a player who must draw a yellow card at the start of their turn with the deck empty ends the game;
    the most matched cards win, equal counts sharing."""
    state = build(
        [("red", "b9"), ("blue", "a1"), ("orange", "i1"), ("teal", "a9")],
        yellow=["Y01", None, "Y03", "Y09"],
        matched=[["Y02", "Y04"], ["Y05"], ["Y06", "Y07"], ["Y08"]],
        options={"yellow_cards": small_yellow_set(9)},
    )
    assert state.to_json()["yellow_deck"] == []
    over = state.apply("end")
    assert over.is_over and over.phase == "over" and over.winners == (0, 2)
    assert over.to_json()["winners"] == [0, 2] and over.legal_actions() == ()


def test_an_empty_deck_does_not_end_the_game_while_cards_are_held() -> None:
    """End: an empty deck alone ends nothing; only a player who must draw ends the game."""
    state = build(
        [("red", "b9"), ("blue", "a1"), ("orange", "i1")],
        yellow=["Y01", "Y02", "Y03"],
        matched=[["Y04", "Y08"], ["Y05", "Y06"], ["Y07"]],
        options={"yellow_cards": small_yellow_set(8)},
    )
    state = play(state, "end", "end", "end")
    assert not state.is_over and state.current_player == 0 and state.round == 2


def test_the_round_cap_ends_the_game() -> None:
    """End: after ``max_rounds`` full rounds the game ends as if the yellow deck were empty; a round begins each
    time the first player's turn comes round."""
    state = build(
        [("red", "b9"), ("blue", "a1"), ("orange", "i1")],
        matched=[[], ["Y01"], []],
        yellow=["Y02", "Y03", "Y04"],
        current=0,
        first=1,
        options={"max_rounds": 2},
    )
    state = state.apply("end")
    assert state.current_player == 1 and state.round == 2
    state = play(state, "end", "end")
    assert state.current_player == 0 and not state.is_over
    over = state.apply("end")
    assert over.is_over and over.winners == (1,) and over.round == 2


def test_nobody_matched_everybody_shares() -> None:
    """End: when the game ends without a winning match, equal counts share: with no matches, everyone wins."""
    state = build([("red", "b9"), ("blue", "a1"), ("orange", "i1")], current=2, options={"max_rounds": 1})
    over = state.apply("end")
    assert over.is_over and over.winners == (0, 1, 2)


# -- randomness ---------------------------------------------------------------------------------------------


def test_chance_only_at_the_start() -> None:
    """Randomness: the decks are shuffled from the seed at the start; after that the seed plays no part (the same
    actions from the same position give the same states whatever the seed)."""
    greens = {json.dumps(GAME.new_game(3, seed=seed).to_json()["green_deck"]) for seed in range(8)}
    assert len(greens) == 8
    state = build(THREE_ON_PALTIK, green=[None, None, "panaginip"], yellow_top=["Y05", "Y06"])
    data = state.to_json()
    data["seed"] = 999
    other = GAME.from_json(data)
    actions = ["flip", "exchange", "end", "flip", "end", "play panaginip", "keep Y06", "end", "flip"]
    for action in actions:
        state, other = state.apply(action), other.apply(action)
        assert without(state, "seed") == without(other, "seed")
    assert "seed" not in state.observation(0) and "999" not in json.dumps(other.observation(1))


# -- information ----------------------------------------------------------------------------------------------


def test_observation_hides_other_seats_cards_and_the_decks() -> None:
    """Information: a seat sees its own yellow card (and its code) and green card; of the others only whether
    they hold one; of the decks only their sizes. Matched cards, tiles, locks and diwa are public."""
    state = build(
        yellow=["Y01", None, "Y03"],
        green=["tulak", "silip", None],
        matched=[[], ["Y02"], []],
        locks={"N": 2},
    )
    for seat in range(3):
        seen = state.observation(seat)
        assert seen["yellow"] == [c if s == seat or c is None else "?" for s, c in enumerate(["Y01", None, "Y03"])]
        assert seen["green"] == [g if s == seat or g is None else "?" for s, g in enumerate(["tulak", "silip", None])]
        assert "yellow_deck" not in seen and "green_deck" not in seen and "seed" not in seen
        assert seen["yellow_deck_count"] == 29 and seen["green_deck_count"] == 22
        assert seen["matched"] == [[], ["Y02"], []] and seen["locks"] == {"N": 2}
        assert seen["diwa"] == where(state) and seen["tiles"] == state.to_json()["tiles"]
    assert state.observation(0)["code"] == {"NE": "light", "S": "dark", "W": "light", "NW": "dark"}
    assert state.observation(1)["code"] is None
    text = json.dumps(state.observation(0))
    assert "Y03" not in text and "silip" not in text


def test_open_cards_shows_every_held_card() -> None:
    """Information: option ``open_cards`` makes held cards public (never the decks)."""
    state = build(yellow=["Y01", None, "Y03"], green=["tulak", "silip", None], options={"open_cards": True})
    seen = state.observation(1)
    assert seen["yellow"] == ["Y01", None, "Y03"] and seen["green"] == ["tulak", "silip", None]
    assert "yellow_deck" not in seen and "green_deck" not in seen


def test_a_spectator_sees_no_held_card() -> None:
    """Information: a spectator (no seat) sees only whether each player holds a card, never a card or a code."""
    state = build(green=["silip", "tulak", None], yellow=["Y01", None, "Y03"], matched=[[], ["Y02"], []])
    seen = state.apply("play silip").public_observation()
    assert seen["yellow"] == ["?", None, "?"] and seen["green"] == [None, "?", None] and seen["code"] is None
    assert seen["pending"] == {"decision": "order", "count": 3} and seen["seen_on_top"] == []
    assert seen["matched"] == [[], ["Y02"], []] and "yellow_deck" not in seen


def test_public_text_hides_the_cards_of_order_and_keep() -> None:
    """Information: others hear only "order" or "keep"; every other action text is public as it is."""
    assert public_text("order Y03 Y01 Y07") == "order"
    assert public_text(GAME.parse_action("keep Y05")) == "keep"
    assert public_text("play tulak blue N E") == "play tulak blue N E"
    assert public_text("move NE") == "move NE"


# -- illegal actions ------------------------------------------------------------------------------------------


def _states_at_every_stage() -> list[KamaraState]:
    tiles = GAME.new_game(3, seed=2, options={"elder": 1})
    diwa = _standard_diwa_phase()
    order = build(green=["silip", None, None]).apply("play silip")
    keep = build(green=["panaginip", None, None]).apply("play panaginip")
    over = build([("red", "a9"), ("blue", "a1")], faces=Y01_FACES, yellow=["Y01", "Y02"], matched=[["Y03", "Y04"], []])
    return [tiles, diwa, build(), order, keep, over.apply("match")]


@pytest.mark.parametrize("stage", range(6), ids=["tiles", "diwa", "play", "order", "keep", "over"])
def test_every_illegal_action_is_refused_with_a_reason(stage: int) -> None:
    """Actions: every action of the action space that is not legal (of the 30,784 ``order`` actions, every 97th)
    raises IllegalActionError (a ValueError) saying why, whether given as action, text or index, and the state
    stays as it was."""
    state = _states_at_every_stage()[stage]
    before = state.to_json()
    allowed = set(state.legal_actions())
    for action in state.space.by_index:
        if action in allowed or (action.text.startswith("order ") and action.index % 97):
            continue
        with pytest.raises(IllegalActionError) as error:
            state.apply(action)
        message = str(error.value)
        if state.is_over:
            assert message == f"the game is over; {action} is not possible"
            continue
        assert message.startswith(f"{action} is not allowed: ")
        reason = message.removeprefix(f"{action} is not allowed: ").split("; allowed:")[0]
        assert len(reason) > 10
    assert state.to_json() == before and set(state.legal_actions()) == allowed
    text = next(a for a in state.space.by_index if a not in allowed)
    with pytest.raises(IllegalActionError):
        state.apply(str(text))
    with pytest.raises(IllegalActionError):
        state.apply(text.index)


def test_the_reasons_name_the_rule() -> None:
    """Actions: the reasons speak of the rule that was broken."""
    state = build(green=["tulak", None, None])
    assert "first decide" in refused(build(green=["silip", None, None]).apply("play silip"), "end", "order")
    assert "you hold no green card" in refused(build(), "play sigla")
    assert "your green card is tulak" in refused(state, "play sigla")
    assert "no decision" in refused(state, "keep Y01")
    assert "setup is over" in refused(state, "diwa red a9")


@pytest.mark.parametrize("text", ["", "move", "move X", "poke red", "play", "place sulok", "order Y99", "jump"])
def test_malformed_texts(text: str) -> None:
    """Actions: a text that names no action raises MalformedActionError (a ValueError)."""
    with pytest.raises(MalformedActionError):
        build().apply(text)


def test_action_texts_forgive_case_and_spacing() -> None:
    """Actions: the rules' text forms, case and spacing forgiven."""
    state = build([("red", "b8"), ("blue", "c8")], green=["tulak", None])
    assert where(state.apply("  POKE blue   b7 ")) == {"red": "b8", "blue": "b7"}
    assert where(state.apply("play tulak Blue n")) == {"red": "b8", "blue": "c9"}
