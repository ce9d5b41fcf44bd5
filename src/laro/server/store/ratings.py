"""What every store keeps of ratings: each player's rating per game, and every change with the game that made it.

- ``laro_ratings``: a player's (``subject``: ``person:<account id>`` or ``bot:<level>``) rating in one game and
  edition (``game``: ``lama``, ``lama-party``, ``kamara``): OpenSkill's ``mu`` and ``sigma``, and games rated.
- ``laro_rating_changes``: one row per seat of each rated game: who sat there, their place, and their rating
  before and after. The ratings can be recomputed from these rows in the order of ``at``.
- ``laro_rated``: every finished table looked at, rated or not, so that each is looked at once, by one process:
  the row is written in the transaction that rates the game.

Made where missing, like the accounts' tables: a store made before them opens as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from .base import TableSummary

__all__ = ["NEW_SKILL", "Compute", "Placed", "RatingChange", "RatingRow", "Ratings", "Skill", "updates"]

Skill = tuple[float, float]  # OpenSkill's (mu, sigma)
NEW_SKILL: Skill = (25.0, 25.0 / 3)  # a new player's: OpenSkill's defaults


@dataclass(frozen=True, slots=True)
class Placed:
    """A seat of a game to rate: its player and its place (1: first; equal places for a tie)."""

    seat: int
    subject: str
    place: int


# the new skills of the seats, from their skills before (None: a new player) and their places
Compute = Callable[[list[Skill | None], list[int]], list[Skill]]


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A player's rating in one game, with the name it is shown under."""

    subject: str
    name: str
    game: str
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One seat's rating change in one rated game."""

    table_id: str
    game: str
    at: float
    seat: int
    subject: str
    name: str
    place: int
    before: Skill
    after: Skill


class Ratings(Protocol):
    """A store's ratings (``store.ratings``)."""

    async def unrated(self, limit: int) -> list[TableSummary]:
        """Finished tables not looked at yet, the oldest end first."""

    async def holders(self, table_id: str) -> dict[int, str]:
        """The account id holding each seat of the table that an account holds."""

    async def rate(self, table_id: str, game: str, at: float, placed: list[Placed] | None, compute: Compute) -> bool:
        """Rate the table's game in one transaction (None: look at it without rating it): False if it was looked
        at before, by this process or another."""

    async def of(self, subject: str) -> list[RatingRow]:
        """The player's ratings, one per game they were rated in."""

    async def changes(
        self, subject: str | None = None, table_id: str | None = None, limit: int = 50
    ) -> list[RatingChange]:
        """Rating changes, the newest first: of one player, or of one table."""

    async def board(self, game: str, limit: int, offset: int) -> list[RatingRow]:
        """A page of one game's players, the highest conservative rating (mu - 3 sigma) first."""


def updates(
    placed: list[Placed], before: dict[str, Skill], compute: Compute
) -> tuple[list[tuple[int, str, int, Skill, Skill]], dict[str, Skill]]:
    """What rating a game writes: each seat's ``(seat, subject, place, before, after)``, and each player's new
    skill. A player in several seats (one bot level at two seats) is rated at each from the same skill before,
    and keeps the mean of what those seats give.

    >>> rows, new = updates([Placed(0, "p", 1), Placed(1, "b", 2), Placed(2, "b", 3)], {"b": (20.0, 5.0)},
    ...                     lambda skills, places: [(30.0, 8.0), (21.0, 4.0), (19.0, 4.0)])
    >>> rows[1], new
    ((1, 'b', 2, (20.0, 5.0), (21.0, 4.0)), {'p': (30.0, 8.0), 'b': (20.0, 4.0)})
    """
    skills = compute([before.get(seat.subject) for seat in placed], [seat.place for seat in placed])
    rows = []
    gathered: dict[str, list[Skill]] = {}
    for seat, after in zip(placed, skills, strict=True):
        start = before.get(seat.subject) or NEW_SKILL
        rows.append((seat.seat, seat.subject, seat.place, start, after))
        gathered.setdefault(seat.subject, []).append(after)
    new = {
        subject: (sum(mu for mu, _ in got) / len(got), sum(sigma for _, sigma in got) / len(got))
        for subject, got in gathered.items()
    }
    return rows, new
