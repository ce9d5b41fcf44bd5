"""The game contract, typed errors, options, seeded randomness and game records (standard library only)."""

from laro.core.errors import (
    IllegalActionError,
    LaroError,
    MalformedActionError,
    OptionError,
    RecordError,
    StateError,
    UnknownGameError,
)
from laro.core.game import Action, ActionLike, Game, GameState, JSONDict
from laro.core.options import OptionSpec, validate_options
from laro.core.partial import PartialRecord, load_record, read_record
from laro.core.record import GameRecord, iter_replay, replay, result_of
from laro.core.registry import get_game, list_games, register_game
from laro.core.rng import derive_seed, make_rng, new_seed
from laro.core.traits import ComponentSource, GameTraits, RoundedState, component_data, round_of, traits_of

__all__ = [
    "Action",
    "ActionLike",
    "ComponentSource",
    "Game",
    "GameRecord",
    "GameState",
    "GameTraits",
    "IllegalActionError",
    "JSONDict",
    "LaroError",
    "MalformedActionError",
    "OptionError",
    "OptionSpec",
    "PartialRecord",
    "RecordError",
    "RoundedState",
    "StateError",
    "UnknownGameError",
    "component_data",
    "derive_seed",
    "get_game",
    "iter_replay",
    "list_games",
    "load_record",
    "make_rng",
    "new_seed",
    "read_record",
    "register_game",
    "replay",
    "result_of",
    "round_of",
    "traits_of",
    "validate_options",
]
