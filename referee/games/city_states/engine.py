"""`CityStatesEngine`: builds the tables once and checks a ruleset's data."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ...engine import Engine, OptionRule, Problem
from .checks import check_data, check_players
from .state import CityStatesState, load_state
from .tables import Tables


class CityStatesEngine(Engine):
    """City States for 2 to 6 players."""

    id = "city-states"
    options_read = {
        "incomes": OptionRule("string", ("rolled", "printed")),
        "reaction_prompts": OptionRule("string", ("held", "always")),
    }

    def __init__(self, ruleset: Any) -> None:
        super().__init__(ruleset)
        self._tables: dict[tuple, Tables] = {}

    @classmethod
    def check(cls, data: dict[str, Any]) -> Iterable[Problem]:
        return check_data(data)

    @classmethod
    def check_setup(cls, players: dict[str, Any], options: dict[str, Any],
                    data: dict[str, Any]) -> Iterable[Problem]:
        yield from super().check_setup(players, options, data)
        yield from check_players(players, data)

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
        data = self.position(data, "gold", "captives")
        return load_state(self.tables(data.get("options")), data)
