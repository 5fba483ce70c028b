"""Starting a bot program: what the fork tells the referee before the exec."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest

from agon.referee.warden import fork_exec, read_all

ERRORS_FD = 3  # where the errors pipe sits in the fork: after the bot's stdin, stdout, stderr


def start(argv: list[str], prepare, warden: bool) -> None:
    """`fork_exec` the program (behind a warden, or not) and wait until it is done."""
    null = os.open(os.devnull, os.O_RDWR)
    report_read, report_write = os.pipe() if warden else (None, None)
    try:
        pid = fork_exec(argv, dict(os.environ), (null, null, null), prepare,
                        report=report_write)
        if report_write is not None:
            os.close(report_write)
            report_write = None
            read_all(report_read)   # the warden reports once its bot has ended
        os.waitpid(pid, 0)
    finally:
        for fd in (null, report_read, report_write):
            if fd is not None:
                os.close(fd)


@pytest.mark.parametrize("warden", [False, True], ids=["plain", "warden"])
def test_stray_bytes_written_in_the_fork_do_not_pass_for_a_failed_start(tmp_path: Path, warden):
    """Something of the referee's own process that writes, in the fork, to a descriptor
    it had (a profiler's map file) must neither fail the start nor hang the referee."""
    ran = tmp_path / "ran"
    start([sys.executable, "-c", f"open({str(ran)!r}, 'w').close()"],
          lambda: os.write(ERRORS_FD, b"2:py::frame 0x1f"), warden)
    assert ran.exists()


@pytest.mark.parametrize("warden", [False, True], ids=["plain", "warden"])
def test_a_program_that_cannot_be_started_is_reported_with_its_error(warden):
    with pytest.raises(OSError) as failed:
        start(["/nonexistent/bot"], lambda: os.write(ERRORS_FD, b"stray "), warden)
    assert failed.value.errno == errno.ENOENT


STOP_DURING_A_FORK = """
import os, signal, sys
from agon.referee.warden import fork_exec
signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))   # a worker's SIGTERM handler
# SIGTERM comes while the fork's hooks run, just after logging's (in the forking thread)
os.register_at_fork(after_in_parent=lambda: signal.raise_signal(signal.SIGTERM))
null = os.open(os.devnull, os.O_RDWR)
try:
    pid = fork_exec([sys.executable, "-c", ""], {}, (null, null, null), lambda: None)
except SystemExit:
    print("stopped")
    raise
print("not stopped")
"""


def test_a_sigterm_while_a_bot_is_forked_stops_the_referee():
    """A stop that came inside the fork's hooks was printed as 'Exception ignored' and
    dropped: the worker played on and the organiser's screen showed a traceback."""
    done = subprocess.run([sys.executable, "-c", STOP_DURING_A_FORK],
                          capture_output=True, text=True, timeout=60)
    assert (done.stdout.strip(), done.returncode) == ("stopped", 143), done.stderr
    assert "Exception ignored" not in done.stderr and "Traceback" not in done.stderr
