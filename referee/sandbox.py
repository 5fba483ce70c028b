"""How a bot process is isolated: its directory, environment, limits, and bubblewrap.

Every bot program runs in a `Cell`: its own empty working directory (HOME and
TMPDIR point there), an environment of PATH, HOME, LANG, TMPDIR and what the
user passes with ``--bot-env``, resource limits (`Sandbox`: address space,
CPU seconds, file size, open files, processes), no capabilities, no new
privileges, and a parent-death signal, so that it dies with the referee.
It runs below a warden (`referee.warden`, a fork of the referee) that adopts
every process the bot orphans, and kills them all when the bot ends, when
the referee asks, or when the referee dies.  Two ways to build the walls,
chosen by `Sandbox.mode`:

``bwrap``
    bubblewrap gives the bot new PID, IPC, UTS, cgroup and network (unless
    ``--bot-network``) namespaces, a read-only view of the system without the
    home directories, /run or the user's agon data, a private /tmp and
    /dev/shm, and its own directory.  The bot is PID 1 of its namespace: when
    it ends, the kernel ends everything it started.
``none``
    no namespaces: the warden alone ends what the bot started.  Where the
    kernel has Landlock, the bot sees the same files as under bubblewrap,
    cannot use TCP unless allowed, and (Landlock 6+) cannot signal processes
    outside its fence; it can never trace them.  Unless allowed, a seccomp
    filter (x86_64, aarch64) refuses it every socket but Unix ones (UDP too);
    another refuses it System V IPC, POSIX message queues and keyrings, which
    every process of the user shares.

``auto`` takes bwrap when bubblewrap is installed and works here (tried once
per process), else none, and says so once.

Under both, where the machine lets the referee make control groups
(`referee.cgroups`), each bot's whole tree of processes also gets a group of
its own: one CPU, the memory limit and the process limit hold for all its
processes together.  Where it does not, the limits hold per process only,
and the referee says so once.  docs/protocol.md ("What a bot may do") is the
user's account of all this.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import os
import resource
import shutil
import signal
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from pathlib import Path

from . import cgroups, confine
from .warden import MEMORY_KILLED, fork_exec, proc_entries, read_all, tree_cpu_seconds

MODES = ("auto", "bwrap", "none")
PRIVATE = ("/tmp", "/var/tmp", "/run", "/dev/shm")  # never the host's: empty, or not there
DEVICES = ("null", "zero", "full", "random", "urandom", "tty")  # what a bot may open in /dev
STOP_GRACE = 2.0  # seconds a warden has to kill its bot's processes when asked
LASTING_CPU_GAMES = 2  # a bot that plays game after game may use this many games' CPU time
CPUS = os.cpu_count() or 1  # the most CPU seconds a bot's processes can use per second
MEMORY_NEAR_LIMIT = 0.8  # a crash at this share of the memory limit is blamed on the limit
MEMORY_WORDS = (b"MemoryError", b"Cannot allocate memory", b"bad_alloc", b"out of memory",
                b"Out of memory")


class SandboxError(Exception):
    """A sandbox that cannot be set up as asked; the message says why."""


# -- the policy -------------------------------------------------------------------

TREE_CPUS = 1.0  # CPUs a bot's whole tree of processes may use at once (with cgroups)

LIMITS = {  # --bot-limit NAME=VALUE: field, unit, meaning
    "memory": ("memory_mb", "MB", "address space of each bot process, and with cgroups "
                                  "the memory of all its processes together"),
    "cpu": ("cpu_seconds", "s", "CPU seconds of each bot process (default: twice the game "
                                "clock plus 10 s)"),
    "file-size": ("file_mb", "MB", "largest file a bot may write"),
    "open-files": ("open_files", "", "files a bot process may hold open"),
    "processes": ("processes", "", "processes and threads a bot may add to those the user "
                                   "already runs (not enforced for root), and with cgroups "
                                   "the tasks of its whole tree"),
}
# the most each limit may be: beyond, the kernel refuses it (a C long of bytes, the most
# open files or tasks Linux allows), and the bot would forfeit for the organiser's typo
LIMIT_MOST = {"memory": 1 << 30, "cpu": 1 << 31, "file-size": 1 << 30,
              "open-files": 1 << 20, "processes": 1 << 22}


@dataclass(frozen=True)
class Sandbox:
    """How bot programs are isolated; 0 for a limit means none."""

    mode: str = "auto"
    memory_mb: int = 2048
    cpu_seconds: int | None = None  # None: from the game clock
    file_mb: int = 64
    open_files: int = 1024
    processes: int = 256
    network: bool = False
    env: tuple[tuple[str, str], ...] = ()  # --bot-env
    hidden: tuple[str, ...] = ()  # more paths no bot may read (logs, journals)

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise SandboxError(f"--sandbox takes {', '.join(MODES)}, not {self.mode!r}")
        for name, (field, _, _) in LIMITS.items():
            value = getattr(self, field)
            if value is not None and (not isinstance(value, int)
                                      or not 0 <= value <= LIMIT_MOST[name]):
                raise SandboxError(f"the {name} limit must be a whole number from 0 to "
                                   f"{LIMIT_MOST[name]:,}, not {value!r}")

    def with_limits(self, limits: dict[str, str]) -> Sandbox:
        """A copy with ``--bot-limit`` values (NAME -> text) applied."""
        changes = {}
        for name, text in limits.items():
            if name not in LIMITS:
                raise SandboxError(f"unknown bot limit {name!r} (limits: {', '.join(LIMITS)})")
            try:
                changes[LIMITS[name][0]] = int(text)
            except ValueError:
                raise SandboxError(f"the {name} limit takes a whole number, not {text!r}") from None
        return replace(self, **changes)

    def hiding(self, *paths: str | Path | None) -> Sandbox:
        """A copy that also keeps `paths` from every bot: each as named and, when a
        symbolic link leads elsewhere (``--out link.jsonl``), the file it leads to,
        which a bot could read by that name."""
        hidden = list(self.hidden)
        named = [p for p in paths if p]
        for path in dict.fromkeys([*map(os.path.abspath, named), *map(os.path.realpath, named)]):
            if not _inside(path, hidden):
                hidden.append(path)
        return replace(self, hidden=tuple(hidden))

    def resolved(self) -> Sandbox:
        """`auto` made concrete: bwrap where it works, else none (said once on stderr).

        The folder of bot directories is made here too, so that the process that
        resolves (a tournament's, before it forks its workers) also removes it.
        """
        _cells_root()
        _say_if_no_cgroups()
        problem = bwrap_problem() if self.mode != "none" else None
        if self.mode == "bwrap" and problem:
            raise SandboxError(f"--sandbox bwrap: {problem}")
        if self.mode != "auto":
            return self
        if problem is None:
            return replace(self, mode="bwrap")
        fence = "Landlock" if confine.landlock_abi() else "no file-system fence: Linux lacks Landlock"
        sockets = ("network allowed" if self.network else "no sockets (socketpair only)"
                   if confine.socket_filter_machine() else
                   "UDP, raw and Unix sockets open: no socket filter for this machine")
        say_once(f"agon: {problem}; bots run without namespaces (own directory, limits, "
                 f"warden; {fence}; {sockets}). See docs/protocol.md.")
        return replace(self, mode="none")

    def cpu_limit(self, game_seconds: float) -> int:
        if self.cpu_seconds is not None:
            return self.cpu_seconds
        return int(2 * game_seconds + 10)

    def rlimits(self, game_seconds: float, lasting: bool = False) -> dict[int, int]:
        """The resource limits of a bot process (0 values left unlimited).

        The kernel counts a process's CPU time over its whole life: a `lasting`
        bot (one process for game after game) gets `LASTING_CPU_GAMES` games'
        worth, and `Cell.room_for_a_game` restarts it before a game could find
        less than one game's worth left.
        """
        limits = {resource.RLIMIT_CORE: 0}
        cpu = self.cpu_limit(game_seconds) * (LASTING_CPU_GAMES if lasting else 1)
        wanted = {resource.RLIMIT_AS: self.memory_mb << 20,
                  resource.RLIMIT_CPU: cpu,
                  resource.RLIMIT_FSIZE: self.file_mb << 20,
                  resource.RLIMIT_NOFILE: self.open_files}
        if self.processes and os.geteuid() != 0:  # the kernel never counts root's processes
            wanted[resource.RLIMIT_NPROC] = _tasks_of_user() + self.processes
        limits.update({which: value for which, value in wanted.items() if value})
        return limits

    def tree_limits(self) -> cgroups.TreeLimits:
        """What a bot's control group allows all its processes together."""
        return cgroups.TreeLimits(cpus=TREE_CPUS, memory_bytes=self.memory_mb << 20,
                                  tasks=self.processes)


def tree_groups() -> cgroups.Hierarchy | None:
    """Where bots' control groups are made here, or None: limits per process only."""
    found = cgroups.available()
    return found if isinstance(found, cgroups.Hierarchy) else None


def _say_if_no_cgroups() -> None:
    found = cgroups.available()
    if isinstance(found, str):
        say_once(f"agon: no control groups for bots ({found}): their limits hold per process, "
                 f"not for each bot's processes together. See docs/protocol.md.")


def shield_referee(secret_options: Iterable[str] = ("--seed", "--bot-env")) -> None:
    """Keep the referee's secrets from bots of the same user: its command line shows
    ``*`` for the values of `secret_options` (the seed; what bots get in their
    environment is for them only), and its memory, fds and environment are closed
    to processes without CAP_SYS_PTRACE (which bots never have)."""
    confine.non_dumpable()
    confine.conceal_arguments(secret_options)


_said: set[str] = set()


def say_once(text: str) -> None:
    """A notice on stderr, once per process (the sandbox's mode, a folder that is full)."""
    if text not in _said:
        _said.add(text)
        print(text, file=sys.stderr, flush=True)


@cache
def bwrap_problem() -> str | None:
    """Why bubblewrap cannot be used here, or None when it works (tried once, as a bot
    would be started)."""
    if shutil.which("bwrap") is None:
        return "bubblewrap (bwrap) is not installed"
    sandbox = Sandbox(mode="bwrap")
    with tempfile.TemporaryDirectory(prefix="agon-bwrap-probe-") as scratch:
        null = os.open(os.devnull, os.O_RDWR)
        err_read, err_write = os.pipe()
        try:
            command, fds, prepare = _under_bwrap(
                sandbox, Path(scratch), [shutil.which("true") or "/bin/true"],
                (null, null, err_write), null, sandbox.rlimits(60))
            pid = fork_exec(command, _base_env(scratch), fds, prepare)
        except OSError as exc:
            return f"bubblewrap does not work here ({exc})"
        finally:
            os.close(null)
            os.close(err_write)
            said = read_all(err_read).decode(errors="replace").strip().splitlines()
            os.close(err_read)
        status = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    if status != 0:
        return f"bubblewrap does not work here ({said[-1] if said else f'status {status}'})"
    return None


# -- what a bot may see -------------------------------------------------------------

def _homes() -> list[str]:
    homes = {str(Path.home()), "/root", "/home"} - {"/"}
    return sorted(home for home in homes if os.path.isdir(home))


def data_dir() -> Path:
    """The user's agon data (the referee's signing key lives there)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base).absolute() / "agon"


_CELLS: list[Path] = []  # this process's directory of bot directories


def _cells_root() -> Path:
    if not _CELLS or not _CELLS[0].is_dir():
        _CELLS[:] = [Path(tempfile.mkdtemp(prefix="agon-bots-"))]
        atexit.register(remove_tree, _CELLS[0])
    return _CELLS[0]


def remove_tree(top: Path) -> None:
    """Remove `top` and all in it, as far as possible, whatever a bot left there.

    A bot may leave a nest of folders deeper than Python's recursion limit,
    which makes `shutil.rmtree` raise RecursionError (Python 3.11), ignored
    errors or not.  Then each pass moves the contents of every folder of `top`
    up into `top` and removes the emptied folder: the paths stay short and
    nothing recurses.  Runs once the bot's processes are gone (no one swaps a
    folder for a link meanwhile); links are removed, never followed.
    """
    try:
        shutil.rmtree(top, onerror=_give_back)
        return
    except RecursionError:
        pass
    names = itertools.count()
    while True:
        try:
            entries = list(os.scandir(top))
        except OSError:
            return
        changed = False
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    os.chmod(entry.path, 0o700)   # a real folder (links are not followed)
                    for inner in list(os.scandir(entry.path)):
                        os.rename(inner.path, top / f".agon-up-{next(names)}")
                        changed = True
                    os.rmdir(entry.path)
                else:
                    os.unlink(entry.path)
                changed = True
            except OSError:
                continue
        if not changed:   # empty, or nothing more can go
            with contextlib.suppress(OSError):
                top.rmdir()
            return


def _give_back(_call: Callable, path: str, _error: object) -> None:
    """`shutil.rmtree`'s error handler: a folder the bot made unreadable or unwritable
    (chmod 000: its owner, our user unless root, could neither list nor empty it) is
    made ours again, then removed.  Only real folders are changed, never a link's
    target (the bot is gone: nothing swaps them meanwhile)."""
    changed = False
    for folder in (os.path.dirname(path), path):
        with contextlib.suppress(OSError):
            mode = os.lstat(folder).st_mode
            if stat.S_ISDIR(mode) and stat.S_IMODE(mode) & 0o700 != 0o700:
                os.chmod(folder, 0o700)
                changed = True
    if not changed:   # nothing more we can do about it
        return
    with contextlib.suppress(OSError):
        if stat.S_ISDIR(os.lstat(path).st_mode):
            shutil.rmtree(path, onerror=_give_back)
        else:
            os.unlink(path)


def _inside(path: str, areas: Iterable[str]) -> bool:
    return any(path == area or path.startswith(area.rstrip("/") + "/") for area in areas)


@dataclass(frozen=True)
class View:
    """What a bot may see of the machine: everything read-only, but

    `concealed` (home directories and the host's shared scratch areas), except
    `exposed` (what the bot needs that lies there: its program, its files,
    Python and agon), and never `secrets` (the user's agon data, every bot's
    directory, logs and journals), wherever they lie.
    """

    concealed: tuple[str, ...]
    exposed: tuple[str, ...]
    secrets: tuple[str, ...]


@lru_cache(maxsize=64)
def view_for(sandbox: Sandbox, argv: tuple[str, ...], cells: str) -> View:
    """The view of a bot run as `argv` (cached: a tournament starts the same bots often)."""
    data = data_dir()
    concealed = _and_real(*_homes(), *PRIVATE)
    if not _inside(str(data), concealed):
        data.mkdir(parents=True, exist_ok=True, mode=0o700)  # so that it can be fenced off now
    secrets = _and_real(str(data), cells, *sandbox.hidden)
    exposed = tuple(p for p in _and_real(*_needed(argv))
                    if _inside(p, concealed) and not _inside(p, secrets))
    return View(concealed, exposed, secrets)


def _and_real(*paths: str) -> tuple[str, ...]:
    """`paths`, each followed by its real path when a symbolic link leads there: a home
    reached through a link (``/home -> /var/home``, ``~ -> /data/me``) is read by its
    real path too, which a fence around the link's name would leave open."""
    return tuple(dict.fromkeys(q for p in paths for q in (p, os.path.realpath(p))))


def _needed(argv: Sequence[str]) -> list[str]:
    """The paths a bot needs: its program's installation, its file arguments, Python, agon."""
    needed = {sys.prefix, sys.base_prefix, str(Path(__file__).resolve().parent.parent)}
    for program in (argv[0], sys.executable):
        needed |= {_prefix(os.path.abspath(program)), _prefix(os.path.realpath(program))}
    for arg in argv[1:]:
        if not arg.startswith("-") and os.path.exists(arg):
            path = os.path.abspath(arg)
            needed.add(path if os.path.isdir(path) else os.path.dirname(path))
    return sorted(needed)


def _prefix(program: str) -> str:
    """The installation a program belongs to: `prefix` for `prefix/bin/program`."""
    folder = os.path.dirname(program)
    return os.path.dirname(folder) if os.path.basename(folder) == "bin" else folder


def _readable(top: str, hidden: Sequence[str], unlisted: Sequence[str] = ()
              ) -> list[tuple[str, int]]:
    """Landlock read rules for `top` and everything below it but `hidden`: the fewest whole
    subtrees, and each folder split around a hidden file listable (names only: Python
    imports a module beside a bot by listing its folder), unless one of `unlisted` lies
    in it, since the right to list reaches every folder below, hidden ones too."""
    inside = [h for h in hidden if _inside(h, [top])]
    if not inside:
        return [(top, confine.READ)]
    if top in inside or os.path.islink(top) or not os.path.isdir(top):
        return []
    try:
        children = sorted(entry.path for entry in os.scandir(top) if not entry.is_symlink())
    except OSError:
        return []
    listed = [] if any(_inside(u, [top]) for u in unlisted) else [(top, confine.READ_DIR)]
    return listed + [rule for child in children for rule in _readable(child, inside, unlisted)]


# -- bubblewrap ---------------------------------------------------------------------

MASK_SIZE = 1 << 20  # bytes of each empty tmpfs laid over a hidden directory


@lru_cache(maxsize=64)
def _bwrap_options(sandbox: Sandbox, argv: tuple[str, ...], cells: str) -> tuple[str, ...]:
    """bwrap's options but the bot's own directory: the system read-only, hidden areas
    covered, private /tmp and /dev/shm, what the bot needs, secrets covered again."""
    view = view_for(sandbox, argv, cells)
    scratch = _scratch_bytes(sandbox)
    options = ["--unshare-all", "--die-with-parent", "--new-session", "--as-pid-1",
               "--cap-drop", "ALL", "--ro-bind", "/", "/"]
    if sandbox.network:
        options.append("--share-net")
    replaced = ("/tmp", "/dev", "/proc")
    masked = [p for p in (*view.concealed, *view.secrets)
              if not _inside(p, replaced) and not _via_link(p, view)]
    options += _masks(masked)
    options += ["--proc", "/proc", "--dev", "/dev", "--size", scratch, "--tmpfs", "/dev/shm",
                "--size", scratch, "--tmpfs", "/tmp"]
    for path in view.exposed:
        if not _via_link(path, view):
            options += ["--ro-bind", path, path]
    options += _masks(p for p in view.secrets if _inside(p, view.exposed)
                      and not _via_link(p, view))
    return tuple(options)


def _bwrap_command(program: str, sandbox: Sandbox, workdir: Path, argv: Sequence[str]
                   ) -> list[str]:
    """bwrap's command line for `argv` with `workdir` as its own directory.

    Inside, that directory is a memory file system of `file_mb` in all, like its /tmp
    (`file_mb` caps each file, not their number: on the disk a bot could fill it), with
    the files it was given (`Cell.put`) laid in read-only.
    """
    options = _bwrap_options(sandbox, tuple(argv), str(_cells_root()))
    own = str(workdir)
    given: list[str] = []
    for entry in sorted(os.listdir(own)):
        given += ["--ro-bind", os.path.join(own, entry), os.path.join(own, entry)]
    return [program, *options, "--size", _scratch_bytes(sandbox), "--tmpfs", own,
            *given, "--chdir", own, "--", *argv]


def _scratch_bytes(sandbox: Sandbox) -> str:
    """The size of each memory file system a bot writes in (its directory, /tmp,
    /dev/shm): `file_mb`, as bwrap's --size takes it."""
    return str(max(sandbox.file_mb, 1) << 20)


def _via_link(path: str, view: View) -> bool:
    """Whether `path` leads through a symbolic link that stays in the sandbox: one not
    under a concealed area (which bwrap lays an empty file system over), or under an
    exposed path (mounted again, links and all).  bwrap cannot mount there; the view
    holds the link's real path too (`_and_real`), mounted instead, which the link then
    leads to."""
    parts = path.split("/")
    for end in range(2, len(parts) + 1):
        prefix = "/".join(parts[:end])
        if os.path.islink(prefix):
            covered = _below(prefix, view.concealed)
            return not covered or _below(prefix, view.exposed)
    return False


def _below(path: str, areas: Iterable[str]) -> bool:
    """Whether `path` lies inside one of `areas`, not at its top."""
    return any(path != area and _inside(path, [area]) for area in areas)


def _masks(paths: Iterable[str]) -> list[str]:
    """bwrap options that cover each existing path with something empty."""
    out: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            out += ["--size", str(MASK_SIZE), "--tmpfs", path]
        elif os.path.exists(path):
            out += ["--ro-bind", "/dev/null", path]
    return out


# -- one bot's cell -------------------------------------------------------------------

@dataclass
class Usage:
    """What a bot process used, as its parent saw it when it was reaped."""

    peak_mb: float
    cpu_seconds: float
    memory_killed: bool = False  # its control group ran out of memory


class Cell:
    """Where one bot program runs: its directory, its limits, its start and its end."""

    def __init__(self, sandbox: Sandbox, *, label: str, game_seconds: float,
                 lasting: bool = False) -> None:
        self.sandbox = sandbox.resolved()
        self.game_cpu = self.sandbox.cpu_limit(game_seconds)  # one game's CPU seconds
        self.rlimits = self.sandbox.rlimits(game_seconds, lasting)
        name = "".join(c if c.isalnum() or c in "-_." else "_" for c in label) or "bot"
        self.dir = Path(tempfile.mkdtemp(prefix=f"{name}-", dir=_cells_root()))
        self._report: int | None = None  # the warden's report of its bot's usage
        self._group: cgroups.Group | None = None  # the bot's control group, if any
        # (when, CPU seconds the bot's processes had used by then), for room_for_a_game
        self._cpu_known: tuple[float, float] | None = None

    stop_grace = STOP_GRACE  # seconds the warden has after SIGTERM to kill the bot's processes

    def put(self, name: str, data: bytes) -> None:
        """A file for the bot to read in its own directory.

        The bot may have left anything under `name` (a lasting bot is given its
        files again before each game): a symbolic link to a file of ours must not
        be written through.  So the data goes into a new file (O_EXCL follows no
        link), which then takes the name's place: a rename replaces a link, it
        never follows it.  OSError when the name cannot be taken (a directory).
        """
        handle, temporary = tempfile.mkstemp(prefix=".agon-", dir=self.dir)
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(data)
            os.replace(temporary, self.dir / name)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise

    def environment(self) -> dict[str, str]:
        return {**_base_env(str(self.dir)), **dict(self.sandbox.env)}

    def spawn(self, argv: Sequence[str], stdio: tuple[int, int, int]) -> int:
        """Start `argv` confined, below a warden; the warden's pid, to wait for.

        The warden is there under bwrap too: bwrap's own process, killed at a
        bad moment, can orphan a half-made sandbox, which the warden adopts
        and kills like any other process the bot left.
        """
        confine.non_dumpable()  # bots of our user cannot read our memory, fds or environment
        argv = _command(argv)
        self._remove_group()
        self._group = self._new_group()
        null = os.open(os.devnull, os.O_RDWR | os.O_CLOEXEC)
        no_sockets = _socket_filter_file(self.sandbox) if self.sandbox.mode == "bwrap" else None
        report_read, report_write = os.pipe()
        try:
            if self.sandbox.mode == "bwrap":
                program, fds, prepare = _under_bwrap(self.sandbox, self.dir, argv, stdio, null,
                                                     self.rlimits, no_sockets)
            else:
                program, fds, prepare = argv, stdio, self._fenced(argv)
            pid = fork_exec(program, self.environment(), fds, prepare, report=report_write,
                            group=self._group)
        except BaseException:
            os.close(report_read)
            self._remove_group()
            raise
        finally:
            os.close(report_write)
            os.close(null)
            if no_sockets is not None:
                os.close(no_sockets)
        self._report = report_read
        self._cpu_known = (time.monotonic(), 0.0)
        return pid

    def _new_group(self) -> cgroups.Group | None:
        """A control group for the bot's tree, where the machine allows it."""
        hierarchy = tree_groups()
        return hierarchy.make(self.sandbox.tree_limits()) if hierarchy else None

    def _remove_group(self) -> None:
        """Remove the bot's group: its warden did, unless it was killed first."""
        if self._group is not None:
            with contextlib.suppress(OSError):
                self._group.remove()
            self._group = None

    def _fenced(self, argv: Sequence[str]) -> Callable[[], None]:
        """What the bot's process does just before it runs, without bubblewrap."""
        readable, devices = _fence(self.sandbox, tuple(argv), str(_cells_root()))

        def prepare() -> None:
            confine.die_with_parent(signal.SIGKILL)
            os.chdir(self.dir)
            confine.set_limits(self.rlimits)
            confine.landlock(readable, [str(self.dir)], devices, network=self.sandbox.network)
            if not self.sandbox.network:
                confine.no_sockets()  # Landlock fences TCP only: not UDP, raw or Unix sockets
            confine.no_shared_ipc()  # nor what is named by number: System V IPC, keyrings
            confine.drop_capabilities()
            confine.no_new_privileges()
        return prepare

    def killed_by(self, status: int) -> int | None:
        """The signal that ended the bot, from its exit status (bwrap reports 128 + N)."""
        if status < 0:
            return -status
        if self.sandbox.mode == "bwrap" and 128 < status < 128 + signal.NSIG:
            return status - 128
        return None

    def usage(self) -> Usage | None:
        """The bot's peak memory and CPU time, as its warden reported them when it ended."""
        if self._report is None:
            return None
        try:
            words = os.read(self._report, 200).split()
            return Usage(int(words[0]) / 1024, float(words[1]),
                         words[2:3] == [MEMORY_KILLED.encode()])
        except (OSError, ValueError, IndexError):
            return None

    def verdict(self, usage: Usage | None, stderr_tail: bytes) -> str | None:
        """Which limit a bot that died hit, in words, or None."""
        memory, cpu = self.sandbox.memory_mb, self.rlimits.get(resource.RLIMIT_CPU)
        if usage is not None and usage.memory_killed:
            return (f"it ran out of memory under its memory limit ({memory} MB, for all its "
                    f"processes together)")
        if usage is not None and memory and usage.peak_mb >= MEMORY_NEAR_LIMIT * memory:
            return f"it hit its memory limit ({memory} MB; peak {usage.peak_mb:.0f} MB)"
        if memory and any(word in stderr_tail for word in MEMORY_WORDS):
            return f"it ran out of memory under its memory limit ({memory} MB)"
        if usage is not None and cpu and usage.cpu_seconds >= cpu - 0.5:
            return f"it used up its CPU time limit ({cpu} s)"
        return None

    def room_for_a_game(self, warden: int) -> bool:
        """Whether the bot below `warden` has a whole game's CPU time left under its
        limit (its processes' time so far, from /proc; no /proc: it has not).

        /proc is read only when the answer could be no: since the last reading (or
        the start), its processes cannot have used more CPU seconds than the seconds
        passed times the CPUs of the machine."""
        cap = self.rlimits.get(resource.RLIMIT_CPU)
        if not cap:
            return True
        now = time.monotonic()
        if self._cpu_known is not None:
            when, used = self._cpu_known
            if used + (now - when) * CPUS + self.game_cpu <= cap:
                return True
        used = tree_cpu_seconds(warden)
        if used is None:
            return False
        self._cpu_known = (now, used)
        return used + self.game_cpu <= cap

    def remove(self) -> None:
        if self._report is not None:
            os.close(self._report)
            self._report = None
        self._remove_group()
        remove_tree(self.dir)


def _command(argv: Sequence[str]) -> list[str]:
    """`argv` with its program found on PATH and its relative file arguments made
    absolute, since the bot runs in its own directory."""
    program = argv[0]
    found = program if os.sep in program else shutil.which(program, path=_base_env("")["PATH"])
    if found is None or os.path.isdir(found) or not os.access(found, os.X_OK):
        raise FileNotFoundError(2, f"no such program: {program}")
    rest = [str(Path(arg).absolute()) if not arg.startswith("-") and not os.path.isabs(arg)
            and os.path.exists(arg) else arg for arg in argv[1:]]
    return [str(Path(found).absolute()), *rest]


# bwrap's own process keeps its stdin, stdout and stderr open for the bot's whole life (it
# closes only the others): the bot's pipes reach it as fds 3, 4, 5, which this shell, PID 1
# in the sandbox, moves to 0, 1, 2 before it becomes the bot.  So a bot that closes its
# stdout is seen to, at once.  bwrap's own stderr is the bot's (its complaints are logged).
_STDIO_SHIM = ["/bin/sh", "-c", 'exec 0<&3 1>&4 2>&5 3<&- 4>&- 5>&- && exec "$@"', "agon-bot"]


def _under_bwrap(sandbox: Sandbox, workdir: Path, argv: Sequence[str],
                 stdio: tuple[int, int, int], null: int, rlimits: dict[int, int],
                 no_sockets: int | None = None
                 ) -> tuple[list[str], tuple[int, ...], Callable[[], None]]:
    """How to run `argv` under bubblewrap: bwrap's command, its fds, and what its process
    does before it runs (the limits, which the bot inherits).  `no_sockets`: a file
    holding the socket filter, which bwrap loads just before it runs the bot."""
    def prepare() -> None:
        confine.die_with_parent(signal.SIGKILL)
        confine.set_limits(rlimits)
        confine.no_new_privileges()

    bwrap = shutil.which("bwrap") or "bwrap"
    command = _bwrap_command(bwrap, sandbox, workdir, [*_STDIO_SHIM, *argv])
    fds = (null, null, stdio[2], *stdio)
    if no_sockets is not None:
        fds += (no_sockets,)
        command[1:1] = ["--seccomp", str(len(fds) - 1)]
    return command, fds, prepare


def _socket_filter_file(sandbox: Sandbox) -> int | None:
    """A file holding the filter that refuses socket() (`confine.no_sockets`), for
    bwrap's --seccomp: its own network namespace keeps a bot off the network, not off
    a Unix socket reached by its path (a daemon's, in the read-only system).  None
    when the bot may use the network or the machine has no filter."""
    code = None if sandbox.network else confine.socket_filter_code()
    if code is None:
        return None
    fd = os.memfd_create("agon-no-sockets", os.MFD_CLOEXEC)
    os.write(fd, code)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


@lru_cache(maxsize=64)
def _fence(sandbox: Sandbox, argv: tuple[str, ...], cells: str
           ) -> tuple[list[tuple[str, int]], list[str]]:
    """What Landlock lets a bot read (all but the concealed areas and /dev, plus what it
    needs there, never the secrets), and the devices it may use (those bwrap gives)."""
    view = view_for(sandbox, argv, cells)
    # hidden folders (or paths not made yet: a log folder) must not be listed: the names
    # there tell of other seats, and bots could write names for each other to read
    unlisted = [path for path in view.secrets if not os.path.isfile(path)]
    readable = _readable("/", [*view.concealed, "/dev", *view.secrets],
                         [*view.concealed, "/dev", *unlisted])
    for path in view.exposed:
        readable += _readable(path, view.secrets, unlisted)
    return readable, [f"/dev/{name}" for name in DEVICES]


def _base_env(home: str) -> dict[str, str]:
    return {"PATH": os.environ.get("PATH") or "/usr/local/bin:/usr/bin:/bin",
            "HOME": home, "TMPDIR": home, "LANG": os.environ.get("LANG") or "C.UTF-8"}


def _tasks_of_user() -> int:
    """Processes and threads this user runs now (what RLIMIT_NPROC counts)."""
    uid, count = os.getuid(), 0
    for entry in proc_entries():
        try:
            if entry.name.isdigit() and entry.stat().st_uid == uid:
                count += len(os.listdir(f"/proc/{entry.name}/task"))
        except OSError:
            continue
    return count
