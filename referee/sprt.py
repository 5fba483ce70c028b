"""The sequential probability ratio test (SPRT) of a two-bot match, on game pairs.

H0: the first bot is elo0 (logistic) Elo stronger than the second; H1: it
is elo1 stronger (elo0 < elo1).  After every game pair (one seed played in
both seatings) the test compares the log-likelihood ratio LLR of the pairs
so far with Wald's bounds: LLR <= log(beta / (1 - alpha)) accepts H0,
LLR >= log((1 - beta) / alpha) accepts H1, anything between continues.
alpha is the chance of accepting H1 when H0 holds, beta that of accepting H0
when H1 holds.

The LLR is the *generalized* (pentanomial) one that fishtest uses, with
logistic Elo (not fishtest's newer normalized Elo, so elo0 and elo1 are in
the units of the table's Elo columns):

* A pair scores one of a = 0, 1/4, 1/2, 3/4, 1 (its two games' mean, for
  the first bot); n_i pairs scored a_i.  A count of 0 is replaced by 1e-3
  so that every outcome is possible under both hypotheses (fishtest's
  regularisation); N is the sum and p_i = n_i / N.
* Under a hypothesis the expected pair score is s = 1 / (1 + 10^(-elo / 400)).
  Of all distributions on the five outcomes with mean s, the one most
  likely to have produced the counts is q_i = p_i / (1 + x (a_i - s)), x
  being the root of sum_i p_i (a_i - s) / (1 + x (a_i - s)) = 0 between
  -1 / (1 - s) and 1 / s (a Lagrange multiplier for the mean constraint;
  the left side falls from +inf to -inf on that interval, so Newton's
  method kept inside that bracket finds it).
* LLR = N sum_i p_i log(q1_i / q0_i), q0 for s0 = score(elo0) and q1 for
  s1 = score(elo1).  For small Elo differences it is close to
  N (s1 - s0) (2 m - s0 - s1) / (2 v), m and v the pairs' mean and variance.

Pairs are judged in seed order whatever order they finish in, so a match
played on one worker or many stops after the same pair with the same table.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .outcomes import pair_points
from .stats import PAIR_VALUES, score_from_elo

REGULARISED_COUNT = 1e-3  # stands in for an outcome never seen
MAX_ELO = 2000  # beyond, the expected score is too close to 0 or 1 to test against
H0, H1, CONTINUE = "H0", "H1", "continue"


class SprtError(ValueError):
    """An --sprt setting that cannot be used; the message says why."""


@dataclass(frozen=True)
class SprtSpec:
    """The hypotheses (Elo of the first bot over the second) and the error rates."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    @classmethod
    def parse(cls, text: str) -> SprtSpec:
        """``"elo0=0 elo1=10 [alpha=0.05 beta=0.05]"`` (spaces or commas between)."""
        values: dict[str, float] = {}
        for item in text.replace(",", " ").split():
            key, sep, value = item.partition("=")
            if not sep or key not in ("elo0", "elo1", "alpha", "beta"):
                raise SprtError(f"--sprt: {item!r} is not one of elo0=E0 elo1=E1 alpha=A beta=B")
            if key in values:
                raise SprtError(f"--sprt: {key} is given twice")
            try:
                values[key] = float(value)
            except ValueError:
                raise SprtError(f"--sprt: {key} must be a number, not {value!r}") from None
            if key.startswith("elo") and not abs(values[key]) <= MAX_ELO:
                raise SprtError(f"--sprt: {key} must lie between -{MAX_ELO} and {MAX_ELO}")
        if "elo0" not in values or "elo1" not in values:
            raise SprtError("--sprt needs elo0 and elo1, e.g. --sprt \"elo0=0 elo1=10\"")
        spec = cls(**values)
        if spec.elo0 >= spec.elo1:
            raise SprtError(f"--sprt: elo0 ({spec.elo0:g}) must be below elo1 ({spec.elo1:g})")
        if not (0 < spec.alpha < 1 and 0 < spec.beta < 1 and spec.alpha + spec.beta < 1):
            raise SprtError("--sprt: alpha and beta must be above 0 with alpha + beta below 1")
        return spec

    @property
    def lower(self) -> float:
        """At or below this LLR, H0 is accepted."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """At or above this LLR, H1 is accepted."""
        return math.log((1 - self.beta) / self.alpha)

    def decide(self, llr: float) -> str:
        return H1 if llr >= self.upper else H0 if llr <= self.lower else CONTINUE

    def text(self) -> str:
        return f"elo0={self.elo0:g} elo1={self.elo1:g} alpha={self.alpha:g} beta={self.beta:g}"


def constrained_mle(probabilities: Sequence[float], values: Sequence[float],
                    mean: float) -> list[float]:
    """The distribution on `values` with the given mean most likely to give `probabilities`.

    Every probability must be positive and min(values) < mean < max(values).
    The root x is found by Newton's method kept inside a shrinking bracket
    (a bisection step whenever Newton would leave it).
    """
    shifted = [a - mean for a in values]
    low, high = -1 / max(shifted), -1 / min(shifted)  # where a denominator reaches 0
    x = 0.0
    for _ in range(100):
        slope = curvature = 0.0
        for p, d in zip(probabilities, shifted, strict=True):
            term = d / (1 + x * d)
            slope += p * term
            curvature += p * term * term
        if slope > 0:  # the slope falls from +inf to -inf: the root is to the right
            low = x
        else:
            high = x
        step = x + slope / curvature
        if abs(step - x) < 1e-14 * max(1.0, abs(x)):
            x = step
            break
        x = step if low < step < high else (low + high) / 2
    return [p / (1 + x * d) for p, d in zip(probabilities, shifted, strict=True)]


def generalized_llr(counts: Sequence[float], elo0: float, elo1: float,
                    values: Sequence[float] = PAIR_VALUES) -> float:
    """The log-likelihood ratio of H1 (elo1) against H0 (elo0) for these outcome counts."""
    regular = [count if count > 0 else REGULARISED_COUNT for count in counts]
    total = sum(regular)
    observed = [count / total for count in regular]
    under_h0 = constrained_mle(observed, values, score_from_elo(elo0))
    under_h1 = constrained_mle(observed, values, score_from_elo(elo1))
    return total * sum(p * math.log(q1 / q0)
                       for p, q0, q1 in zip(observed, under_h0, under_h1, strict=True))


@dataclass
class SprtResult:
    """Where the test stands: the LLR after `pairs` complete pairs, and the verdict."""

    spec: SprtSpec
    first: str
    second: str
    pentanomial: list[int] = field(default_factory=lambda: [0] * 5)
    llr: float = 0.0
    decision: str = CONTINUE
    games: int = 0  # games of the counted pairs (a pair void by an error counts none)
    last_seed: int = -1  # the seed index of the last pair judged

    @property
    def pairs(self) -> int:
        return sum(self.pentanomial)

    def to_json(self) -> dict[str, Any]:
        spec = self.spec
        return {"first": self.first, "second": self.second, "elo0": spec.elo0,
                "elo1": spec.elo1, "alpha": spec.alpha, "beta": spec.beta,
                "model": "logistic, pentanomial", "llr": round(self.llr, 4),
                "lower": round(spec.lower, 4), "upper": round(spec.upper, 4),
                "decision": self.decision, "games": self.games, "pairs": self.pairs,
                "pentanomial": list(self.pentanomial)}


class SequentialTest:
    """The SPRT of `first` against `second`: the tournament's stopping rule.

    Call it with the games of each finished pair (any order); it answers
    True once H0 or H1 is accepted.  Pairs wait until every earlier seed
    has been judged, so the decision falls on the same pair however many
    workers play.
    """

    def __init__(self, spec: SprtSpec, first: str, second: str) -> None:
        self.result = SprtResult(spec, first, second)
        self._waiting: dict[int, list[dict[str, Any]]] = {}

    def __call__(self, pair: list[dict[str, Any]]) -> bool:
        if self.result.decision == CONTINUE:
            self._waiting[pair[0]["tournament"]["seed_index"]] = pair
            while self.result.decision == CONTINUE and \
                    self.result.last_seed + 1 in self._waiting:
                self._judge(self._waiting.pop(self.result.last_seed + 1))
        return self.result.decision != CONTINUE

    def _judge(self, pair: list[dict[str, Any]]) -> None:
        result = self.result
        result.last_seed += 1
        points = pair_points(pair, result.first)
        if points is None:
            return
        result.pentanomial[round(2 * points)] += 1
        result.games += len(pair)
        result.llr = generalized_llr(result.pentanomial, result.spec.elo0, result.spec.elo1)
        result.decision = result.spec.decide(result.llr)

    def played(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The rows a one-worker run would hold: none past the deciding pair."""
        if self.result.decision == CONTINUE:
            return rows
        return [row for row in rows if row["tournament"]["seed_index"] <= self.result.last_seed]
