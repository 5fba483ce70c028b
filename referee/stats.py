"""Textbook formulas for tournament statistics: pure functions of counts.

Nothing here knows about games, bots or tables; `ratings` feeds it counts.
All Elo here is *logistic* Elo: a score fraction s (1 a win, 0.5 a draw)
corresponds to the rating difference D with s = 1 / (1 + 10^(-D / 400)).

* **Elo and its 95% interval from a score distribution** (``elo_estimate``,
  as fishtest and fastchess compute it): the mean score s of N independent
  units (games, or game pairs) with per-unit variance v has standard error
  sqrt(v / N); the interval is the Elo of s -+ 1.96 standard errors, and the
  reported half-width is half the distance between those two Elos (so it is
  unbounded when an end leaves (0, 1)).  When every unit scored the same
  (one game, all draws, every pair WL) the observed variance is 0 and says
  nothing about the spread: there is no interval (fastchess would print
  "+- 0", which reads as certainty), and none is computed.
* **Games or game pairs.**  Counting games as the units takes the L / D / W
  outcomes (values 0, 1/2, 1) as independent (the "plain" trinomial
  estimate).  In the duplicate format the two games of one seed, one in each
  seating, are correlated (a lucky deal helps whoever holds it in both), so
  the *pentanomial* estimate takes each pair as one unit: its score is the
  mean of the two games, one of 0, 1/4, 1/2, 3/4, 1 (LL, LD, DD or WL, WD,
  WW), and the variance of those five values over N pairs is the variance
  that goes into the interval.  Seeds that decide the pair push that
  variance down and narrow the interval.
* **LOS** (likelihood of superiority) of A over B from W wins and L losses
  (draws carry no information): Phi((W - L) / sqrt(W + L)), Phi the
  standard normal distribution function.
* **Wilson interval** for a proportion p = k / n: centre (p + z^2 / 2n) /
  (1 + z^2 / n), half-width z sqrt(p (1 - p) / n + z^2 / 4n^2) / (1 + z^2 / n);
  unlike p -+ z sqrt(p (1 - p) / n) it stays inside [0, 1] and is not empty
  at 0 or n successes.
* **Mean with a 95% interval**: mean -+ 1.96 s / sqrt(n), s the sample
  standard deviation (n - 1 in the denominator); none for fewer than 2 values
  and none when they are all equal (s = 0 says nothing about the spread).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959964  # the 97.5% quantile of the standard normal distribution

GAME_VALUES = (0.0, 0.5, 1.0)  # loss, draw, win
PAIR_VALUES = (0.0, 0.25, 0.5, 0.75, 1.0)  # LL, LD, DD or WL, WD, WW (mean of the two games)
PENTANOMIAL_NAMES = ("LL", "LD", "DD+WL", "WD", "WW")


def elo_from_score(score: float) -> float:
    """The logistic Elo difference of a score fraction; -inf / +inf at 0 / 1."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return 400.0 * math.log10(score / (1.0 - score))  # 0.0 at .5, never -0.0


def score_from_elo(elo: float) -> float:
    """The expected score fraction of a player `elo` points stronger."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def normal_cdf(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


@dataclass(frozen=True)
class EloEstimate:
    """A score turned into Elo: the mean, its 95% interval and the units behind it."""

    units: int
    score: float
    variance: float  # per unit
    elo: float  # +-inf at a perfect score
    low: float  # the 95% interval, -inf / +inf where an end leaves (0, 1);
    high: float  # nan for both when every unit scored the same (no interval)

    @property
    def spread(self) -> bool:
        """Whether the units differ, so that an interval can be estimated."""
        return not (math.isnan(self.low) or math.isnan(self.high))

    @property
    def ci95(self) -> float | None:
        """Half the interval's width; None when it is unbounded or cannot be estimated."""
        if not (math.isfinite(self.low) and math.isfinite(self.high)):
            return None
        return (self.high - self.low) / 2


def mean_and_variance(counts: Sequence[float], values: Sequence[float]) -> tuple[float, float]:
    """Mean and (population) variance of `values` weighted by `counts`."""
    total = sum(counts)
    mean = sum(c * v for c, v in zip(counts, values, strict=True)) / total
    variance = sum(c * (v - mean) ** 2 for c, v in zip(counts, values, strict=True)) / total
    return mean, variance


def elo_estimate(counts: Sequence[int], values: Sequence[float]) -> EloEstimate | None:
    """Elo and 95% interval of units scoring `values[i]` `counts[i]` times; None if no unit."""
    units = sum(counts)
    if not units:
        return None
    score, variance = mean_and_variance(counts, values)
    if sum(1 for count in counts if count) < 2:  # one value seen: its variance says nothing
        return EloEstimate(units, score, 0.0, elo_from_score(score), math.nan, math.nan)
    error = math.sqrt(variance / units)
    return EloEstimate(units, score, variance, elo_from_score(score),
                       elo_from_score(score - Z95 * error), elo_from_score(score + Z95 * error))


def los(wins: int, losses: int) -> float | None:
    """Likelihood of superiority from wins and losses; None without a decisive game."""
    if wins + losses == 0:
        return None
    return normal_cdf((wins - losses) / math.sqrt(wins + losses))


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of the proportion successes / trials."""
    if trials <= 0:
        return None
    p = successes / trials
    shrink = 1.0 + z * z / trials
    centre = (p + z * z / (2 * trials)) / shrink
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / shrink
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_ci95(total: float, total_of_squares: float, n: int) -> float | None:
    """Half-width of the normal 95% interval of a mean, from running sums; None
    for fewer than two values or values all equal (no spread to estimate it from)."""
    if n < 2:
        return None
    mean = total / n
    variance = max(total_of_squares - n * mean * mean, 0.0) / (n - 1)
    if variance <= 1e-12 * (1.0 + mean * mean):  # equal values, up to rounding in the sums
        return None
    return Z95 * math.sqrt(variance / n)
