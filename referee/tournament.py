"""Round-robin tournaments: pairings, seat rotation, seeds, executors, journal.

The schedule (``make_plan``) is a pure function of the seats, the entrants,
the number of seeds and the master seed, so the same command always plans the
same games under the same keys:

* **Seeds.** Seed ``i`` of a tournament with master seed ``S`` is the first 31
  bits of ``sha256("agon-tournament:S:i")``.  Every game with seed index
  ``i`` uses that seed, whoever plays it: the duplicate format.
* **Two or more seats.** Every combination of P entrants out of the field
  plays, on every seed, every seat assignment: all permutations when P <= 4
  (2 for a duel, 6 for three players, 24 for four, so that in team games
  every partnership meets every other), the P cyclic rotations when P >= 5
  (each entrant sits in each seat exactly once; a balanced subset of the P!
  permutations).  ``--games N`` is the number of seeds, so a duel pairing
  plays 2N games.
* **Solo.** Every entrant plays the same N seeds against the game itself.

Games run in worker processes (``concurrent.futures``); each worker has its
own engine (inherited when forked, else loaded once) and builds the players
of every game it plays.  A game that raises becomes an error row, never a
crashed tournament.  The journal (``--out``) is JSON lines: one header line
describing the tournament, then one line per finished game, flushed as soon as
the game ends.  ``--resume`` reads it back, skips the games it holds (a game
that ended in an error is played again) and appends the rest; since results
are aggregated in schedule order, a resumed tournament prints exactly the
table an uninterrupted one would.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import multiprocessing
import os
import re
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from agon.bots import BUILTIN

from . import confine
from .players import Limits
from .rng import stream
from .ruleset import Ruleset, load_ruleset
from .sandbox import Sandbox

JOURNAL_FORMAT = "agon-tournament/1"
FULL_PERMUTATIONS_UP_TO = 4  # seats; above this the cyclic rotations are played
NAME_PATTERN = re.compile(r"^[A-Za-z0-9_.+-]{1,40}$")
_ENGINES: dict[str, Any] = {}  # per process: ruleset ref -> engine, reused game after game


class TournamentError(Exception):
    """A tournament that cannot run as asked; the message says why."""


# -- entrants and the schedule -----------------------------------------------

@dataclass(frozen=True)
class Entrant:
    """One bot in the field: the name it is listed under and how to start it."""

    name: str
    spec: str


def parse_entrant(text: str) -> Entrant:
    """``NAME=BOT``: BOT is a built-in bot name or a command line."""
    name, sep, spec = text.partition("=")
    name, spec = name.strip(), spec.strip()
    if not sep or not name or not spec:
        raise TournamentError(f"--bot takes NAME=BOT (e.g. r1=random), not {text!r}")
    if not NAME_PATTERN.match(name):
        raise TournamentError(f"bot name {name!r}: use letters, digits and _ . + - only")
    if spec == "human":
        raise TournamentError(f"bot {name}: a tournament cannot seat a human player")
    return Entrant(name, spec)


def check_entrant(entrant: Entrant) -> None:
    """Fail early on a bot that names neither a built-in bot nor a program."""
    from .players import make_player

    try:
        make_player(entrant.spec, seed=0).close()
    except ValueError as exc:
        raise TournamentError(f"bot {entrant.name}: {exc}") from None


@dataclass(frozen=True)
class GameTask:
    """One game of the schedule, named by a key that stays the same on resume."""

    key: str
    index: int  # position in the schedule; aggregation follows this order
    seed_index: int
    seed: int
    seating: tuple[tuple[str, str], ...]  # (seat, entrant name), in seat order

    def info(self) -> dict[str, Any]:
        return {"key": self.key, "index": self.index, "seed_index": self.seed_index,
                "seed": self.seed, "seating": dict(self.seating)}


@dataclass
class Plan:
    """What a tournament plays: its kind, the seats and the games in order."""

    kind: str  # "solo", "duel" (two seats) or "multiplayer"
    seats: list[str]
    teams: dict[str, list[str]] | None
    tasks: list[GameTask]


def derive_seed(master: int, index: int) -> int:
    """The seed of seed index `index`: stable across runs, machines and Pythons."""
    digest = hashlib.sha256(f"agon-tournament:{master}:{index}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def seat_assignments(group: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The orders in which a group of entrants takes the seats."""
    if len(group) <= FULL_PERMUTATIONS_UP_TO:
        return list(itertools.permutations(group))
    return [group[i:] + group[:i] for i in range(len(group))]


def make_plan(seats: list[str], teams: dict[str, list[str]] | None,
              entrants: list[str], games: int, seed: int) -> Plan:
    """The full schedule: seed-major, so a partial run covers every pairing evenly."""
    if len(seats) == 1:
        kind = "solo"
        groups = [(name,) for name in entrants]
        orders = {group: [group] for group in groups}
    else:
        kind = "duel" if len(seats) == 2 else "multiplayer"
        groups = list(itertools.combinations(entrants, len(seats)))
        orders = {group: seat_assignments(group) for group in groups}
    tasks: list[GameTask] = []
    for seed_index in range(games):
        game_seed = derive_seed(seed, seed_index)
        for group in groups:
            for order in orders[group]:
                seating = tuple(zip(seats, order, strict=True))
                key = f"{seed_index}:" + ",".join(f"{s}={b}" for s, b in seating)
                tasks.append(GameTask(key, len(tasks), seed_index, game_seed, seating))
    return Plan(kind, list(seats), teams, tasks)


# -- the tournament ----------------------------------------------------------

@dataclass
class Tournament:
    """A validated tournament: everything needed to plan and play it."""

    ruleset: Ruleset
    ruleset_ref: str
    entrants: list[Entrant]
    games: int
    seed: int
    players: int
    options: dict[str, Any]
    limits: Limits
    seats: list[str] = field(default_factory=list)
    teams: dict[str, list[str]] | None = None
    sandbox: Sandbox = field(default_factory=Sandbox)

    def plan(self) -> Plan:
        return make_plan(self.seats, self.teams, [e.name for e in self.entrants],
                         self.games, self.seed)

    def header(self) -> dict[str, Any]:
        """The journal's first line: what must match for a resume to be valid."""
        return {
            "format": JOURNAL_FORMAT,
            "ruleset": {"ref": self.ruleset_ref, "id": self.ruleset.id,
                        "version": self.ruleset.version, "sha256": self.ruleset.sha256},
            "bots": {e.name: e.spec for e in self.entrants},
            "games": self.games,
            "seed": self.seed,
            "players": self.players,
            "options": self.options,
            "limits": {"move": self.limits.move, "game": self.limits.game},
        }


def choose_player_count(ruleset: Ruleset, requested: int | None) -> int:
    """P: --players if given, else the fixed seats, else the ruleset's minimum.

    A ruleset whose minimum is 1 but that also seats several players is
    played with 2 by default; solo play is for rulesets whose maximum is 1
    (or an explicit --players 1).
    """
    low = int(ruleset.players.get("min", 1))
    high = int(ruleset.players.get("max", low))
    fixed = ruleset.players.get("seats")
    if requested is None:
        if fixed:
            return len(fixed)
        return 2 if low == 1 and high >= 2 else low
    if not low <= requested <= high:
        raise TournamentError(f"{ruleset.id} is played by {low} to {high} players, "
                              f"not {requested}")
    return requested


def setup(ruleset_ref: str, entrants: list[Entrant], *, games: int, seed: int,
          players: int | None = None, options: dict[str, str] | None = None,
          limits: Limits | None = None, sandbox: Sandbox | None = None) -> Tournament:
    """Check everything a user can get wrong before a single game starts."""
    from .games import engine_class  # engines import lazily

    ruleset = load_ruleset(ruleset_ref)
    resolved = ruleset.resolve_options(options or {})
    count = choose_player_count(ruleset, players)
    names = [e.name for e in entrants]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise TournamentError(f"bot names must differ: {', '.join(duplicates)} given twice "
                              "(the same program may enter under two names)")
    if len(entrants) < count:
        raise TournamentError(
            f"a {count}-player tournament needs at least {count} bots, got {len(entrants)} "
            "(the same bot may enter twice under two names: --bot a=random --bot b=random)")
    if games < 1:
        raise TournamentError("--games must be at least 1")
    for entrant in entrants:
        check_entrant(entrant)
    engine = engine_class(ruleset.engine)(ruleset)
    _ENGINES[str(ruleset_ref)] = engine  # forked workers inherit it ready-built
    try:
        seats = engine.seats(count)
    except ValueError as exc:
        raise TournamentError(str(exc)) from None
    return Tournament(ruleset, str(ruleset_ref), list(entrants), games, seed, count, resolved,
                      limits or Limits(), list(seats), engine.teams(list(seats)),
                      _sandbox_for(entrants, sandbox or Sandbox()))


def _sandbox_for(entrants: list[Entrant], sandbox: Sandbox) -> Sandbox:
    """The sandbox resolved here, once, where bot programs will run (games get it so)."""
    if all(entrant.spec in BUILTIN for entrant in entrants):
        return sandbox
    return sandbox.resolved()


# -- one game, in a worker process ---------------------------------------------

@dataclass(frozen=True)
class GameJob:
    """Everything a worker needs to play one game (picklable)."""

    ruleset_ref: str
    ruleset_sha256: str
    options: dict[str, Any]
    limits: Limits
    specs: dict[str, str]  # entrant name -> spec
    task: GameTask
    log_dir: str | None
    sandbox: Sandbox = field(default_factory=Sandbox)


def _engine_for(ruleset_ref: str, sha256: str) -> Any:
    """The worker's engine, built once per process (or inherited from `setup`)."""
    engine = _ENGINES.get(ruleset_ref)
    if engine is None or engine.ruleset.sha256 != sha256:
        from .games import engine_class

        ruleset = load_ruleset(ruleset_ref)
        if ruleset.sha256 != sha256:
            raise TournamentError(f"{ruleset_ref} changed while the tournament was running")
        engine = _ENGINES[ruleset_ref] = engine_class(ruleset.engine)(ruleset)
    return engine


def player_seed(game_seed: int, seat: str) -> int:
    """A bot's own seed: from the game seed and its seat, as `agon play` draws it.

    It does not depend on who sits there, so two copies of one deterministic
    bot play mirror games when they swap seats (an exactly even duplicate
    score), and `agon play --seed` replays any tournament game.
    """
    return stream(game_seed, f"bot:{seat}").randrange(1 << 31)


def play_game(job: GameJob) -> dict[str, Any]:
    """Play one game; any exception becomes an error row instead of a crash."""
    if _STOPPING:  # a game queued before the parent's stop must not start
        raise SystemExit(128 + _STOPPING[0])
    try:
        record = _play(job)
    except Exception as exc:  # noqa: BLE001 - one broken game must not end the tournament
        return {"tournament": job.task.info(), "error": f"{type(exc).__name__}: {exc}"}
    return {"tournament": job.task.info(), **record}


def _play(job: GameJob) -> dict[str, Any]:
    from .match import run_match
    from .players import make_player

    engine = _engine_for(job.ruleset_ref, job.ruleset_sha256)
    task = job.task
    log_dir = None
    if job.log_dir and any(job.specs[name] not in BUILTIN for _, name in task.seating):
        log_dir = Path(job.log_dir) / re.sub(r"[^A-Za-z0-9_.=-]+", "_", task.key)
        log_dir.mkdir(parents=True, exist_ok=True)
    players: dict[str, Any] = {}
    try:
        for seat, name in task.seating:
            players[seat] = make_player(job.specs[name], seed=player_seed(task.seed, seat),
                                        log_dir=log_dir, sandbox=job.sandbox.hiding(job.log_dir))
        record = run_match(engine, players, seed=task.seed, options=dict(job.options),
                           limits=job.limits)
    finally:
        for player in players.values():
            player.close()
    return record.to_json()


# -- the journal ---------------------------------------------------------------

def read_journal(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header and the finished games of a journal.

    A last line cut short (the tournament was killed while writing it) is
    dropped and the file truncated to the last complete line, so appending
    resumes cleanly.  Any other unreadable line is an error.
    """
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise TournamentError(f"{path}: no such journal") from None
    except OSError as exc:
        raise TournamentError(f"{path}: cannot read ({exc.strerror})") from None
    chunks = raw.split(b"\n")
    entries: list[Any] = []
    good_end = position = 0
    for number, chunk in enumerate(chunks, 1):
        start, position = position, position + len(chunk) + 1
        if not chunk.strip():
            continue
        try:
            entries.append(json.loads(chunk))
            good_end = min(position, len(raw))
        except ValueError:
            if any(rest.strip() for rest in chunks[number:]):
                raise TournamentError(f"{path}:{number}: not a journal line") from None
            good_end = start  # a torn last line
    if not entries or not isinstance(entries[0], dict) \
            or entries[0].get("format") != JOURNAL_FORMAT:
        raise TournamentError(f"{path}: not an {JOURNAL_FORMAT} journal")
    if good_end < len(raw):
        with path.open("r+b") as handle:
            handle.truncate(good_end)
    if not raw[:good_end].endswith(b"\n"):
        with path.open("ab") as handle:
            handle.write(b"\n")
    games = [e for e in entries[1:] if isinstance(e, dict) and "tournament" in e]
    return entries[0], games


class Journal:
    """Append-only JSON lines, flushed after every game."""

    def __init__(self, path: Path, header: dict[str, Any] | None) -> None:
        self.path = path
        self.handle: IO[str] = path.open("a", encoding="utf-8")
        if header is not None:
            self.write(header)

    def write(self, entry: dict[str, Any]) -> None:
        self.handle.write(json.dumps(entry, separators=(",", ":")) + "\n")
        self.handle.flush()  # a killed tournament loses at most the game in progress

    def close(self) -> None:
        self.handle.close()


def header_mismatches(stored: dict[str, Any], current: dict[str, Any]) -> list[str]:
    """What differs between a journal's tournament and the one asked for now."""
    problems = []
    for key in ("bots", "games", "seed", "players", "options", "limits"):
        if json.dumps(stored.get(key), sort_keys=True) != json.dumps(current.get(key),
                                                                     sort_keys=True):
            problems.append(f"{key}: journal has {stored.get(key)!r}, now {current.get(key)!r}")
    was, now = stored.get("ruleset", {}), current["ruleset"]
    if (was.get("id"), was.get("sha256")) != (now["id"], now["sha256"]):
        problems.append(f"ruleset: journal was played with {was.get('id')}@{was.get('version')} "
                        f"(sha256 {str(was.get('sha256'))[:12]}), now {now['id']}@"
                        f"{now['version']} (sha256 {now['sha256'][:12]})")
    return problems


# -- running -------------------------------------------------------------------

Progress = Callable[[int, int], None]


def run_games(tournament: Tournament, tasks: list[GameTask], *, jobs: int = 1,
              log_dir: str | None = None,
              on_row: Callable[[dict[str, Any]], None] | None = None,
              player: Callable[[GameJob], dict[str, Any]] = play_game) -> list[dict[str, Any]]:
    """Play `tasks` in `jobs` processes (1 = in this process); rows in schedule order."""
    specs = {e.name: e.spec for e in tournament.entrants}
    game_jobs = [GameJob(tournament.ruleset_ref, tournament.ruleset.sha256, tournament.options,
                         tournament.limits, specs, task, log_dir, tournament.sandbox)
                 for task in tasks]
    rows = []
    for row in _execute(game_jobs, jobs, player):
        rows.append(row)
        if on_row:
            on_row(row)
    return sorted(rows, key=lambda r: r["tournament"]["index"])


def _execute(game_jobs: list[GameJob], jobs: int,
             player: Callable[[GameJob], dict[str, Any]]) -> Iterator[dict[str, Any]]:
    if jobs <= 1 or len(game_jobs) <= 1:
        for job in game_jobs:
            yield player(job)
        return
    pool = ProcessPoolExecutor(max_workers=min(jobs, len(game_jobs)), mp_context=_context(),
                               initializer=_worker_signals, initargs=(os.getpid(),))
    try:
        # A bounded queue, so that an interrupt leaves little work to cancel.
        waiting = iter(game_jobs)
        running: dict[Future, GameJob] = {}
        for job in itertools.islice(waiting, 2 * jobs):
            running[pool.submit(player, job)] = job
        while running:
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                job = running.pop(future)
                yield _row_of(future, job)
                for extra in itertools.islice(waiting, 1):
                    running[pool.submit(player, extra)] = extra
    except BaseException:
        # Ctrl-C (or an error): stop the workers; SIGTERM makes each close its
        # players (and their process groups) on the way out.
        for future in running:
            future.cancel()
        for process in list(getattr(pool, "_processes", {}).values()):
            process.terminate()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _context() -> multiprocessing.context.BaseContext:
    """Fork where it is safe (Linux): workers start at once and inherit engines
    registered at run time (`referee.games.register`); elsewhere the default."""
    if sys.platform == "linux":
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


def _worker_signals(parent: int) -> None:
    """Workers leave Ctrl-C to the parent, end cleanly on its SIGTERM, and die with it
    (their bots' sandboxes then end their bots)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _terminate)
    confine.die_with_parent(signal.SIGKILL)
    if os.getppid() != parent:  # it died before we asked to be told
        os._exit(1)


_STOPPING: list[int] = []  # set in a worker once the parent asked it to stop


def _terminate(signum: int, frame: Any) -> None:
    _STOPPING.append(signum)
    raise SystemExit(128 + signum)


def _row_of(future: Future, job: GameJob) -> dict[str, Any]:
    try:
        return future.result()
    except Exception as exc:  # noqa: BLE001 - e.g. a worker killed by the OS
        raise TournamentError(f"a worker process failed during game {job.task.key} "
                              f"({type(exc).__name__}: {exc}); resume the journal to "
                              "play the remaining games") from None


class ProgressBar:
    """``[#####.....]  12/40 games  0:12`` on stderr, redrawn in place."""

    def __init__(self, total: int, stream: IO[str] | None = None, width: int = 30) -> None:
        self.total = total
        self.stream = stream or sys.stderr
        self.width = width
        self.started = time.monotonic()
        self.done = 0

    @staticmethod
    def wanted(stream: IO[str] | None = None) -> bool:
        stream = stream or sys.stderr
        return hasattr(stream, "isatty") and stream.isatty()

    def advance(self, count: int = 1) -> None:
        self.done += count
        filled = self.width * self.done // max(self.total, 1)
        elapsed = int(time.monotonic() - self.started)
        bar = "#" * filled + "." * (self.width - filled)
        self.stream.write(f"\r[{bar}] {self.done}/{self.total} games  "
                          f"{elapsed // 60}:{elapsed % 60:02d}")
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\n")
        self.stream.flush()


@contextmanager
def log_directory(journal: Path | None) -> Iterator[str]:
    """Where external bots' stderr logs go: next to the journal, else a temp dir."""
    if journal is not None:
        path = journal.with_name(journal.name + ".logs")
        yield str(path)
        return
    path = tempfile.mkdtemp(prefix="agon-tournament-")
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def pending_tasks(plan: Plan, finished: Iterable[dict[str, Any]]) -> list[GameTask]:
    """The planned games the journal does not hold yet."""
    done = {row["tournament"]["key"] for row in finished}
    return [task for task in plan.tasks if task.key not in done]


def known_rows(plan: Plan, journal_rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The journal's finished games of this plan, with the plan's indices.

    A later line for a key supersedes an earlier one, and games that ended
    in an error are left out so that a resume plays them again.
    """
    index = {task.key: task.index for task in plan.tasks}
    rows: dict[str, dict[str, Any]] = {}
    for row in journal_rows:
        key = row["tournament"].get("key")
        if key in index:
            row["tournament"]["index"] = index[key]
            rows[key] = row
    return [row for row in rows.values() if "error" not in row]


def run_tournament(tournament: Tournament, *, jobs: int = 1, journal: Path | None = None,
                   resume: bool = False, progress: ProgressBar | None = None,
                   player: Callable[[GameJob], dict[str, Any]] = play_game,
                   ) -> tuple[Plan, list[dict[str, Any]]]:
    """Play every planned game not yet in the journal; all rows in schedule order."""
    plan = tournament.plan()
    finished: list[dict[str, Any]] = []
    writer = None
    if journal is not None and resume:
        header, stored = read_journal(journal)
        problems = header_mismatches(header, tournament.header())
        if problems:
            raise TournamentError(f"{journal} is the journal of another tournament:\n  "
                                  + "\n  ".join(problems))
        finished = known_rows(plan, stored)
        writer = Journal(journal, None)
    elif journal is not None:
        if journal.exists() and journal.stat().st_size:
            raise TournamentError(f"{journal} already exists: continue it with --resume "
                                  f"{journal}, or choose another --out")
        writer = Journal(journal, tournament.header())
    todo = pending_tasks(plan, finished)
    if progress:
        progress.total = len(plan.tasks)
        progress.advance(len(finished))

    def keep(row: dict[str, Any]) -> None:
        if writer:
            writer.write(row)
        if progress:
            progress.advance()

    try:
        with log_directory(journal) as logs:
            played = run_games(tournament, todo, jobs=jobs, log_dir=logs, on_row=keep,
                               player=player)
    finally:
        if writer:
            writer.close()
        if progress:
            progress.close()
    rows = sorted(finished + played, key=lambda r: r["tournament"]["index"])
    return plan, rows
