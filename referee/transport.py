"""A child process the referee talks to in lines: spawn, read, write, kill.

Nothing here trusts the child.  Reads are bounded in time (a deadline) and in
size (a line longer than `max_line` is refused after reading at most
`max_line` + one chunk, never the whole line).  Writes never block: what the
pipe cannot take now waits in a buffer that is flushed whenever the referee
waits for the child, so a bot that never reads its stdin cannot stall the
referee.  The child runs in its own session, so closing kills its whole
process group (grandchildren included) and reaps it on every path.
"""

from __future__ import annotations

import errno
import os
import select
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from pathlib import Path

CHUNK = 1 << 16
MAX_STDERR = 16 << 20   # bytes of a bot's stderr kept in its log; the rest is dropped


class TransportError(Exception):
    """Base of the ways a child can fail to talk."""


class Closed(TransportError):
    """The child closed its stdout or exited (EOF), or its stdin is gone."""


class Timeout(TransportError):
    """No complete line before the deadline."""


class LineTooLong(TransportError):
    """The child sent a line longer than the limit."""


class Backlog(TransportError):
    """The child has not read what was sent to it and the buffer is full."""


class StderrSink(threading.Thread):
    """Copies a child's stderr into its log up to a cap, then drains and drops the rest.

    A bot that floods its stderr neither blocks (the pipe is always read) nor
    fills the disk (the log stops growing at `cap` bytes).
    """

    def __init__(self, fd: int, path: Path, cap: int) -> None:
        super().__init__(daemon=True, name=f"stderr of {path.name}")
        self.fd, self.path, self.cap = fd, path, cap

    def run(self) -> None:
        room = self.cap
        with open(self.path, "ab", buffering=0) as log:
            while chunk := os.read(self.fd, CHUNK):
                if room > 0:
                    log.write(chunk[:room])
                    room -= len(chunk)
                    if room <= 0:
                        log.write(f"\n[agon: stderr past {self.cap} bytes is dropped]\n".encode())
        os.close(self.fd)


class ChildProcess:
    """One running program with line-based stdin/stdout pipes."""

    def __init__(self, argv: Sequence[str], *, max_line: int = 1 << 20,
                 stderr: Path | None = None, cwd: Path | None = None,
                 env: dict[str, str] | None = None, max_backlog: int | None = None,
                 max_stderr: int = MAX_STDERR) -> None:
        self.argv = list(argv)
        self.max_line = max_line
        self.max_backlog = max_backlog if max_backlog is not None else 16 * max_line + CHUNK
        err_read, err_write = os.pipe() if stderr else (None, None)
        try:
            self.proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=err_write if stderr else subprocess.DEVNULL, cwd=cwd, env=env,
                start_new_session=True, bufsize=0, close_fds=True)
        except BaseException:
            if stderr:
                os.close(err_read)
            raise
        finally:
            if err_write is not None:
                os.close(err_write)
        self._sink: StderrSink | None = None
        if stderr:
            self._sink = StderrSink(err_read, stderr, max_stderr)
            self._sink.start()
        self.pid = self.proc.pid
        self._out = self.proc.stdin.fileno()   # type: ignore[union-attr]
        self._in = self.proc.stdout.fileno()   # type: ignore[union-attr]
        os.set_blocking(self._out, False)
        os.set_blocking(self._in, False)
        self._pending = bytearray()   # written by us, not yet taken by the pipe
        self._buffer = bytearray()    # read from the child, not yet returned as lines
        self._scan = 0                # no newline in _buffer before this offset
        self._eof = False
        self._stdin_broken = False
        self._poll = select.poll()
        self._poll.register(self._in, select.POLLIN)
        self._watching_out = False
        self.closed = False
        self.returncode: int | None = None

    # -- writing -------------------------------------------------------------

    def send(self, data: bytes) -> None:
        """Queue `data` and write what the pipe takes now, without blocking.

        Raises Closed when the child's stdin is gone, Backlog when the child
        leaves more than `max_backlog` bytes unread.
        """
        if self._stdin_broken:
            raise Closed("closed its input")
        if self._pending:
            self._pending += data
        else:
            written = self._write(data)
            if written < len(data):
                self._pending += data[written:]
        if self._pending:
            if len(self._pending) > self.max_backlog:
                raise Backlog(f"the program left {len(self._pending)} bytes of input unread")
            self._watch_out(True)

    def _write(self, data: bytes | bytearray) -> int:
        try:
            return os.write(self._out, data)
        except BlockingIOError:
            return 0
        except OSError as err:  # EPIPE: the child closed its stdin or exited
            if err.errno in (errno.EPIPE, errno.EBADF):
                self._stdin_broken = True
                self._pending.clear()
                self._watch_out(False)
                raise Closed("closed its input") from None
            raise

    def _flush_some(self) -> None:
        try:
            written = self._write(self._pending)
        except Closed:
            return  # reported by the next send(); the child may still answer
        del self._pending[:written]
        if not self._pending:
            self._watch_out(False)

    def _watch_out(self, on: bool) -> None:
        if on != self._watching_out:
            if on:
                self._poll.register(self._out, select.POLLOUT)
            else:
                self._poll.unregister(self._out)
            self._watching_out = on

    def flush(self, deadline: float) -> bool:
        """Wait until everything queued is written or `deadline`; True when done."""
        while self._pending and not self._stdin_broken:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            self._wait(left)
        return not self._pending

    # -- reading -------------------------------------------------------------

    def read_line(self, deadline: float) -> bytes:
        """The next line (without its newline) before `deadline` (time.monotonic()).

        Raises Timeout, Closed (EOF) or LineTooLong.  Queued writes are
        flushed while waiting.
        """
        if self.closed:
            raise Closed("was stopped")
        while True:
            line = self._take_line()
            if line is not None:
                return line
            if self._eof:
                raise Closed("closed its output" if not self._buffer
                             else "closed its output mid-line")
            left = deadline - time.monotonic()
            if left <= 0:
                raise Timeout("no answer in time")
            self._wait(left)

    def _take_line(self) -> bytes | None:
        end = self._buffer.find(b"\n", self._scan)
        if end < 0:
            self._scan = len(self._buffer)
            if self._scan > self.max_line:
                raise LineTooLong(f"a line longer than {self.max_line} bytes")
            return None
        if end > self.max_line:
            raise LineTooLong(f"a line longer than {self.max_line} bytes")
        line = bytes(self._buffer[:end])
        del self._buffer[:end + 1]
        self._scan = 0
        return line

    def _wait(self, seconds: float) -> None:
        """Block until the child's stdout or stdin is ready, or `seconds` pass."""
        for fd, flags in self._poll.poll(max(1, int(seconds * 1000 + 0.999))):
            if fd == self._in:
                self._read_available()
            elif flags & select.POLLOUT:
                self._flush_some()
            elif flags & (select.POLLERR | select.POLLHUP):
                self._stdin_broken = True
                self._pending.clear()
                self._watch_out(False)

    def _read_available(self) -> None:
        try:
            chunk = os.read(self._in, CHUNK)
        except BlockingIOError:
            return
        if chunk:
            self._buffer += chunk
        else:
            self._eof = True
            self._poll.unregister(self._in)

    # -- ending --------------------------------------------------------------

    def close_input(self) -> None:
        """Close the child's stdin (it sees EOF once the queue is written)."""
        if self.proc.stdin and not self.proc.stdin.closed:
            self._watch_out(False)
            try:
                self.proc.stdin.close()
            except OSError:
                pass
        self._stdin_broken = True

    def close(self, linger: float = 0.0) -> int | None:
        """Let the child exit within `linger` seconds, then kill its group and reap it.

        Safe to call twice; returns the exit status (negative: killed by a signal).
        """
        if self.closed:
            return self.returncode
        self.closed = True
        try:
            if linger > 0:
                self.flush(time.monotonic() + linger / 2)
            self.close_input()
            self._wait_exit(time.monotonic() + linger)
            # The leader is at worst a zombie now, so its group id is still
            # ours: kill every process the bot started, then reap the leader.
            try:
                os.killpg(self.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            self.returncode = self.proc.wait()
        finally:
            if self.proc.stdout:
                self.proc.stdout.close()
            if self._sink is not None:
                self._sink.join(timeout=1.0)  # the group is dead: its stderr ends now
        return self.returncode

    def _wait_exit(self, deadline: float) -> bool:
        """Wait (without reaping) for the leader to exit; True if it did."""
        delay = 0.0005
        while True:
            try:
                info = os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:
                return True
            if info is not None:
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(delay)
            delay = min(delay * 2, 0.02)

    def __enter__(self) -> ChildProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
