"""Placements, pairwise outcomes, ratings fitted to all games at once and the Wilson interval, checked against
numbers worked out by hand (the arithmetic is written out beside each)."""

from __future__ import annotations

import itertools
import math
import re
import sys

import pytest

from laro.sim.ratings import PairOutcome, RatingsUnavailable, fit_ratings, pair_outcomes, placement, wilson_interval


def test_placement_puts_winners_first_then_scores_in_the_games_sense() -> None:
    # L.A.M.A. (low is better): seat 2 won; seats 1 and 3 tie on 4 points; seat 0 is last with 10
    assert placement((2,), (10, 4, 1, 4), "low") == [3, 1, 0, 1]
    # a shared win is a tie between the winners, whatever their scores; high is better for the rest
    assert placement((0, 2), (1, 9, 3, 8), "high") == [0, 2, 0, 3]


def test_pair_outcomes_skip_seats_of_the_same_bot() -> None:
    pairs = pair_outcomes(("h", "r", "r"), winners=(0,), scores=(0, 12, 20), score_order="low")
    assert pairs == [PairOutcome("h", "r", 1.0), PairOutcome("h", "r", 1.0)]  # r against r says nothing


# the fit counts a decisive pair twice and a level pair once each way, plus one level pair per two bots as prior:
# for two bots the strengths' ratio is (2 * wins + 1) / (2 * losses + 1), and a gap of 400 points is 10:1


def test_the_fit_is_the_same_in_any_order_of_the_games() -> None:
    """18 wins to 12: first all the wins, then all the losses, or mixed; sequential Elo rated the first order
    1501 against 1499, since the last games weighed most."""
    wins, losses = [PairOutcome("a", "b", 1.0)] * 18, [PairOutcome("a", "b", 0.0)] * 12
    mixed = [pair for two in itertools.zip_longest(wins, losses) for pair in two if pair is not None]
    gap = 400 * math.log10(37 / 25)  # 68.08
    for order in (wins + losses, losses + wins, mixed):
        ratings = fit_ratings(("a", "b"), order)
        assert ratings["a"] - ratings["b"] == pytest.approx(gap, abs=0.01)
        assert ratings["a"] + ratings["b"] == pytest.approx(3000)  # the mean is 1500


def test_a_bot_that_never_lost_has_a_finite_rating() -> None:
    ratings = fit_ratings(("h", "r"), [PairOutcome("h", "r", 1.0)] * 20)
    assert ratings["h"] - ratings["r"] == pytest.approx(400 * math.log10(41), abs=0.01)  # 645.1


def test_level_pairs_count_half_a_win_each_way() -> None:
    ratings = fit_ratings(("a", "b", "c"), [PairOutcome("a", "b", 0.5)] * 10 + [PairOutcome("b", "c", 0.5)] * 3)
    assert ratings == pytest.approx({"a": 1500.0, "b": 1500.0, "c": 1500.0})
    assert fit_ratings(("solo",), []) == {"solo": 1500.0}


def test_three_bots_are_ordered_by_what_they_did_against_each_other() -> None:
    pairs = pair_outcomes(("a", "b", "c"), winners=(0,), scores=(0, 10, 20), score_order="low") * 5
    ratings = fit_ratings(("a", "b", "c"), pairs)
    assert ratings["a"] > ratings["b"] > ratings["c"]
    assert ratings["a"] - ratings["b"] == pytest.approx(ratings["b"] - ratings["c"], abs=0.01)  # the same record


def test_without_the_ratings_extra_the_fit_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "choix", None)  # as if not installed: importing it raises ImportError
    with pytest.raises(RatingsUnavailable, match=re.escape("pip install 'laro[ratings]'")):
        fit_ratings(("a", "b"), [PairOutcome("a", "b", 1.0)])


def test_wilson_interval_by_hand() -> None:
    # 5 wins of 10, z = 1.959964, z^2 = 3.841459: centre = (0.5 + 0.192073) / 1.384146 = 0.5
    # half = 1.959964 / 1.384146 * sqrt(0.025 + 0.009604) = 1.416010 * 0.186021 = 0.263407
    low, high = wilson_interval(5, 10)
    assert (low, high) == (pytest.approx(0.236593, abs=1e-6), pytest.approx(0.763407, abs=1e-6))
    # 2.5 wins of 4 (a split win): p = 0.625, z^2/n = 0.960365
    # centre = (0.625 + 0.480182) / 1.960365 = 0.563764
    # half = 1.959964 / 1.960365 * sqrt(0.058594 + 0.060023) = 0.999796 * 0.344408 = 0.344337
    # interval = 0.563764 -+ 0.344337
    low, high = wilson_interval(2.5, 4)
    assert (low, high) == (pytest.approx(0.219427, abs=1e-6), pytest.approx(0.908101, abs=1e-6))


def test_wilson_interval_at_the_edges() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(20, 20)
    # n = 20, p = 1: low = (1 + 0.096036) / 1.192073 - 1.959964 / 1.192073 * sqrt(0.002401) = 0.919437 - 0.080563
    assert high == 1.0 and low == pytest.approx(0.838875, abs=1e-6)
    assert wilson_interval(0, 20) == (0.0, pytest.approx(1 - 0.838875, abs=1e-6))
