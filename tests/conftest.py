"""Fixtures every test folder may use."""

from __future__ import annotations

import random
import struct
from collections.abc import Callable
from typing import Any

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


def _any_float(rng: random.Random) -> float:
    """A float from every exponent range, as often tiny as huge."""
    while True:
        value = struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0]
        if value == value and value not in (float("inf"), float("-inf")):
            return value


def _any_text(rng: random.Random) -> str:
    picks = [rng.randrange(0x20), rng.randrange(0x20, 0x80), rng.randrange(0x80, 0xD800),
             rng.randrange(0xE000, 0x110000), 0x7F, 0x2028, ord('"'), ord("\\")]
    return "".join(chr(rng.choice(picks)) for _ in range(rng.randrange(6)))


def _any_value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(10 if depth < 4 else 7)
    if kind == 0:
        return _any_float(rng)
    if kind == 1:
        return round(rng.uniform(-1000, 1000), rng.randrange(7))  # a duration, a clock
    if kind == 2:
        return rng.choice([0, 1, -1, 2**63 - 1, -2**63, 2**64, -2**64 - 5, 10**30])
    if kind == 3:
        return _any_text(rng)
    if kind == 4:
        return rng.choice([None, True, False, 0.0, -0.0, 1e-5, 1e16, 5e-324])
    if kind == 5:
        return rng.randrange(-10**6, 10**6)
    if kind == 6:
        return rng.choice(["1e-5 in a string", "0.00001", "raise_army Sparta", ""])
    if kind == 7:
        return [_any_value(rng, depth + 1) for _ in range(rng.randrange(5))]
    if kind == 8:
        return tuple(_any_value(rng, depth + 1) for _ in range(rng.randrange(3)))
    return {_any_text(rng): _any_value(rng, depth + 1) for _ in range(rng.randrange(5))}


@pytest.fixture
def json_values() -> Callable[[int, int], list[Any]]:
    """`json_values(seed, n)`: n JSON values of the kinds a record or a protocol line
    holds, with the corners where JSON encoders part (small floats' exponents, big
    integers, keys that are not strings, control characters, DEL, U+2028, characters
    outside the BMP), to compare one encoder's bytes with another's."""
    def values(seed: int, n: int) -> list[Any]:
        rng = random.Random(seed)
        return [_any_value(rng) for _ in range(n)]
    return values
