"""Fixtures for the Earth & Water tests: the engine and a position builder."""

from __future__ import annotations

from typing import Any

import pytest

from agon.referee.games.earth_and_water import EarthAndWaterEngine
from agon.referee.ruleset import load_ruleset

P, G = 0, 1


class Board:
    """Builds positions: an empty map in a chosen step, pieces placed by name."""

    def __init__(self, engine: EarthAndWaterEngine) -> None:
        self.engine = engine

    def game(self, seed: int = 1, **options: Any):
        return self.engine.new_game(["persia", "greece"], seed, options)

    def empty(self, seed: int = 1, turn: int = P, hands=((), ()), options=None, **pieces):
        """An operations turn of `turn` on an empty map.

        pieces: pa={"Thebai": 2}, ga=..., pf=..., gf=...; reserves follow the totals.
        """
        state = self.game(seed, **(options or {}))
        t = state.t
        for side in (P, G):
            state.arm[side] = [0] * t.ncity
            state.flt[side] = [0] * t.ncity
        for key, (kind, side) in {"pa": ("arm", P), "ga": ("arm", G),
                                  "pf": ("flt", P), "gf": ("flt", G)}.items():
            for city, count in pieces.get(key, {}).items():
                getattr(state, kind)[side][t.index[city]] = count
        state.res_arm = [t.total_armies[s] - sum(state.arm[s]) for s in (P, G)]
        state.res_flt = [t.total_fleets[s] - sum(state.flt[s]) for s in (P, G)]
        state.hands = [list(hands[0]), list(hands[1])]
        used = set(hands[0]) | set(hands[1])
        state.deck = [n for n in t.card_numbers if n not in used]
        state.discard = []
        state.passed = [False, False]
        state.step, state.actor, state.active = "turn", turn, turn
        state._pending = None
        return state

    @staticmethod
    def count(state, kind: str, side: int, city: str) -> int:
        return getattr(state, kind)[side][state.t.index[city]]


@pytest.fixture(scope="session")
def engine() -> EarthAndWaterEngine:
    return EarthAndWaterEngine(load_ruleset("earth-and-water"))


@pytest.fixture
def board(engine: EarthAndWaterEngine) -> Board:
    return Board(engine)


def act(state, *actions: str) -> list:
    """Apply actions, each by whoever must act now; returns all events."""
    events = []
    for action in actions:
        seat = state.pending()[0].seat
        events += state.apply(seat, action)
    return events


@pytest.fixture
def play():
    return act
