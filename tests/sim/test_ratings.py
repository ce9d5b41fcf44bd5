"""Placements, pairwise outcomes, sequential Elo and the Wilson interval, checked against numbers worked out by
hand (the arithmetic is written out beside each)."""

from __future__ import annotations

import itertools

import pytest

from laro.sim.ratings import Elo, PairOutcome, expected_score, pair_outcomes, placement, wilson_interval


def test_placement_puts_winners_first_then_scores_in_the_games_sense() -> None:
    # L.A.M.A. (low is better): seat 2 won; seats 1 and 3 tie on 4 points; seat 0 is last with 10
    assert placement((2,), (10, 4, 1, 4), "low") == [3, 1, 0, 1]
    # a shared win is a tie between the winners, whatever their scores; high is better for the rest
    assert placement((0, 2), (1, 9, 3, 8), "high") == [0, 2, 0, 3]


def test_pair_outcomes_skip_seats_of_the_same_bot() -> None:
    pairs = pair_outcomes(("h", "r", "r"), winners=(0,), scores=(0, 12, 20), score_order="low")
    assert pairs == [PairOutcome("h", "r", 1.0), PairOutcome("h", "r", 1.0)]  # r against r says nothing


def test_two_bots_one_game() -> None:
    # expected = 1 / (1 + 10 ** ((1500 - 1500) / 400)) = 0.5; change = 16 * (1 - 0.5) = 8
    elo = Elo(names=("a", "b"))
    elo.add_game(pair_outcomes(("a", "b"), (0,), (3, 20), "low"))
    assert elo.ratings == {"a": 1508.0, "b": 1492.0}


def test_a_second_game_uses_the_updated_ratings() -> None:
    elo = Elo(names=("a", "b"))
    elo.add_game([PairOutcome("a", "b", 1.0)])  # 1508 / 1492, as above
    elo.add_game([PairOutcome("a", "b", 0.0)])  # b wins the second game
    # expected(a) = 1 / (1 + 10 ** ((1492 - 1508) / 400)) = 1 / (1 + 10 ** -0.04) = 1 / 1.912010839 = 0.523009587
    # change(a) = 16 * (0 - 0.523009587) = -8.368153397
    assert elo.ratings["a"] == pytest.approx(1508 - 8.368153397, abs=1e-6)  # 1499.631846603
    assert elo.ratings["b"] == pytest.approx(1492 + 8.368153397, abs=1e-6)  # 1500.368153397
    assert [round(h["a"], 6) for h in elo.history] == [1508.0, 1499.631847]


def test_a_three_seat_game_with_a_shared_win() -> None:
    # a and b share the win: a-b is a draw (16 * (0.5 - 0.5) = 0); each beats c: +8 for the winner, -8 for c twice
    elo = Elo(names=("a", "b", "c"))
    elo.add_game(pair_outcomes(("a", "b", "c"), winners=(0, 1), scores=(5, 5, 30), score_order="low"))
    assert elo.ratings == {"a": 1508.0, "b": 1508.0, "c": 1484.0}


def test_a_bot_in_two_seats_collects_both_updates() -> None:
    # h beats r twice: h + 8 + 8 = 1516, r - 8 - 8 = 1484
    elo = Elo(names=("h", "r"))
    elo.add_game(pair_outcomes(("h", "r", "r"), winners=(0,), scores=(0, 12, 20), score_order="low"))
    assert elo.ratings == {"h": 1516.0, "r": 1484.0}


def test_updates_within_a_game_use_the_ratings_before_it() -> None:
    # from a 1600, b 1500, c 1400, a game a > b > c, with K = 32:
    # E(a,b) = 1/(1+10**-0.25) = 0.640065, E(a,c) = 1/(1+10**-0.5) = 0.759747, E(b,c) = 0.640065
    # a: 32*(1-0.640065) + 32*(1-0.759747) = 11.517920 + 7.688098 = 19.206018
    # b: -11.517920 + 11.517920 = 0;  c: -7.688098 - 11.517920 = -19.206018
    games = [PairOutcome("a", "b", 1.0), PairOutcome("a", "c", 1.0), PairOutcome("b", "c", 1.0)]
    for order in itertools.permutations(games):
        elo = Elo(k=32, names=("a", "b", "c"))
        elo.ratings.update({"a": 1600.0, "b": 1500.0, "c": 1400.0})
        elo.add_game(order)
        assert elo.ratings["a"] == pytest.approx(1619.206018, abs=1e-5)
        assert elo.ratings["b"] == pytest.approx(1500.0, abs=1e-9)
        assert elo.ratings["c"] == pytest.approx(1380.793982, abs=1e-5)


def test_start_and_k_are_parameters() -> None:
    elo = Elo(k=10, start=1000, names=("a", "b"))
    elo.add_game([PairOutcome("a", "b", 0.0)])  # 10 * (0 - 0.5) = -5
    assert elo.ratings == {"a": 995.0, "b": 1005.0}
    assert expected_score(1600, 1400) == pytest.approx(1 / (1 + 10 ** (-200 / 400)))  # 0.759747


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
