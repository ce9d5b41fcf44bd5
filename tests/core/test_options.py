"""Game options: declared once per game with OptionSpec, validated in one place (validate_options)."""

from __future__ import annotations

from typing import Any

import pytest

import laro
from laro.core import OptionError, OptionSpec, validate_options

STARTER = OptionSpec("next_round_starter", "last_card", "who starts", choices=("last_card", "ended_round"))
END = OptionSpec("end_score", 40, "points that end the game", minimum=1, maximum=500)
LIMIT = OptionSpec("time_limit", None, "seconds per move", minimum=1, nullable=True)
NAME = OptionSpec("table_name", "", "free text")
SPECS = (STARTER, END, LIMIT, NAME)


def test_defaults_fill_in() -> None:
    """Options not given take their defaults; None and {} mean all defaults."""
    defaults = {"next_round_starter": "last_card", "end_score": 40, "time_limit": None, "table_name": ""}
    assert validate_options(SPECS, None) == defaults
    assert validate_options(SPECS, {}) == defaults
    assert validate_options(SPECS, {"end_score": 30})["end_score"] == 30


def test_given_mapping_is_not_changed() -> None:
    """validate_options returns a new dict and leaves the given one alone."""
    given = {"end_score": 30}
    result = validate_options(SPECS, given)
    assert given == {"end_score": 30} and result is not given


def test_unknown_options_are_named_with_the_known_ones() -> None:
    """Unknown option names raise OptionError listing them (sorted) and the known ones."""
    with pytest.raises(OptionError, match=r"unknown option\(s\) a, zz; known: next_round_starter, end_score"):
        validate_options(SPECS, {"zz": 1, "a": 2})
    with pytest.raises(OptionError, match="known: none"):
        validate_options((), {"x": 1})


@pytest.mark.parametrize("value", ["first", "", None, 1])
def test_choices(value: Any) -> None:
    """An option with choices accepts only those, and the error lists them."""
    with pytest.raises(OptionError, match="must be one of last_card, ended_round"):
        STARTER.check(value)
    assert STARTER.check("ended_round") == "ended_round"


@pytest.mark.parametrize(
    ("value", "message"),
    [(0, "at least 1"), (-5, "at least 1"), (501, "at most 500"), ("40", "whole number"), (40.0, "whole number"),
     (True, "whole number"), (None, "whole number")],
)  # fmt: skip
def test_whole_numbers(value: Any, message: str) -> None:
    """A whole-number option refuses other types (bools too) and values outside its bounds."""
    with pytest.raises(OptionError, match=message):
        END.check(value)


@pytest.mark.parametrize("value", [1, 40, 500])
def test_whole_numbers_in_bounds(value: int) -> None:
    """Whole numbers within the bounds, the bounds included, are accepted."""
    assert END.check(value) == value


def test_nullable() -> None:
    """A nullable option accepts None and otherwise checks the value."""
    assert LIMIT.check(None) is None
    assert LIMIT.check(5) == 5
    with pytest.raises(OptionError, match="at least 1"):
        LIMIT.check(0)


def test_free_option() -> None:
    """An option with neither choices nor bounds accepts what it is given."""
    assert NAME.check("friday night") == "friday night"


def test_option_error_is_a_value_error() -> None:
    """OptionError is a ValueError, so adapters can treat bad input alike."""
    assert issubclass(OptionError, ValueError)


def test_lama_options() -> None:
    """L.A.M.A. declares edition, next_round_starter, token_supply and end_score with the rules' defaults."""
    game = laro.get_game("lama")
    assert {spec.name: spec.default for spec in game.option_specs} == {
        "edition": "classic",
        "next_round_starter": "last_card",
        "token_supply": "unlimited",
        "end_score": 40,
    }
    assert validate_options(game.option_specs, {"token_supply": "boxed"})["token_supply"] == "boxed"
    for bad in ({"token_supply": "infinite"}, {"end_score": 0}, {"next_round_starter": "random"}, {"edition": 1}):
        with pytest.raises(OptionError):
            game.new_game(3, seed=1, options=bad)


def test_lama_options_are_part_of_the_state() -> None:
    """The options of a game are kept in its state, its JSON and its observations."""
    game = laro.get_game("lama")
    state = game.new_game(3, seed=1, options={"end_score": 25})
    assert state.to_json()["options"]["end_score"] == 25
    assert state.observation(0)["options"]["end_score"] == 25
    data = state.to_json()
    data["options"]["end_score"] = 0
    with pytest.raises(ValueError, match="at least 1"):
        game.from_json(data)
