"""The L.A.M.A. game object: players, options, new games, and states restored from JSON.

>>> from laro.games.lama import GAME
>>> GAME.new_game(4, seed=1, options={"end_score": 30}).options["end_score"]
30
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping
from importlib import resources
from typing import Any, Literal

from laro.core.checks import per_seat, seat_number, whole_number
from laro.core.errors import OptionError, StateError
from laro.core.game import Game, GameState
from laro.core.options import OptionSpec, validate_options
from laro.core.rng import new_seed
from laro.games.lama.actions import ACTIONS, LamaAction, action_from_index, parse_action
from laro.games.lama.cards import CARD_TEXT, COPIES, NUM_KINDS, card_from_text, hand_from_cards
from laro.games.lama.public import read_public
from laro.games.lama.sampling import sampler
from laro.games.lama.state import LamaState
from laro.games.lama.tokens import BOX_BLACK, BOX_WHITE, Supply, Tokens

__all__ = ["GAME", "OPTIONS", "LamaGame"]

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "next_round_starter",
        "last_card",
        "who starts the next round: the player who played the last card (if nobody played, the one who "
        "ended the round), or the player who ended the round (the published rules)",
        choices=("last_card", "ended_round"),
    ),
    OptionSpec(
        "token_supply",
        "unlimited",
        "penalty tokens: unlimited, or the boxed 50 white and 20 black",
        choices=("unlimited", "boxed"),
    ),
    OptionSpec(
        "end_score", 40, "the game ends after a round in which someone reaches this total", minimum=1, maximum=1000
    ),
)

_DEFAULTS = validate_options(OPTIONS, None)  # shared by states, never changed


class LamaGame:
    """L.A.M.A. by Reiner Knizia, 2 to 6 players."""

    name = "lama"
    title = "L.A.M.A."
    rules_version = "1"
    min_players = 2
    max_players = 6
    option_specs = OPTIONS
    num_actions = len(ACTIONS)
    score_order: Literal["low", "high"] = "low"
    actions = ACTIONS

    def new_game(
        self, num_players: int, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> LamaState:
        self._check_players(num_players)
        if seed is None:
            seed = new_seed()
        elif isinstance(seed, bool) or not isinstance(seed, int):
            raise OptionError(f"seed must be a whole number; got {seed!r}")
        state = object.__new__(LamaState)
        state.game = self
        state.num_players = num_players
        state.options = _DEFAULTS if not options else validate_options(OPTIONS, options)
        state.seed = seed
        state.scores = (0,) * num_players
        state.winners = ()
        state.last_round = None
        if state.options["token_supply"] == "boxed":
            state.supply, state.tokens = Supply(), (Tokens(),) * num_players
        else:
            state.supply, state.tokens = None, None
        state._deal(1, None)
        return state

    def parse_action(self, text: str) -> LamaAction:
        return parse_action(text)

    def action_from_index(self, index: int) -> LamaAction:
        return action_from_index(index)

    def public_text(self, action: str) -> str:
        """An action's text as the other players may hear it: every L.A.M.A. action is public."""
        return str(action)

    def sampler(self, observation: Mapping[str, Any]) -> Callable[[random.Random], LamaState]:
        """Determinisations of a seat's observation: full states that agree with all the seat knows."""
        return sampler(self, observation)

    def rules_text(self, language: str = "en") -> str:
        name = f"rules.{language}.md"
        try:
            return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise ValueError(f"no L.A.M.A. rules in language {language!r}; try 'en' or 'ko'") from None

    def _check_players(self, num_players: object) -> None:
        if isinstance(num_players, bool) or not isinstance(num_players, int):
            raise OptionError(f"number of players must be a whole number; got {num_players!r}")
        if not self.min_players <= num_players <= self.max_players:
            raise OptionError(f"L.A.M.A. takes 2 to 6 players; got {num_players}")

    def from_json(self, data: Mapping[str, Any]) -> LamaState:
        """Restore a state saved by ``to_json``; anything malformed or impossible raises :class:`StateError`."""
        try:
            return self._from_json(data)
        except StateError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            what = f"missing key {error}" if isinstance(error, KeyError) else str(error)
            raise StateError(f"not a valid L.A.M.A. state: {what}") from None

    def _from_json(self, data: Mapping[str, Any]) -> LamaState:
        if data.get("game", "lama") != "lama":
            raise StateError(f"this is a {data.get('game')!r} state, not L.A.M.A.")
        n = data["num_players"]
        self._check_players(n)
        state = object.__new__(LamaState)
        state.game = self
        state.num_players = n
        state.options = validate_options(OPTIONS, data.get("options"))
        state.seed = whole_number(data["seed"], "seed")
        state.round = whole_number(data["round"], "round", minimum=1)
        hands = [_cards(hand, "hands") for hand in per_seat(data["hands"], "hands", n)]
        draw = _cards(data["draw_pile"], "draw_pile")
        discard = _cards(data["discard_pile"], "discard_pile")
        counts = Counter(card for cards in (*hands, draw, discard) for card in cards)
        if any(counts[card] != COPIES for card in range(NUM_KINDS)):
            found = ", ".join(f"{counts[c]} of {CARD_TEXT[c]}" for c in range(NUM_KINDS))
            raise StateError(f"the cards must be eight of each value; found {found}")
        if not discard:
            raise StateError("the discard pile cannot be empty")
        state.hands = [hand_from_cards(hand) for hand in hands]
        state.deck = tuple(draw)
        state.draw_pos = 0
        state.discard = tuple(discard)
        read_public(state, data, n)
        if state.options["token_supply"] == "boxed":
            state.tokens = tuple(Tokens(**_token_fields(t)) for t in per_seat(data["tokens"], "tokens", n))
            state.supply = Supply(**_token_fields(data["supply"], ("white", "black")))
            if any(t.points != s for t, s in zip(state.tokens, state.scores, strict=True)):
                raise StateError("tokens do not add up to the scores")
        else:
            state.supply, state.tokens = None, None
        current = data["current_player"]
        if current is None:
            if not state.winners:
                raise StateError("a finished game needs its winners")
            state.current_player = None
            state._legal = ()
            return state
        state.current_player = seat_number(current, n, "current_player")
        if state.has_quit(current) or not all(state.hands):
            raise StateError("the current player must be in the round and every hand must hold a card")
        if state.winners:
            raise StateError("a game in progress has no winners")
        state._set_legal()
        return state


def _cards(value: Any, name: str) -> list[int]:
    if not isinstance(value, list):
        raise StateError(f"{name} must be a list of cards")
    try:
        return [card_from_text(card) for card in value]
    except (KeyError, TypeError):
        raise StateError(f"{name} holds something that is not a card (1-6 or L): {value!r}") from None


def _token_fields(value: Any, names: tuple[str, ...] = ("white", "black", "owed")) -> dict[str, int]:
    if not isinstance(value, dict):
        raise StateError("tokens must be objects with white, black and owed counts")
    fields = {name: whole_number(value.get(name, 0), f"tokens.{name}") for name in names}
    if "white" in fields and len(names) == 2 and (fields["white"] > BOX_WHITE or fields["black"] > BOX_BLACK):
        raise StateError("the supply cannot hold more tokens than the box")
    return fields


GAME = LamaGame()


def _conforms(game: LamaGame, state: LamaState) -> tuple[Game, GameState]:
    """Checked by mypy: the L.A.M.A. game and state keep the game contract."""
    return game, state
