"""Determinisations: full Kamara states that agree with everything one seat knows.

A seat sees the chamber, every diwa, the matched cards, the deck sizes and who holds a card; it knows its own
yellow and green cards (everyone's, with ``open_cards``), the top of the yellow deck its own ``silip`` showed it
(``seen_on_top``) and the cards of its own pending ``order`` or ``keep``. Every other card is equally likely in
any place it is not seen: another seat's yellow and green card, another seat's pending ``keep`` draw, the rest
of the yellow deck below what the seat saw, and the whole green deck. A determinisation deals those cards at
random, keeps what the seat saw where it saw it, leaves the other seats knowing nothing of the deck (their
``known`` is empty) and draws a fresh seed.

The observation is read and checked once; each call only shuffles the unseen cards into a copy of a template.

>>> import random
>>> from laro.games.kamara import GAME
>>> state = GAME.new_game(num_players=4, seed=3)
>>> observation = state.observation(2)
>>> sample = sampler(GAME, observation)(random.Random(0))
>>> sample.observation(2) == observation, sample.yellow[2] == state.yellow[2]
(True, True)
>>> len(sample.yellow_deck) == len(state.yellow_deck), sample.yellow_deck != state.yellow_deck
(True, True)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from laro.core.checks import per_seat, seat_number, whole_number
from laro.core.errors import StateError
from laro.games.kamara.actions import KEEP, KamaraAction
from laro.games.kamara.components import CARD_IDS, EFFECTS
from laro.games.kamara.serial import from_json
from laro.games.kamara.state import KamaraState

if TYPE_CHECKING:
    from laro.games.kamara.game import KamaraGame

__all__ = ["sampler"]

_CARD_NUMBER = {card: number for number, card in enumerate(CARD_IDS)}
_EFFECT_NUMBER = {effect: number for number, effect in enumerate(EFFECTS)}
_UNSEEN = -2  # a held card the seat cannot see ("?")


def sampler(game: KamaraGame, observation: Mapping[str, Any]) -> Callable[[random.Random], KamaraState]:
    """Determinisations of a seat's ``observation`` (see the module docstring): each call of the result draws
    one from its ``random.Random``. A spectator's observation, another game's or one that no state could show
    raises :class:`StateError` (a ``ValueError``).

    >>> from laro.games.kamara import GAME
    >>> draw = sampler(GAME, GAME.new_game(3, seed=8).observation(0))
    >>> draw(random.Random(1)).to_json() == draw(random.Random(1)).to_json()
    True
    >>> sampler(GAME, GAME.new_game(3, seed=8).public_observation())
    Traceback (most recent call last):
    ...
    laro.core.errors.StateError: a spectator's observation has no seat to sample for
    """
    if not isinstance(observation, Mapping):
        raise StateError("a Kamara observation is a JSON object")
    try:
        return _Sampler(game, observation).sample
    except StateError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        what = f"missing key {error}" if isinstance(error, KeyError) else str(error)
        raise StateError(f"not a valid Kamara observation: {what}") from None


class _Sampler:
    """The seen parts of a state, read once into a template; :meth:`sample` deals the unseen cards anew.

    Unseen yellow cards fill, in this order, the hidden hands (``yellow_hidden`` seats), another seat's pending
    ``keep`` draw (``drawn_hidden`` cards) and the yellow deck below ``yellow_top``; unseen green cards fill the
    hidden green hands (``green_hidden`` seats), then the green deck.
    """

    __slots__ = (
        "drawn_hidden",
        "green_hidden",
        "green_pool",
        "legal",
        "template",
        "yellow_hidden",
        "yellow_pool",
        "yellow_top",
    )

    def __init__(self, game: KamaraGame, observation: Mapping[str, Any]) -> None:
        if observation.get("game") != "kamara":
            raise StateError(f"this is a {observation.get('game')!r} observation, not Kamara")
        if observation.get("seat") is None:
            raise StateError("a spectator's observation has no seat to sample for")
        n = observation["num_players"]
        components = game.blank_state(n, observation["options"], 0).components
        seat = seat_number(observation["seat"], n, "seat")
        current = observation["current_player"]
        mine = current is not None and current == seat
        yellow = [_read(text, _CARD_NUMBER) for text in per_seat(observation["yellow"], "yellow", n)]
        green = [_read(text, _EFFECT_NUMBER) for text in per_seat(observation["green"], "green", n)]
        if yellow[seat] == _UNSEEN or green[seat] == _UNSEEN:
            raise StateError("a seat sees its own cards")
        known = [_card(text) for text in observation["seen_on_top"]]
        top = known  # the top of the yellow deck, in order
        drawn: list[int] = []  # the seat's own pending keep draw
        drawn_hidden = 0
        pending = observation["pending"]
        if pending is not None:
            count = whole_number(pending["count"], "pending count")
            if pending["decision"] == "keep" and mine:
                drawn = [_card(text) for text in pending["drawn"]]
            elif pending["decision"] == "keep":
                drawn_hidden = count
            elif pending["decision"] == "order" and mine:
                top = [_card(text) for text in pending["cards"]]
                if len(top) != count or top[: len(known)] != known:
                    raise StateError("an order decision shows the top cards of the yellow deck")
        matched = [_card(text) for cards in per_seat(observation["matched"], "matched", n) for text in cards]
        seen = [card for card in yellow if card >= 0] + matched + top + drawn
        every = sorted(_card(card.id) for card in components.yellow)
        unseen = set(every) - set(seen)
        if len(set(seen)) != len(seen) or len(unseen) != len(every) - len(seen):
            raise StateError("the seen yellow cards must be distinct cards of the set")
        self.yellow_pool = sorted(unseen)
        self.yellow_hidden = tuple(s for s, card in enumerate(yellow) if card == _UNSEEN)
        self.drawn_hidden = drawn_hidden
        self.yellow_top = tuple(top)
        below = whole_number(observation["yellow_deck_count"], "yellow_deck_count") - len(top)
        if below < 0 or len(self.yellow_pool) != len(self.yellow_hidden) + drawn_hidden + below:
            raise StateError("the unseen yellow cards do not fill the hidden hands, draws and the yellow deck")
        green_pool = Counter(components.green_deck)
        green_pool.subtract(effect for effect in green if effect >= 0)
        if min(green_pool.values(), default=0) < 0:
            raise StateError("more copies of a green card are seen than the set holds")
        self.green_pool = sorted(green_pool.elements())
        self.green_hidden = tuple(s for s, effect in enumerate(green) if effect == _UNSEEN)
        green_deck_count = whole_number(observation["green_deck_count"], "green_deck_count")
        if len(self.green_pool) != len(self.green_hidden) + green_deck_count:
            raise StateError("the unseen green cards do not fill the hidden hands and the green deck")
        self.template = self._template(game, observation, seat, yellow, green, known, drawn)
        self.legal: tuple[KamaraAction, ...] | None = self.template.legal_actions() if mine else None

    def _template(
        self,
        game: KamaraGame,
        observation: Mapping[str, Any],
        seat: int,
        yellow: list[int],
        green: list[int],
        known: list[int],
        drawn: list[int],
    ) -> KamaraState:
        """One determinisation, the unseen cards in set order, built through ``from_json`` (which checks every
        rule of a state); shown to ``seat``, it must give exactly the observation."""
        cards = iter(self.yellow_pool)
        hands = [next(cards) if card == _UNSEEN else card for card in yellow]
        pending = observation["pending"]
        if pending is not None and pending["decision"] == "keep":
            drawn = drawn or [next(cards) for _ in range(self.drawn_hidden)]
            pending = {"decision": "keep", "count": len(drawn), "drawn": [CARD_IDS[card] for card in drawn]}
        effects = iter(self.green_pool)
        green_hands = [next(effects) if effect == _UNSEEN else effect for effect in green]
        data = dict(observation)
        data.update(
            seed=0,
            yellow=[CARD_IDS[card] if card >= 0 else None for card in hands],
            green=[EFFECTS[effect] if effect >= 0 else None for effect in green_hands],
            yellow_deck=[CARD_IDS[card] for card in (*self.yellow_top, *cards)],
            green_deck=[EFFECTS[effect] for effect in effects],
            pending=pending,
            known=[[CARD_IDS[card] for card in known] if s == seat else [] for s in range(len(yellow))],
        )
        template = from_json(game, data)
        shown = template.observation(seat)
        if shown != dict(observation):
            wrong = sorted(key for key in {*shown, *observation} if shown.get(key) != observation.get(key))
            raise StateError(f"no Kamara state shows this observation (see {', '.join(wrong)})")
        if not template.pool:
            template.geometry  # noqa: B018 -- computed once here, shared by every sample
        return template

    def sample(self, rng: random.Random) -> KamaraState:
        """One determinisation: the unseen cards dealt at random, a fresh seed."""
        yellow_cards = self.yellow_pool.copy()
        rng.shuffle(yellow_cards)
        green_cards = self.green_pool.copy()
        rng.shuffle(green_cards)
        template = self.template
        state = template._copy()
        state.seed = rng.getrandbits(63)
        state.winners = template.winners
        dealt = 0
        if self.yellow_hidden:
            hands = list(template.yellow)
            for seat in self.yellow_hidden:
                hands[seat] = yellow_cards[dealt]
                dealt += 1
            state.yellow = tuple(hands)
        if self.drawn_hidden:
            state.pending = (KEEP, *yellow_cards[dealt : dealt + self.drawn_hidden])
            dealt += self.drawn_hidden
        state.yellow_deck = (*self.yellow_top, *yellow_cards[dealt:])
        dealt = 0
        if self.green_hidden:
            hands = list(template.green)
            for seat in self.green_hidden:
                hands[seat] = green_cards[dealt]
                dealt += 1
            state.green = tuple(hands)
        state.green_deck = tuple(green_cards[dealt:])
        state._legal = self.legal
        return state


def _read(text: Any, numbers: Mapping[str, int]) -> int:
    """A held card: its number, ``-1`` for none or :data:`_UNSEEN` for ``"?"``."""
    if text is None:
        return -1
    if text == "?":
        return _UNSEEN
    if text not in numbers:
        raise StateError(f"unknown card {text!r}")
    return numbers[text]


def _card(text: Any) -> int:
    if text not in _CARD_NUMBER:
        raise StateError(f"unknown yellow card {text!r}")
    return _CARD_NUMBER[text]
