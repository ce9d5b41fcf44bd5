"""L.A.M.A. observations as a fixed-size vector: what one seat may know, read from its observation.

Seats are listed from the observing seat's point of view (itself first, then its left neighbour, …), so a
policy learnt at one seat plays any seat. The card kinds come from the game (``1`` to ``6`` and ``L`` in the classic
game); an edition with more kinds gives a longer vector of the same layout.

>>> from laro.games.lama import GAME
>>> state = GAME.new_game(num_players=3, seed=2)
>>> encoding = LamaEncoding(num_players=3)
>>> vector = encoding.encode(state.observation(0))
>>> vector.shape, encoding.size, float(vector[:7].sum() * encoding.copies)  # six cards in hand
((40,), 40, 6.0)
>>> [name for name, _, _ in encoding.fields()][:3]
['hand', 'top_card', 'discard_pile']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from laro.games.lama import CARD_TEXT
from laro.games.lama.cards import COPIES, DECK

if TYPE_CHECKING:
    from laro.games.lama.state import LamaState

__all__ = ["PER_SEAT", "LamaEncoding"]

PER_SEAT = ("hand_size", "has_quit", "score", "to_move", "starter", "played_last")


class LamaEncoding:
    """The observation vector of one seat (``float32``, every entry in 0..1).

    Layout, ``K`` card kinds and ``n`` players: own hand (count of each kind / copies, ``K``), top card of the
    discard pile (one-hot, ``K``), discard pile (count of each kind / copies, ``K``), draw pile (cards / deck
    size, 1), then for each seat from the observer on: hand size / deck size, has quit, score / end score
    (capped at 1), is to move, started the round, played the last card (6 each). Counts of a kind are divided by
    the classic game's 8 copies, sizes by the 56 cards of either edition.
    """

    def __init__(self, num_players: int, kinds: Sequence[str] = CARD_TEXT, copies: int = COPIES) -> None:
        self.num_players = num_players
        self.kinds = tuple(kinds)
        self.copies = copies
        self.deck_size = len(DECK)  # 56 cards in either edition
        self._kind = {text: i for i, text in enumerate(self.kinds)}
        k = len(self.kinds)
        self._seats_at = 3 * k + 1
        self.size = self._seats_at + len(PER_SEAT) * num_players

    def fields(self) -> list[tuple[str, int, int]]:
        """``(name, start, length)`` of every part of the vector, in order."""
        k = len(self.kinds)
        parts = [("hand", 0, k), ("top_card", k, k), ("discard_pile", 2 * k, k), ("draw_pile", 3 * k, 1)]
        for r in range(self.num_players):
            name = "self" if r == 0 else f"seat+{r}"
            parts += [(f"{name}.{what}", self._seats_at + 6 * r + i, 1) for i, what in enumerate(PER_SEAT)]
        return parts

    def encode(self, observation: Mapping[str, Any]) -> npt.NDArray[np.float32]:
        k, n = len(self.kinds), self.num_players
        vector = np.zeros(self.size, dtype=np.float32)
        kind = self._kind
        for card in observation["hand"]:
            vector[kind[card]] += 1.0 / self.copies
        if observation["discard_pile"]:  # empty only while a round is being dealt (OpenSpiel's chance nodes)
            vector[k + kind[observation["top_card"]]] = 1.0
        for card in observation["discard_pile"]:
            vector[2 * k + kind[card]] += 1.0 / self.copies
        vector[3 * k] = observation["draw_pile_count"] / self.deck_size
        me = observation["seat"]
        end_score = observation["options"]["end_score"]
        sizes, quits, scores = observation["hand_sizes"], observation["quit"], observation["scores"]
        for r in range(n):
            seat = (me + r) % n
            at = self._seats_at + 6 * r
            vector[at] = sizes[seat] / self.deck_size
            vector[at + 1] = quits[seat]
            vector[at + 2] = min(1.0, scores[seat] / end_score)
            vector[at + 3] = observation["current_player"] == seat
            vector[at + 4] = observation["starter"] == seat
            vector[at + 5] = observation["last_player"] == seat
        return vector

    def encode_state(self, state: LamaState, seat: int) -> npt.NDArray[np.float32]:
        """The same vector as ``encode(state.observation(seat))``, read from the state itself: the environments'
        fast path, since no observation is built (bots still encode observations: they never see a state).

        >>> from laro.games.lama import GAME
        >>> state = GAME.new_game(num_players=3, seed=2)
        >>> encoding = LamaEncoding(num_players=3)
        >>> bool((encoding.encode_state(state, 1) == encoding.encode(state.observation(1))).all())
        True
        """
        k, n = len(self.kinds), self.num_players
        scale, deck = 1.0 / self.copies, self.deck_size
        hands, discard = state.hands, state.discard
        shifts = range(0, 4 * k, 4)
        hand = hands[seat]
        values = [((hand >> shift) & 15) * scale for shift in shifts]
        top = [0.0] * k
        pile = [0] * k
        if discard:
            top[discard[-1]] = 1.0
            for card in discard:
                pile[card] += 1
        values += top
        values += [count * scale for count in pile]
        values.append((len(state.deck) - state.draw_pos) / deck)
        end_score, scores, quit_mask = state.options["end_score"], state.scores, state.quit_mask
        for r in range(n):
            other = (seat + r) % n
            held = hands[other]
            values += (
                sum((held >> shift) & 15 for shift in shifts) / deck,
                (quit_mask >> other) & 1,
                min(1.0, scores[other] / end_score),
                state.current_player == other,
                state.starter == other,
                state.last_player == other,
            )
        return np.array(values, dtype=np.float32)
