"""Bounding a bot's whole process tree with a control group: one CPU, its memory, its tasks.

Resource limits (`setrlimit`) hold per process: a bot that forks gets the
limit again for each child, and a child that calls ``setsid()`` gets a
scheduling share (an autogroup) of its own.  A control group holds them all
together: every process the bot starts stays in its group (nothing in the
sandbox may write to /sys), so

* ``cpu``: the whole tree gets at most one CPU, however many processes or
  sessions it makes, and the other bot keeps the rest of the machine;
* ``memory``: the tree together stays under the bot's memory limit (past it,
  the kernel kills one of its processes, and the warden then ends the bot);
* ``pids``: the tree holds at most so many tasks (a fork bomb stops there).

Groups are made where this process may make them: under its own cgroup v2
when that cgroup can give its children the cpu, memory and pids controllers
(it has them in ``cgroup.subtree_control`` or may enable them there), else
under its own group of each cgroup v1 hierarchy (cpu, memory, pids) mounted
writable.  `available()` finds where, once per process, or says why not.

A group is made by the referee before the bot starts (`Hierarchy.make`), the
bot's first process joins it before it execs (`Group.join`), and it is
removed when the cell ends (`Group.remove`, by the warden once it has killed
everything, and again by the referee, and at exit, for a warden that was
killed).  This module imports nothing of agon's.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import itertools
import os
import signal
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path

CONTROLLERS = ("cpu", "memory", "pids")
PERIOD_US = 100_000  # the CPU bandwidth period: the quota is this much per CPU
REMOVE_WAIT = 2.0  # seconds to wait for a group's last processes to die before giving up
MOUNTINFO = "/proc/self/mountinfo"
OWN_GROUPS = "/proc/self/cgroup"


@dataclass(frozen=True)
class TreeLimits:
    """What one bot's group allows its processes together; 0 means no limit."""

    cpus: float = 1.0
    memory_bytes: int = 0
    tasks: int = 0


@dataclass(frozen=True)
class Hierarchy:
    """Where this process makes its bots' groups: one directory per hierarchy
    (cgroup v2: one for all three controllers; v1: one per controller)."""

    version: int
    bases: tuple[tuple[str, Path], ...]  # (controllers, directory), one per hierarchy

    def describe(self) -> str:
        places = ", ".join(str(base) for _, base in self.bases)
        return f"cgroup v{self.version} ({places})"

    def make(self, limits: TreeLimits) -> Group:
        """A new, empty group with `limits`; OSError when it cannot be made."""
        name = f"agon-{os.getpid()}-{next(_NUMBERS)}"
        group = Group(self.version, tuple(base / name for _, base in self.bases), os.getpid())
        _MADE.add(group)
        try:
            for directory in group.dirs:
                directory.mkdir()
            group.limit(limits)
        except OSError:
            group.remove()
            raise
        return group


_NUMBERS = itertools.count(1)


@dataclass(frozen=True)
class Group:
    """One bot's control group (a directory in each hierarchy)."""

    version: int
    dirs: tuple[Path, ...]
    maker: int  # the pid of the process that made it: only it removes it at exit

    def limit(self, limits: TreeLimits) -> None:
        """Write `limits` into the group's files (only those of the controllers it has)."""
        quota = int(limits.cpus * PERIOD_US)
        if self.version == 2:
            wanted = {"cpu.max": f"{quota} {PERIOD_US}" if quota else f"max {PERIOD_US}",
                      "memory.max": str(limits.memory_bytes or "max"),
                      "memory.swap.max": "0" if limits.memory_bytes else "max",
                      "memory.oom.group": "1",  # one process killed for memory: all are
                      "pids.max": str(limits.tasks or "max")}
        else:
            wanted = {"cpu.cfs_period_us": str(PERIOD_US),
                      "cpu.cfs_quota_us": str(quota or -1),
                      "memory.limit_in_bytes": str(limits.memory_bytes or -1),
                      "memory.memsw.limit_in_bytes": str(limits.memory_bytes or -1),
                      "pids.max": str(limits.tasks or "max")}
        for name, value in wanted.items():
            self._write(name, value)

    def _write(self, name: str, value: str) -> None:
        """Write `value` into the file `name` of whichever directory has it (swap
        files exist only where swap is counted)."""
        for directory in self.dirs:
            if (directory / name).exists():
                _write(directory / name, value)

    def join(self) -> None:
        """Put this process in the group (in the bot's process, before it execs: all it
        starts is then in the group too)."""
        for directory in self.dirs:
            _write(directory / "cgroup.procs", str(os.getpid()))

    def memory_kills(self) -> int:
        """How many of the group's processes the kernel killed for want of memory."""
        name = "memory.events" if self.version == 2 else "memory.oom_control"
        for directory in self.dirs:
            try:
                text = (directory / name).read_text()
            except OSError:
                continue
            for line in text.splitlines():
                key, _, value = line.partition(" ")
                if key == "oom_kill" and value.strip().isdigit():
                    return int(value)
        return 0

    def remove(self) -> None:
        """Kill what is left in the group and remove it (nothing left when it is gone
        already).  A process being killed keeps its group busy for a moment: the
        removal is tried again until `REMOVE_WAIT`."""
        deadline = time.monotonic() + REMOVE_WAIT
        for directory in self.dirs:
            while directory.is_dir() and not _removed(directory):
                if time.monotonic() > deadline:
                    break
                _kill_members(directory)
                time.sleep(0.01)
        if not any(directory.is_dir() for directory in self.dirs):
            _MADE.discard(self)


def _removed(directory: Path) -> bool:
    try:
        directory.rmdir()
    except FileNotFoundError:
        return True
    except OSError as exc:
        if exc.errno != errno.EBUSY:
            raise
        return False
    return True


def _kill_members(directory: Path) -> None:
    """SIGKILL every process in the group: cgroup v2's ``cgroup.kill`` where there is
    one, else each process ``cgroup.procs`` lists."""
    with contextlib.suppress(OSError):
        if (directory / "cgroup.kill").exists():
            _write(directory / "cgroup.kill", "1")
            return
    with contextlib.suppress(OSError):
        for pid in (directory / "cgroup.procs").read_text().split():
            with contextlib.suppress(OSError):
                os.kill(int(pid), signal.SIGKILL)


def _write(path: Path, value: str) -> None:
    """One write(2) of `value`, as a cgroup file wants it."""
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, value.encode())
    finally:
        os.close(fd)


_MADE: set[Group] = set()  # groups this process made and has not removed yet


def _remove_left_groups() -> None:
    """At exit: the groups of cells that were never removed (an interrupt)."""
    for group in list(_MADE):
        if group.maker == os.getpid():
            with contextlib.suppress(OSError):
                group.remove()


atexit.register(_remove_left_groups)


# -- finding where groups can be made ------------------------------------------------

@cache
def available() -> Hierarchy | str:
    """Where this process can make bots' groups, or why it cannot (tried once: a
    group is made and removed)."""
    mounts = _mounts()
    own = _own_groups()
    found = _v2(mounts, own)
    if isinstance(found, str):
        found_v1 = _v1(mounts, own)
        if isinstance(found_v1, str):
            return f"{found}; {found_v1}"
        found = found_v1
    try:
        found.make(TreeLimits(cpus=1.0, memory_bytes=64 << 20, tasks=16)).remove()
    except OSError as exc:
        return f"a group cannot be made in {found.describe()} ({exc.strerror or exc})"
    _sweep(found)
    return found


def _sweep(hierarchy: Hierarchy) -> None:
    """Remove the empty groups of referees that are gone: a referee and its warden
    both killed outright (or a group still busy when they removed it) leave one."""
    for _, base in hierarchy.bases:
        with contextlib.suppress(OSError):
            for path in base.iterdir():
                parts = path.name.split("-")
                if len(parts) == 3 and parts[0] == "agon" and parts[1].isdigit() \
                        and not _alive(int(parts[1])):
                    with contextlib.suppress(OSError):
                        path.rmdir()  # refused while a process is in it: never ours to kill


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # not ours to signal, but there
    return True


def _mounts() -> list[tuple[str, str, str, set[str]]]:
    """The cgroup mounts: (file-system type, root in the hierarchy, mount point,
    options), from mountinfo."""
    found = []
    try:
        lines = Path(MOUNTINFO).read_text().splitlines()
    except OSError:
        return []
    for line in lines:
        fields, _, after = line.partition(" - ")
        mine, theirs = fields.split(), after.split()
        if len(mine) >= 6 and len(theirs) >= 3 and theirs[0] in ("cgroup", "cgroup2"):
            options = set(mine[5].split(",")) | set(theirs[2].split(","))
            found.append((theirs[0], _unescape(mine[3]), _unescape(mine[4]), options))
    return found


def _unescape(field: str) -> str:
    """mountinfo writes spaces and such as octal escapes (\\040)."""
    return field.encode().decode("unicode_escape") if "\\" in field else field


def _own_groups() -> dict[str, str]:
    """This process's group in each hierarchy: controller (``""`` for v2) -> path."""
    own: dict[str, str] = {}
    try:
        lines = Path(OWN_GROUPS).read_text().splitlines()
    except OSError:
        return own
    for line in lines:
        _, controllers, path = line.split(":", 2)
        for controller in controllers.split(",") if controllers else [""]:
            own[controller] = path
    return own


def _directory(mount_root: str, mount_point: str, path: str) -> Path | None:
    """The directory of group `path` under a mount of the hierarchy at `mount_root`
    (None when the mount does not show it)."""
    if not (path == mount_root or path.startswith(mount_root.rstrip("/") + "/")):
        return None
    return Path(mount_point, path[len(mount_root):].lstrip("/"))


def _v2(mounts: list[tuple[str, str, str, set[str]]], own: dict[str, str]) -> Hierarchy | str:
    """Our own cgroup v2, if it can give its children the three controllers."""
    if "" not in own:
        return "cgroup v2: this process is in none"
    for kind, root, point, options in mounts:
        if kind != "cgroup2" or "ro" in options:
            continue
        directory = _directory(root, point, own[""])
        if directory is None or not os.access(directory, os.W_OK):
            continue
        return _delegated(directory)
    return "cgroup v2: its mount is missing or read-only"


def _delegated(directory: Path) -> Hierarchy | str:
    """`directory` as the base of v2 groups, once its children may have the controllers."""
    try:
        offered = set((directory / "cgroup.controllers").read_text().split())
        given = set((directory / "cgroup.subtree_control").read_text().split())
    except OSError as exc:
        return f"cgroup v2: {exc}"
    missing = [c for c in CONTROLLERS if c not in offered]
    if missing:
        return f"cgroup v2: {directory} lacks the {', '.join(missing)} controller(s)"
    wanted = [c for c in CONTROLLERS if c not in given]
    if wanted:
        try:  # refused (EBUSY) where processes live in the group itself, as we do
            _write(directory / "cgroup.subtree_control", " ".join(f"+{c}" for c in wanted))
        except OSError as exc:
            return (f"cgroup v2: {directory} cannot give its children the controllers "
                    f"({exc.strerror or exc})")
    return Hierarchy(2, ((" ".join(CONTROLLERS), directory),))


def _v1(mounts: list[tuple[str, str, str, set[str]]], own: dict[str, str]) -> Hierarchy | str:
    """Our own group in each cgroup v1 hierarchy of the three controllers."""
    bases: list[tuple[str, Path]] = []
    for controller in CONTROLLERS:
        places = [(root, point) for kind, root, point, options in mounts
                  if kind == "cgroup" and controller in options and "ro" not in options]
        directory = next((d for root, point in places if controller in own
                          for d in [_directory(root, point, own[controller])]
                          if d is not None and os.access(d, os.W_OK)), None)
        if directory is None:
            return f"cgroup v1: no writable {controller} hierarchy"
        if all(directory != base for _, base in bases):  # co-mounted controllers: one place
            bases.append((controller, directory))
    return Hierarchy(1, tuple(bases))
