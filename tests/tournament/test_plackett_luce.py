"""Plackett-Luce ratings (openskill) for games of three or more sides."""

from __future__ import annotations

import math

import pytest

from agon.referee.plackett_luce import PlackettLuceRatings
from agon.referee.ratings import standings

from .test_ratings import game

MU, SIGMA, BETA = 25.0, 25.0 / 3, 25.0 / 6  # the model's prior and performance spread


def test_first_game_moves_the_ratings_as_weng_lin_algorithm_4_says():
    ratings = PlackettLuceRatings(["a", "b", "c"])
    ratings.add_game([["a"], ["b"], ["c"]], [1, 2, 3])
    skills = ratings.skills()
    # c^2 = 3 (sigma^2 + beta^2) = 3 (69.444 + 17.361) = 260.42, c = 16.137.  Equal mus:
    # the chance to take place q among those left is 1/3, then 1/2, then 1.
    c = math.sqrt(3 * (SIGMA ** 2 + BETA ** 2))
    step = SIGMA ** 2 / c  # 4.3034
    assert skills["a"].mu == pytest.approx(MU + step * (1 - 1 / 3))  # +2.869
    assert skills["b"].mu == pytest.approx(MU + step * (-1 / 3 + (1 - 1 / 2)))  # +0.717
    assert skills["c"].mu == pytest.approx(MU + step * (-1 / 3 - 1 / 2 + (1 - 1)))  # -3.586
    # the winner's variance shrinks by (sigma / c) (sigma^2 / c^2) p (1 - p), p = 1/3
    shrink = (SIGMA / c) * (SIGMA ** 2 / c ** 2) * (1 / 3) * (2 / 3)  # .0306
    assert skills["a"].sigma == pytest.approx(SIGMA * math.sqrt(1 - shrink))  # 8.205
    assert skills["a"].ordinal == pytest.approx(skills["a"].mu - 3 * skills["a"].sigma)


def test_a_fixed_ranking_orders_the_ratings_and_ties_rate_alike():
    seats = ["p1", "p2", "p3"]
    rows = []
    orders = [("a", "b", "c"), ("c", "a", "b"), ("b", "c", "a")]  # each bot in each seat
    for index in range(12):
        seating = dict(zip(seats, orders[index % 3], strict=True))
        place = {"a": 1, "b": 2, "c": 2}  # a always first, b and c always level
        ranks = {seat: place[bot] for seat, bot in seating.items()}
        rows.append(game(index, seating, ranks))
    lines = {ln.name: ln for ln in standings(rows, "multiplayer", ["a", "b", "c"], seats).bots}
    a, b, c = (lines[n].skill for n in "abc")
    assert a.mu > MU > b.mu and a.ordinal > b.ordinal
    assert b.mu == pytest.approx(c.mu) and b.sigma == pytest.approx(c.sigma)
    assert a.sigma < SIGMA  # twelve games made it surer


def test_teammates_share_their_result_and_the_partnerships_rotate_into_an_order():
    ratings = PlackettLuceRatings(["a", "b", "c", "d"])
    for _ in range(5):
        ratings.add_game([["a", "b"], ["c", "d"]], [1, 2])
    skills = ratings.skills()
    assert skills["a"].mu == pytest.approx(skills["b"].mu)
    assert skills["c"].mu == pytest.approx(skills["d"].mu)
    assert skills["a"].mu > MU > skills["c"].mu
    # a wins with every partner, d loses with every partner: a > b, c > d
    ratings = PlackettLuceRatings(["a", "b", "c", "d"])
    for _ in range(4):
        ratings.add_game([["a", "b"], ["c", "d"]], [1, 2])
        ratings.add_game([["a", "c"], ["b", "d"]], [1, 2])
        ratings.add_game([["a", "d"], ["b", "c"]], [1, 1])
    skills = ratings.skills()
    assert skills["a"].ordinal > max(skills["b"].ordinal, skills["c"].ordinal)
    assert skills["d"].ordinal < min(skills["b"].ordinal, skills["c"].ordinal)


def test_the_same_games_in_the_same_order_give_the_same_ratings():
    def rate() -> dict:
        ratings = PlackettLuceRatings(["a", "b", "c"])
        for ranks in ([1, 2, 3], [2, 1, 3], [3, 3, 1], [1, 3, 2]):
            ratings.add_game([["a"], ["b"], ["c"]], ranks)
        return ratings.skills()

    assert rate() == rate()
