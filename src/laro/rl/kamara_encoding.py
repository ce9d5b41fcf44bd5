"""Kamara observations as a fixed-size vector: what one seat may know, read from its observation.

The chamber is described slot by slot (which tile, which face, how it is turned, whether its paltik shows
light), each seat from the observer on by its colour, its diwa's row and column, its matches and the cards the
observer may see, and the yellow cards by their codes (the state asked of each of the eight positions around the
logo), never by their ids, so that a policy reads what a card asks for.

>>> from laro.games.kamara import GAME
>>> state = GAME.new_game(num_players=3, seed=2)
>>> encoding = KamaraEncoding(num_players=3, components=state.components)
>>> vector = encoding.encode(state.observation(0))
>>> vector.shape == (encoding.size,), encoding.size
(True, 439)
>>> float(vector[0])  # the first phase: placing tiles
1.0
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from laro.games.kamara.actions import COLOURS
from laro.games.kamara.chamber import SLOTS, square_index
from laro.games.kamara.components import EFFECTS, POSITIONS, Components

__all__ = ["KamaraEncoding"]

PHASES = ("tiles", "diwa", "play", "over")
CODE = 2 * len(POSITIONS)  # per position: must be light, must be dark
SLOT_PART = 9 + 1 + 4 + 1  # tile (one-hot), face B, rotation (one-hot), paltik light
SEAT_PART = len(COLOURS) + 9 + 9 + 1 + 2 + CODE + 2 + len(EFFECTS) + 4
HELD = 3  # the most cards a decision or a silip shows


class KamaraEncoding:
    """The observation vector of one seat (``float32``, every entry in 0..1).

    Layout: phase (one-hot, 4); for each of the nine slots NW…SE: tile number (one-hot, 9), face B, rotation
    (one-hot, 4), paltik light (15 each); tiles in the pool (9); for each seat from the observer on: colour
    (one-hot, 8), diwa row and column (one-hot, 9 + 9), matches / target, yellow card held / hidden, its code (16),
    green card held / hidden, its effect (one-hot, 11), is to move, elder, first player, locks held / 9;
    actions left / (actions per turn + 6) (at most 1), exchanged, green card drawn, round / max rounds, yellow and
    green deck sizes;
    the pending decision (order, keep, count / 3) and the codes of the cards it shows (3 by 16); the codes of the
    cards silip showed still on top of the yellow deck (3 by 16).
    """

    def __init__(self, num_players: int, components: Components) -> None:
        self.num_players = num_players
        self._tile = {tile.id: number for number, tile in enumerate(components.tiles)}
        self._paltik = {
            (tile.id, face): tile.faces[face].paltik == "light" for tile in components.tiles for face in (0, 1)
        }
        self._codes = {card.id: card.code for card in components.yellow}
        self._yellow_total = max(1, len(components.yellow))
        self._green_total = max(1, len(components.green_deck))
        self._colour = {name: i for i, name in enumerate(COLOURS)}
        self._effect = {name: i for i, name in enumerate(EFFECTS)}
        self._seats_at = len(PHASES) + 9 * SLOT_PART + 9
        self._tail_at = self._seats_at + SEAT_PART * num_players
        self.size = self._tail_at + 6 + 3 + 2 * HELD * CODE

    def _code(self, vector: npt.NDArray[np.float32], at: int, code: tuple[tuple[int, bool], ...]) -> None:
        for position, light in code:
            vector[at + 2 * position + (0 if light else 1)] = 1.0

    def encode(self, observation: Mapping[str, Any]) -> npt.NDArray[np.float32]:
        vector = np.zeros(self.size, dtype=np.float32)
        vector[PHASES.index(observation["phase"])] = 1.0
        at = len(PHASES)
        for slot, name in enumerate(SLOTS):
            placed = observation["tiles"][name]
            if placed is not None:
                base = at + SLOT_PART * slot
                face = "AB".index(placed["face"])
                vector[base + self._tile[placed["tile"]]] = 1.0
                vector[base + 9] = face
                vector[base + 10 + placed["rotation"] // 90] = 1.0
                vector[base + 14] = self._paltik[(placed["tile"], face)]
        at += 9 * SLOT_PART
        for tile in observation["pool"]:
            vector[at + self._tile[tile]] = 1.0
        self._seats(vector, observation)
        options = observation["options"]
        at = self._tail_at
        # sigla adds 3 actions to a turn; a turn sees at most two green cards (the one held, the one drawn)
        vector[at] = min(1.0, observation["actions_left"] / (options["actions_per_turn"] + 6))
        vector[at + 1] = observation["exchanged"]
        vector[at + 2] = observation["green_drawn"]
        vector[at + 3] = min(1.0, observation["round"] / options["max_rounds"])
        vector[at + 4] = observation["yellow_deck_count"] / self._yellow_total
        vector[at + 5] = observation["green_deck_count"] / self._green_total
        at += 6
        pending = observation["pending"]
        shown: list[str] = []
        if pending is not None:
            vector[at + (0 if pending["decision"] == "order" else 1)] = 1.0
            vector[at + 2] = pending["count"] / HELD
            shown = pending.get("cards") or pending.get("drawn") or []
        at += 3
        for i, card in enumerate(shown[:HELD]):
            self._code(vector, at + CODE * i, self._codes[card])
        at += HELD * CODE
        for i, card in enumerate(observation["seen_on_top"][:HELD]):
            self._code(vector, at + CODE * i, self._codes[card])
        return vector

    def _seats(self, vector: npt.NDArray[np.float32], observation: Mapping[str, Any]) -> None:
        n = self.num_players
        me = observation["seat"]
        target = observation["options"]["target_matches"]
        square_of = {colour: square_index(square) for colour, square in observation["diwa"].items()}
        locks = list(observation["locks"].values())
        for r in range(n):
            seat = (me + r) % n
            at = self._seats_at + SEAT_PART * r
            colour = observation["colours"][seat]
            if colour is not None:
                vector[at + self._colour[colour]] = 1.0
                square = square_of.get(colour)
                if square is not None:
                    vector[at + 8 + square // 9] = 1.0
                    vector[at + 17 + square % 9] = 1.0
            at += 26
            vector[at] = min(1.0, len(observation["matched"][seat]) / target)
            yellow = observation["yellow"][seat]
            vector[at + 1] = yellow is not None
            vector[at + 2] = yellow == "?"
            if yellow not in (None, "?"):
                self._code(vector, at + 3, self._codes[yellow])
            at += 3 + CODE
            green = observation["green"][seat]
            vector[at] = green is not None
            vector[at + 1] = green == "?"
            if green not in (None, "?"):
                vector[at + 2 + self._effect[green]] = 1.0
            at += 2 + len(EFFECTS)
            vector[at] = observation["current_player"] == seat
            vector[at + 1] = observation["elder"] == seat
            vector[at + 2] = observation["first_player"] == seat
            vector[at + 3] = locks.count(seat) / 9
