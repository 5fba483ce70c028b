"""Shared fixtures: engines, a game set up to turn 1, loaded dice."""

from __future__ import annotations

import pytest

from agon.referee.games.epireia import EpireiaEngine
from agon.referee.ruleset import load_ruleset


class LoadedDice:
    """Test hook standing in for a random stream: rolls come from a list, in order."""

    def __init__(self, values: list[int]) -> None:
        self.values = list(values)

    def randint(self, low: int, high: int) -> int:
        value = self.values.pop(0)
        assert low <= value <= high
        return value

    def getstate(self):  # clone() copies streams
        raise NotImplementedError


@pytest.fixture(scope="session")
def engine() -> EpireiaEngine:
    return EpireiaEngine(load_ruleset("epireia"))


@pytest.fixture(scope="session")
def solo_engine() -> EpireiaEngine:
    return EpireiaEngine(load_ruleset("epireia-solo"))


@pytest.fixture
def load_dice():
    def load(state, values: list[int], stream: str = "dice") -> LoadedDice:
        dice = LoadedDice(values)
        state.rng[stream] = dice
        return dice
    return load


DEFAULT_CITIES = ["athens", "sparta", "corinth", "delphi"]
DEFAULT_ADMINS = ["polemarch", "archon", "priestess", "merchant"]
DEFAULT_FIGURES = ["pericles", "leonidas", "periander", "timasitheos"]


@pytest.fixture
def setup_game(engine):
    """A game after setup, at the start of turn 1's development, with no scenario constraint."""
    def make(players: int = 2, cities=None, admins=None, figures=None, seed: int = 1,
             scenario: str = "colonies-of-the-north", active: bool = False):
        state = engine.new_game(engine.seats(players), seed, {})
        seats = state.g["seats"]
        cities = cities or DEFAULT_CITIES[:players]
        admins = admins or DEFAULT_ADMINS[:players]
        figures = figures or DEFAULT_FIGURES[:players]
        for seat, city in zip(seats, cities, strict=True):
            state.apply(seat, f"city {city}")
        for seat, admin in zip(seats, admins, strict=True):
            state.apply(seat, f"admin {admin}")
        for seat, figure in zip(seats, figures, strict=True):
            state.apply(seat, f"figure {figure}")
        for spot in state.g["territories"].values():
            spot.update(owner=None, brigand=False)
        act = engine.tables.scenarios[scenario]["act"]
        state.g["scenario"] = {"id": scenario, "act": act, "done": not active, "winner": None}
        return state
    return make


class Helpers:
    """Moves through phases quickly in tests."""

    @staticmethod
    def pass_development(state) -> None:
        while state.g["step"] == "develop" and not state.g["queue"]:
            seat = state.pending()[0].seat
            state.apply(seat, "pass")

    @staticmethod
    def move(state, seat: str, figure: str, place: str) -> None:
        assert state.g["step"] == "diplomacy" and state.pending()[0].seat == seat
        state.apply(seat, f"send {figure}")
        state.apply(seat, f"to {place}")

    @staticmethod
    def give_figures(state, seat: str, figures) -> None:
        """Replace `seat`'s figures, all at home."""
        state.player(seat)["figures"] = list(figures)
        state.player(seat)["pos"] = {f: "home" for f in figures}

    @classmethod
    def diplomacy(cls, state, moves: dict) -> None:
        """Skip development, then make `moves` ({seat: [(figure, place)]}) in turn order."""
        cls.pass_development(state)
        while state.g["step"] == "diplomacy":
            seat = state.pending()[0].seat
            for figure, place in moves.get(seat, []):
                cls.move(state, seat, figure, place)
            if state.g["step"] == "diplomacy" and state.pending()[0].seat == seat:
                state.apply(seat, "done")

    @staticmethod
    def end_diplomacy(state, until_step: str | None = None) -> None:
        while state.g["step"] == "diplomacy":
            decision = state.pending()[0]
            state.apply(decision.seat, "back" if "back" in decision.legal else "done")


@pytest.fixture
def h() -> Helpers:
    return Helpers()
