"""Maximum-likelihood Elo for a field of bots from their pairwise scores.

The ratings maximise the likelihood of the logistic model P(a beats b) =
1 / (1 + 10^((Rb - Ra) / 400)), a draw counting as half a win and half a
loss, plus one virtual draw per pairing so that a perfect score still has a
finite rating; ratings average 0.  The 95% interval is +-1.96 standard
errors, the standard errors being the square roots of the diagonal of the
pseudo-inverse of the Fisher information (c^2 n p (1 - p) per pairing,
c = ln 10 / 400) at the optimum.  With two bots, n games and score fraction
s (virtual draw included) this is R = +-200 log10(s / (1 - s)) and
CI = 1.96 / (2 c sqrt(n s (1 - s))).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from .stats import Z95

ELO_C = math.log(10) / 400  # natural-log slope of the Elo logistic per rating point
VIRTUAL_DRAWS = 1.0  # per pairing: keeps a perfect score finite


def elo_ratings(results: Mapping[str, Mapping[str, tuple[float, int]]],
                prior_draws: float = VIRTUAL_DRAWS) -> dict[str, tuple[float, float]]:
    """Maximum-likelihood Elo and its 95% half-width per bot (see module doc).

    `results[a][b]` is (a's points against b, games between them).
    """
    names = sorted(name for name, row in results.items()
                   if any(games for _, games in row.values()))
    k = len(names)
    if k < 2:
        return {}
    index = {name: i for i, name in enumerate(names)}
    won = [[0.0] * k for _ in range(k)]
    played = [[0.0] * k for _ in range(k)]
    for a in names:
        for b, (points, games) in results[a].items():
            if games and b in index:
                i, j = index[a], index[b]
                won[i][j] = points + prior_draws / 2
                played[i][j] = games + prior_draws
    ratings = [0.0] * k
    for _ in range(100):
        info, grad = _information(ratings, won, played)
        step = _solve(_centred(info), grad)
        if step is None:
            return {}
        largest = max(abs(s) for s in step)
        scale = min(1.0, 300.0 / largest) if largest else 1.0  # damp wild first steps
        ratings = [r + scale * s for r, s in zip(ratings, step, strict=True)]
        mean = sum(ratings) / k
        ratings = [r - mean for r in ratings]
        if largest < 1e-9:
            break
    info, _ = _information(ratings, won, played)
    inverse = _inverse(_centred(info))
    if inverse is None:
        return {}
    return {name: (ratings[i], Z95 * math.sqrt(max(inverse[i][i] - 1.0 / k, 0.0)))
            for name, i in index.items()}


def _information(ratings: list[float], won: list[list[float]],
                 played: list[list[float]]) -> tuple[list[list[float]], list[float]]:
    """Fisher information matrix and log-likelihood gradient, in rating points."""
    k = len(ratings)
    info = [[0.0] * k for _ in range(k)]
    grad = [0.0] * k
    for i in range(k):
        for j in range(k):
            if i == j or not played[i][j]:
                continue
            expected = 1.0 / (1.0 + math.exp(-ELO_C * (ratings[i] - ratings[j])))
            grad[i] += ELO_C * (won[i][j] - played[i][j] * expected)
            weight = ELO_C * ELO_C * played[i][j] * expected * (1.0 - expected)
            info[i][i] += weight
            info[i][j] -= weight
    return info, grad


def _centred(info: list[list[float]]) -> list[list[float]]:
    """info + J/k: invertible when the pairings connect everyone.

    Its inverse minus J/k is the pseudo-inverse of info, the covariance of
    ratings constrained to average 0.
    """
    k = len(info)
    return [[value + 1.0 / k for value in row] for row in info]


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float] | None:
    inverse = _inverse(matrix)
    if inverse is None:
        return None
    return [sum(a * b for a, b in zip(row, vector, strict=True)) for row in inverse]


def _inverse(matrix: list[list[float]]) -> list[list[float]] | None:
    """Gauss-Jordan with partial pivoting; None when singular."""
    k = len(matrix)
    work = [list(row) + [1.0 if i == j else 0.0 for j in range(k)]
            for i, row in enumerate(matrix)]
    for col in range(k):
        pivot = max(range(col, k), key=lambda r: abs(work[r][col]))
        if abs(work[pivot][col]) < 1e-14:
            return None
        work[col], work[pivot] = work[pivot], work[col]
        lead = work[col][col]
        work[col] = [v / lead for v in work[col]]
        for r in range(k):
            if r != col and work[r][col]:
                factor = work[r][col]
                work[r] = [v - factor * p for v, p in zip(work[r], work[col], strict=True)]
    return [row[k:] for row in work]
