"""Bots that break the protocol: each fault has its reason, comes in time, leaves nothing running."""

from __future__ import annotations

import time
import uuid

import pytest

from agon.referee.engine import Decision
from agon.referee.players import BotFault, Limits, SubprocessPlayer

DECISION = Decision("p1", "total 0, add how much?", ["add 1", "add 2", "add 3"])


def started(kit, hello, mode, *extra, **options) -> SubprocessPlayer:
    player = SubprocessPlayer(kit.faulty(mode, *extra), **options)
    player.start(hello, kit.limits)
    return player


def fault_of(kit, player: SubprocessPlayer, asks: int = 1, view=None) -> tuple[BotFault, float]:
    """Ask until the player faults; the fault and the time the last ask took."""
    timeout = kit.limits.move + kit.limits.grace
    for ask_id in range(1, asks + 1):
        began = time.monotonic()
        try:
            player.choose(ask_id, DECISION, view or {}, {"move": kit.limits.move}, timeout)
        except BotFault as fault:
            return fault, time.monotonic() - began
    raise AssertionError("the bot did not fault")


def assert_gone(kit, player: SubprocessPlayer) -> None:
    assert player.child is not None and player.child.closed
    assert not kit.alive(player.child.pid)


def test_a_well_behaved_bot_answers_and_exits_on_quit(kit, hello):
    player = started(kit, hello, "ok")
    assert player.ready.name == "faulty-ok"
    assert player.choose(1, DECISION, {}, {}, 1.0) == "add 1"
    player.finish({"scores": {}, "ranks": {}, "reason": "done"})
    player.close()
    assert player.exit_status == 0  # it left by itself after quit
    assert_gone(kit, player)


def test_crash_at_start_is_a_crash_with_its_exit_status(kit, hello):
    player = SubprocessPlayer(kit.faulty("crash-at-start"))
    with pytest.raises(BotFault) as caught:
        player.start(hello, kit.limits)
    assert caught.value.reason == "crash"
    assert "status 3" in caught.value.detail
    assert_gone(kit, player)


def test_crash_mid_game_is_a_crash(kit, hello):
    player = started(kit, hello, "crash-mid-game")
    fault, took = fault_of(kit, player, asks=3)
    assert fault.reason == "crash" and "status 1" in fault.detail
    assert took < kit.limits.move
    assert_gone(kit, player)


def test_a_hung_bot_times_out_within_the_move_limit(kit, hello):
    player = started(kit, hello, "hang")
    fault, took = fault_of(kit, player)
    assert fault.reason == "timeout"
    assert kit.limits.move <= took < kit.limits.move + kit.limits.grace + 0.4
    assert_gone(kit, player)


def test_closing_kills_what_the_bot_started_too(kit, hello):
    marker = f"agon-test-child-{uuid.uuid4()}"
    player = started(kit, hello, "hang-with-child", marker)
    fault, _ = fault_of(kit, player)
    assert fault.reason == "timeout"
    deadline = time.monotonic() + 5
    while kit.running_with(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not kit.running_with(marker)
    assert_gone(kit, player)


@pytest.mark.parametrize("mode, detail", [
    ("illegal-index", "index 3 is out of range"),
    ("illegal-text", "'fly to the moon' is not a legal action"),
])
def test_illegal_answers_are_illegal(kit, hello, mode, detail):
    player = started(kit, hello, mode)
    fault, _ = fault_of(kit, player)
    assert fault.reason == "illegal" and detail in fault.detail
    assert_gone(kit, player)


@pytest.mark.parametrize("mode, asks, detail", [
    ("garbage", 1, "unknown message 'I'"),
    ("wrong-id", 1, "answered ask 2, but the open ask is 1"),
    ("not-utf8", 1, "not UTF-8"),
    ("answer-twice", 2, "answered ask 1 again (one act per ask), but the open ask is 2"),
])
def test_protocol_breaches_are_protocol_faults(kit, hello, mode, asks, detail):
    player = started(kit, hello, mode)
    fault, _ = fault_of(kit, player, asks=asks)
    assert fault.reason == "protocol" and detail in fault.detail
    assert_gone(kit, player)


def test_a_10_mb_line_is_refused_without_reading_it_all(kit, hello):
    player = started(kit, hello, "huge-line")
    fault, took = fault_of(kit, player)
    assert fault.reason == "protocol" and "longer than" in fault.detail
    assert took < kit.limits.move
    assert len(player.child._buffer) <= kit.limits.max_line + (1 << 16)
    assert_gone(kit, player)


def test_a_bot_that_never_reads_cannot_block_the_referee(kit, hello):
    player = started(kit, hello, "deaf")
    big_view = {"padding": "x" * (1 << 20)}  # far more than a pipe holds
    fault, took = fault_of(kit, player, view=big_view)
    assert fault.reason == "timeout"
    assert took < kit.limits.move + kit.limits.grace + 0.4
    assert_gone(kit, player)


def test_silence_at_the_start_is_a_handshake_fault(kit, hello):
    player = SubprocessPlayer(kit.faulty("no-ready"))
    began = time.monotonic()
    with pytest.raises(BotFault) as caught:
        player.start(hello, kit.limits)
    assert caught.value.reason == "handshake"
    assert time.monotonic() - began < kit.limits.handshake + kit.limits.grace + 0.4
    assert_gone(kit, player)


def test_a_wrong_first_answer_is_a_handshake_fault(kit, hello):
    player = SubprocessPlayer(kit.faulty("bad-ready"))
    with pytest.raises(BotFault) as caught:
        player.start(hello, kit.limits)
    assert caught.value.reason == "handshake" and "hello referee" in caught.value.detail
    assert_gone(kit, player)


def test_a_missing_program_is_a_handshake_fault(kit, hello, tmp_path):
    player = SubprocessPlayer([str(tmp_path / "no-such-bot")])
    with pytest.raises(BotFault) as caught:
        player.start(hello, kit.limits)
    assert caught.value.reason == "handshake" and "cannot run" in caught.value.detail


def test_after_a_fault_the_seat_keeps_faulting_and_close_is_safe(kit, hello):
    player = started(kit, hello, "garbage")
    first, _ = fault_of(kit, player)
    with pytest.raises(BotFault) as again:
        player.choose(2, DECISION, {}, {}, 1.0)
    assert again.value is first
    player.event({"type": "x"})  # ignored, no error
    player.close()
    player.close()
    assert_gone(kit, player)


def test_info_lines_and_stderr_go_to_the_log(kit, hello, tmp_path):
    player = started(kit, hello, "chatty", log_dir=tmp_path, transcript=True)
    assert player.choose(1, DECISION, {}, {}, 1.0) == "add 3"  # info and blank line skipped
    assert player.choose(2, DECISION, {}, {}, 1.0) == "add 3"
    player.close()
    log = (tmp_path / "p1.log").read_text()
    assert "info: thinking about ask 1" in log and "info: thinking about ask 2" in log
    assert "chatty stderr at ask 2" in log
    assert list(player.infos) == ["thinking about ask 1", "thinking about ask 2"]
    transcript = (tmp_path / "p1.transcript").read_text().splitlines()
    assert transcript[0].startswith("> agon 1 {")
    assert "< act 2 2" in transcript


def test_the_transcript_keeps_each_answer_in_its_place_and_the_last_one_too(kit, hello,
                                                                            tmp_path):
    player = started(kit, hello, "ok", log_dir=tmp_path, transcript=True)
    for ask_id in (1, 2, 3):
        player.choose(ask_id, DECISION, {}, {}, 1.0)
        kind, line = player.recent[-1]   # read before the next line is sent
        assert (kind, line[:len(f"act {ask_id} ")]) == ("<", f"act {ask_id} ".encode())
    player.close()
    exchanged = [line[:5] for line in (tmp_path / "p1.transcript").read_text().splitlines()
                 if line[:5] in ("> ask", "< act")]
    assert exchanged == ["> ask", "< act"] * 3


def test_writing_to_a_bot_that_left_is_a_crash(kit, hello):
    player = started(kit, hello, "leave")
    assert player.child.exit_status(timeout=10) == 0
    with pytest.raises(BotFault) as caught:
        player.event({"type": "roll", "text": "anyone there?"})
    assert caught.value.reason == "crash" and "exited with status 0" in caught.value.detail
    assert_gone(kit, player)


def test_events_a_bot_never_reads_pile_up_only_to_a_bound(kit, hello):
    limits = Limits(handshake=0.5, move=0.5, game=5.0, grace=0.1, max_line=4096)
    player = SubprocessPlayer(kit.faulty("deaf"))
    player.start(hello, limits)
    began = time.monotonic()
    with pytest.raises(BotFault) as caught:
        for _ in range(1000):
            player.event({"type": "news", "text": "x" * 3000})
    assert caught.value.reason == "timeout" and "not reading its input" in caught.value.detail
    assert time.monotonic() - began < 0.5  # never blocked on the full pipe
    assert_gone(kit, player)


def test_a_bot_that_closes_its_output_but_lives_on_is_a_crash_at_once(kit, hello):
    player = started(kit, hello, "closed-stdout")
    fault, _ = fault_of(kit, player)
    # a crash, not a timeout: nothing in the sandbox holds a copy of its pipe
    assert fault.reason == "crash" and "closed its output" in fault.detail
    assert_gone(kit, player)
