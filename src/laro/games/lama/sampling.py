"""Determinisations: full L.A.M.A. states that agree with everything one seat knows.

A seat sees its own hand, the whole discard pile, how many cards every hand and the draw pile hold, the scores
and tokens. Every other card of the deck (the other hands, quitters' laid-down hands included, and the draw
pile) is unknown to it and equally likely anywhere, so a determinisation deals those cards at random into hands
of the right sizes and the draw pile, and draws a fresh seed for the rounds still to come.

>>> import random
>>> from laro.games.lama import GAME
>>> state = GAME.new_game(num_players=3, seed=4)
>>> observation = state.observation(1)
>>> sample = sampler(GAME, observation)(random.Random(0))
>>> sample.observation(1) == observation
True
>>> sample.hand(1) == state.hand(1), sample.hand_sizes() == state.hand_sizes()
(True, True)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from laro.core.checks import per_seat, seat_number, whole_number
from laro.core.errors import StateError
from laro.games.lama.cards import COPIES, NUM_KINDS, card_from_text, hand_from_cards
from laro.games.lama.public import read_public
from laro.games.lama.state import LamaState
from laro.games.lama.tokens import Supply, Tokens

if TYPE_CHECKING:
    from laro.games.lama.game import LamaGame

__all__ = ["sampler"]

_BIT = tuple(1 << (4 * card) for card in range(NUM_KINDS))
_new = object.__new__


def sampler(game: LamaGame, observation: Mapping[str, Any]) -> Callable[[random.Random], LamaState]:
    """Determinisations of a seat's ``observation`` (see the module docstring); a malformed observation, or a
    spectator's, raises :class:`StateError`."""
    try:
        return _Sampler(game, observation).sample
    except StateError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        what = f"missing key {error}" if isinstance(error, KeyError) else str(error)
        raise StateError(f"not a L.A.M.A. observation: {what}") from None


class _Sampler:
    """The known parts of a state, read once; :meth:`sample` deals the unknown cards anew on every call."""

    __slots__ = ("hand", "seat", "sizes", "template", "unknown")

    def __init__(self, game: LamaGame, observation: Mapping[str, Any]) -> None:
        if observation.get("game") != "lama":
            raise StateError(f"this is a {observation.get('game')!r} observation, not L.A.M.A.")
        if observation.get("seat") is None:
            raise StateError("a spectator's observation has no seat to sample for")
        n = observation["num_players"]
        game._check_players(n)
        seat = seat_number(observation["seat"], n, "seat")
        options = game.new_game(n, seed=0, options=observation["options"]).options
        own = [card_from_text(text) for text in observation["hand"]]
        discard = [card_from_text(text) for text in observation["discard_pile"]]
        sizes = [whole_number(size, "hand_sizes") for size in per_seat(observation["hand_sizes"], "hand_sizes", n)]
        if sizes[seat] != len(own):
            raise StateError("the seat's hand does not match its hand size")
        left = Counter({card: COPIES for card in range(NUM_KINDS)})
        left.subtract(own + discard)
        if min(left.values()) < 0:
            raise StateError("more copies of a card are seen than the deck holds")
        unknown = sorted(left.elements())
        draw_count = whole_number(observation["draw_pile_count"], "draw_pile_count")
        if len(unknown) != sum(sizes) - sizes[seat] + draw_count:
            raise StateError("the unseen cards do not fill the other hands and the draw pile")
        if not discard:
            raise StateError("the discard pile cannot be empty")
        template = _new(LamaState)
        template.game = game
        template.num_players = n
        template.options = options
        template.round = whole_number(observation["round"], "round", minimum=1)
        template.discard = tuple(discard)
        template.draw_pos = 0
        read_public(template, observation, n)
        if options["token_supply"] == "boxed":
            template.tokens = tuple(Tokens(**t) for t in per_seat(observation["tokens"], "tokens", n))
            template.supply = Supply(**observation["supply"])
        else:
            template.supply, template.tokens = None, None
        current = observation["current_player"]
        template.current_player = None if current is None else seat_number(current, n, "current_player")
        self.template = template
        self.seat = seat
        self.hand = hand_from_cards(own)
        self.sizes = sizes
        self.unknown = unknown

    def sample(self, rng: random.Random) -> LamaState:
        """One determinisation: the unseen cards dealt at random, a fresh seed for later rounds."""
        cards = self.unknown.copy()
        rnd = rng.random
        for i in range(len(cards) - 1, 0, -1):  # Fisher-Yates on random(): twice as fast as rng.shuffle here
            j = int(rnd() * (i + 1))
            cards[i], cards[j] = cards[j], cards[i]
        bit = _BIT.__getitem__
        hands = []
        start = 0
        for seat, size in enumerate(self.sizes):
            if seat == self.seat:
                hands.append(self.hand)
                continue
            hands.append(sum(map(bit, cards[start : start + size])))
            start += size
        template = self.template
        state = _new(LamaState)
        state.game = template.game
        state.num_players = template.num_players
        state.options = template.options
        state.seed = rng.getrandbits(63)
        state.round = template.round
        state.hands = hands
        state.deck = tuple(cards[start:])
        state.draw_pos = 0
        state.discard = template.discard
        state.quit_mask = template.quit_mask
        state.scores = template.scores
        state.starter = template.starter
        state.last_player = template.last_player
        state.last_round = template.last_round
        state.winners = template.winners
        state.supply = template.supply
        state.tokens = template.tokens
        state.current_player = template.current_player
        if state.current_player is None:
            state._legal = ()
        else:
            state._set_legal()
        return state
