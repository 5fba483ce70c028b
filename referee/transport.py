"""A child process the referee talks to in lines: spawn, read, write, kill.

Nothing here trusts the child.  Reads are bounded in time (a deadline) and in
size (a line longer than `max_line` is refused after reading at most
`max_line` + one chunk, never the whole line).  Writes never block: what the
pipe cannot take now waits in a buffer that is flushed whenever the referee
waits for the child, so a bot that never reads its stdin cannot stall the
referee.  A child's stderr goes to a `BoundedLog` in memory: whenever the
referee waits for any child, it drains the stderr of every child, so none
blocks on a full pipe, and none fills the disk or the referee's memory.

How the program is started is the `spawn` function's business (the default
starts it plainly in its own session; `referee.sandbox` starts it confined).
Closing kills the child's process group (after `stop_grace` seconds of
SIGTERM, for a child that cleans up after itself) and reaps it on every
path, keeping its exit status.
"""

from __future__ import annotations

import errno
import os
import select
import signal
import time
from collections.abc import Callable, Sequence

CHUNK = 1 << 16
EXIT_GRACE = 0.2  # seconds a child that closed its output has to exit before it is killed
QUICK_WAIT_MS = 5  # the first wait for an answer polls the children's stderr after this

Spawn = Callable[[Sequence[str], tuple[int, int, int]], int]
"""Start `argv` with these stdin, stdout, stderr fds; the pid to wait for.  Raises OSError."""


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


class BoundedLog:
    """Bytes kept in memory up to `cap`; past it they are counted and dropped.

    `getvalue()` ends with a marker line saying where the log was cut.
    """

    def __init__(self, cap: int, what: str = "log") -> None:
        self.cap = cap
        self.what = what
        self.data = bytearray()
        self.dropped = 0

    def add(self, part: bytes) -> None:
        room = self.cap - len(self.data)
        if len(part) <= room:
            self.data += part
        else:
            self.data += part[:max(room, 0)]
            self.dropped += len(part) - max(room, 0)

    def add_line(self, mark: bytes, line: bytes, end: bytes = b"") -> None:
        """`mark + line + end`, appended piece by piece: a transcript takes two lines per
        ask, and joining them first cost more than the appends."""
        data = self.data
        if len(data) + len(mark) + len(line) + len(end) <= self.cap:
            data += mark
            data += line
            data += end
        else:
            self.add(mark + line + end)

    @property
    def empty(self) -> bool:
        """Nothing was added (nor dropped) since the start or the last `clear`."""
        return not self.data and not self.dropped

    def clear(self) -> None:
        """Start again, empty (a lasting bot's next game)."""
        self.data.clear()
        self.dropped = 0

    def getvalue(self) -> bytes:
        if not self.dropped:
            return bytes(self.data)
        marker = (f"\n[agon: {self.what} cut at {self.cap} bytes; "
                  f"{self.dropped} more bytes dropped]\n")
        return bytes(self.data) + marker.encode()


def spawn_plain(argv: Sequence[str], stdio: tuple[int, int, int]) -> int:
    """Start `argv` in its own session, with nothing but these three fds open."""
    actions = [(os.POSIX_SPAWN_DUP2, fd, target) for target, fd in enumerate(stdio)]
    return os.posix_spawnp(argv[0], list(argv), dict(os.environ), file_actions=actions,
                           setsid=True)


# Every live child's stderr pipe, by fd, drained whenever the referee waits on any child.
_STDERR: dict[int, ChildProcess] = {}
_stderr_generation = 0


class ChildProcess:
    """One running program with line-based stdin/stdout pipes."""

    def __init__(self, argv: Sequence[str], *, max_line: int = 1 << 20,
                 stderr: BoundedLog | None = None, max_backlog: int | None = None,
                 spawn: Spawn = spawn_plain, stop_grace: float = 0.0,
                 spin: float = 0.0) -> None:
        """`spin`: seconds the first wait for an answer reads without sleeping (see `_first_line`)."""
        self.argv = list(argv)
        self.spin = spin
        self.max_line = max_line
        self.max_backlog = max_backlog if max_backlog is not None else 16 * max_line + CHUNK
        self.stderr = stderr
        self.stop_grace = stop_grace
        self.returncode: int | None = None
        self.closed = False
        self._pidfd: int | None = None  # readable once the leader has exited
        ours, theirs = _pipes(stderr is not None)
        try:
            self.pid = spawn(self.argv, theirs)
        except BaseException:
            for fd in ours:
                if fd is not None:
                    os.close(fd)
            raise
        finally:
            for fd in set(theirs):
                os.close(fd)
        self._out, self._in, self._err = ours
        self._pending = bytearray()   # written by us, not yet taken by the pipe
        self._buffer = bytearray()    # read from the child, not yet returned as lines
        self._scan = 0                # no newline in _buffer before this offset
        self._eof = False
        self._stdin_broken = False
        self._poll = select.poll()  # our own pipes with this child
        self._poll_all = select.poll()  # the same, and every live child's stderr
        for poll in (self._poll, self._poll_all):
            poll.register(self._in, select.POLLIN)
        self._watching_out = False
        self._watched_stderr: set[int] = set()
        self._stderr_seen = -1
        if self._err is not None:
            _watch_stderr(self._err, self)

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
            for poll in (self._poll, self._poll_all):
                if on:
                    poll.register(self._out, select.POLLOUT)
                else:
                    poll.unregister(self._out)
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
        quick = True  # the first wait for an answer, the commonest, is a quick one
        if not (self._buffer or self._pending or self._eof):
            line = self._first_line(deadline)
            if line is not None:
                return line
            quick = self.spin > 0   # (without spin, `_first_line` made the quick wait)
        while True:
            if self._buffer:
                line = self._take_line()
                if line is not None:
                    return line
            if self._eof:
                raise Closed("closed its output" if not self._buffer
                             else "closed its output mid-line")
            left = deadline - time.monotonic()
            if left <= 0:
                raise Timeout("no answer in time")
            self._wait(left, quick)
            quick = False

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

    def _wait(self, seconds: float, quick: bool = False) -> None:
        """Block until the child's stdout or stdin is ready, or `seconds` pass.

        Meanwhile the stderr of every child that has something to say is
        drained; a `quick` wait (the first for an answer, which most often
        comes at once) looks at this child's own pipes alone for its first
        few milliseconds.
        """
        wait_ms = max(1, int(seconds * 1000 + 0.999))
        events = []
        if quick:
            events = self._poll.poll(min(wait_ms, QUICK_WAIT_MS))
            wait_ms -= QUICK_WAIT_MS
        if not events and wait_ms > 0:
            if self._stderr_seen != _stderr_generation:
                self._watch_all_stderr()
            events = self._poll_all.poll(wait_ms)
        for fd, flags in events:
            if fd == self._in:
                self._read_available()
            elif fd == self._out:
                if flags & select.POLLOUT:
                    self._flush_some()
                elif flags & (select.POLLERR | select.POLLHUP):
                    self._stdin_broken = True
                    self._pending.clear()
                    self._watch_out(False)
            elif fd in _STDERR:
                _STDERR[fd]._drain_stderr()

    def _watch_all_stderr(self) -> None:
        """Poll the stderr pipes of every live child, as they are now."""
        live = set(_STDERR)
        for fd in self._watched_stderr - live:
            self._poll_all.unregister(fd)
        for fd in live - self._watched_stderr:
            self._poll_all.register(fd, select.POLLIN)
        self._watched_stderr = live
        self._stderr_seen = _stderr_generation

    def collect_stderr(self, chunks: int = 16) -> None:
        """Keep what the child has written to its stderr by now, without waiting
        (at most `chunks` reads, so that a child that writes without end cannot hold us)."""
        for _ in range(chunks):
            if self._err is None or self.stderr is None:
                return
            kept = len(self.stderr.data) + self.stderr.dropped
            self._drain_stderr()
            if len(self.stderr.data) + self.stderr.dropped == kept:
                return

    def _drain_stderr(self) -> None:
        assert self._err is not None and self.stderr is not None
        try:
            chunk = os.read(self._err, CHUNK)
        except BlockingIOError:
            return
        if chunk:
            self.stderr.add(chunk)
        else:
            _unwatch_stderr(self._err)
            os.close(self._err)
            self._err = None

    def _first_line(self, deadline: float) -> bytes | None:
        """The next line when it comes whole in one read, after a quick wait (or, with
        `spin`, a spin); None when none came whole in that time (what came is kept, for
        `read_line`'s loop).  The usual answer, one line read whole, is returned as it
        came, without going through the buffer.

        With `spin`, the wait reads in a loop without sleeping: a quick bot answers in
        a few microseconds, and waking a sleeping referee costs more than that (the
        more so on a virtual machine).  With a CPU to spare for it, spinning for a
        fraction of a millisecond first saves most of that wake-up; a bot that thinks
        longer finds the referee asleep in `poll` as before.
        """
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        poll = self._poll.poll
        if self.spin:
            now = time.perf_counter
            end = now() + min(self.spin, left)
            while not poll(0):   # (a read that fails raises: slower to try again)
                if now() > end:
                    return None
        elif not poll(min(int(left * 1000 + 0.999) or 1, QUICK_WAIT_MS)):
            return None
        try:
            chunk = os.read(self._in, CHUNK)
        except BlockingIOError:
            return None
        if chunk and chunk.find(b"\n") == len(chunk) - 1 and len(chunk) <= self.max_line + 1:
            return chunk[:-1]
        self._keep(chunk)   # several lines, part of one, or the end (an empty read)
        return None

    def _read_available(self) -> None:
        """Read what the child's stdout holds."""
        try:
            chunk = os.read(self._in, CHUNK)
        except BlockingIOError:
            return
        self._keep(chunk)

    def _keep(self, chunk: bytes) -> None:
        """Buffer what was read; an empty read is the end of the child's output."""
        if chunk:
            self._buffer += chunk
        else:
            self._eof = True
            for poll in (self._poll, self._poll_all):
                poll.unregister(self._in)

    # -- ending --------------------------------------------------------------

    def close_input(self) -> None:
        """Close the child's stdin (it sees EOF once the queue is written)."""
        self._watch_out(False)
        if self._out >= 0:
            os.close(self._out)
            self._out = -1
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
            if self._eof:  # it closed its output, so it is most likely exiting: let it
                linger = max(linger, EXIT_GRACE)
            if not self.exited(time.monotonic() + linger) and self.stop_grace > 0:
                _signal(self.pid, signal.SIGTERM)  # the leader cleans up after itself
                self.exited(time.monotonic() + self.stop_grace)
            # The leader is at worst a zombie now, so its group id is still
            # ours: kill every process of the group, then reap the leader.
            try:
                os.killpg(self.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            self._reap()
        finally:
            os.close(self._in)
            self._drain_stderr_to_end(time.monotonic() + 1.0)
        return self.returncode

    def exited(self, deadline: float) -> bool:
        """Wait (without reaping) until the leader exits or `deadline`; True if it did."""
        delay = 0.0005
        while True:
            if self.returncode is not None:
                return True
            try:
                info = os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:
                return True
            if info is not None:
                return True
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            if not self._sleep_until_exit(left):  # no pidfd here: poll the status instead
                time.sleep(min(delay, left))
                delay = min(delay * 2, 0.02)

    def _sleep_until_exit(self, seconds: float) -> bool:
        """Sleep until the leader exits or `seconds` pass; False where Linux has no pidfd."""
        if self._pidfd is None:
            try:
                self._pidfd = os.pidfd_open(self.pid)
            except (AttributeError, OSError):
                self._pidfd = -1
        if self._pidfd < 0:
            return False
        waiter = select.poll()
        waiter.register(self._pidfd, select.POLLIN)
        waiter.poll(max(1, int(seconds * 1000)))
        return True

    def exit_status(self, timeout: float) -> int | None:
        """The exit status once the leader has exited (within `timeout`), else None."""
        if self.exited(time.monotonic() + timeout):
            self._reap()
        return self.returncode

    def _reap(self) -> None:
        if self.returncode is None:
            _, status = os.waitpid(self.pid, 0)
            self.returncode = os.waitstatus_to_exitcode(status)
            if self._pidfd is not None and self._pidfd >= 0:
                os.close(self._pidfd)
                self._pidfd = -1

    def _drain_stderr_to_end(self, deadline: float) -> None:
        """What the dead child left in its stderr pipe, until EOF or `deadline`."""
        poll = select.poll()
        if self._err is not None:
            poll.register(self._err, select.POLLIN)
        while self._err is not None:
            left = deadline - time.monotonic()
            if left <= 0 or not poll.poll(max(1, int(left * 1000))):
                _unwatch_stderr(self._err)
                os.close(self._err)
                self._err = None
                return
            self._drain_stderr()

    def __enter__(self) -> ChildProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _pipes(with_stderr: bool) -> tuple[tuple[int, int, int | None], tuple[int, int, int]]:
    """(our stdin-writer, stdout-reader, stderr-reader), (the child's stdin, stdout, stderr)."""
    in_read, in_write = os.pipe()
    out_read, out_write = os.pipe()
    if with_stderr:
        err_read, err_write = os.pipe()
    else:
        err_read, err_write = None, os.open(os.devnull, os.O_WRONLY | os.O_CLOEXEC)
    for fd in (in_write, out_read, err_read):
        if fd is not None:
            os.set_blocking(fd, False)
    return (in_write, out_read, err_read), (in_read, out_write, err_write)


def _watch_stderr(fd: int, child: ChildProcess) -> None:
    global _stderr_generation
    _STDERR[fd] = child
    _stderr_generation += 1


def _unwatch_stderr(fd: int) -> None:
    global _stderr_generation
    if _STDERR.pop(fd, None) is not None:
        _stderr_generation += 1


def _signal(pid: int, number: int) -> None:
    try:
        os.kill(pid, number)
    except (ProcessLookupError, PermissionError):
        pass
