"""Ratings from game results: each game's placement as pairwise outcomes, sequential Elo ratings across bots, and
the Wilson score interval of a win rate.

>>> pairs = pair_outcomes(("heuristic", "random"), winners=(0,), scores=(3, 20), score_order="low")
>>> pairs
[PairOutcome(first='heuristic', second='random', score=1.0)]
>>> elo = Elo()
>>> elo.add_game(pairs)
>>> elo.ratings
{'heuristic': 1508.0, 'random': 1492.0}
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

__all__ = ["Z95", "Elo", "PairOutcome", "expected_score", "pair_outcomes", "placement", "wilson_interval"]

# the standard normal quantile of 0.975: a two-sided 95% interval
Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class PairOutcome:
    """How ``first`` did against ``second`` in one game: 1 (ahead), 0.5 (level) or 0 (behind)."""

    first: str
    second: str
    score: float


def placement(winners: Sequence[int], scores: Sequence[int], score_order: Literal["low", "high"]) -> list[int]:
    """Each seat's place (0 is first): the winners share first place, then the others by score in the game's
    sense (``"low"``: fewer points is better); equal scores share a place, and the next place is skipped.

    >>> placement((2,), (10, 4, 1, 4), "low")
    [3, 1, 0, 1]
    >>> placement((0, 1), (5, 5, 7), "high")
    [0, 0, 2]
    """

    def key(seat: int) -> tuple[int, int]:
        if seat in winners:
            return (0, 0)
        return (1, scores[seat] if score_order == "low" else -scores[seat])

    keys = [key(seat) for seat in range(len(scores))]
    return [sum(other < mine for other in keys) for mine in keys]


def pair_outcomes(
    seats: Sequence[str], winners: Sequence[int], scores: Sequence[int], score_order: Literal["low", "high"]
) -> list[PairOutcome]:
    """The outcome of every pair of seats whose bots have different names, in seat order.

    >>> [p.score for p in pair_outcomes(("a", "b", "c"), (0, 1), (0, 0, 9), "low")]
    [0.5, 1.0, 1.0]
    >>> pair_outcomes(("a", "a"), (0,), (0, 9), "low")
    []
    """
    places = placement(winners, scores, score_order)
    outcomes = []
    for i in range(len(seats)):
        for j in range(i + 1, len(seats)):
            if seats[i] == seats[j]:
                continue
            score = 1.0 if places[i] < places[j] else 0.5 if places[i] == places[j] else 0.0
            outcomes.append(PairOutcome(seats[i], seats[j], score))
    return outcomes


@dataclass(slots=True)
class Elo:
    """Sequential Elo ratings: games are added one after another; within a game every pair's update is computed
    from the ratings before that game, then all are applied together (so the order of the pairs does not
    matter). ``history`` holds the ratings after each game.

    >>> elo = Elo(k=32, start=1000, names=("a", "b"))
    >>> elo.add_game([PairOutcome("a", "b", 0.5)])
    >>> elo.ratings, len(elo.history)
    ({'a': 1000.0, 'b': 1000.0}, 1)
    """

    k: float = 16.0
    start: float = 1500.0
    names: tuple[str, ...] = ()
    ratings: dict[str, float] = field(init=False)
    history: list[dict[str, float]] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        self.ratings = {name: float(self.start) for name in self.names}

    def expected(self, first: str, second: str) -> float:
        """The score ``first`` is expected to make against ``second`` at the current ratings.

        >>> Elo(names=("a", "b")).expected("a", "b")
        0.5
        """
        return expected_score(self.rating(first), self.rating(second))

    def rating(self, name: str) -> float:
        return self.ratings.get(name, float(self.start))

    def add_game(self, pairs: Iterable[PairOutcome]) -> None:
        """Update the ratings with one game's pairwise outcomes and record them in ``history``."""
        before: Mapping[str, float] = dict(self.ratings)
        change: dict[str, float] = {}
        for pair in pairs:
            first, second = before.get(pair.first, self.start), before.get(pair.second, self.start)
            delta = self.k * (pair.score - expected_score(first, second))
            change[pair.first] = change.get(pair.first, 0.0) + delta
            change[pair.second] = change.get(pair.second, 0.0) - delta
        for name, delta in change.items():
            self.ratings[name] = self.rating(name) + delta
        self.history.append(dict(self.ratings))


def expected_score(rating: float, other: float) -> float:
    """The Elo expectation of a player rated ``rating`` against one rated ``other``.

    >>> round(expected_score(1600, 1400), 4)
    0.7597
    """
    return 1.0 / (1.0 + float(10.0 ** ((other - rating) / 400.0)))


def wilson_interval(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a win rate; ``wins`` may be fractional (shared wins are
    split). With no games, nothing is known: (0, 1).

    >>> low, high = wilson_interval(5, 10)
    >>> round(low, 4), round(high, 4)
    (0.2366, 0.7634)
    >>> wilson_interval(10, 10)[1], wilson_interval(0, 10)[0]
    (1.0, 0.0)
    """
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    z2 = z * z
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = z / (1 + z2 / games) * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games))
    low = 0.0 if wins <= 0 else max(0.0, centre - half)  # exactly 0 and 1 at the ends, where rounding may miss
    high = 1.0 if wins >= games else min(1.0, centre + half)
    return (low, high)
