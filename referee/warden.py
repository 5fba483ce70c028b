"""Starting a confined process: fork, set it up, exec; and the warden that stands over it.

`fork_exec` forks the referee, gives the child the fds it is to have as 0, 1,
2 ... (and nothing else), lets it confine itself (`prepare`, in the child), and
execs the program; an exec that fails is raised in the referee, not lost in the
child.

The warden stands between the referee and a bot (or the bubblewrap that holds
it), so that nothing the bot starts outlives it.  It is a fork of the referee
that makes itself a child subreaper, so every process the bot starts and orphans
(double forks and new sessions included) becomes its child; when the bot ends,
when the referee asks with SIGTERM, or when the referee dies (the
parent-death signal), it kills every process below it, reports the bot's peak
memory and CPU time on a pipe, and exits as the bot did.

Given a control group (`referee.cgroups`), the bot joins it before it execs,
so that its whole tree shares one CPU, one memory limit and one count of
tasks; the warden (outside the group) then also watches the group's memory:
once the kernel killed one of the bot's processes for want of memory, it
ends the whole bot, says so in its report, and removes the group at the end.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import resource
import signal
from collections.abc import Callable, Iterable, Sequence
from typing import NoReturn

from . import confine
from .cgroups import Group
from .stops import held_over_a_fork

_CHILD_SIGNALS = (signal.SIGPIPE, signal.SIGXFSZ, signal.SIGXCPU, signal.SIGINT, signal.SIGTERM)
WATCH_TICK = 0.2  # seconds between two looks at the memory of a bot's group
MEMORY_KILLED = "memory"  # the report's third word when the group ran out of memory


# What starts a failure told through the errors pipe.  Anything else there is not ours:
# Python code runs in the fork before the exec, and a tool in the referee's process
# that writes to a file descriptor it had (Python 3.12's ``-X perf`` map, at the
# number the pipe now has) would otherwise pass for a failed exec, and the referee
# would wait for a warden whose bot runs on.
EXEC_FAILED = b"agon-exec-failed:"


def fork_exec(argv: Sequence[str], env: dict[str, str], stdio: Sequence[int],
              prepare: Callable[[], None], *, report: int | None = None,
              group: Group | None = None) -> int:
    """Fork, set the child up with `prepare()`, exec `argv` with `stdio` as its fds 0, 1,
    2 ...; exec errors are raised here.

    With `report` (the write end of a pipe), the fork is a warden that runs the
    program as its own child and reports on it through that pipe (`_warden`), in
    `group` if one is given.
    """
    errors_read, errors_write = os.pipe()
    referee = os.getpid()
    with held_over_a_fork():
        pid = os.fork()
        if pid == 0:
            try:
                os.setsid()
                kept = _arrange_fds(stdio, [errors_write] if report is None
                                    else [errors_write, report])
                if report is None:
                    _become(argv, env, prepare, kept[0], referee)
                _warden(argv, env, prepare, kept[0], kept[1], referee, len(stdio), group)
            finally:
                os._exit(70)
    os.close(errors_write)
    try:
        failure = read_all(errors_read)
    finally:
        os.close(errors_read)
    _, marked, told = failure.rpartition(EXEC_FAILED)
    if marked:
        os.waitpid(pid, 0)
        code, _, message = told.decode(errors="replace").partition(":")
        raise OSError(int(code) if code.isdigit() else 0, message)
    return pid


def _arrange_fds(inherited: Sequence[int], keep: list[int]) -> list[int]:
    """In a fresh child: `inherited` at 0, 1, 2 ..., `keep` after them (close-on-exec),
    nothing else open.  Returns the new numbers of `keep`."""
    base = max(*inherited, *keep) + 1
    moved = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, base) for fd in (*inherited, *keep)]
    for target, fd in enumerate(moved):
        os.dup2(fd, target, inheritable=target < len(inherited))
    os.closerange(len(moved), _max_fd())
    return list(range(len(inherited), len(moved)))


def _max_fd() -> int:
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


def _become(argv: Sequence[str], env: dict[str, str], prepare: Callable[[], None],
            errors: int, parent: int) -> NoReturn:
    """Turn this child of `parent` into `argv`; a failure is told through `errors`."""
    try:
        for number in _CHILD_SIGNALS:
            signal.signal(number, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, [])  # a warden blocks SIGCHLD
        prepare()  # which asks for the parent-death signal first
        if os.getppid() != parent:
            raise OSError(0, "the referee died while the bot was starting")
        os.execve(argv[0], list(argv), env)
    except BaseException as exc:  # noqa: BLE001 - whatever it is, the parent must hear it
        os.write(errors, EXEC_FAILED + f"{getattr(exc, 'errno', 0) or 0}:{exc}".encode()[:1000])
    os._exit(127)


def read_all(fd: int) -> bytes:
    data = b""
    while chunk := os.read(fd, 4096):
        data += chunk
    return data


# -- the warden ----------------------------------------------------------------------------

def _warden(argv: Sequence[str], env: dict[str, str], prepare: Callable[[], None],
            errors: int, report: int, referee: int, inherited: int,
            group: Group | None) -> NoReturn:
    """Between the referee and a bot: start it (in `group`), adopt its orphans, and
    when it ends (or the referee asks with SIGTERM, or dies, or its group ran out of
    memory) kill everything it started and remove its group; then report its peak
    memory, CPU time and whether memory ran out, and exit as it did.  The bot's
    `inherited` fds are closed here once it has them, so that its pipes end when it
    does."""
    signal.signal(signal.SIGTERM, lambda *_: _kill(descendants(os.getpid())))
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    confine.die_with_parent(signal.SIGTERM)
    if os.getppid() != referee:  # the referee died before we could ask to be told
        os._exit(70)
    confine.become_subreaper()
    confine.set_limits({resource.RLIMIT_CORE: 0})
    warden = os.getpid()
    if group is not None:  # so that a child's end wakes `_await_bot` at once
        signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGCHLD])
    bot = os.fork()
    if bot == 0:
        _become(argv, env, _joining(group, prepare) if group else prepare, errors, warden)
    os.close(errors)
    null = os.open(os.devnull, os.O_RDWR)  # at the slot `errors` left, past the inherited
    for fd in range(3):
        os.dup2(null, fd)
    os.closerange(3, inherited)
    status, usage, starved = _await_bot(bot, group)
    _kill_all_descendants()
    if group is not None:
        with contextlib.suppress(OSError):
            group.remove()
    told = f"{usage.ru_maxrss} {usage.ru_utime + usage.ru_stime:.3f}"
    try:
        os.write(report, f"{told} {MEMORY_KILLED if starved else '-'}\n".encode())
    except OSError:
        pass
    _exit_like(status)


def _joining(group: Group, prepare: Callable[[], None]) -> Callable[[], None]:
    """`prepare`, after joining `group` (first: a fence may close /sys to the bot)."""
    def join_then_prepare() -> None:
        group.join()
        prepare()
    return join_then_prepare


def _await_bot(bot: int, group: Group | None) -> tuple[int, resource.struct_rusage, bool]:
    """Reap orphans as they come until the bot ends: its status, its usage, and
    whether its group ran out of memory.

    The kernel kills one process of a group past its memory limit (cgroup v1
    kills no more): the bot, maybe, or a child it may live on without.  The
    memory limit is the whole tree's, so the warden looks at the group every
    `WATCH_TICK` and, after such a kill, ends the whole bot."""
    if group is None:
        while True:
            pid, status, usage = os.wait4(-1, 0)
            if pid == bot:
                return status, usage, False
    starved = False
    while True:
        pid, status, usage = os.wait4(-1, os.WNOHANG)
        if pid == bot:
            return status, usage, starved or group.memory_kills() > 0
        if pid:
            continue
        if not starved and group.memory_kills() > 0:
            starved = True
            _kill(descendants(os.getpid()))
        signal.sigtimedwait([signal.SIGCHLD], WATCH_TICK)


def descendants(root: int) -> list[int]:
    """Every living process below `root`, from /proc (none where there is no /proc)."""
    children: dict[int, list[int]] = {}
    for entry in proc_entries():
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/stat", "rb") as stat:
                    parent = int(stat.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        below = children.get(todo.pop(), [])
        found += below
        todo += below
    return found


_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100  # /proc's time unit


def tree_cpu_seconds(root: int) -> float | None:
    """CPU seconds used so far by the processes below `root`: those alive, and those
    reaped by `root` or by one of them.  From /proc (a few small files per process);
    None where there is no /proc or `root` is gone."""
    try:
        ticks = _cpu_ticks(root)[1]
    except (OSError, ValueError, IndexError):
        return None
    todo = _children(root)
    while todo:
        pid = todo.pop()
        try:
            own, reaped = _cpu_ticks(pid)
        except (OSError, ValueError, IndexError):
            continue  # it ended meanwhile: its time went to its parent's count
        ticks += own + reaped
        todo += _children(pid)
    return ticks / _TICKS


def _cpu_ticks(pid: int) -> tuple[int, int]:
    """A process's own CPU time (all its threads) and its reaped children's, in ticks."""
    with open(f"/proc/{pid}/stat", "rb") as stat:
        fields = stat.read().rsplit(b")", 1)[1].split()
    return int(fields[11]) + int(fields[12]), int(fields[13]) + int(fields[14])


def _children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        for thread in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{thread}/children", "rb") as listed:
                found += map(int, listed.read().split())
    except (OSError, ValueError):
        pass
    return found


def proc_entries() -> list[os.DirEntry]:
    try:
        return list(os.scandir("/proc"))
    except OSError:
        return []


def _kill(pids: Iterable[int]) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def _kill_all_descendants() -> None:
    """Kill and reap until no child is left: orphans come to us, so then none lives."""
    try:
        while True:
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass  # reap the dead; ChildProcessError once there is no child at all
            _kill(descendants(os.getpid()))
            os.waitpid(-1, 0)
    except ChildProcessError:
        return


def _exit_like(status: int) -> NoReturn:
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        if number not in (signal.SIGKILL, signal.SIGSTOP):
            signal.signal(number, signal.SIG_DFL)
        os.kill(os.getpid(), number)
        os._exit(128 + number)
    os._exit(os.waitstatus_to_exitcode(status))
