"""Helpers for the Kamara tests: play-phase states built from JSON, and short ways to act on them.

Squares are named ``a1``-``i9`` (``a9`` north-west), slots ``NW N NE W C E SW S SE``. By default the chamber is
the standard tiles in their standard slots, every face A and the logo up (``STANDARD``). ``#`` is a block, ``P`` a
paltik, ``T`` a tapos, ``K`` the logo; ``|`` and ``=`` are thick lines, ``:`` and ``~`` seams between tiles:

    9 T . .|. # .:. . T       NW sulok    N pinto     NE balon
        =  :     :
    8 . P .:. P .:.|. .
           :=   =:
    7 # . .:. . .|P . #
      ~~~~~~~~~~~~~~~~~
    6 P . .:# . #:# . .       W bintana   C kamara    E pasilyo
           :     :    =
    5 .|.|.:. K .:. P .
           :     :    =
    4 # . .:# . #:# . .
      ~~~~~~~~~~~~~~~~=
    3 .|. .:. . P:P . .       SW hagdan   S silid     SE haligi
          =:     :
    2 . P .:.|. .:. # .
           :     :
    1 T # .:# .|.:.|. T
      a b c d e f g h i
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from laro.core import IllegalActionError, validate_options
from laro.games.kamara import GAME, KamaraState
from laro.games.kamara.chamber import SLOTS
from laro.games.kamara.components import DEFAULT_DATA, EFFECTS

# Slot -> (tile, face[, centre rotation]): the standard tiles, every face A, the logo up.
STANDARD: dict[str, tuple[Any, ...]] = {
    "NW": ("sulok", "A"),
    "N": ("pinto", "A"),
    "NE": ("balon", "A"),
    "W": ("bintana", "A"),
    "C": ("kamara", "A", 0),
    "E": ("pasilyo", "A"),
    "SW": ("hagdan", "A"),
    "S": ("silid", "A"),
    "SE": ("haligi", "A"),
}
# Border tiles face out: the rotation (degrees clockwise) of the tile in each slot.
OUTWARD = {"NW": 0, "N": 0, "NE": 90, "W": 270, "E": 90, "SW": 270, "S": 180, "SE": 180}
DEFAULT_DIWA = (("red", "e5"), ("blue", "a1"), ("orange", "i1"))


def build(
    diwa: Sequence[tuple[str, str]] = DEFAULT_DIWA,
    *,
    tiles: Mapping[str, tuple[Any, ...]] | None = None,
    faces: Mapping[str, str] | None = None,
    logo: int = 0,
    yellow: Sequence[str | None] | None = None,
    green: Sequence[str | None] | None = None,
    matched: Sequence[Sequence[str]] | None = None,
    yellow_top: Sequence[str] = (),
    yellow_deck: Sequence[str] | None = None,
    green_top: Sequence[str] = (),
    green_deck: Sequence[str] | None = None,
    current: int = 0,
    first: int = 0,
    actions_left: int | None = None,
    round: int = 1,
    locks: Mapping[str, int] | None = None,
    exchanged: bool = False,
    green_drawn: bool = False,
    pending: dict[str, Any] | None = None,
    known: Sequence[Sequence[str]] | None = None,
    options: Mapping[str, Any] | None = None,
    seed: int = 1,
) -> KamaraState:
    """A valid state in the play phase, one seat per ``(colour, square)`` in ``diwa``.

    ``tiles`` replaces slots of :data:`STANDARD` (``{"NW": ("balon", "B")}``; the centre takes a rotation),
    ``faces`` only turns faces (``{"N": "B"}``), ``logo`` is the centre's rotation in degrees. Seat ``i`` holds
    ``Y25 + i`` unless ``yellow`` says otherwise and no green card unless ``green`` says. The yellow deck is
    ``yellow_top`` followed by every card not placed elsewhere (in id order) unless ``yellow_deck`` gives it
    whole; the green deck likewise (``green_top``, then the rest in the set's order, or ``green_deck``).
    """
    n = len(diwa)
    checked = validate_options(GAME.option_specs, options)
    components = GAME.components(checked)
    layout = dict(STANDARD)
    layout["C"] = ("kamara", "A", logo)
    layout.update(tiles or {})
    for slot, face in (faces or {}).items():
        layout[slot] = (layout[slot][0], face, *layout[slot][2:])
    yellow = list(yellow) if yellow is not None else [f"Y{25 + seat:02d}" for seat in range(n)]
    green = list(green) if green is not None else [None] * n
    matched = [list(cards) for cards in matched] if matched is not None else [[] for _ in range(n)]
    drawn = list(pending.get("drawn", [])) if pending else []
    placed = [card for card in yellow if card] + [card for cards in matched for card in cards] + drawn
    if yellow_deck is None:
        rest = [card.id for card in components.yellow if card.id not in {*placed, *yellow_top}]
        yellow_deck = [*yellow_top, *rest]
    all_yellow = sorted(card.id for card in components.yellow)
    assert sorted([*placed, *yellow_deck]) == all_yellow, "every yellow card must be placed exactly once"
    all_green = Counter(EFFECTS[effect] for effect in components.green_deck)
    if green_deck is None:
        rest_green = all_green - Counter([effect for effect in green if effect]) - Counter(green_top)
        ordered = [EFFECTS[effect] for effect in components.green_deck]
        green_deck = [*green_top]
        for effect in ordered:
            if rest_green[effect] > 0:
                rest_green[effect] -= 1
                green_deck.append(effect)
    data = GAME.new_game(n, seed=seed, options=options).to_json()
    data.update(
        phase="play",
        tiles={
            slot: {
                "tile": layout[slot][0],
                "face": layout[slot][1],
                "rotation": layout[slot][2] if slot == "C" else OUTWARD[slot],
            }
            for slot in SLOTS
        },
        pool=[],
        diwa=dict(diwa),
        colours=[colour for colour, _ in diwa],
        yellow=yellow,
        green=green,
        matched=matched,
        yellow_deck=list(yellow_deck),
        green_deck=list(green_deck),
        current_player=current,
        first_player=first,
        actions_left=checked["actions_per_turn"] if actions_left is None else actions_left,
        round=round,
        locks=dict(locks or {}),
        exchanged=exchanged,
        green_drawn=green_drawn,
        pending=pending,
        known=[list(seen) for seen in known] if known is not None else [[] for _ in range(n)],
        winners=[],
    )
    return GAME.from_json(json.loads(json.dumps(data)))


def legal(state: KamaraState) -> list[str]:
    return [str(action) for action in state.legal_actions()]


def legal_of(state: KamaraState, word: str) -> set[str]:
    """The legal actions whose text starts with ``word`` (``"move"``, ``"poke"``, ``"play tulak"`` ...)."""
    return {text for text in legal(state) if text == word or text.startswith(word + " ")}


def moves(state: KamaraState) -> set[str]:
    """The directions the current player may move."""
    return {text.split()[1] for text in legal_of(state, "move")}


def play(state: KamaraState, *actions: str) -> KamaraState:
    for action in actions:
        state = state.apply(action)
    return state


def where(state: KamaraState) -> dict[str, str]:
    """Colour -> square of every diwa."""
    squares: dict[str, str] = state.to_json()["diwa"]
    return squares


def slot_tiles(state: KamaraState) -> dict[str, tuple[str, str, int]]:
    """Slot -> (tile, face, rotation)."""
    return {slot: (t["tile"], t["face"], t["rotation"]) for slot, t in state.to_json()["tiles"].items()}


def refused(state: KamaraState, action: str, reason: str = "") -> str:
    """``action`` raises IllegalActionError (a ValueError) whose message holds ``reason``; the state is unchanged."""
    before = state.to_json()
    assert action not in legal(state)
    with pytest.raises(IllegalActionError, match=re.escape(reason) if reason else None) as error:
        state.apply(action)
    assert isinstance(error.value, ValueError)
    assert state.to_json() == before
    return str(error.value)


def give_green(state: KamaraState, seat: int, effect: str) -> KamaraState:
    """The same state with ``seat`` holding a green ``effect``, taken from the green deck (its first copy)."""
    data = state.to_json()
    old = data["green"][seat]
    data["green_deck"].remove(effect)
    if old is not None:
        data["green_deck"].append(old)
    data["green"][seat] = effect
    return GAME.from_json(data)


def without(state: KamaraState, *keys: str) -> dict[str, Any]:
    """The JSON state without ``keys``."""
    data = state.to_json()
    for key in keys:
        del data[key]
    return data


def small_yellow_set(count: int = 8) -> dict[str, Any]:
    """A yellow card set of the first ``count`` default cards (at least 8), for games with a short deck."""
    data: dict[str, Any] = json.loads(json.dumps(DEFAULT_DATA["yellow_cards"]))
    data["cards"] = data["cards"][:count]
    return data
