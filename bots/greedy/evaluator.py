"""What a game's evaluation is: each seat's chances, read from one seat's view.

An `Evaluator` is built once per game from the ruleset (public data: the map,
the cards, the tables) and then judges positions through `values(view)`, the
`view` being what one seat may see (`State.view(seat)`), never the state
itself: an evaluation cannot use what its seat does not know.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar

from agon.referee.engine import State
from agon.referee.ruleset_model import Ruleset


class Evaluator(ABC):
    """A game's judgement of a position."""

    engine: ClassVar[str]

    def __init__(self, ruleset: Ruleset, seats: Sequence[str],
                 teams: dict[str, list[str]] | None = None) -> None:
        self.ruleset = ruleset
        self.data: dict[str, Any] = ruleset.data
        self.seats = list(seats)
        self.teams = teams

    @abstractmethod
    def values(self, view: dict[str, Any]) -> dict[str, float]:
        """Each seat's expected share of the win (0 to 1, like `Result.points`)."""

    def values_in(self, world: State, seat: str) -> dict[str, float]:
        """`values` of what `seat` sees of `world` (a sampled one: nothing hidden).  A game
        may add what the seat's own pending decision says and its view leaves out."""
        return self.values(world.view(seat))


def logistic(x: float) -> float:
    """0 to 1, a half at 0: turns a margin into a chance of winning."""
    if x < -40:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def shares(strengths: dict[str, float], scale: float) -> dict[str, float]:
    """Each seat's chance against the others from a strength per seat.

    Two seats: the logistic of the difference over `scale`.  More seats: each
    seat's mean chance against every other, which is what rank-based points
    (`points_from_ranks`) pay.
    """
    seats = list(strengths)
    if len(seats) == 1:
        return {seats[0]: logistic(strengths[seats[0]] / scale)}
    out = {}
    for seat in seats:
        out[seat] = sum(logistic((strengths[seat] - strengths[other]) / scale)
                        for other in seats if other != seat) / (len(seats) - 1)
    return out


def team_mean(values: dict[str, float], teams: dict[str, list[str]] | None) -> dict[str, float]:
    """With teams, each seat gets its team's mean: a partner's win is one's own."""
    if not teams:
        return values
    out = dict(values)
    for members in teams.values():
        present = [seat for seat in members if seat in values]
        if present:
            mean = sum(values[seat] for seat in present) / len(present)
            for seat in present:
                out[seat] = mean
    return out
