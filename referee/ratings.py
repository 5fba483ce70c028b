"""Score tables for tournaments: per bot, per pairing, per seat, per team.

`standings` turns the finished games (journal rows, in schedule order) into
a `Standings`; `report` prints it.  What a bot got from each game is
`outcomes.game_outcomes`; the formulas are in `stats`, `elo`, `sprt` and
`plackett_luce`.  Per bot:

* **W / D / L, score %** (mean points in [0, 1], see `outcomes`) with a
  normal 95% interval that treats games as independent.
* **pairwise** (score % of row against column): two seats: the row's points
  in their games; N seats: 1 when the row's side finished ahead of the
  column's, 0.5 level, 0 behind (teammates are not compared); solo: the two
  bots' points on the same seed compared the same way (duplicate format).
* Two seats: **Elo** +- 95%, the maximum-likelihood ratings of the whole
  field (`elo`); and per pairing (`PairStats`) the plain Elo of the first
  bot over the second from the games, its LOS, the pentanomial counts of
  the game pairs (one seed in both seatings) and the paired Elo from their
  variance (`stats`).
* Three or more sides: **mean rank** +- 95% and a **Plackett-Luce** rating
  (mu, sigma, ordinal mu - 3 sigma) fed every game in schedule order.
* Solo: **win rate** with its Wilson 95% interval, and the mean of the
  game's own score +- 95%.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from .elo import elo_ratings
from .outcomes import Outcome, game_outcomes, points_in, row_teams
from .plackett_luce import PlackettLuceRatings, Skill
from .sprt import SprtResult
from .stats import (
    GAME_VALUES,
    PAIR_VALUES,
    EloEstimate,
    elo_estimate,
    los,
    mean_ci95,
    wilson_interval,
)


@dataclass
class Line:
    """A row of the table: one bot's (or one team's) totals."""

    name: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: float = 0.0
    points_sq: float = 0.0
    rank_total: int = 0
    rank_sq: int = 0
    score_total: float = 0.0
    score_sq: float = 0.0
    scored: int = 0
    forfeits: Counter = field(default_factory=Counter)
    errors: int = 0
    elo: float | None = None
    elo_ci: float | None = None
    skill: Skill | None = None  # Plackett-Luce, three or more sides

    def add(self, outcome: Outcome) -> None:
        self.games += 1
        if outcome.outcome == "win":
            self.wins += 1
        elif outcome.outcome == "draw":
            self.draws += 1
        else:
            self.losses += 1
        self.points += outcome.points
        self.points_sq += outcome.points ** 2
        self.rank_total += outcome.rank
        self.rank_sq += outcome.rank ** 2
        if outcome.score is not None:
            self.score_total += outcome.score
            self.score_sq += outcome.score ** 2
            self.scored += 1
        if outcome.forfeit:
            self.forfeits[outcome.forfeit] += 1

    @property
    def score(self) -> float | None:
        """Mean points in [0, 1]; None before any game."""
        return self.points / self.games if self.games else None

    @property
    def score_ci95(self) -> float | None:
        return mean_ci95(self.points, self.points_sq, self.games)

    @property
    def mean_rank(self) -> float | None:
        return self.rank_total / self.games if self.games else None

    @property
    def mean_rank_ci95(self) -> float | None:
        return mean_ci95(self.rank_total, self.rank_sq, self.games)

    @property
    def mean_score(self) -> float | None:
        """Mean of the game's own score (e.g. victory points)."""
        return self.score_total / self.scored if self.scored else None

    @property
    def mean_score_ci95(self) -> float | None:
        return mean_ci95(self.score_total, self.score_sq, self.scored)

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games if self.games else None

    @property
    def win_rate_ci95(self) -> tuple[float, float] | None:
        """Wilson 95% interval of the win rate."""
        return wilson_interval(self.wins, self.games)


class Tally:
    """Points and games, for the matrices."""

    __slots__ = ("points", "games")

    def __init__(self) -> None:
        self.points = 0.0
        self.games = 0

    def add(self, points: float) -> None:
        self.points += points
        self.games += 1

    @property
    def score(self) -> float | None:
        return self.points / self.games if self.games else None


@dataclass
class PairStats:
    """Two bots' games against each other, from the first one's side."""

    first: str
    second: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    pentanomial: list[int] = field(default_factory=lambda: [0] * 5)  # LL LD DD+WL WD WW

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def plain(self) -> EloEstimate | None:
        """Elo from the games taken one by one (trinomial)."""
        return elo_estimate([self.losses, self.draws, self.wins], GAME_VALUES)

    @property
    def paired(self) -> EloEstimate | None:
        """Elo from the game pairs (pentanomial)."""
        return elo_estimate(self.pentanomial, PAIR_VALUES)

    @property
    def los(self) -> float | None:
        return los(self.wins, self.losses)


@dataclass
class Standings:
    """Everything the tournament prints."""

    kind: str
    bots: list[Line]
    pairwise: dict[str, dict[str, Tally]]
    seats: dict[str, dict[str, Tally]]  # bot -> seat -> tally; "all" = every bot
    seat_names: list[str]
    teams: list[Line] | None
    errors: list[dict[str, str]]
    meta: dict[str, Any] = field(default_factory=dict)
    pairs: list[PairStats] = field(default_factory=list)  # two seats only
    sprt: SprtResult | None = None


def standings(rows: list[dict[str, Any]], kind: str, entrants: list[str],
              seats: list[str], meta: dict[str, Any] | None = None,
              sprt: SprtResult | None = None) -> Standings:
    """Aggregate rows (in schedule order) into the tournament's tables."""
    lines = {name: Line(name) for name in entrants}
    pairwise = {a: {b: Tally() for b in entrants if b != a} for a in entrants}
    by_seat = {name: {seat: Tally() for seat in seats} for name in [*entrants, "all"]}
    team_lines: dict[str, Line] = {}
    errors: list[dict[str, str]] = []
    solo_by_seed: dict[int, dict[str, float]] = defaultdict(dict)
    skills = PlackettLuceRatings(entrants) if kind == "multiplayer" else None
    each_game: list[list[Outcome] | None] = []  # worked out once: the pairs read them too
    for row in rows:
        info = row["tournament"]
        if "error" in row:
            errors.append({"key": info["key"], "error": row["error"]})
            for bot in info["seating"].values():
                lines[bot].errors += 1
            each_game.append(None)
            continue
        outcomes = game_outcomes(row, kind)
        each_game.append(outcomes)
        for outcome in outcomes:
            lines[outcome.bot].add(outcome)
            by_seat[outcome.bot][outcome.seat].add(outcome.points)
            by_seat["all"][outcome.seat].add(outcome.points)
        if row_teams(row):
            _add_teams(team_lines, outcomes)
        if kind == "solo":
            for outcome in outcomes:
                solo_by_seed[info["seed_index"]][outcome.bot] = outcome.points
        else:
            _add_pairs(pairwise, outcomes, kind)
        if skills:
            _rate_game(skills, outcomes)
    for results in solo_by_seed.values():
        for a, b in ((a, b) for a in results for b in results if a != b):
            pairwise[a][b].add(_compare(results[a], results[b]))
    pairs = []
    if kind == "duel":
        totals = {a: {b: (t.points, t.games) for b, t in row.items()}
                  for a, row in pairwise.items()}
        for name, (rating, ci) in elo_ratings(totals).items():
            lines[name].elo, lines[name].elo_ci = rating, ci
        pairs = pair_stats(rows, entrants, each_game)
    if skills:
        for name, skill in skills.skills().items():
            if lines[name].games:  # a bot that has not played has only the prior to show
                lines[name].skill = skill
    ordered = sorted(lines.values(), key=lambda ln: (-(ln.score or 0.0), -(ln.elo or 0.0),
                                                      ln.name))
    teams = sorted(team_lines.values(), key=lambda ln: ln.name) if team_lines else None
    return Standings(kind, ordered, pairwise, by_seat, list(seats), teams, errors,
                     dict(meta or {}), pairs, sprt)


def pair_stats(rows: list[dict[str, Any]], entrants: list[str],
               each_game: list[list[Outcome] | None] | None = None) -> list[PairStats]:
    """Each pairing that played, first bot first in the order the bots were entered;
    `each_game`: the rows' `game_outcomes` (None for an error), if worked out already."""
    if each_game is None:
        each_game = [None if "error" in row else game_outcomes(row, "duel") for row in rows]
    order = {name: i for i, name in enumerate(entrants)}
    pairs: dict[tuple[str, str], PairStats] = {}
    by_seed: dict[tuple[int, tuple[str, str]], list[list[Outcome] | None]] = defaultdict(list)
    for row, outcomes in zip(rows, each_game, strict=True):
        first, second = sorted(row["tournament"]["seating"].values(), key=order.__getitem__)
        stats = pairs.setdefault((first, second), PairStats(first, second))
        by_seed[row["tournament"]["seed_index"], (first, second)].append(outcomes)
        if outcomes is None:
            continue
        outcome = next(o for o in outcomes if o.bot == first)
        if outcome.outcome == "win":
            stats.wins += 1
        elif outcome.outcome == "draw":
            stats.draws += 1
        else:
            stats.losses += 1
    for (_, names), games in by_seed.items():
        finished = [outcomes for outcomes in games if outcomes is not None]
        if len(games) == len(finished) == 2:  # a pair with an error counts for neither
            pairs[names].pentanomial[round(2 * points_in(finished, names[0]))] += 1
    return sorted(pairs.values(), key=lambda p: (order[p.first], order[p.second]))


def _compare(mine: float, theirs: float) -> float:
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


def _add_pairs(pairwise: dict[str, dict[str, Tally]], outcomes: list[Outcome],
               kind: str) -> None:
    for a in outcomes:
        for b in outcomes:
            if a.bot == b.bot or a.side == b.side:
                continue
            value = a.points if kind == "duel" else _compare(-a.rank, -b.rank)
            pairwise[a.bot][b.bot].add(value)


def _add_teams(team_lines: dict[str, Line], outcomes: list[Outcome]) -> None:
    """One outcome per team per game (its first seat stands for it)."""
    seen = set()
    for outcome in outcomes:
        if outcome.side in seen:
            continue
        seen.add(outcome.side)
        team = team_lines.setdefault(outcome.side, Line(outcome.side))
        forfeited = any(o.forfeit for o in outcomes if o.side == outcome.side)
        team.add(Outcome(outcome.side, outcome.seat, outcome.side, outcome.points,
                         outcome.outcome, outcome.rank, None,
                         "forfeit" if forfeited else None))


def _rate_game(skills: PlackettLuceRatings, outcomes: list[Outcome]) -> None:
    """Feed one game to the Plackett-Luce ratings: its sides in seat order, their ranks."""
    sides: dict[str, list[str]] = {}
    ranks: dict[str, int] = {}
    for outcome in outcomes:
        sides.setdefault(outcome.side, []).append(outcome.bot)
        ranks[outcome.side] = outcome.rank
    skills.add_game(list(sides.values()), [ranks[side] for side in sides])
