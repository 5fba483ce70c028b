"""The child-process transport: line framing, bounds, backlog and ending."""

from __future__ import annotations

import sys
import time

import pytest

from agon.referee.transport import (
    Backlog,
    BoundedLog,
    ChildProcess,
    Closed,
    LineTooLong,
    Timeout,
)


def child(code: str, **options) -> ChildProcess:
    return ChildProcess([sys.executable, "-c", code], **options)


# A referee with a CPU to spare reads for a while before it sleeps (`spin`): the
# framing, the bounds and the deadline are the same either way.
SPINS = pytest.mark.parametrize("spin", [0.0, 0.02], ids=["sleeping", "spinning"])


@SPINS
def test_lines_are_framed_whatever_the_chunks(spin):
    code = ("import sys,time\nw=sys.stdout.write\nw('one\\ntw'); sys.stdout.flush(); time.sleep(0.05)\n"
            "w('o\\n\\nthree\\n'); sys.stdout.flush()")
    with child(code, spin=spin) as proc:
        deadline = time.monotonic() + 2
        assert [proc.read_line(deadline) for _ in range(4)] == [b"one", b"two", b"", b"three"]
        with pytest.raises(Closed):
            proc.read_line(deadline)


@SPINS
def test_a_line_of_exactly_max_line_bytes_passes_and_one_more_does_not(spin):
    code = "import sys\nsys.stdout.write('a' * 100 + '\\n' + 'b' * 101 + '\\n')"
    with child(code, max_line=100, spin=spin) as proc:
        assert proc.read_line(time.monotonic() + 2) == b"a" * 100
        with pytest.raises(LineTooLong):
            proc.read_line(time.monotonic() + 2)


@SPINS
def test_a_half_line_then_silence_is_a_timeout_then_eof_mid_line_is_closed(spin):
    code = "import sys,time\nsys.stdout.write('half'); sys.stdout.flush(); time.sleep(0.3)"
    with child(code, spin=spin) as proc:
        began = time.monotonic()
        with pytest.raises(Timeout):
            proc.read_line(began + 0.1)
        assert 0.1 <= time.monotonic() - began < 0.3
        with pytest.raises(Closed, match="mid-line"):
            proc.read_line(time.monotonic() + 2)


@SPINS
def test_an_answer_that_waits_in_the_pipe_past_its_deadline_is_not_read(spin):
    with child("print('late', flush=True)", spin=spin) as proc:
        time.sleep(0.2)   # the line is there, the deadline passed
        with pytest.raises(Timeout):
            proc.read_line(time.monotonic() - 0.01)
        assert proc.read_line(time.monotonic() + 2) == b"late"


def test_a_spinning_referee_reads_quick_and_slow_answers_and_the_end_of_a_bot():
    echo = "import sys,time\nfor line in sys.stdin:\n    time.sleep(float(line))\n    print(line.strip(), flush=True)"
    with child(echo, spin=0.01) as proc:
        for delay in (b"0", b"0.05", b"0", b"0.2"):  # within the spin, after it, ...
            proc.send(delay + b"\n")
            assert proc.read_line(time.monotonic() + 2) == delay
    with child("import sys\nsys.stdin.readline()", spin=5.0) as proc:
        proc.send(b"bye\n")
        began = time.monotonic()
        with pytest.raises(Closed):   # a bot that exits is seen at once, not after the spin
            proc.read_line(time.monotonic() + 10)
        assert time.monotonic() - began < 4
    with child("import time\ntime.sleep(5)", spin=5.0) as proc:
        began = time.monotonic()
        with pytest.raises(Timeout):   # nor does the spin outlast the deadline
            proc.read_line(began + 0.2)
        assert time.monotonic() - began < 2


def test_unread_input_is_queued_without_blocking_up_to_the_backlog_bound():
    with child("import time\ntime.sleep(5)", max_backlog=100_000) as proc:
        began = time.monotonic()
        proc.send(b"x" * 150_000)  # more than a pipe holds: the rest waits in the queue
        assert not proc.flush(time.monotonic() + 0.05)
        with pytest.raises(Backlog):
            proc.send(b"y" * 100_000)
        assert time.monotonic() - began < 0.5


def test_close_lets_a_child_exit_then_reports_its_status():
    with child("import sys\nsys.stdin.read()\nsys.exit(4)") as proc:
        assert proc.close(linger=2.0) == 4
        assert proc.close() == 4  # twice is fine


def test_close_kills_a_child_that_will_not_exit():
    proc = child("import signal,time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\ntime.sleep(30)")
    began = time.monotonic()
    assert proc.close(linger=0.1) == -9
    assert time.monotonic() - began < 1.0


def test_a_flood_on_stderr_neither_blocks_the_bot_nor_fills_the_log():
    log = BoundedLog(10_000, "stderr")
    code = ("import sys\nfor _ in range(2000): sys.stderr.write('x' * 1000 + '\\n')\n"
            "sys.stderr.flush(); print('done', flush=True)")
    with child(code, stderr=log) as proc:
        # 2 MB of stderr: a bot whose stderr were never read would block long before
        assert proc.read_line(time.monotonic() + 10) == b"done"
    text = log.getvalue().decode()
    assert text.startswith("x" * 1000)
    assert text.endswith("[agon: stderr cut at 10000 bytes; 1992000 more bytes dropped]\n")
    assert len(text) < 10_000 + 100


def test_a_silent_childs_stderr_is_drained_while_the_referee_waits_on_another():
    flooding = BoundedLog(1 << 20, "stderr")
    noisy = child("import sys\nsys.stderr.write('y' * 500_000); sys.stderr.flush()\n"
                  "print('noisy done', flush=True)\nimport time; time.sleep(30)", stderr=flooding)
    quiet = child("import time\ntime.sleep(0.5); print('quiet done', flush=True)")
    with noisy, quiet:
        # waiting on `quiet` drains `noisy`'s stderr, so `noisy` is not blocked on it
        assert quiet.read_line(time.monotonic() + 10) == b"quiet done"
        assert noisy.read_line(time.monotonic() + 10) == b"noisy done"
    assert len(flooding.getvalue()) == 500_000


def test_a_transcript_line_appended_in_pieces_is_cut_like_one_appended_whole():
    for cap in (0, 5, 9, 10, 11, 40):
        pieces, whole = BoundedLog(cap, "transcript"), BoundedLog(cap, "transcript")
        for mark, line, end in ((b"> ", b"ask 1 2", b"\n"), (b"< ", b"act 1 0", b"\n")):
            pieces.add_line(mark, line, end)
            whole.add(mark + line + end)
        assert pieces.getvalue() == whole.getvalue(), cap
        assert pieces.dropped == whole.dropped
