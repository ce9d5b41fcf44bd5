"""Determinisations: full L.A.M.A. states that agree with everything one seat knows.

A seat sees its own hand, the whole discard pile, how many cards every hand and the draw pile hold, the scores
and tokens. Every other card of the deck (the other hands, quitters' laid-down hands included, and the draw
pile; in the Party Edition the plus cards and the pink llama it has not seen too) is unknown to it and equally
likely anywhere, so a determinisation deals those cards at random into hands of the right sizes and the draw
pile, and draws a fresh seed for the rounds still to come.

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
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from laro.core.checks import per_seat, seat_number, whole_number
from laro.core.errors import StateError
from laro.games.lama.cards import (
    COPIES,
    NUM_KINDS,
    NUM_PARTY_KINDS,
    PARTY_COPIES,
    card_from_text,
    hand_from_cards,
    party_card_from_text,
)
from laro.games.lama.public import read_public
from laro.games.lama.state import LamaState
from laro.games.lama.tokens import Supply, Tokens

if TYPE_CHECKING:
    from laro.games.lama.game import LamaGame

__all__ = ["LamaSampler", "sampler"]

_BIT = tuple(1 << (4 * card) for card in range(NUM_PARTY_KINDS))
_new = object.__new__


def sampler(
    game: LamaGame, observation: Mapping[str, Any], excluded: Sequence[Sequence[int]] | None = None
) -> LamaSampler:
    """Determinisations of a seat's ``observation`` (see the module docstring): a function of a ``random.Random``
    (a :class:`LamaSampler`); a malformed observation, or a spectator's, raises :class:`StateError`.

    ``excluded`` narrows them with what a reader believes of the other hands: per seat, one mask per card it
    believes it can name a limit for (bit ``k`` set: that card is not a ``k``, any card of the edition). Those
    cards are dealt first, each from the unseen cards it may be; a card no unseen card fits is dealt from all of them.
    """
    try:
        return LamaSampler(game, observation, excluded)
    except StateError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        what = f"missing key {error}" if isinstance(error, KeyError) else str(error)
        raise StateError(f"not a L.A.M.A. observation: {what}") from None


class LamaSampler:
    """The known parts of a state, read once; a call (:meth:`sample`) deals the unknown cards anew, and
    :meth:`deal` deals them without making the state (a search that plays many determinisations at once as
    arrays, ``laro.bots.lama_batch``, makes a state only where it needs one: :meth:`state`)."""

    __slots__ = ("counts", "hand", "kinds", "limits", "seat", "sizes", "state_type", "template", "unknown")

    def __init__(
        self, game: LamaGame, observation: Mapping[str, Any], excluded: Sequence[Sequence[int]] | None
    ) -> None:
        if observation.get("game") != "lama":
            raise StateError(f"this is a {observation.get('game')!r} observation, not L.A.M.A.")
        if observation.get("seat") is None:
            raise StateError("a spectator's observation has no seat to sample for")
        n = observation["num_players"]
        game._check_players(n)
        seat = seat_number(observation["seat"], n, "seat")
        fresh = game.new_game(n, seed=0, options=observation["options"])
        options = fresh.options
        kinds = tuple(range(NUM_PARTY_KINDS if fresh.party else NUM_KINDS))
        copies = PARTY_COPIES if fresh.party else (COPIES,) * NUM_KINDS
        read = party_card_from_text if fresh.party else card_from_text
        own = [read(text) for text in observation["hand"]]
        discard = [read(text) for text in observation["discard_pile"]]
        sizes = [whole_number(size, "hand_sizes") for size in per_seat(observation["hand_sizes"], "hand_sizes", n)]
        if sizes[seat] != len(own):
            raise StateError("the seat's hand does not match its hand size")
        left = Counter({card: copies[card] for card in kinds})
        left.subtract(own + discard)
        if min(left.values()) < 0:
            raise StateError("more copies of a card are seen than the deck holds")
        unknown = sorted(left.elements())
        draw_count = whole_number(observation["draw_pile_count"], "draw_pile_count")
        if len(unknown) != sum(sizes) - sizes[seat] + draw_count:
            raise StateError("the unseen cards do not fill the other hands and the draw pile")
        if not discard:
            raise StateError("the discard pile cannot be empty")
        template: LamaState = _new(type(fresh))
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
        self.state_type = type(fresh)
        self.kinds = kinds
        self.seat = seat
        self.hand = hand_from_cards(own)
        self.sizes = sizes
        self.unknown = unknown
        self.counts = [left[card] for card in kinds]
        self.limits = _limits(excluded, sizes, seat, kinds) if excluded else ()

    def sample(self, rng: random.Random) -> LamaState:
        """One determinisation: the unseen cards dealt at random, a fresh seed for later rounds."""
        return self._state(*self.deal(rng))

    __call__ = sample

    def deal(self, rng: random.Random) -> tuple[list[int], tuple[int, ...], int]:
        """What :meth:`sample` draws, without the state: the packed hands, the draw pile and the seed for later
        rounds (the same ``rng`` gives the same, and leaves it as :meth:`sample` does)."""
        rnd = rng.random
        if self.limits:
            cards, dealt, sizes = self._deal_limited(rnd)
        else:
            cards, dealt, sizes = self.unknown.copy(), None, self.sizes
        for i in range(len(cards) - 1, 0, -1):  # Fisher-Yates on random(): twice as fast as rng.shuffle here
            j = int(rnd() * (i + 1))
            cards[i], cards[j] = cards[j], cards[i]
        bit = _BIT.__getitem__
        hands = []
        start = 0
        for seat, size in enumerate(sizes):
            if seat == self.seat:
                hands.append(self.hand)
                continue
            hand = sum(map(bit, cards[start : start + size]))
            hands.append(hand if dealt is None else hand + dealt[seat])
            start += size
        return hands, tuple(cards[start:]), rng.getrandbits(63)

    def state(self, hands: list[int], deck: tuple[int, ...], seed: int) -> LamaState:
        """The determinisation of the packed ``hands``, the draw pile ``deck`` and ``seed`` (as :meth:`deal`
        gives them)."""
        return self._state(hands, deck, seed)

    def _state(self, hands: list[int], deck: tuple[int, ...], seed: int) -> LamaState:
        template = self.template
        state = _new(self.state_type)
        state.game = template.game
        state.num_players = template.num_players
        state.options = template.options
        state.seed = seed
        state.round = template.round
        state.hands = hands
        state.deck = deck
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

    def _deal_limited(self, rnd: Callable[[], float]) -> tuple[list[int], list[int], list[int]]:
        """Deal the cards with limits first, each from the unseen cards it may be; the rest of the unseen cards,
        and the seats' hand sizes still to fill."""
        counts = self.counts.copy()
        dealt = [0] * len(self.sizes)
        sizes = self.sizes.copy()
        for seat, kinds in self.limits:
            total = 0
            for kind in kinds:
                total += counts[kind]
            if not total:  # nothing unseen fits: the belief was wrong, any card will do
                kinds = self.kinds
                total = sum(counts)
            pick = int(rnd() * total)
            for kind in kinds:
                pick -= counts[kind]
                if pick < 0:
                    break
            counts[kind] -= 1
            dealt[seat] += _BIT[kind]
            sizes[seat] -= 1
        cards = [kind for kind in self.kinds for _ in range(counts[kind])]
        return cards, dealt, sizes


def _limits(
    excluded: Sequence[Sequence[int]], sizes: Sequence[int], seat: int, all_kinds: tuple[int, ...]
) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """(seat, kinds it may be) for every limited card of the other seats, the narrowest first."""
    if len(excluded) != len(sizes):
        raise StateError("the limits name a different number of seats")
    limits = []
    for other, masks in enumerate(excluded):
        if other == seat or not masks:
            continue
        if len(masks) > sizes[other]:
            raise StateError(f"seat {other} holds {sizes[other]} cards, not {len(masks)}")
        for mask in masks:
            kinds = tuple(kind for kind in all_kinds if not (mask >> kind) & 1)
            if len(kinds) < len(all_kinds):
                limits.append((other, kinds))
    limits.sort(key=lambda limit: len(limit[1]))
    return tuple(limits)
