"""What a bot's transcript and the error reports keep of the lines exchanged with it."""

from __future__ import annotations

from agon.referee.transcript import CLIPPED, RECENT, Transcript


def test_a_transcript_holds_the_lines_both_ways_and_starts_again_each_game():
    lines = Transcript(cap=1000, whole=True)
    lines.sent(b"ask 1 2 {}\n")
    lines.received(b"act 1 0")
    assert lines.transcript() == b"> ask 1 2 {}\n< act 1 0\n"
    lines.clear()
    lines.sent(b"result {}\n")
    assert lines.transcript() == b"> result {}\n"
    assert lines.recent() == [(">", b"ask 1 2 {}"), ("<", b"act 1 0"), (">", b"result {}")]


def test_past_its_cap_a_transcript_is_cut_and_says_how_much_was_dropped():
    lines = Transcript(cap=20, whole=True)
    lines.sent(b"ask 1 2 {}\n")         # 13 bytes written
    lines.received(b"info " + b"x" * 30)  # 38 bytes: 7 fit
    lines.received(b"act 1 0")           # 10 bytes, all dropped
    text = lines.transcript()
    assert text.startswith(b"> ask 1 2 {}\n< info ") and len(text.split(b"\n[agon")[0]) == 20
    assert text.endswith(b"[agon: transcript cut at 20 bytes; 41 more bytes dropped]\n")
    assert lines.recent()[-1] == ("<", b"act 1 0")  # error reports still see the last line


def test_error_reports_quote_the_last_lines_cut_short_even_without_a_transcript():
    lines = Transcript(cap=1000)   # no transcript kept (agon play without --log-dir)
    flood = b"info " + b"y" * 10_000
    for _ in range(RECENT + 5):
        lines.received(flood)
    lines.sent(b"ask 9 1 {}\n")
    recent = lines.recent()
    assert len(recent) == RECENT and recent[-1] == (">", b"ask 9 1 {}")
    assert recent[0] == ("<", flood[:CLIPPED] + b"... (10005 bytes)")
    assert lines.transcript() == b""
