"""The Epireia engine: tables from the ruleset, seats and leagues, new games."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ...engine import Engine, OptionRule, Problem
from . import registry
from .checks import problems, setup_problems
from .start import initial
from .state import EpireiaState
from .tables import Tables

# importing the step modules registers their steps
from . import (  # noqa: E402,F401  isort: skip
    battle, bonuses, cities, development, diplomacy, empires, flow, payment, questions,
    recruit, resolution, scenarios, setup, solo, territories,
)


class EpireiaEngine(Engine):
    id = "epireia"
    options_read = {"max_turns": OptionRule("integer", least=1)}

    def __init__(self, ruleset) -> None:
        super().__init__(ruleset)
        self.tables = Tables(ruleset.data, ruleset.rules)

    @classmethod
    def check(cls, data: dict[str, Any]) -> Iterable[Problem]:
        return problems(data)

    @classmethod
    def check_setup(cls, players: dict[str, Any], options: dict[str, Any],
                    data: dict[str, Any]) -> Iterable[Problem]:
        return setup_problems(players, options, data)

    @property
    def solo(self) -> bool:
        return bool(self.tables.solo_scenarios)

    def seats(self, count: int) -> list[str]:
        low, high = self.ruleset.players.get("min", 1), self.ruleset.players.get("max", 4)
        if not low <= count <= high:
            raise ValueError(f"{self.ruleset.id} is played by {low} to {high} players, not {count}")
        return [f"p{i}" for i in range(1, count + 1)]

    def teams(self, seats: Sequence[str]) -> dict[str, list[str]] | None:
        if self.solo or len(seats) < 2:
            return None
        leagues = self.tables.seating.get(str(len(seats)))
        if leagues is None:
            raise ValueError(f"epireia has no seating for {len(seats)} players")
        out: dict[str, list[str]] = {lg: [] for lg in self.tables.leagues}
        for seat, league in zip(seats, leagues, strict=True):
            out[league].append(seat)
        return out

    def new_game(self, seats: Sequence[str], seed: int, options: dict[str, Any]) -> EpireiaState:
        options = self.ruleset.resolve_options(options)
        seats = list(seats)
        self.seats(len(seats))
        scenario = None
        if self.solo:
            scenario = str(options.get("scenario") or "")
            if scenario not in self.tables.solo_scenarios:
                known = ", ".join(self.tables.solo_scenarios)
                raise ValueError(f"unknown solo scenario {scenario!r} (choose from {known})")
        g, rngs = initial(self.tables, seats, seed, options, scenario)
        state = EpireiaState(self.tables, g, rngs)
        registry.advance(state)
        return state

    def load(self, data: dict[str, Any]) -> EpireiaState:
        return EpireiaState.from_json(self.tables, self.position(data, "g", "rng"))
