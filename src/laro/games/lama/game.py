"""The L.A.M.A. game object: players, options, new games, and states restored from JSON.

>>> from laro.games.lama import GAME
>>> GAME.new_game(4, seed=1, options={"end_score": 30}).options["end_score"]
30
>>> type(GAME.new_game(4, seed=1, options={"edition": "party"})).__name__
'PartyLamaState'
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
from laro.core.traits import GameTraits
from laro.games.lama.actions import ALL_ACTIONS, LamaAction, action_from_index, parse_action
from laro.games.lama.cards import (
    ALL_CARD_TEXT,
    COPIES,
    NUM_KINDS,
    NUM_PARTY_KINDS,
    PARTY_COPIES,
    card_from_text,
    hand_from_cards,
    party_card_from_text,
)
from laro.games.lama.party import PartyLamaState
from laro.games.lama.public import read_public
from laro.games.lama.sampling import sampler
from laro.games.lama.state import LamaState
from laro.games.lama.tokens import BOX_BLACK, BOX_PINK, BOX_WHITE, Supply, Tokens

__all__ = ["GAME", "OPTIONS", "LamaGame"]

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "edition",
        "classic",
        "the classic game, or the Party Edition (plus cards, the pink llama and pink tokens worth 20)",
        choices=("classic", "party"),
    ),
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
    num_actions = len(ALL_ACTIONS)  # 0..8 the classic game's, 9..15 the Party Edition's
    score_order: Literal["low", "high"] = "low"
    # every action plays a card (shown to all), draws one or quits the round, so none is a step; each is a turn,
    # even when everybody else has quit and the same player acts again; a round ends with its scores
    traits = GameTraits(whole_turns=frozenset({"*"}), scored_rounds=True)
    actions = ALL_ACTIONS

    def new_game(
        self, num_players: int, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> LamaState:
        self._check_players(num_players)
        if seed is None:
            seed = new_seed()
        elif isinstance(seed, bool) or not isinstance(seed, int):
            raise OptionError(f"seed must be a whole number; got {seed!r}")
        chosen = _DEFAULTS if not options else validate_options(OPTIONS, options)
        state = object.__new__(_STATE[chosen["edition"]])
        state.game = self
        state.num_players = num_players
        state.options = chosen
        state.seed = seed
        state.scores = (0,) * num_players
        state.winners = ()
        state.last_round = None
        if state.options["token_supply"] == "boxed":
            state.supply, state.tokens = _box(state.party), (Tokens(),) * num_players
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

    def rules_text(self, language: str = "en", options: Mapping[str, Any] | None = None) -> str:
        """The rules page: the classic game's, or the Party Edition's when ``options`` choose it."""
        edition = validate_options(OPTIONS, options)["edition"]
        name = f"rules.{language}.md" if edition == "classic" else f"rules.{edition}.{language}.md"
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
        options = validate_options(OPTIONS, data.get("options"))
        party = options["edition"] == "party"
        state = object.__new__(_STATE[options["edition"]])
        state.game = self
        state.num_players = n
        state.options = options
        state.seed = whole_number(data["seed"], "seed")
        state.round = whole_number(data["round"], "round", minimum=1)
        hands = [_cards(hand, "hands", party) for hand in per_seat(data["hands"], "hands", n)]
        draw = _cards(data["draw_pile"], "draw_pile", party)
        discard = _cards(data["discard_pile"], "discard_pile", party)
        counts = Counter(card for cards in (*hands, draw, discard) for card in cards)
        kinds = NUM_PARTY_KINDS if party else NUM_KINDS
        copies = PARTY_COPIES if party else (COPIES,) * NUM_KINDS
        if any(counts[card] != copies[card] for card in range(kinds)):
            found = ", ".join(f"{counts[c]} of {ALL_CARD_TEXT[c]}" for c in range(kinds))
            wanted = (
                "seven of each number and of the llama, one of each plus card and the pink llama"
                if party
                else "eight of each value"
            )
            raise StateError(f"the cards must be {wanted}; found {found}")
        if not discard:
            raise StateError("the discard pile cannot be empty")
        state.hands = [hand_from_cards(hand) for hand in hands]
        state.deck = tuple(draw)
        state.draw_pos = 0
        state.discard = tuple(discard)
        read_public(state, data, n)
        if state.options["token_supply"] == "boxed":
            names = ("white", "black", "owed", "pink") if party else ("white", "black", "owed")
            state.tokens = tuple(Tokens(**_token_fields(t, names)) for t in per_seat(data["tokens"], "tokens", n))
            state.supply = Supply(**_token_fields(data["supply"], names[:2] + names[3:], party))
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


def _cards(value: Any, name: str, party: bool) -> list[int]:
    if not isinstance(value, list):
        raise StateError(f"{name} must be a list of cards")
    try:
        return [(party_card_from_text if party else card_from_text)(card) for card in value]
    except (KeyError, TypeError):
        cards = "1-6, 1+-6+, L or P" if party else "1-6 or L"
        raise StateError(f"{name} holds something that is not a card ({cards}): {value!r}") from None


def _token_fields(value: Any, names: tuple[str, ...], party: bool | None = None) -> dict[str, int]:
    """Token counts read from JSON; ``party`` is given for the supply (whose box it must fit)."""
    if not isinstance(value, dict):
        raise StateError(f"tokens must be objects with {', '.join(names)} counts")
    fields = {name: whole_number(value.get(name, 0), f"tokens.{name}") for name in names}
    too_many = fields["white"] > BOX_WHITE or fields["black"] > BOX_BLACK or fields.get("pink", 0) > BOX_PINK
    if party is not None and too_many:
        raise StateError("the supply cannot hold more tokens than the box")
    return fields


def _box(party: bool) -> Supply:
    """The full box of tokens: the Party Edition's has the six pinks too."""
    return Supply(pink=BOX_PINK) if party else Supply()


_STATE: dict[str, type[LamaState]] = {"classic": LamaState, "party": PartyLamaState}
GAME = LamaGame()


def _conforms(game: LamaGame, state: LamaState) -> tuple[Game, GameState]:
    """Checked by mypy: the L.A.M.A. game and state keep the game contract."""
    return game, state
