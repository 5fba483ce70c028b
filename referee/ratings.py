"""Score tables for tournaments: W/D/L, scores, Elo with 95% CI, ranks, teams.

Every finished game gives each seated bot an outcome, always seen from the
bot's *side* (its team where the game has teams, else its seat), so a bot in a
team game gets its team's result:

* **win / draw / loss.**  Two or more sides: a win is first place alone, a
  draw is first place shared with another side, anything else a loss.  Solo
  games: the engine's points (1 the bot beat the game, 0 it lost, between
  = draw).
* **score %** is the mean of the bot's points: the engine's share of the win
  in [0, 1] (1 / 0.5 / 0 for two seats; rank-based for N seats: the fraction
  of other sides beaten, ties half).  In team games the points are computed
  over the teams' ranks (a team's rank is its best seat's), so the winning
  league scores 1 and the losing one 0.
* **pairwise** (score % of row against column): two seats: the row's points
  in their games; N seats: 1 when the row's side finished ahead of the
  column's, 0.5 level, 0 behind (teammates are not compared); solo: the two
  bots' points on the same seed compared the same way (duplicate format).
* **Elo** (two-seat games only): the maximum-likelihood ratings of the
  logistic model P(a beats b) = 1 / (1 + 10^((Rb - Ra) / 400)), a draw
  counting as half a win and half a loss, plus one virtual draw per pairing
  so that a perfect score still has a finite rating; ratings average 0.
  The 95% interval is +-1.96 standard errors, the standard errors being the
  square roots of the diagonal of the pseudo-inverse of the Fisher
  information (c^2 n p (1 - p) per pairing, c = ln 10 / 400) at the optimum.
  With two bots, n games and score fraction s (virtual draw included) this is
  R = +-200 log10(s / (1 - s)) and CI = 1.96 / (2 c sqrt(n s (1 - s))).
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from tabulate import tabulate

from .engine import points_from_ranks
from .players import FORFEIT_REASONS

ELO_C = math.log(10) / 400  # natural-log slope of the Elo logistic per rating point
VIRTUAL_DRAWS = 1.0  # per pairing: keeps a perfect score finite
Z95 = 1.959964


@dataclass
class Outcome:
    """One bot's share of one finished game."""

    bot: str
    seat: str
    side: str
    points: float
    outcome: str  # "win", "draw" or "loss"
    rank: int  # its side's rank
    score: float | None  # the game's own number for its seat
    forfeit: str | None


def side_map(seats: list[str], teams: dict[str, list[str]] | None) -> dict[str, str]:
    """Seat -> the side it plays for: its team, else the seat itself."""
    if teams:
        return {seat: team for team, members in teams.items() for seat in members}
    return {seat: seat for seat in seats}


def game_outcomes(row: dict[str, Any], kind: str) -> list[Outcome]:
    """Each seated bot's outcome in one finished game (a journal row)."""
    seating: dict[str, str] = row["tournament"]["seating"]
    result = row["result"]
    teams = row.get("teams") or result.get("teams")
    side_of = side_map(list(seating), teams)
    ranks = {seat: int(rank) for seat, rank in result["ranks"].items()}
    side_ranks: dict[str, int] = {}
    for seat, side in side_of.items():
        side_ranks[side] = min(side_ranks.get(side, ranks[seat]), ranks[seat])
    if kind == "solo":
        points = {seat: float(result["points"][seat]) for seat in seating}
    elif teams:
        team_points = points_from_ranks(side_ranks)
        points = {seat: team_points[side_of[seat]] for seat in seating}
    else:
        given = result.get("points") or points_from_ranks(ranks)
        points = {seat: float(given[seat]) for seat in seating}
    best = min(side_ranks.values())
    leaders = sum(1 for rank in side_ranks.values() if rank == best)
    forfeits = row.get("forfeits") or {}
    scores = result.get("scores") or {}
    outcomes = []
    for seat, bot in seating.items():
        side = side_of[seat]
        if kind == "solo":
            verdict = "win" if points[seat] >= 1 else "loss" if points[seat] <= 0 else "draw"
        elif side_ranks[side] != best:
            verdict = "loss"
        else:
            verdict = "win" if leaders == 1 else "draw"
        forfeit = forfeits[seat].get("reason") if seat in forfeits else None
        score = scores.get(seat)
        outcomes.append(Outcome(bot, seat, side, points[seat], verdict, side_ranks[side],
                                None if score is None else float(score), forfeit))
    return outcomes


@dataclass
class Line:
    """A row of the table: one bot's (or one team's) totals."""

    name: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: float = 0.0
    rank_total: int = 0
    score_total: float = 0.0
    scored: int = 0
    forfeits: Counter = field(default_factory=Counter)
    errors: int = 0
    elo: float | None = None
    elo_ci: float | None = None

    def add(self, outcome: Outcome) -> None:
        self.games += 1
        if outcome.outcome == "win":
            self.wins += 1
        elif outcome.outcome == "draw":
            self.draws += 1
        else:
            self.losses += 1
        self.points += outcome.points
        self.rank_total += outcome.rank
        if outcome.score is not None:
            self.score_total += outcome.score
            self.scored += 1
        if outcome.forfeit:
            self.forfeits[outcome.forfeit] += 1

    @property
    def score(self) -> float | None:
        """Mean points in [0, 1]; None before any game."""
        return self.points / self.games if self.games else None

    @property
    def mean_rank(self) -> float | None:
        return self.rank_total / self.games if self.games else None

    @property
    def mean_score(self) -> float | None:
        return self.score_total / self.scored if self.scored else None


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


def standings(rows: list[dict[str, Any]], kind: str, entrants: list[str],
              seats: list[str], meta: dict[str, Any] | None = None) -> Standings:
    """Aggregate rows (in schedule order) into the tournament's tables."""
    lines = {name: Line(name) for name in entrants}
    pairwise = {a: {b: Tally() for b in entrants if b != a} for a in entrants}
    by_seat = {name: {seat: Tally() for seat in seats} for name in [*entrants, "all"]}
    team_lines: dict[str, Line] = {}
    errors: list[dict[str, str]] = []
    solo_by_seed: dict[int, dict[str, float]] = defaultdict(dict)
    for row in rows:
        info = row["tournament"]
        if "error" in row:
            errors.append({"key": info["key"], "error": row["error"]})
            for bot in info["seating"].values():
                lines[bot].errors += 1
            continue
        outcomes = game_outcomes(row, kind)
        for outcome in outcomes:
            lines[outcome.bot].add(outcome)
            by_seat[outcome.bot][outcome.seat].add(outcome.points)
            by_seat["all"][outcome.seat].add(outcome.points)
        if row.get("teams") or row["result"].get("teams"):
            _add_teams(team_lines, outcomes)
        if kind == "solo":
            for outcome in outcomes:
                solo_by_seed[info["seed_index"]][outcome.bot] = outcome.points
        else:
            _add_pairs(pairwise, outcomes, kind)
    for results in solo_by_seed.values():
        for a, b in ((a, b) for a in results for b in results if a != b):
            pairwise[a][b].add(_compare(results[a], results[b]))
    if kind == "duel":
        for name, (rating, ci) in elo_ratings(pairwise).items():
            lines[name].elo, lines[name].elo_ci = rating, ci
    ordered = sorted(lines.values(), key=lambda ln: (-(ln.score or 0.0), -(ln.elo or 0.0),
                                                      ln.name))
    teams = sorted(team_lines.values(), key=lambda ln: ln.name) if team_lines else None
    return Standings(kind, ordered, pairwise, by_seat, list(seats), teams, errors,
                     dict(meta or {}))


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


# -- Elo -----------------------------------------------------------------------

def elo_ratings(pairwise: dict[str, dict[str, Tally]],
                prior_draws: float = VIRTUAL_DRAWS) -> dict[str, tuple[float, float]]:
    """Maximum-likelihood Elo and its 95% half-width per bot (see module doc)."""
    names = sorted(name for name, row in pairwise.items()
                   if any(t.games for t in row.values()))
    k = len(names)
    if k < 2:
        return {}
    index = {name: i for i, name in enumerate(names)}
    won = [[0.0] * k for _ in range(k)]
    played = [[0.0] * k for _ in range(k)]
    for a in names:
        for b, tally in pairwise[a].items():
            if tally.games and b in index:
                i, j = index[a], index[b]
                won[i][j] = tally.points + prior_draws / 2
                played[i][j] = tally.games + prior_draws
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


# -- output ----------------------------------------------------------------------

def _pct(value: float | None) -> str:
    return "" if value is None else f"{100 * value:.1f}"


def _forfeit_text(forfeits: Counter) -> str:
    return ", ".join(f"{reason} {count}" for reason, count in sorted(forfeits.items())) or "-"


def bot_rows(st: Standings) -> tuple[list[str], list[list[Any]]]:
    """The main table for people: one row per bot."""
    headers = ["bot", "games", "wins", "draws", "losses", "score %"]
    if st.kind == "duel":
        headers.append("Elo ± 95%")
    elif st.kind == "multiplayer":
        headers.append("mean rank")
    else:
        headers.append("mean score")
    headers.append("forfeits")
    with_errors = any(line.errors for line in st.bots)
    if with_errors:
        headers.append("errors")
    rows = []
    for line in st.bots:
        row: list[Any] = [line.name, line.games, line.wins, line.draws, line.losses,
                          _pct(line.score)]
        if st.kind == "duel":
            row.append("" if line.elo is None else f"{line.elo:+.0f} ± {line.elo_ci:.0f}")
        elif st.kind == "multiplayer":
            row.append("" if line.mean_rank is None else f"{line.mean_rank:.2f}")
        else:
            row.append("" if line.mean_score is None else f"{line.mean_score:.2f}")
        row.append(_forfeit_text(line.forfeits))
        if with_errors:
            row.append(line.errors)
        rows.append(row)
    return headers, rows


def render_table(st: Standings) -> str:
    parts = []
    title = st.meta.get("title")
    if title:
        parts.append(title)
    headers, rows = bot_rows(st)
    table = _tabulate(rows, headers)
    if st.kind == "duel":
        table += ("\nElo: maximum likelihood over all games, one virtual draw per pairing, "
                  "mean 0; ± is the 95% interval (1.96 standard errors).")
    parts.append(table)
    names = [line.name for line in st.bots]
    matrix = [[a] + ["-" if a == b else _pct(st.pairwise[a][b].score) or "-" for b in names]
              for a in names]
    label = ("duplicate: same seeds, points compared" if st.kind == "solo"
             else "score % of row against column")
    parts.append(f"Pairwise ({label})\n" + _tabulate(matrix, [""] + names))
    if st.kind != "solo" or len(st.seat_names) > 1:
        seat_rows = [[name] + [_seat_cell(st.seats[name][seat]) for seat in st.seat_names]
                     for name in [*names, "all"]]
        parts.append("By seat (score % and games)\n"
                     + _tabulate(seat_rows, [""] + st.seat_names))
    if st.teams:
        team_rows = [[t.name, t.games, t.wins, t.draws, t.losses, _pct(t.score)]
                     for t in st.teams]
        parts.append("By team\n" + _tabulate(team_rows, ["team", "games", "wins", "draws",
                                                          "losses", "score %"]))
    if st.errors:
        parts.append("Errors (games the referee could not finish)\n" + "\n".join(
            f"  {e['key']}: {e['error']}" for e in st.errors))
    return "\n\n".join(parts) + "\n"


def _tabulate(rows: list[list[Any]], headers: list[str]) -> str:
    """Names left, numbers right, nothing reformatted."""
    return tabulate(rows, headers=headers, disable_numparse=True,
                    colalign=("left",) + ("right",) * (len(headers) - 1))


def _seat_cell(tally: Tally) -> str:
    return "-" if not tally.games else f"{_pct(tally.score)} ({tally.games})"


def _line_json(line: Line, kind: str) -> dict[str, Any]:
    out: dict[str, Any] = {
        "bot": line.name, "games": line.games, "wins": line.wins, "draws": line.draws,
        "losses": line.losses, "score": _round(line.score),
        "forfeits": {reason: line.forfeits.get(reason, 0) for reason in FORFEIT_REASONS},
        "errors": line.errors,
    }
    if kind == "duel":
        out["elo"] = _round(line.elo, 1)
        out["elo_ci95"] = _round(line.elo_ci, 1)
    elif kind == "multiplayer":
        out["mean_rank"] = _round(line.mean_rank)
    else:
        out["mean_score"] = _round(line.mean_score)
    return out


def _round(value: float | None, digits: int = 4) -> float | None:
    return None if value is None else round(value, digits)


def to_json(st: Standings) -> dict[str, Any]:
    names = [line.name for line in st.bots]
    return {
        **{k: v for k, v in st.meta.items() if k != "title"},
        "kind": st.kind,
        "bots": [_line_json(line, st.kind) for line in st.bots],
        "pairwise": {a: {b: {"score": _round(st.pairwise[a][b].score),
                             "games": st.pairwise[a][b].games}
                         for b in names if b != a} for a in names},
        "seats": {name: {seat: {"score": _round(t.score), "games": t.games}
                         for seat, t in st.seats[name].items()} for name in [*names, "all"]},
        "teams": None if st.teams is None else [
            {"team": t.name, "games": t.games, "wins": t.wins, "draws": t.draws,
             "losses": t.losses, "score": _round(t.score)} for t in st.teams],
        "errors": st.errors,
    }


def render_json(st: Standings) -> str:
    return json.dumps(to_json(st), indent=2) + "\n"


def render_csv(st: Standings) -> str:
    """The per-bot table, one header row; forfeits one column per reason."""
    rows = [_line_json(line, st.kind) for line in st.bots]
    extra = {"duel": ["elo", "elo_ci95"], "multiplayer": ["mean_rank"],
             "solo": ["mean_score"]}[st.kind]
    headers = ["bot", "games", "wins", "draws", "losses", "score", *extra,
               *(f"forfeit_{reason}" for reason in FORFEIT_REASONS), "errors"]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(headers)
    for row in rows:
        flat = {**row, **{f"forfeit_{r}": n for r, n in row["forfeits"].items()}}
        writer.writerow(["" if flat[h] is None else flat[h] for h in headers])
    return buffer.getvalue()


RENDERERS = {"table": render_table, "json": render_json, "csv": render_csv}
