"""Ratings from game results: each game's placement as pairwise outcomes, ratings fitted to all of them at once
(Bradley-Terry, extra ``ratings``), and the Wilson score interval of a win rate.

>>> pairs = pair_outcomes(("heuristic", "random"), winners=(0,), scores=(3, 20), score_order="low")
>>> pairs
[PairOutcome(first='heuristic', second='random', score=1.0)]
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from laro.core import LaroError

__all__ = [
    "ELO_SCALE",
    "RATING_METHOD",
    "START",
    "Z95",
    "PairOutcome",
    "RatingsUnavailable",
    "fit_ratings",
    "pair_outcomes",
    "placement",
    "wilson_interval",
]

START = 1500.0  # the mean rating
ELO_SCALE = 400 / math.log(10)  # rating points per unit of log-strength: 400 points are 10:1 odds, as in Elo
RATING_METHOD = "Bradley–Terry fit of all games at once (choix), Elo scale, mean 1500"

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


class RatingsUnavailable(LaroError, RuntimeError):
    """The ratings extra (choix) is not installed."""


def fit_ratings(names: Sequence[str], pairs: Iterable[PairOutcome], centre: float = START) -> dict[str, float]:
    """Each bot's rating from every pairwise outcome at once: the maximum-likelihood Bradley-Terry strengths
    (:func:`choix.ilsr_pairwise`), a level pair counting half a win each way, with one level pair between every
    two bots as the prior (so a bot that never lost has a finite rating), on the Elo scale (a gap of 400 points
    is 10:1 odds) around a mean of ``centre``. The order of the games does not matter.

    >>> ratings = fit_ratings(("a", "b"), [PairOutcome("a", "b", 1.0)] * 18 + [PairOutcome("a", "b", 0.0)] * 12)
    >>> round(ratings["a"] - ratings["b"]), round(ratings["a"] + ratings["b"])  # log10(37 / 25) * 400 = 68.1
    (68, 3000)
    """
    try:
        import choix
    except ImportError as error:
        raise RatingsUnavailable(f"ratings need the ratings extra: pip install 'laro[ratings]' ({error})") from None
    number = {name: index for index, name in enumerate(names)}
    if len(number) < 2:
        return dict.fromkeys(number, float(centre))
    comparisons: list[tuple[int, int]] = []  # (winner, loser): a decisive pair twice, a level pair once each way
    prior = [PairOutcome(a, b, 0.5) for a, b in itertools.combinations(number, 2)]
    for pair in itertools.chain(prior, pairs):
        first, second = number[pair.first], number[pair.second]
        if pair.score == 0.5:
            comparisons += [(first, second), (second, first)]
        else:
            comparisons += [(first, second) if pair.score > 0.5 else (second, first)] * 2
    strengths = [float(value) for value in choix.ilsr_pairwise(len(number), comparisons)]
    mean = sum(strengths) / len(strengths)
    return {name: centre + ELO_SCALE * (strengths[index] - mean) for name, index in number.items()}


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
