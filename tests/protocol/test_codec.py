"""The protocol codec on its own: every message round-trips, bad lines are refused."""

from __future__ import annotations

import json

import pytest

from agon.referee import protocol as p

MESSAGES = [
    p.Hello({"game": "earth-and-water", "seat": "greece", "seats": ["persia", "greece"],
             "ruleset": {"id": "earth-and-water", "version": "1.0", "sha256": "ab" * 32},
             "limits": {"move": 10}}),
    p.Ready("MyBot", {"version": "0.3", "author": "Thales"}),
    p.Ready("plain"),
    p.EventMsg({"type": "roll", "seat": "persia", "dice": [4, 2], "text": "Persia rolls 4, 2"}),
    p.Ask(17, ["pass", "play 7 event", "play 7 move"], "Choose a card",
          {"hand": [7], "note": "line\nbreak and ünïcode"}, {"move": 10.0, "remaining": 512.5}),
    p.Act(17, index=2),
    p.Act(17, text="play 7 move"),
    p.Info("thinking: 3 lines considered, ünïcode ok"),
    p.ResultMsg({"scores": {"a": 1}, "ranks": {"a": 1}, "points": {"a": 1.0}, "reason": "won"}),
    p.Quit(),
]


@pytest.mark.parametrize("message", MESSAGES, ids=lambda m: type(m).__name__)
def test_every_message_round_trips_through_one_line(message):
    line = p.encode(message)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert p.decode(line) == message
    assert p.decode(line.decode()) == message


def test_the_ask_line_carries_the_count_before_the_json():
    line = p.encode_str(p.Ask(3, ["a", "b", "c"], "go"))
    assert line.startswith("ask 3 3 {")


def test_an_ask_is_its_body_in_compact_ascii_json_whatever_its_text_holds():
    legal = ["pass", 'say "hi"', "back\\slash", "ünï €", "tab\tand\nnewline", "\x7f"]
    view, clock = {"hand": [7], "note": "ü\n"}, {"move": 10.0, "remaining": 599.999}
    body = {"prompt": 'Choose "one"\n', "legal": legal, "view": view, "clock": clock}
    line = p.encode(p.Ask(5, legal, body["prompt"], view, clock))
    assert line == b"ask 5 6 " + json.dumps(body, separators=(",", ":")).encode() + b"\n"
    with_state = p.encode(p.Ask(5, legal, body["prompt"], view, clock, {"turn": 2}))
    assert json.loads(with_state.split(b" ", 3)[3]) == {**body, "state": {"turn": 2}}


PYTHON_ASCII = json.JSONEncoder(separators=(",", ":"))  # what every payload was written as


def test_payloads_are_written_as_python_s_compact_ascii_json(json_values):
    """orjson writes the payloads, and what it would write otherwise (a character as
    it is, a small float's exponent, what it refuses) goes to Python's encoder: a bot
    reads the same bytes as before, all of them ASCII."""
    values = json_values(20261126, 20_000)
    differ = [v for v in values if p.json_text(v) != PYTHON_ASCII.encode(v)]
    assert differ == []
    assert all(p.json_text(v).isascii() for v in values)


@pytest.mark.parametrize("value", [
    {"remaining": 1e-05, "move": 4.5e-07}, {"seed": 2**64 + 1}, {3: "a", 1: "b"},
    {"name": "Ἀθῆναι", "del": "\x7f", "sep": "\u2028"}, {"text": "1e-5", "x": 0.00001},
])
def test_the_corners_where_orjson_writes_otherwise_are_written_as_python_writes_them(value):
    assert p.json_text(value) == PYTHON_ASCII.encode(value)


def test_an_ask_line_is_the_same_bytes_whoever_writes_its_body(json_values):
    """The referee's hot path (`ask_line`, orjson) against the whole body by Python."""
    texts = [v for v in json_values(7, 4000) if isinstance(v, str)]
    for n, prompt in enumerate(texts):
        legal = texts[n:n + 1 + n % 5]
        view, clock = {"hand": [n]}, {"move": 10.0, "remaining": 600 - n / 1000}
        body = {"prompt": prompt, "legal": legal, "view": view, "clock": clock}
        want = f"ask {n} {len(legal)} {PYTHON_ASCII.encode(body)}\n".encode()
        assert p.ask_line(n, legal, prompt, p.json_text(view), p.json_text(clock)) == want


def test_the_first_line_names_the_protocol_version():
    assert p.encode(p.Hello({"seat": "x"})).startswith(b"agon 1 {")
    with pytest.raises(p.ProtocolError, match="version 2"):
        p.decode('agon 2 {"seat":"x"}')


def test_digits_are_an_index_and_anything_else_is_the_action_text():
    assert p.decode("act 5 12") == p.Act(5, index=12)
    assert p.decode("act 5 move Thebai Athenai 2") == p.Act(5, text="move Thebai Athenai 2")
    assert p.decode("act 5 -1") == p.Act(5, text="-1")
    assert p.Act(5, index=1).action(["a", "b"]) == "b"
    with pytest.raises(IndexError):
        p.Act(5, index=2).action(["a", "b"])


def test_a_windows_line_ending_is_accepted():
    assert p.decode(b"act 4 1\r\n") == p.Act(4, index=1)
    assert p.decode(b"ready Bot\r\n") == p.Ready("Bot")


@pytest.mark.parametrize("line, complaint", [
    (b"", "empty"),
    (b"hello referee", "unknown message"),
    (b"ACT 1 0", "unknown message"),
    (b"act x 0", "whole number"),
    (b"act 1", "missing"),
    (b"act 1 ", "missing"),
    (b"ready", "name is missing"),
    (b"ready Bot {not json", "bad JSON"),
    (b"ready Bot [1, 2]", "must be an object"),
    (b"event", "bad JSON"),
    (b'ask 1 2 {"legal":["a"]}', "N is 2"),
    (b'ask 1 1 {"legal":"a"}', "list of strings"),
    (b"ask 1 {}", "expected"),
    (b"quit now", "no payload"),
    (b"act 1 0\nact 2 0", "more than one line"),
])
def test_malformed_lines_are_protocol_errors(line, complaint):
    with pytest.raises(p.ProtocolError, match=complaint):
        p.decode(line)


def test_non_utf8_is_refused_with_the_position():
    with pytest.raises(p.ProtocolError, match="not UTF-8.*byte 6"):
        p.decode(b"act 1 \xff\xfe")


def test_an_overlong_line_is_refused_without_decoding_it():
    with pytest.raises(p.ProtocolError, match="longer than 100 bytes"):
        p.decode(b"info " + b"x" * 200, max_line=100)
    with pytest.raises(p.ProtocolError, match="longer than 10 bytes"):
        p.decode("info " + "é" * 4, max_line=10)  # 13 bytes in UTF-8
    assert p.decode(b"info " + b"x" * 95, max_line=100) == p.Info("x" * 95)


def test_each_side_may_send_only_its_own_messages():
    assert p.decode_from_bot(b"act 1 0") == p.Act(1, index=0)
    with pytest.raises(p.ProtocolError, match="a bot cannot send"):
        p.decode_from_bot(b"quit")
    with pytest.raises(p.ProtocolError, match="the referee cannot send"):
        p.decode_from_referee(b"ready Bot")


def test_text_with_a_newline_cannot_be_encoded():
    with pytest.raises(p.ProtocolError):
        p.encode(p.Info("two\nlines"))
    with pytest.raises(p.ProtocolError):
        p.encode(p.Ready("two words"))


@pytest.mark.parametrize("text", ["3", " pass", ""])
def test_an_action_text_that_would_read_back_differently_must_go_by_index(text):
    with pytest.raises(p.ProtocolError, match="answer by index"):
        p.encode(p.Act(1, text=text))


def test_numbers_too_long_for_an_id_are_protocol_errors_not_crashes():
    digits = "9" * 5000  # int() itself refuses strings this long
    for line in (f"act {digits} 0", f"act 1 {digits}", f"ask {digits} 1 {{}}"):
        with pytest.raises(p.ProtocolError, match="too large"):
            p.decode(line)


def test_the_fast_and_the_general_parse_of_act_agree():
    for line in (b"act 12 3", b"act 12 3\r", b"act 12  3", b"act 012 03"):
        assert p.decode(line) == p.Act(12, index=3)
    assert p.decode(b"act 12 3 4") == p.Act(12, text="3 4")


ANSWERS = [b"act 12 3", b"act 12 007", b"act 12 3\r", b"act 12  3", b"act 012 03", b"act 12 3 4",
           b"act 12 play 7 move", b"act 11 3", b"act 120 3", b"act 1 3", b"act 12 " + b"9" * 19,
           b"act 12 -1", b"act 12 ", b"act 12", b"info thinking", b"ready late", b"quit",
           b"act 12 \xff", b"ask 12 1 {}"]


@pytest.mark.parametrize("line", ANSWERS)
def test_the_quick_read_of_an_answer_never_disagrees_with_the_general_parse(line):
    # the referee takes `act 12 K` as index K at a glance; any other line it parses in full
    index = p.answer_index(line, 12)
    if index is not None:
        assert p.decode_from_bot(line) == p.Act(12, index=index)


def test_the_usual_answer_is_read_quickly_and_the_others_are_not():
    quick = {line: p.answer_index(line, 12) for line in ANSWERS}
    assert {line: k for line, k in quick.items() if k is not None} == {b"act 12 3": 3,
                                                                       b"act 12 007": 7}
