"""`EarthAndWaterEngine`: builds the tables once and checks a ruleset's data."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ...engine import Engine, OptionRule, Problem
from .automaton import Automaton
from .checks import check_data, check_players
from .state import EarthAndWaterState, load_state
from .tables import SIDES, Tables


class EarthAndWaterEngine(Engine):
    """300: Earth & Water for two seats, persia and greece."""

    id = "earth-and-water"
    options_read = {
        "cheap_fleets": OptionRule("boolean"),
        "forced_spend": OptionRule("boolean"),
        "reaction_prompts": OptionRule("string", ("held", "always")),
    }

    def __init__(self, ruleset: Any) -> None:
        super().__init__(ruleset)
        self._tables: dict[tuple, Tables] = {}
        self._default_tables: Tables | None = None   # for no options given: most games

    @classmethod
    def check(cls, data: dict[str, Any]) -> Iterable[Problem]:
        return check_data(data)

    @classmethod
    def check_setup(cls, players: dict[str, Any], options: dict[str, Any],
                    data: dict[str, Any]) -> Iterable[Problem]:
        return check_players(players, data)

    def tables(self, options: dict[str, Any] | None = None) -> Tables:
        """The tables for these option values (built once per combination)."""
        if not options and self._default_tables is not None:
            return self._default_tables   # a playout a search bot starts: no options to check
        values = self.ruleset.resolve_options(options or {})
        key = tuple(sorted(values.items()))
        if key not in self._tables:
            tables = Tables(self.ruleset.data, values)
            if self.ruleset.data.get("automaton"):
                tables.attach_automaton(Automaton(self.ruleset.data["automaton"], tables))
            self._tables[key] = tables
        if not options:
            self._default_tables = self._tables[key]
        return self._tables[key]

    def new_game(self, seats: Sequence[str], seed: int, options: dict[str, Any]) -> EarthAndWaterState:
        expected = list(self.ruleset.players.get("seats") or SIDES)
        if sorted(seats) != sorted(expected):
            raise ValueError(f"{self.ruleset.id} is played by the seats {', '.join(expected)}, "
                             f"not {', '.join(seats)}")
        tables = self.tables(options)
        if len(seats) < len(SIDES) and tables.automaton is None:
            raise ValueError(f"{self.ruleset.id} leaves a side without a seat but has no automaton")
        return EarthAndWaterState(tables, seed)

    def load(self, data: dict[str, Any]) -> EarthAndWaterState:
        data = self.position(data, "hands", "campaign")
        return load_state(self.tables(data.get("options")), data)
