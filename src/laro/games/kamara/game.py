"""The Kamara game object: players, options, component sets, new games and states restored from JSON.

>>> from laro.games.kamara import GAME
>>> state = GAME.new_game(4, seed=1, options={"elder": 2})
>>> state.current_player, len(state.yellow_deck), state.options["actions_per_turn"]
(2, 28, 5)
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from importlib import resources
from typing import Any, Literal

from laro.core.errors import OptionError
from laro.core.game import Game, GameState
from laro.core.options import OptionSpec, validate_options
from laro.core.rng import make_rng, new_seed
from laro.core.traits import GameTraits
from laro.games.kamara.actions import KamaraAction, action_space
from laro.games.kamara.components import CARD_IDS, ComponentError, Components, default_components, load_components
from laro.games.kamara.sampling import sampler
from laro.games.kamara.serial import from_json, public_text
from laro.games.kamara.state import KamaraState

__all__ = ["GAME", "OPTIONS", "KamaraGame"]

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "elder",
        None,
        "the seat that places the first tile (default: drawn from the seed)",
        minimum=0,
        maximum=7,
        nullable=True,
    ),
    OptionSpec("actions_per_turn", 5, "actions in a turn", minimum=1, maximum=50),
    OptionSpec("target_matches", 3, "matched yellow cards that win at once", minimum=1, maximum=32),
    OptionSpec(
        "max_rounds",
        100,
        "full rounds after which the game ends as if the yellow deck were empty",
        minimum=1,
        maximum=1000,
    ),
    OptionSpec("open_cards", False, "everyone's held cards are public", choices=(False, True)),
    OptionSpec("tiles", None, "another tile set (JSON data in the tiles format)", nullable=True),
    OptionSpec("yellow_cards", None, "another yellow card set (JSON data)", nullable=True),
    OptionSpec("green_cards", None, "another green card set (JSON data)", nullable=True),
)
_COMPONENT_OPTIONS = ("tiles", "yellow_cards", "green_cards")
_DEFAULTS = validate_options(OPTIONS, None)  # shared by states, never changed


class KamaraGame:
    """Kamara, a code-matching game of tiles and spirits for 2 to 8 players."""

    name = "kamara"
    title = "Kamara"
    rules_version = "1"
    min_players = 2
    max_players = 8
    option_specs = OPTIONS
    score_order: Literal["low", "high"] = "high"
    # a flip may draw a green card, a match or an exchange shows or draws a yellow one, a green card played is
    # shown and end lets the next player draw: only move, port and poke reveal nothing. Each setup action
    # (placing a tile, choosing a diwa) is a turn; a round is only a turn around the table, not scored.
    traits = GameTraits(
        steps=frozenset({"move", "port", "poke"}),
        whole_turns=frozenset({"place", "diwa"}),
        component_options=_COMPONENT_OPTIONS,
    )
    num_actions = len(action_space(default_components()).by_index)

    def __init__(self) -> None:
        self._components: dict[str, Components] = {}

    def new_game(
        self, num_players: int, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> KamaraState:
        if seed is None:
            seed = new_seed()
        elif isinstance(seed, bool) or not isinstance(seed, int):
            raise OptionError(f"seed must be a whole number; got {seed!r}")
        state = self.blank_state(num_players, options, seed)
        rng = make_rng(seed, "kamara", "setup")
        yellow = [CARD_IDS.index(card.id) for card in state.components.yellow]
        rng.shuffle(yellow)
        green = list(state.components.green_deck)
        rng.shuffle(green)
        elder = state.options["elder"]
        state.elder = rng.randrange(num_players) if elder is None else elder
        state.yellow = tuple(yellow[:num_players])  # each player draws one yellow card
        state.yellow_deck = tuple(yellow[num_players:])
        state.green_deck = tuple(green)
        state.current_player = state.elder
        return state

    def blank_state(self, num_players: Any, options: Mapping[str, Any] | None, seed: int) -> KamaraState:
        """A state before anything is dealt or placed: players and options checked, components loaded."""
        if isinstance(num_players, bool) or not isinstance(num_players, int):
            raise OptionError(f"number of players must be a whole number; got {num_players!r}")
        if not self.min_players <= num_players <= self.max_players:
            raise OptionError(f"Kamara takes 2 to 8 players; got {num_players}")
        checked = _DEFAULTS if not options else validate_options(OPTIONS, options)
        if checked["elder"] is not None and checked["elder"] >= num_players:
            raise OptionError(f"option 'elder' must be a seat 0..{num_players - 1}; got {checked['elder']}")
        components = self.components(checked)
        if len(components.yellow) < num_players:
            raise OptionError(f"option 'yellow_cards': {num_players} players need at least {num_players} cards")
        n = num_players
        state = object.__new__(KamaraState)
        state.game = self
        state.num_players = n
        state.options = checked
        state.seed = seed
        state.components = components
        state.space = action_space(components)
        state.phase = "tiles"
        state.tiles = (None,) * 9
        state.pool = tuple(range(9))
        state.diwa = state.colours = state.yellow = state.green = (-1,) * n
        state.matched = ((),) * n
        state.yellow_deck = state.green_deck = ()
        state.current_player = 0
        state.actions_left = 0
        state.exchanged = state.green_drawn = False
        state.locks = (-1,) * 9
        state.round = 0
        state.elder = 0
        state.first_player = -1
        state.pending = None
        state.known = ((),) * n
        state.winners = ()
        state._legal = None
        state._geometry = None
        return state

    def components(self, options: Mapping[str, Any]) -> Components:
        """The component set the options name (the default set unless ``tiles``/``*_cards`` give data)."""
        given = {name: options.get(name) for name in _COMPONENT_OPTIONS}
        if all(value is None for value in given.values()):
            return default_components()
        key = json.dumps(given, sort_keys=True)
        components = self._components.get(key)
        if components is None:
            for name, value in given.items():
                if value is not None and not isinstance(value, Mapping):
                    raise OptionError(f"option {name!r} must be JSON data (an object); got {type(value).__name__}")
            try:
                components = load_components(**given)
            except ComponentError as error:
                raise ComponentError(f"option {error.part!r}: {error}", error.part) from None
            if len(self._components) > 64:
                self._components.clear()
            self._components[key] = components
        return components

    def parse_action(self, text: str) -> KamaraAction:
        return action_space(default_components()).parse(text)

    def action_from_index(self, index: int) -> KamaraAction:
        return action_space(default_components()).from_index(index)

    def component_data(self, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The JSON data of the tiles and cards a game with these options plays with (public, for drawing)."""
        return self.components(validate_options(OPTIONS, options)).data

    def public_text(self, action: str) -> str:
        """An action's text as the other players and spectators may hear it (``order``/``keep`` name cards)."""
        return public_text(action)

    def sampler(self, observation: Mapping[str, Any]) -> Callable[[random.Random], KamaraState]:
        """Determinisations of a seat's observation: full states that agree with all the seat knows, the cards it
        cannot see dealt at random (see :mod:`laro.games.kamara.sampling`)."""
        return sampler(self, observation)

    def rules_text(self, language: str = "en", options: Mapping[str, Any] | None = None) -> str:
        validate_options(self.option_specs, options)  # one page for every option; unknown ones are refused
        name = f"rules.{language}.md"
        try:
            return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise ValueError(f"no Kamara rules in language {language!r}; try 'en' or 'ko'") from None

    def from_json(self, data: Mapping[str, Any]) -> KamaraState:
        """Restore a state saved by ``to_json``; anything malformed raises :class:`StateError`."""
        return from_json(self, data)


GAME = KamaraGame()


def _conforms(game: KamaraGame, state: KamaraState) -> tuple[Game, GameState]:
    """Checked by mypy: the Kamara game and state keep the game contract."""
    return game, state
