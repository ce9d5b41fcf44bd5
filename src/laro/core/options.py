"""Game options: declared once per game, validated in one place.

>>> spec = OptionSpec("end_score", 40, "points that end the game", minimum=1)
>>> validate_options((spec,), {"end_score": 30})
{'end_score': 30}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from laro.core.errors import OptionError

__all__ = ["OptionSpec", "validate_options"]


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option of a game: its name, default, help text, and the values it allows."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False

    def check(self, value: Any) -> Any:
        """Return ``value`` if allowed, else raise :class:`OptionError` naming what is allowed."""
        if value is None and self.nullable:
            return None
        if self.choices is not None:
            if value not in self.choices:
                allowed = ", ".join(str(c) for c in self.choices)
                raise OptionError(f"option {self.name!r} must be one of {allowed}; got {value!r}")
            return value
        if isinstance(self.default, int) or self.minimum is not None:
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError(f"option {self.name!r} must be a whole number; got {value!r}")
            if self.minimum is not None and value < self.minimum:
                raise OptionError(f"option {self.name!r} must be at least {self.minimum}; got {value}")
            if self.maximum is not None and value > self.maximum:
                raise OptionError(f"option {self.name!r} must be at most {self.maximum}; got {value}")
        return value


def validate_options(specs: Sequence[OptionSpec], given: Mapping[str, Any] | None) -> dict[str, Any]:
    """All options with defaults filled in; unknown names or bad values raise :class:`OptionError`."""
    given = dict(given or {})
    known = {spec.name: spec for spec in specs}
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise OptionError(f"unknown option(s) {', '.join(unknown)}; known: {', '.join(known) or 'none'}")
    return {name: spec.check(given[name]) if name in given else spec.default for name, spec in known.items()}
