"""Ember, a small card game that laro does not ship: the tests install it as a package of its own (``ember``,
offered in the ``laro.games`` entry-point group) to show that a game plugs in without a change to laro.

Rules: 2 to 4 players; the deck holds two of each card 1 to 9, shuffled, and each player is dealt ``hand_size``
cards, seen only by their owner. On your turn either ``draw`` the top card of the deck (your turn ends), or
``pick N``, choosing a card of your hand in secret, then ``play`` it face up (your turn ends). The game ends when
somebody's hand is empty: each player scores the cards left in their hand, and the lowest score wins.

A ``pick`` reveals nothing, so it is a step that may be taken back; ``draw`` and ``play`` are whole turns.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from laro.core import (
    GameTraits,
    IllegalActionError,
    MalformedActionError,
    OptionError,
    OptionSpec,
    StateError,
    make_rng,
    new_seed,
    validate_options,
)

__all__ = ["GAME", "EmberAction", "EmberGame", "EmberState"]

CARDS = tuple(range(1, 10))
OPTIONS = (OptionSpec("hand_size", 3, "cards dealt to each player", minimum=1, maximum=5),)
RULES = "# Ember\n\nDraw, or pick a card in secret and play it. Empty your hand first; the fewest points win.\n"


@dataclass(frozen=True, slots=True)
class EmberAction:
    text: str
    index: int

    def __str__(self) -> str:
        return self.text


ACTIONS = (*(EmberAction(f"pick {card}", card - 1) for card in CARDS), EmberAction("play", 9), EmberAction("draw", 10))
_BY_TEXT = {action.text: action for action in ACTIONS}


class EmberState:
    """An Ember table; ``apply`` returns a new state."""

    def __init__(
        self,
        game: EmberGame,
        options: dict[str, Any],
        seed: int,
        hands: tuple[tuple[int, ...], ...],
        deck: tuple[int, ...],
        played: tuple[tuple[int, int], ...],
        picked: int | None,
        current_player: int | None,
    ) -> None:
        self.game, self.options, self.seed = game, options, seed
        self.hands, self.deck, self.played, self.picked = hands, deck, played, picked
        self.num_players = len(hands)
        self.current_player = current_player

    @property
    def is_over(self) -> bool:
        return self.current_player is None

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(sum(hand) for hand in self.hands)

    @property
    def winners(self) -> tuple[int, ...]:
        if not self.is_over:
            return ()
        best = min(self.scores)
        return tuple(seat for seat, score in enumerate(self.scores) if score == best)

    def legal_actions(self) -> list[EmberAction]:
        if self.current_player is None:
            return []
        if self.picked is not None:
            return [_BY_TEXT["play"]]
        picks = [_BY_TEXT[f"pick {card}"] for card in sorted(set(self.hands[self.current_player]))]
        return picks + ([_BY_TEXT["draw"]] if self.deck else [])

    def parse_action(self, action: Any) -> EmberAction:
        if isinstance(action, EmberAction):
            return action
        if isinstance(action, int) and not isinstance(action, bool):
            return self.game.action_from_index(action)
        return self.game.parse_action(str(action))

    def apply(self, action: Any) -> EmberState:
        chosen = self.parse_action(action)
        if chosen not in self.legal_actions():
            allowed = ", ".join(str(each) for each in self.legal_actions()) or "nothing (the game is over)"
            raise IllegalActionError(f"{chosen} is not allowed now; allowed: {allowed}")
        seat = self.current_player
        assert seat is not None
        hands, deck, played, picked = list(self.hands), self.deck, self.played, self.picked
        if chosen.text == "draw":
            hands[seat] = tuple(sorted((*hands[seat], deck[0])))
            deck = deck[1:]
        elif chosen.text == "play":
            assert picked is not None
            rest = list(hands[seat])
            rest.remove(picked)
            hands[seat], played, picked = tuple(rest), (*played, (seat, picked)), None
        else:
            picked = int(chosen.text.split()[1])
            return EmberState(self.game, self.options, self.seed, self.hands, deck, played, picked, seat)
        over = not hands[seat]
        after = None if over else (seat + 1) % self.num_players
        return EmberState(self.game, self.options, self.seed, tuple(hands), deck, played, picked, after)

    def observation(self, seat: int) -> dict[str, Any]:
        seen = self.public_observation()
        seen["seat"] = seat
        seen["hand"] = list(self.hands[seat])
        seen["picked"] = self.picked if seat == self.current_player else None
        return seen

    def public_observation(self) -> dict[str, Any]:
        return {
            "game": "ember",
            "num_players": self.num_players,
            "options": dict(self.options),
            "current_player": self.current_player,
            "hand_sizes": [len(hand) for hand in self.hands],
            "deck": len(self.deck),
            "played": [[seat, card] for seat, card in self.played],
            "scores": list(self.scores) if self.is_over else None,
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "ember",
            "num_players": self.num_players,
            "options": dict(self.options),
            "seed": self.seed,
            "hands": [list(hand) for hand in self.hands],
            "deck": list(self.deck),
            "played": [[seat, card] for seat, card in self.played],
            "picked": self.picked,
            "current_player": self.current_player,
        }


class EmberGame:
    """Ember: draw, or pick and play; the fewest points in hand win."""

    name = "ember"
    title = "Ember"
    rules_version = "1"
    min_players = 2
    max_players = 4
    option_specs = OPTIONS
    num_actions = len(ACTIONS)
    score_order: Literal["low", "high"] = "low"
    traits = GameTraits(steps=frozenset({"pick"}), whole_turns=frozenset({"draw", "play"}))

    def new_game(
        self, num_players: int, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> EmberState:
        if isinstance(num_players, bool) or not isinstance(num_players, int) or not 2 <= num_players <= 4:
            raise OptionError(f"Ember takes 2 to 4 players; got {num_players!r}")
        chosen = validate_options(OPTIONS, options)
        seed = new_seed() if seed is None else seed
        deck = [card for card in CARDS for _ in range(2)]
        make_rng(seed, "ember", "deal").shuffle(deck)
        size = chosen["hand_size"]
        hands = tuple(tuple(sorted(deck[seat * size : (seat + 1) * size])) for seat in range(num_players))
        return EmberState(self, chosen, seed, hands, tuple(deck[num_players * size :]), (), None, 0)

    def from_json(self, data: Mapping[str, Any]) -> EmberState:
        try:
            hands = tuple(tuple(int(card) for card in hand) for hand in data["hands"])
            played = tuple((int(seat), int(card)) for seat, card in data["played"])
            current = data["current_player"]
            state = EmberState(
                self,
                validate_options(OPTIONS, data["options"]),
                int(data["seed"]),
                hands,
                tuple(int(card) for card in data["deck"]),
                played,
                None if data["picked"] is None else int(data["picked"]),
                None if current is None else int(current),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise StateError(f"not an Ember state: {error}") from None
        if not 2 <= len(hands) <= 4 or data.get("game") != "ember":
            raise StateError("not an Ember state of 2 to 4 players")
        return state

    def parse_action(self, text: str) -> EmberAction:
        action = _BY_TEXT.get(" ".join(str(text).lower().split()))
        if action is None:
            raise MalformedActionError(f"no Ember action {text!r}; actions: pick 1 … pick 9, play, draw")
        return action

    def action_from_index(self, index: int) -> EmberAction:
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(ACTIONS):
            raise MalformedActionError(f"an Ember action index is 0 to {len(ACTIONS) - 1}; got {index!r}")
        return ACTIONS[index]

    def public_text(self, action: str) -> str:
        return "pick" if action.startswith("pick") else action  # which card was picked is secret

    def sampler(self, observation: Mapping[str, Any]) -> Callable[[random.Random], EmberState]:
        """Full states that agree with what the observing seat knows: the unseen cards dealt at random."""
        if observation.get("game") != "ember" or "hand" not in observation:
            raise ValueError("Ember samples from a seat's observation of Ember")
        seat, own, sizes = observation["seat"], list(observation["hand"]), observation["hand_sizes"]
        unseen = [card for card in CARDS for _ in range(2)]
        for card in own + [card for _, card in observation["played"]]:
            unseen.remove(card)

        def sample(rng: random.Random) -> EmberState:
            pool = list(unseen)
            rng.shuffle(pool)
            hands: list[tuple[int, ...]] = []
            for other, size in enumerate(sizes):
                if other == seat:
                    hands.append(tuple(own))
                else:
                    hands.append(tuple(sorted(pool[:size])))
                    pool = pool[size:]
            played = tuple((int(who), int(card)) for who, card in observation["played"])
            return EmberState(
                self,
                dict(observation["options"]),
                rng.randrange(2**32),
                tuple(hands),
                tuple(pool),
                played,
                observation["picked"],
                observation["current_player"],
            )

        return sample

    def rules_text(self, language: str = "en", options: Mapping[str, Any] | None = None) -> str:
        validate_options(OPTIONS, options)
        return RULES


GAME = EmberGame()
