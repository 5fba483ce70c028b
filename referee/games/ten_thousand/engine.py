"""TenThousandEngine: builds the tables once, starts and loads games."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ...engine import Engine, OptionRule, Problem
from ...ruleset_model import Ruleset
from .checks import check_data
from .rules import GameRules
from .state import TenThousandState


class TenThousandEngine(Engine):
    id = "ten-thousand"
    options_read = {
        "finished_play_penalising": OptionRule("boolean"),
        "penalising_cards": OptionRule("string", ("first-chance", "opponents-only")),
    }

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        self.rules = GameRules(ruleset.data, ruleset.rules)

    @classmethod
    def check(cls, data: dict[str, Any]) -> Iterable[Problem]:
        return check_data(data)

    def seats(self, count: int) -> list[str]:
        low, high = self.ruleset.players.get("min", 1), self.ruleset.players.get("max", 6)
        if not low <= count <= high:
            raise ValueError(f"{self.ruleset.id} is played by {low} to {high} players, not {count}")
        return super().seats(count)

    def new_game(self, seats: Sequence[str], seed: int, options: dict[str, Any]) -> TenThousandState:
        self.seats(len(seats))  # validates the count
        if len(set(seats)) != len(seats):
            raise ValueError("seat names must be different")
        state = TenThousandState(self.rules, list(seats), seed,
                                 self.ruleset.resolve_options(options or {}))
        state.setup()
        return state

    def load(self, data: dict[str, Any]) -> TenThousandState:
        return TenThousandState.from_json(self.rules,
                                          self.position(data, "seats", "armies", "turn"))
