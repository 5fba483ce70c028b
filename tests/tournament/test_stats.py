"""The statistics of the tables against values worked out by hand.

Each expected value is computed here from the textbook formula (the
arithmetic is shown), never copied from the code's output.
"""

from __future__ import annotations

import math

import pytest

from agon.referee.stats import (
    GAME_VALUES,
    PAIR_VALUES,
    elo_estimate,
    elo_from_score,
    los,
    mean_ci95,
    score_from_elo,
    wilson_interval,
)


def test_elo_and_score_are_the_logistic_curve_and_its_inverse():
    # 400 Elo up means 10:1 odds: s = 10 / 11
    assert score_from_elo(400) == pytest.approx(10 / 11)
    assert elo_from_score(10 / 11) == pytest.approx(400)
    assert elo_from_score(0.75) == pytest.approx(400 * math.log10(3))  # odds 3:1 -> 190.85
    assert elo_from_score(0.5) == 0
    assert elo_from_score(1.0) == math.inf and elo_from_score(0.0) == -math.inf


def test_los_of_6_wins_2_losses_and_any_draws():
    # LOS = Phi((W - L) / sqrt(W + L)) = Phi(4 / sqrt(8)) = Phi(1.4142) = 0.9214 (normal table)
    assert los(6, 2) == pytest.approx(0.9214, abs=1e-4)
    assert los(2, 6) == pytest.approx(1 - 0.9214, abs=1e-4)
    assert los(5, 5) == 0.5
    assert los(0, 0) is None  # only draws: no evidence either way


def test_pentanomial_mean_variance_and_elo_interval_of_ten_pairs():
    counts = [1, 2, 3, 3, 1]  # LL LD DD+WL WD WW
    estimate = elo_estimate(counts, PAIR_VALUES)
    # mean = (0*1 + .25*2 + .5*3 + .75*3 + 1*1) / 10 = 5.25 / 10
    assert estimate.score == pytest.approx(0.525)
    # variance = (1*.525^2 + 2*.275^2 + 3*.025^2 + 3*.225^2 + 1*.475^2) / 10
    #          = (.275625 + .15125 + .001875 + .151875 + .225625) / 10 = .080625
    assert estimate.variance == pytest.approx(0.080625)
    assert estimate.units == 10
    # Elo(.525) = -400 log10(1/.525 - 1) = -400 log10(.904762) = +17.39
    assert estimate.elo == pytest.approx(17.39, abs=0.01)
    # se = sqrt(.080625 / 10) = .089791; .525 -+ 1.96 se = .34901 .. .70099
    # Elo(.70099) = +148.0, Elo(.34901) = -108.3: half-width (148.0 + 108.3) / 2 = 128.2
    assert estimate.ci95 == pytest.approx(128.2, abs=0.1)


def test_trinomial_interval_of_games_4_wins_2_draws_4_losses():
    estimate = elo_estimate([4, 2, 4], GAME_VALUES)  # L D W
    # mean .5, variance (4 * .25 + 2 * 0 + 4 * .25) / 10 = .2, se = sqrt(.02) = .141421
    assert estimate.score == 0.5 and estimate.variance == pytest.approx(0.2)
    # .5 + 1.96 * .141421 = .777186 -> Elo = 400 log10(.777186 / .222814) = 217.1
    assert estimate.ci95 == pytest.approx(217.1, abs=0.1)
    assert estimate.elo == 0


def test_an_interval_that_leaves_0_1_is_unbounded_and_a_perfect_score_infinite():
    estimate = elo_estimate([0, 1, 9], GAME_VALUES)  # .95 -+ 1.96 * .15 / sqrt(10) leaves 1
    assert estimate.ci95 is None and math.isfinite(estimate.elo)
    perfect = elo_estimate([0, 0, 5], GAME_VALUES)
    assert perfect.elo == math.inf and perfect.ci95 is None
    assert elo_estimate([0, 0, 0], GAME_VALUES) is None


def test_wilson_interval_of_8_successes_in_10():
    # p = .8, z^2 = 3.8415: centre (.8 + 3.8415 / 20) / (1 + .38415) = .99207 / 1.38415 = .71674
    # half = 1.96 sqrt(.016 + 3.8415 / 400) / 1.38415 = 1.96 * .16003 / 1.38415 = .22661
    low, high = wilson_interval(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-4) and high == pytest.approx(0.9433, abs=1e-4)


def test_wilson_interval_is_not_empty_at_zero_or_all_successes():
    low, high = wilson_interval(0, 5)
    # centre = half = (3.8415 / 10) / (1 + .7683): the interval is [0, 2 * .38415 / 1.7683]
    assert low == 0 and high == pytest.approx(2 * 0.38415 / 1.7683, abs=1e-4)
    low, high = wilson_interval(5, 5)
    assert high == 1 and low == pytest.approx(1 - 2 * 0.38415 / 1.7683, abs=1e-4)
    assert wilson_interval(0, 0) is None


def test_mean_interval_uses_the_sample_standard_deviation():
    values = [1, 2, 3, 4]  # mean 2.5, sample variance (2.25 + .25 + .25 + 2.25) / 3 = 5 / 3
    half = mean_ci95(sum(values), sum(v * v for v in values), len(values))
    assert half == pytest.approx(1.959964 * math.sqrt(5 / 3 / 4))
    assert mean_ci95(3.0, 9.0, 1) is None


def test_units_that_all_scored_the_same_give_no_interval_rather_than_zero():
    # one drawn game: score .5, Elo 0, but a variance of 0 from one value says nothing
    # about the spread: the normal interval would be .5 -+ 0, "+0 +- 0", a certainty
    one = elo_estimate([0, 1, 0], GAME_VALUES)
    assert one.elo == 0 and math.copysign(1, one.elo) == 1  # 0.0, not -0.0
    assert one.ci95 is None and not one.spread
    assert elo_estimate([0, 40, 0], GAME_VALUES).ci95 is None  # forty draws
    # seven pairs all LD: score .25, Elo 400 log10(.25 / .75) = -190.85, no interval
    pairs = elo_estimate([0, 7, 0, 0, 0], PAIR_VALUES)
    assert pairs.elo == pytest.approx(-190.85, abs=0.01) and pairs.ci95 is None
    # two outcomes seen: an interval again (1 L, 1 W: .5 -+ 1.96 * .5 / sqrt 2 leaves (0, 1))
    assert elo_estimate([1, 0, 1], GAME_VALUES).spread
    assert elo_estimate([1, 0, 1], GAME_VALUES).ci95 is None  # unbounded, not unknown
    assert mean_ci95(2.0 * 5, 4.0 * 5, 5) is None  # five games all ranked 2nd
    assert mean_ci95(8.3 * 1000, 8.3 * 8.3 * 1000, 1000) is None  # equal up to rounding
