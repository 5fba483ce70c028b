"""The codec against hostile lines: whatever a bot (or a broken referee) sends,
decoding raises ProtocolError or returns a message, never anything else, and
an error quotes only a short prefix of the line."""

from __future__ import annotations

import random

import pytest

from agon.referee import protocol as p

DECODERS = [p.decode, p.decode_from_bot, p.decode_from_referee]
KEYWORDS = ["agon 1", "ready x", "event", "ask 1 1", "act 1", "info", "result", "quit"]
VALID = [p.encode(message) for message in (
    p.Hello({"game": "g", "seat": "a", "seats": ["a", "b"], "limits": {"move": 1}}),
    p.Ready("Bot", {"version": "1", "wants": ["state"]}),
    p.EventMsg({"type": "roll", "dice": [4, 2]}),
    p.Ask(3, ["pass", "move a b"], "go", {"hand": [1, 2]}, {"move": 1.5}),
    p.Act(3, index=1), p.Act(3, text="move a b"), p.Info("thinking"),
    p.ResultMsg({"scores": {"a": 1}}), p.Quit())]


def assert_only_protocol_errors(line: bytes | str) -> None:
    for decoder in DECODERS:
        try:
            decoder(line)
        except p.ProtocolError as err:
            assert len(str(err)) < 300, str(err)[:400]


@pytest.mark.parametrize("line", [
    "ready x " + "[" * 1000,
    "ready x {\"a\": " + "9" * 5000 + "}",
    "ready x {\"a\": " + "9" * 4000 + "}",
    "ready x {\"a\": 1e999}",
    "ready x {\"a\": NaN}",
    "ready x {\"a\": -Infinity}",
    "ready x {\"a\": 0." + "1" * 5000 + "}",
    "ask 1 1 {\"legal\":[\"a\"],\"prompt\":" + "[" * 900 + "]" * 900 + "}",
    "ask 1 1 {\"legal\":[\"a\"],\"view\":" + "[" * 100_000 + "}",
    "event " + "{\"a\":" * 50_000 + "1" + "}" * 50_000,
    "result {\"a\": " + "9" * 100_000 + "}",
    "agon 1 " + "[" * 3000,
])
def test_the_lines_that_crashed_the_referee_are_protocol_errors(line):
    assert_only_protocol_errors(line)
    if line.startswith("ready"):
        with pytest.raises(p.ProtocolError):
            p.decode_from_bot(line)


def test_a_bots_identity_is_small_and_flat():
    assert p.decode('ready Bot {"version":"1.2","depth":[[1]],"seed":123}').about["seed"] == 123
    for line, complaint in [
        ('ready Bot {"a":' + "[" * 20 + "]" * 20 + "}", "nested deeper"),
        ('ready Bot {"a":"' + "x" * 5000 + '"}', "longer than"),
        ("ready " + "n" * 100, "at most 64"),
        ('ready Bot {"a": 12345678901234567890123456789012345}', "longer than 30"),
    ]:
        with pytest.raises(p.ProtocolError, match=complaint):
            p.decode(line)


def test_an_error_quotes_a_short_prefix_of_a_long_line():
    with pytest.raises(p.ProtocolError) as caught:
        p.decode_from_bot("x" * 500_000)
    assert len(str(caught.value)) < 120


def _mutations(rng: random.Random) -> bytes:
    line = bytearray(rng.choice(VALID).rstrip(b"\n"))
    for _ in range(rng.randint(1, 6)):
        where = rng.randrange(len(line) + 1)
        kind = rng.randrange(4)
        if kind == 0:
            line[where:where] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 4)))
        elif kind == 1:
            del line[where:where + rng.randint(1, 8)]
        elif kind == 2:
            line[where:where] = rng.choice([b"[", b"{", b"\"", b"\\u", b"\xff", b"\r", b"\n",
                                            b"9" * rng.randint(1, 6000), b"-", b"e999", b" "])
        else:
            line[where:where] = rng.choice(["[", "{\"a\":"]).encode() * rng.randint(1, 3000)
    return bytes(line)


def _garbage(rng: random.Random) -> bytes | str:
    shape = rng.randrange(5)
    if shape == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 200)))
    if shape == 1:
        return _mutations(rng)
    if shape == 2:
        opener = rng.choice(["[", "{\"k\":", "[{\"k\":"])
        depth = rng.choice([10, 100, 999, 1000, 1001, 5000, 20_000])
        return f"{rng.choice(KEYWORDS)} {opener * depth}"
    if shape == 3:
        number = rng.choice(["9" * rng.randint(1, 9000), "1e" + "9" * rng.randint(1, 400),
                             "-0." + "5" * rng.randint(1, 9000), "NaN", "Infinity"])
        return f'{rng.choice(KEYWORDS)} {{"n": {number}, "legal": []}}'
    text = "".join(chr(rng.choice([rng.randrange(32, 127), rng.randrange(0xD800, 0xE000),
                                   rng.randrange(0x80, 0x10FFFF), 0, 10, 13]))
                   for _ in range(rng.randint(0, 80)))
    return f"{rng.choice(KEYWORDS)} {text}"


@pytest.mark.parametrize("seed", range(8))
def test_random_and_mutated_lines_never_raise_anything_but_protocol_errors(seed):
    rng = random.Random(seed)
    for _ in range(400):
        assert_only_protocol_errors(_garbage(rng))
