"""`CityStatesEngine`: builds the tables once and checks a ruleset's data."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ...engine import Engine, Problem
from .checks import check_data
from .state import CityStatesState, load_state
from .tables import Tables


class CityStatesEngine(Engine):
    """City States for 2 to 6 players."""

    id = "city-states"

    def __init__(self, ruleset: Any) -> None:
        super().__init__(ruleset)
        self._tables: dict[tuple, Tables] = {}

    @classmethod
    def check(cls, data: dict[str, Any]) -> Iterable[Problem]:
        return check_data(data)

    def tables(self, options: dict[str, Any] | None = None) -> Tables:
        """The tables for these option values (built once per combination)."""
        values = self.ruleset.resolve_options(options or {})
        key = tuple(sorted(values.items()))
        if key not in self._tables:
            self._tables[key] = Tables(self.ruleset.data, values, self.ruleset.rules)
        return self._tables[key]

    def new_game(self, seats: Sequence[str], seed: int, options: dict[str, Any]) -> CityStatesState:
        players = self.ruleset.players
        if not players["min"] <= len(seats) <= players["max"]:
            raise ValueError(f"{self.ruleset.id} is played by {players['min']} to "
                             f"{players['max']} seats, not {len(seats)}")
        tables = self.tables(options)
        if len(seats) > len(tables.named_cities):
            raise ValueError(f"the map has only {len(tables.named_cities)} named city states "
                             f"for {len(seats)} players")
        return CityStatesState(tables, list(seats), seed)

    def load(self, data: dict[str, Any]) -> CityStatesState:
        return load_state(self.tables(data.get("options")), data)
