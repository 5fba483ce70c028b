"""What each seated bot got from one finished game (a journal row).

Every outcome is seen from the bot's *side*: its team where the game has
teams, else its seat, so a bot in a team game gets its team's result.

* **win / draw / loss.**  Two or more sides: a win is first place alone, a
  draw is first place shared with another side, anything else a loss.  Solo
  games: the engine's points (1 the bot beat the game, 0 it lost, between
  = draw).
* **points** in [0, 1]: the engine's share of the win (1 / 0.5 / 0 for two
  seats; rank-based for N seats: the fraction of other sides beaten, ties
  half).  In team games they are computed over the teams' ranks (a team's
  rank is its best seat's), so the winning league scores 1 and the losing
  one 0.
* **rank**: its side's place among the sides, 1 + the number of sides
  placed strictly better (competition ranking: 1, 2, 2, 4).  Seat ranks
  are ranks among seats: two teams of two whose seats rank 1, 1, 3, 3 (as
  a forfeit leaves them) are first and second, not first and third.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from typing import Any

from .engine import points_from_ranks


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


def row_teams(row: dict[str, Any]) -> dict[str, list[str]] | None:
    return row.get("teams") or row["result"].get("teams")


def game_outcomes(row: dict[str, Any], kind: str) -> list[Outcome]:
    """Each seated bot's outcome in one finished game (a journal row)."""
    seating: dict[str, str] = row["tournament"]["seating"]
    result = row["result"]
    teams = row_teams(row)
    ranks = {seat: int(rank) for seat, rank in result["ranks"].items()}
    side_of = side_map(list(seating), teams)
    best_seat = ranks if not teams else _best_ranks(side_of, ranks)
    places = sorted(best_seat.values())
    side_ranks = {side: 1 + bisect_left(places, rank) for side, rank in best_seat.items()}
    if kind == "solo":
        points = {seat: float(result["points"][seat]) for seat in seating}
    elif teams:
        team_points = points_from_ranks(side_ranks)
        points = {seat: team_points[side_of[seat]] for seat in seating}
    else:
        given = result.get("points") or points_from_ranks(ranks)
        points = {seat: float(given[seat]) for seat in seating}
    shared = places.count(places[0]) > 1  # first place held by more than one side
    forfeits = row.get("forfeits") or {}
    scores = result.get("scores") or {}
    outcomes = []
    for seat, bot in seating.items():
        side = side_of[seat]
        if kind == "solo":
            verdict = "win" if points[seat] >= 1 else "loss" if points[seat] <= 0 else "draw"
        elif side_ranks[side] != 1:
            verdict = "loss"
        else:
            verdict = "draw" if shared else "win"
        forfeit = forfeits[seat].get("reason") if seat in forfeits else None
        score = scores.get(seat)
        outcomes.append(Outcome(bot, seat, side, points[seat], verdict, side_ranks[side],
                                None if score is None else float(score), forfeit))
    return outcomes


def _best_ranks(side_of: dict[str, str], ranks: dict[str, int]) -> dict[str, int]:
    """Each side's rank as its best seat's."""
    best: dict[str, int] = {}
    for seat, side in side_of.items():
        best[side] = min(best.get(side, ranks[seat]), ranks[seat])
    return best


def pair_points(rows: list[dict[str, Any]], bot: str) -> float | None:
    """`bot`'s points over the games of one seed in both seatings (0 to 2 for a duel).

    None when a game of the pair ended in an error: such a pair counts for
    neither side.
    """
    if any("error" in row for row in rows):
        return None
    return points_in([game_outcomes(row, "duel") for row in rows], bot)


def points_in(games: list[list[Outcome]], bot: str) -> float:
    """`bot`'s points over `games` (each game's outcomes)."""
    return sum(o.points for outcomes in games for o in outcomes if o.bot == bot)
