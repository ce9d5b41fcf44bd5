"""Scenario tests for the eleven green effects, ``order`` and ``keep``, and locks (``shared/rules/kamara.md``
section 4 and ``docs/kamara-rulings.md``). The chamber the states start from is drawn in ``helpers``."""

from __future__ import annotations

import pytest
from tests.kamara.helpers import (
    build,
    give_green,
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

from laro.core import MalformedActionError
from laro.games.kamara import GAME

THREE = (("red", "b9"), ("blue", "i9"), ("orange", "a1"))


# -- playing a card -------------------------------------------------------------------------------------------


def test_play_recycles_the_card_and_costs_an_action() -> None:
    """Play: the green card goes to the bottom of the green deck; ``play ignore`` does nothing else."""
    state = build(THREE, green=["tawag", None, None])
    after = state.apply("play ignore")
    data = after.to_json()
    assert data["green"] == [None, None, None] and data["green_deck"][-1] == "tawag" and len(data["green_deck"]) == 24
    assert after.actions_left == 4
    assert without(after, "green", "green_deck", "actions_left") == without(
        state, "green", "green_deck", "actions_left"
    )
    refused(after, "play ignore", "you hold no green card")


def test_a_green_card_of_another_effect_cannot_be_played() -> None:
    """Play: only the effect of the card held."""
    state = build(THREE, green=["tawag", None, None])
    assert legal_of(state, "play") == {"play ignore", "play tawag a9", "play tawag e5", "play tawag i1"}
    refused(state, "play sigla", "your green card is tawag")


# -- sigla ----------------------------------------------------------------------------------------------------


def test_sigla_gives_three_more_actions() -> None:
    """Sigla: +3 actions this turn (the play itself costs one)."""
    state = build(THREE, green=["sigla", None, None]).apply("play sigla")
    assert state.actions_left == 7 and state.to_json()["green_deck"][-1] == "sigla"
    for _ in range(7):
        assert state.current_player == 0
        state = state.apply("move E" if where(state)["red"] == "b9" else "move W")
    assert state.current_player == 1 and state.actions_left == 5


# -- pitik ----------------------------------------------------------------------------------------------------


def test_pitik_flips_any_unlocked_border_tile_without_a_draw() -> None:
    """Pitik: flip any unlocked corner or edge tile from anywhere; no green card is drawn, and a later Flip this
    turn still draws one."""
    state = build([("red", "b2"), ("blue", "i9")], green=["pitik", None], green_top=["lipat"], locks={"E": 1})
    offered = legal_of(state, "play pitik")
    assert offered == {f"play pitik {slot}" for slot in ("NW", "N", "NE", "W", "SW", "S", "SE")}
    refused(state, "play pitik E", "would do nothing")
    with pytest.raises(MalformedActionError):
        state.apply("play pitik C")
    state = state.apply("play pitik N")
    data = state.to_json()
    assert slot_tiles(state)["N"] == ("pinto", "B", 0) and data["green"] == [None, None] and not data["green_drawn"]
    assert data["green_deck"][0] == "lipat" and data["green_deck"][-1] == "pitik"
    state = state.apply("flip")  # red stands on hagdan's paltik
    assert slot_tiles(state)["SW"] == ("hagdan", "B", 270) and state.to_json()["green"] == ["lipat", None]


# -- ikot -----------------------------------------------------------------------------------------------------


def test_ikot_turns_the_centre_and_the_diwa_on_it() -> None:
    """Ikot: the centre tile turns 90°; diwa on it turn along (e6 -> f5, e4 -> d5 clockwise), the logo square
    stays put, diwa elsewhere do not move."""
    state = build([("red", "e4"), ("blue", "e6"), ("orange", "a1"), ("teal", "e5")], green=["ikot", None, None, None])
    assert legal_of(state, "play ikot") == {"play ikot cw", "play ikot ccw"}
    cw = state.apply("play ikot cw")
    assert slot_tiles(cw)["C"] == ("kamara", "A", 90)
    assert where(cw) == {"red": "d5", "blue": "f5", "orange": "a1", "teal": "e5"}
    ccw = state.apply("play ikot ccw")
    assert slot_tiles(ccw)["C"] == ("kamara", "A", 270)
    assert where(ccw) == {"red": "f5", "blue": "d5", "orange": "a1", "teal": "e5"}


def test_ikot_four_times_is_the_identity() -> None:
    """Ikot: four quarter turns the same way bring the centre and the diwa on it back; cw then ccw too."""
    start = build([("red", "e4"), ("blue", "e6"), ("orange", "a1")], green=["ikot", None, None], logo=90)
    for turn in ("cw", "ccw"):
        state = start
        squares = []
        for _ in range(4):
            state = give_green(state.apply(f"play ikot {turn}"), 0, "ikot")
            squares.append(where(state)["blue"])
        assert len(set(squares)) == 4 and squares[-1] == "e6"
        assert without(state, "actions_left", "green_deck") == without(start, "actions_left", "green_deck")
    back = give_green(start.apply("play ikot cw"), 0, "ikot").apply("play ikot ccw")
    assert slot_tiles(back) == slot_tiles(start) and where(back) == where(start)


def test_ikot_changes_how_cards_are_read() -> None:
    """Ikot: the logo's new direction changes how every yellow card is read."""
    faces = {"SE": "A", "W": "B", "N": "A", "NE": "B"}  # shows Y01 with the logo pointing east
    state = build([("red", "e5"), ("blue", "a1")], faces=faces, yellow=["Y01", "Y02"], green=["ikot", None])
    assert "match" not in legal(state)
    assert "match" in legal(state.apply("play ikot cw"))
    assert "match" not in legal(state.apply("play ikot ccw"))


def test_ikot_refused_on_a_locked_centre() -> None:
    """Ikot / kandado: a locked centre tile cannot be turned."""
    state = build(THREE, green=["ikot", None, None], locks={"C": 2})
    assert legal_of(state, "play") == {"play ignore"}
    refused(state, "play ikot cw", "would do nothing")


# -- palitan --------------------------------------------------------------------------------------------------


def test_palitan_swaps_two_tiles_with_their_diwa() -> None:
    """Palitan: two unlocked tiles of one kind trade slots; each keeps its face and is turned to face out; a
    diwa on a swapped tile stays on the same square of its tile (sulok's a8 becomes h9, balon's i8 becomes b9)."""
    state = build([("red", "a8"), ("blue", "i8"), ("orange", "a1")], faces={"NW": "B"}, green=["palitan", None, None])
    state = state.apply("play palitan NW NE")
    tiles = slot_tiles(state)
    assert tiles["NW"] == ("balon", "A", 0) and tiles["NE"] == ("sulok", "B", 90)
    assert where(state) == {"red": "h9", "blue": "b9", "orange": "a1"}
    assert state.actions_left == 4


def test_palitan_slots_may_be_named_in_either_order() -> None:
    """`play palitan NE NW` is the same action as `play palitan NW NE` (its canonical text)."""
    state = build([("red", "a8"), ("blue", "i8"), ("orange", "a1")], green=["palitan", None, None])
    assert str(GAME.parse_action("play palitan NE NW")) == "play palitan NW NE"
    assert state.apply("play palitan NE NW").to_json() == state.apply("play palitan NW NE").to_json()


def test_palitan_of_edge_tiles() -> None:
    """Palitan: edge tiles too; pinto's d8 lands on f2 when pinto goes to S (turned 180°)."""
    state = build([("red", "d8"), ("blue", "a1")], faces={"S": "B"}, green=["palitan", None])
    state = state.apply("play palitan N S")
    tiles = slot_tiles(state)
    assert tiles["N"] == ("silid", "B", 0) and tiles["S"] == ("pinto", "A", 180)
    assert where(state) == {"red": "f2", "blue": "a1"}


def test_palitan_refuses_locked_tiles_and_different_kinds() -> None:
    """Palitan: only unlocked tiles, only two of one kind (corner with corner, edge with edge; never the centre)."""
    state = build(THREE, green=["palitan", None, None], locks={"NE": 1})
    offered = legal_of(state, "play palitan")
    assert len(offered) == 3 + 6  # corner pairs without NE, edge pairs
    assert "play palitan NW SE" in offered and "play palitan N S" in offered
    refused(state, "play palitan NW NE", "would do nothing")
    refused(state, "play palitan NE SE", "would do nothing")
    for text in ("play palitan NW N", "play palitan C N", "play palitan W C", "play palitan NW NW"):
        with pytest.raises(MalformedActionError):
            state.apply(text)


# -- tulak ----------------------------------------------------------------------------------------------------


def test_tulak_moves_another_diwa_one_or_two_legal_steps() -> None:
    """Tulak: another diwa makes one or two legal Move steps: walls, blocks, the diagonal rule and occupied
    squares apply; after its first step its old square is free."""
    state = build([("red", "i1"), ("blue", "b8"), ("orange", "a9")], green=["tulak", None, None])
    offered = legal_of(state, "play tulak blue")
    assert {text for text in offered if len(text.split()) == 4} == {
        f"play tulak blue {d}" for d in ("E", "SE", "S", "W")
    }
    assert "play tulak blue W N" not in offered and "play tulak blue S S" in offered  # b7, then b6 on W
    assert where(state.apply("play tulak blue E E")) == {"red": "i1", "blue": "d8", "orange": "a9"}
    assert where(state.apply("play tulak blue E W"))["blue"] == "b8"  # back to the square it left
    assert where(state.apply("play tulak blue S"))["blue"] == "b7"
    refused(state, "play tulak blue N", "would do nothing")  # a thick line
    refused(state, "play tulak blue SW", "would do nothing")  # a block
    refused(state, "play tulak blue NW", "would do nothing")  # a line touches the corner
    refused(state, "play tulak blue W N", "would do nothing")  # orange is on a9
    refused(state, "play tulak blue W S", "would do nothing")  # a7 is a block
    refused(state, "play tulak blue W NE", "would do nothing")  # a line touches the corner
    refused(state, "play tulak red N", "would do nothing")  # not your own diwa
    refused(state, "play tulak teal N", "would do nothing")  # nobody is teal


def test_tulak_offered_only_when_a_diwa_can_move() -> None:
    """Tulak: offered only when another diwa has a legal step (blue on d9 has only d8, where red stands)."""
    state = build([("red", "d8"), ("blue", "d9")], green=["tulak", None])
    assert legal_of(state, "play") == {"play ignore"}


# -- tawag, lipat, tagos --------------------------------------------------------------------------------------


def test_tawag_calls_you_to_an_empty_tapos() -> None:
    """Tawag: move to any empty tapos (the logo counts), from anywhere."""
    state = build(THREE, green=["tawag", None, None])
    assert legal_of(state, "play tawag") == {"play tawag a9", "play tawag i1", "play tawag e5"}
    refused(state, "play tawag i9", "would do nothing")  # blue is there
    refused(state, "play tawag b8", "would do nothing")  # not a tapos
    assert where(state.apply("play tawag e5"))["red"] == "e5"


def test_tawag_offered_only_with_an_empty_tapos() -> None:
    """Tawag: with every tapos taken there is nothing to call you to."""
    five = [("red", "a9"), ("blue", "i9"), ("orange", "a1"), ("teal", "i1"), ("pink", "e5")]
    assert legal_of(build(five, green=["tawag", None, None, None, None]), "play") == {"play ignore"}


def test_lipat_trades_squares_with_another_diwa() -> None:
    """Lipat: your diwa and another trade squares."""
    state = build(THREE, green=["lipat", None, None])
    assert legal_of(state, "play lipat") == {"play lipat blue", "play lipat orange"}
    assert where(state.apply("play lipat blue")) == {"red": "i9", "blue": "b9", "orange": "a1"}
    refused(state, "play lipat red", "would do nothing")
    refused(state, "play lipat teal", "would do nothing")


@pytest.mark.parametrize(
    ("square", "direction", "target"),
    [
        ("b9", "S", "b8"),  # through the thick line b9/b8
        ("c9", "E", "d9"),  # through the thick line on the seam
        ("b8", "E", "c8"),  # an ordinary step is a step too
        ("e6", "N", "e7"),  # across a seam without a line
        ("e8", "N", None),  # a block
        ("a9", "N", None),  # the yellow border
        ("a9", "W", None),
        ("i5", "E", None),
        ("d8", "S", "d7"),
    ],
)
def test_tagos(square: str, direction: str, target: str | None) -> None:
    """Tagos: one orthogonal step ignoring thick lines, also across a seam; never over the border or onto a
    block."""
    state = build([("red", square), ("blue", "a1")], green=["tagos", None])
    action = f"play tagos {direction}"
    if target is None:
        refused(state, action, "would do nothing")
    else:
        assert where(state.apply(action))["red"] == target


def test_tagos_not_onto_a_diwa_and_not_diagonally() -> None:
    """Tagos: not onto a diwa; only the four orthogonal directions exist."""
    state = build([("red", "b9"), ("blue", "b8")], green=["tagos", None])
    assert legal_of(state, "play tagos") == {"play tagos W", "play tagos E"}
    refused(state, "play tagos S", "would do nothing")
    with pytest.raises(MalformedActionError):
        state.apply("play tagos SE")
    boxed = build([("red", "a9"), ("blue", "b9"), ("orange", "a8")], green=["tagos", None, None])
    assert legal_of(boxed, "play") == {"play ignore"}


# -- kandado and locks ----------------------------------------------------------------------------------------


def test_kandado_locks_a_tile_until_the_lockers_next_turn() -> None:
    """Kandado: the tile is locked against flip, pitik, ikot and palitan for everyone, the locker included; the
    lock ends at the start of the locker's next turn (not before)."""
    state = build(
        [("red", "b8"), ("blue", "e8"), ("orange", "a1")],
        green=["kandado", "pitik", "palitan"],
        green_top=["sigla"],
    )
    assert len(legal_of(state, "play kandado")) == 9
    state = state.apply("play kandado NW")
    assert state.to_json()["locks"] == {"NW": 0}
    refused(state, "flip", "unlocked")  # the locker cannot flip it either
    state = give_green(state, 0, "pitik")
    refused(state, "play pitik NW", "would do nothing")
    state = state.apply("end")
    assert state.current_player == 1 and state.to_json()["locks"] == {"NW": 0}
    refused(state, "play pitik NW", "would do nothing")
    assert "play pitik N" in legal(state)
    state = state.apply("end")
    assert not {"play palitan NW NE", "play palitan NW SW", "play palitan NW SE"} & set(legal(state))
    assert "play palitan NE SE" in legal(state)
    state = state.apply("end")
    assert state.current_player == 0 and state.to_json()["locks"] == {}
    assert "flip" in legal(state)


def test_kandado_on_the_centre_stops_ikot_for_everyone() -> None:
    """Kandado: the centre tile can be locked too; then nobody turns it, the locker included."""
    state = build(THREE, green=["kandado", "ikot", None]).apply("play kandado C")
    refused(give_green(state, 0, "ikot"), "play ikot cw", "would do nothing")
    state = state.apply("end")
    refused(state, "play ikot ccw", "would do nothing")
    assert state.to_json()["locks"] == {"C": 0}


def test_kandado_not_on_a_locked_tile_and_locks_of_two_players() -> None:
    """Kandado: any unlocked tile; each lock ends at the start of its own locker's turn."""
    state = build(THREE, green=["kandado", "kandado", None], locks={"N": 2})
    assert "play kandado N" not in legal(state)
    refused(state, "play kandado N", "would do nothing")
    state = play(state, "play kandado S", "end", "play kandado E")
    assert state.to_json()["locks"] == {"N": 2, "S": 0, "E": 1}
    state = state.apply("end")
    assert state.current_player == 2 and state.to_json()["locks"] == {"S": 0, "E": 1}
    state = state.apply("end")
    assert state.to_json()["locks"] == {"E": 1}


def test_kandado_offered_only_with_an_unlocked_tile() -> None:
    """Kandado: with every tile locked it would do nothing; pitik likewise with every border tile locked."""
    locks = dict.fromkeys(("NW", "N", "NE", "W", "C", "E", "SW", "S", "SE"), 1)
    assert legal_of(build(THREE, green=["kandado", None, None], locks=locks), "play") == {"play ignore"}
    del locks["C"]
    assert legal_of(build(THREE, green=["pitik", None, None], locks=locks), "play") == {"play ignore"}


# -- silip and order ------------------------------------------------------------------------------------------


def test_silip_shows_the_top_three_and_order_puts_them_back() -> None:
    """Silip: see the top three yellow cards, then ``order`` puts them back, top first; ``order`` costs no
    action; what silip showed stays in that seat's observation only."""
    state = build(THREE, green=["silip", None, None], yellow_top=["Y05", "Y06", "Y07"])
    state = state.apply("play silip")
    assert state.actions_left == 4 and state.current_player == 0
    orders = legal(state)
    assert len(orders) == 6 and set(orders) >= {"order Y05 Y06 Y07", "order Y07 Y05 Y06"}
    assert state.observation(0)["pending"] == {"decision": "order", "count": 3, "cards": ["Y05", "Y06", "Y07"]}
    assert state.observation(1)["pending"] == {"decision": "order", "count": 3}
    refused(state, "end", "first decide")
    refused(state, "move E", "first decide")
    refused(state, "order Y05 Y06 Y08", "")
    state = state.apply("order Y07 Y05 Y06")
    data = state.to_json()
    assert data["yellow_deck"][:3] == ["Y07", "Y05", "Y06"] and len(data["yellow_deck"]) == 29
    assert state.actions_left == 4 and data["pending"] is None
    assert state.observation(0)["seen_on_top"] == ["Y07", "Y05", "Y06"]
    assert state.observation(1)["seen_on_top"] == [] and state.observation(2)["seen_on_top"] == []
    assert "Y07" not in str(state.observation(1))


def test_what_silip_showed_leaves_as_it_is_drawn() -> None:
    """Silip: the cards seen leave the observation as they are drawn from the top."""
    state = build(THREE, green=["silip", None, None], yellow_top=["Y05", "Y06", "Y07"])
    state = play(state, "play silip", "order Y06 Y05 Y07", "exchange")
    assert state.to_json()["yellow"][0] == "Y06"
    assert state.observation(0)["seen_on_top"] == ["Y05", "Y07"]
    state = play(state, "end")
    assert state.apply("exchange").observation(0)["seen_on_top"] == ["Y07"]


def test_someone_elses_silip_clears_what_you_saw() -> None:
    """Silip: what you saw is forgotten when someone else plays silip (they may have reordered the cards)."""
    state = build(THREE, green=["silip", "silip", None], yellow_top=["Y05", "Y06", "Y07"])
    state = play(state, "play silip", "order Y05 Y06 Y07", "end", "play silip")
    assert state.observation(0)["seen_on_top"] == [] and state.observation(1)["pending"]["cards"] == [
        "Y05",
        "Y06",
        "Y07",
    ]
    state = state.apply("order Y07 Y06 Y05")
    assert state.observation(0)["seen_on_top"] == [] and state.observation(1)["seen_on_top"] == ["Y07", "Y06", "Y05"]


def test_silip_with_fewer_than_three_cards() -> None:
    """Silip: with fewer than three yellow cards left you see them all and ``order`` names all of them."""
    state = build(
        THREE,
        green=["silip", None, None],
        yellow=["Y01", "Y02", "Y03"],
        matched=[["Y04"], ["Y05"], ["Y06"]],
        yellow_deck=["Y08", "Y07"],
        options={"yellow_cards": small_yellow_set(8)},
    )
    state = state.apply("play silip")
    assert set(legal(state)) == {"order Y07 Y08", "order Y08 Y07"}
    assert state.apply("order Y07 Y08").to_json()["yellow_deck"] == ["Y07", "Y08"]


def test_silip_as_the_last_action_ends_the_turn_after_the_order() -> None:
    """Silip / a turn: with no action left the turn ends only once the order is decided."""
    state = build(THREE, green=["silip", None, None], actions_left=1).apply("play silip")
    assert state.current_player == 0 and state.actions_left == 0 and legal(state)[0].startswith("order ")
    state = state.apply(legal(state)[0])
    assert state.current_player == 1 and state.actions_left == 5


def test_silip_and_panaginip_need_a_yellow_deck() -> None:
    """Silip, panaginip: offered only when the yellow deck is not empty."""
    options = {"yellow_cards": small_yellow_set(8)}
    matched = [["Y04", "Y08"], ["Y05", "Y06"], ["Y07"]]
    for effect in ("silip", "panaginip"):
        state = build(THREE, green=[effect, None, None], yellow=["Y01", "Y02", "Y03"], matched=matched, options=options)
        assert legal_of(state, "play") == {"play ignore"}
        refused(state, f"play {effect}", "would do nothing")


# -- panaginip and keep ---------------------------------------------------------------------------------------


def test_panaginip_draws_two_and_keep_chooses_one() -> None:
    """Panaginip: draw two yellow cards, ``keep`` one of them or your own (no action); the others go to the
    bottom: the drawn ones in the order drawn, then your old card. It is not your Exchange."""
    state = build(THREE, green=["panaginip", None, None], yellow=["Y01", "Y02", "Y03"], yellow_top=["Y05", "Y06"])
    state = state.apply("play panaginip")
    assert set(legal(state)) == {"keep Y01", "keep Y05", "keep Y06"} and state.actions_left == 4
    assert state.observation(0)["pending"] == {"decision": "keep", "count": 2, "drawn": ["Y05", "Y06"]}
    assert state.observation(1)["pending"] == {"decision": "keep", "count": 2}
    refused(state, "end", "first decide")
    refused(state, "keep Y02", "")
    kept = state.apply("keep Y06")
    data = kept.to_json()
    assert data["yellow"][0] == "Y06" and data["yellow_deck"][-2:] == ["Y05", "Y01"]
    assert len(data["yellow_deck"]) == 29 and kept.actions_left == 4 and data["pending"] is None
    assert "exchange" in legal(kept)
    data = state.apply("keep Y01").to_json()
    assert data["yellow"][0] == "Y01" and data["yellow_deck"][-2:] == ["Y05", "Y06"]


def test_panaginip_without_a_card_of_your_own() -> None:
    """Panaginip: after a match you keep one of the two drawn cards; the other goes to the bottom."""
    state = build(THREE, green=["panaginip", None, None], yellow=[None, "Y02", "Y03"], matched=[["Y01"], [], []])
    state = state.apply("play panaginip")
    first, second = state.to_json()["pending"]["drawn"]
    assert set(legal(state)) == {f"keep {first}", f"keep {second}"}
    data = state.apply(f"keep {second}").to_json()
    assert data["yellow"][0] == second and data["yellow_deck"][-1] == first


def test_panaginip_with_one_card_to_choose_from_needs_no_decision() -> None:
    """Panaginip: with only one card to choose from (one drawn, none held) you simply take it."""
    state = build(
        THREE,
        green=["panaginip", None, None],
        yellow=[None, "Y02", "Y03"],
        matched=[["Y01", "Y04"], ["Y05", "Y06"], ["Y07"]],
        options={"yellow_cards": small_yellow_set(8)},
    )
    assert state.to_json()["yellow_deck"] == ["Y08"]
    state = state.apply("play panaginip")
    data = state.to_json()
    assert data["pending"] is None and data["yellow"][0] == "Y08" and data["yellow_deck"] == []
    assert state.actions_left == 4 and "move E" in legal(state)


def test_panaginip_with_one_card_drawn_and_one_held() -> None:
    """Panaginip: one card drawn and one held still make a choice."""
    state = build(
        THREE,
        green=["panaginip", None, None],
        yellow=["Y01", "Y02", "Y03"],
        matched=[["Y04"], ["Y05", "Y06"], ["Y07"]],
        options={"yellow_cards": small_yellow_set(8)},
    )
    state = state.apply("play panaginip")
    assert set(legal(state)) == {"keep Y01", "keep Y08"}
    assert state.apply("keep Y08").to_json()["yellow_deck"] == ["Y01"]


def test_keep_as_the_last_action_ends_the_turn_after_the_decision() -> None:
    """Panaginip / a turn: with no action left the turn ends once the card is kept."""
    state = build(THREE, green=["panaginip", None, None], actions_left=1).apply("play panaginip")
    assert state.current_player == 0 and moves(state) == set()
    state = state.apply(legal(state)[0])
    assert state.current_player == 1


def test_green_cards_survive_a_json_round_trip_mid_decision() -> None:
    """State: a pending order or keep decision is part of the JSON state."""
    for effect in ("silip", "panaginip"):
        state = build(THREE, green=[effect, None, None]).apply(f"play {effect}")
        again = GAME.from_json(state.to_json())
        assert again.to_json() == state.to_json() and again.legal_actions() == state.legal_actions()


def test_the_effects_of_a_green_set_of_its_own() -> None:
    """Play: with another green set (other effects, another order) each card does what its effect says."""
    cards = {
        "format": "laro-kamara-green/1",
        "cards": [{"effect": "tagos", "count": 2}, {"effect": "lipat", "count": 1}],
    }
    state = build([("red", "b9"), ("blue", "i9")], green=["tagos", "lipat"], options={"green_cards": cards})
    assert state.to_json()["green_deck"] == ["tagos"] and state.observation(0)["green"] == ["tagos", "?"]
    assert legal_of(state, "play") == {"play ignore", "play tagos S", "play tagos E", "play tagos W"}
    state = state.apply("play tagos S").apply("end")
    assert where(state)["red"] == "b8" and legal_of(state, "play") == {"play ignore", "play lipat red"}
