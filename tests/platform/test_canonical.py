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
from typing import Any

import pytest

from agon.referee.signing import Check, Keyring, canonical, check_signature

PYTHON = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                          allow_nan=False)


def python_bytes(value: Any) -> bytes:
    return PYTHON.encode(value).encode("utf-8")


def nested(depth: int) -> list[Any]:
    value: list[Any] = [1]
    for _ in range(depth):
        value = [value]
    return value


def test_canonical_writes_python_s_bytes_for_every_kind_of_value(json_values):
    values = json_values(20261125, 20_000)
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
