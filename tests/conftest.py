"""Fixtures every test folder may use."""

from __future__ import annotations

import random

import pytest

SEED = 913572468  # large and distinctive: a leaked seed is easy to spot in JSON


def _play_until(engine, seats, test, *, options=None, seeds=range(200), max_plies=None):
    """The first position of a random game (seed SEED + n) where `test(state)` holds.

    `seats` is a seat count or a list of seat names.
    """
    names = engine.seats(seats) if isinstance(seats, int) else list(seats)
    for seed in seeds:
        state = engine.new_game(names, SEED + seed, options or {})
        chooser = random.Random(seed)
        plies = 0
        while state.pending() and (max_plies is None or plies < max_plies):
            if test(state):
                return state
            decision = state.pending()[0]
            state.apply(decision.seat, chooser.choice(decision.legal))
            plies += 1
    raise AssertionError("no such position found")


@pytest.fixture(autouse=True)
def _private_data_dir(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory):
    """The referee's key goes to a test folder, never the user's data directory."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.getbasetemp() / "xdg-data"))


@pytest.fixture
def play_until():
    return _play_until
