"""The bytes a signature covers do not depend on which encoder wrote them.

`signing.canonical` writes with orjson and hands what orjson would write
otherwise to Python's encoder, which wrote every signature and digest before
it: a record, a journal or a golden digest made then must still verify.
These values are the kinds a record can hold, and the corners where the two
encoders part (small floats' exponents, big integers, keys that are not
strings, control characters, characters outside the BMP).
"""

from __future__ import annotations

import json
import random
import struct
from typing import Any

import pytest

from agon.referee.signing import Check, Keyring, canonical, check_signature

PYTHON = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                          allow_nan=False)


def python_bytes(value: Any) -> bytes:
    return PYTHON.encode(value).encode("utf-8")


def any_float(rng: random.Random) -> float:
    """A float from every exponent range, as often tiny as huge."""
    while True:
        value = struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0]
        if value == value and value not in (float("inf"), float("-inf")):
            return value


def any_text(rng: random.Random) -> str:
    picks = [rng.randrange(0x20), rng.randrange(0x20, 0x80), rng.randrange(0x80, 0xD800),
             rng.randrange(0xE000, 0x110000), 0x7F, 0x2028, ord('"'), ord("\\")]
    return "".join(chr(rng.choice(picks)) for _ in range(rng.randrange(6)))


def any_value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(10 if depth < 4 else 7)
    if kind == 0:
        return any_float(rng)
    if kind == 1:
        return round(rng.uniform(-1000, 1000), rng.randrange(7))  # a duration, a clock
    if kind == 2:
        return rng.choice([0, 1, -1, 2**63 - 1, -2**63, 2**64, -2**64 - 5, 10**30])
    if kind == 3:
        return any_text(rng)
    if kind == 4:
        return rng.choice([None, True, False, 0.0, -0.0, 1e-5, 1e16, 5e-324])
    if kind == 5:
        return rng.randrange(-10**6, 10**6)
    if kind == 6:
        return rng.choice(["1e-5 in a string", "0.00001", "raise_army Sparta", ""])
    if kind == 7:
        return [any_value(rng, depth + 1) for _ in range(rng.randrange(5))]
    if kind == 8:
        return tuple(any_value(rng, depth + 1) for _ in range(rng.randrange(3)))
    return {any_text(rng): any_value(rng, depth + 1) for _ in range(rng.randrange(5))}


def nested(depth: int) -> list[Any]:
    value: list[Any] = [1]
    for _ in range(depth):
        value = [value]
    return value


def test_canonical_writes_python_s_bytes_for_every_kind_of_value():
    rng = random.Random(20261125)
    values = [any_value(rng) for _ in range(20_000)]
    differ = [v for v in values if canonical(v) != python_bytes(v)]
    assert differ == []


@pytest.mark.parametrize("value", [
    {"duration": 1e-05, "clock": 4.5e-07},       # orjson: 0.00001 and 4.5e-7
    {"score": 1e-9, "n": [1, 2.5e-6]},
    {"seed": 2**64 + 1},                          # beyond orjson's 64 bits
    {"-1": 1, "10": 2, "9": 3},
    {3: "a", 1: "b"},                             # keys that are not strings
    {"é": 1, "e": 2, "😀": 3, "\uffff": 4, "\x00": 5},
    nested(300),                                  # deeper than orjson goes (254)
])
def test_the_corners_where_the_encoders_part_are_written_as_python_writes_them(value):
    assert canonical(value) == python_bytes(value)


def test_a_signature_made_with_python_s_encoder_still_verifies(tmp_path, monkeypatch):
    """A line signed the old way (Python's bytes) is valid to the keyring now."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    keyring = Keyring.load()
    record = {"actions": [["greece", "raise_army Sparta"]], "duration": 0.0123,
              "small": 3e-06, "name": "Ἀθῆναι"}
    key = keyring.current
    old = {**record, "signature": {"alg": "hmac-sha256", "key": key.id,
                                   "value": key.mac_of(python_bytes(record))}}
    assert check_signature(old, keyring) == Check.VALID
