"""Round-robin tournaments: pairings, seat rotation, seeds, executors, journal.

The schedule (``make_plan``) is a pure function of the seats, the entrants,
the number of seeds and the master seed, so the same command always plans the
same games under the same keys:

* **Seeds.** Seed ``i`` of a tournament with master seed ``S`` is the first 31
  bits of ``sha256("agon-tournament:S:i")``.  Every game with seed index
  ``i`` uses that seed, whoever plays it: the duplicate format.
* **Two or more seats.** Every combination of P entrants out of the field
  plays, on every seed, every seat assignment: all permutations when P <= 3
  (2 for a duel, 6 for three players), the P cyclic rotations when P >= 4
  (each entrant sits in each seat exactly once; a balanced subset of the P!
  permutations).  ``--games N`` is the number of seeds, so a duel pairing
  plays 2N games.
* **Solo.** Every entrant plays the same N seeds against the game itself.

Games run in worker processes (``concurrent.futures``); each worker builds
its own engine and players.  A game that raises becomes an error row, never a
crashed tournament.  The journal (``--out``) is JSON lines: one header line
describing the tournament, then one line per finished game, flushed as soon as
the game ends.  ``--resume`` reads it back, skips the games it holds and
appends the rest; since results are aggregated in schedule order, a resumed
tournament prints exactly the table an uninterrupted one would.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from referee.players import Limits
from referee.ruleset import Ruleset, load_ruleset

JOURNAL_FORMAT = "agon-tournament/1"
FULL_PERMUTATIONS_UP_TO = 3  # seats; above this the cyclic rotations are played
NAME_PATTERN = re.compile(r"^[A-Za-z0-9_.+-]{1,40}$")


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
          limits: Limits | None = None) -> Tournament:
    """Check everything a user can get wrong before a single game starts."""
    from referee.games import engine_class  # engines import lazily

    ruleset = load_ruleset(ruleset_ref)
    resolved = ruleset.resolve_options(options or {})
    count = choose_player_count(ruleset, players)
    names = [e.name for e in entrants]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise TournamentError(f"bot names must differ: {', '.join(duplicates)} given twice "
                              "(the same program may enter under two names)")
    needed = max(count, 1 if count == 1 else 2)
    if len(entrants) < needed:
        raise TournamentError(
            f"a {count}-player tournament needs at least {needed} bots, got {len(entrants)} "
            "(the same bot may enter twice under two names: --bot a=random --bot b=random)")
    if games < 1:
        raise TournamentError("--games must be at least 1")
    engine = engine_class(ruleset.engine)(ruleset)
    try:
        seats = engine.seats(count)
    except ValueError as exc:
        raise TournamentError(str(exc)) from None
    return Tournament(ruleset, str(ruleset_ref), list(entrants), games, seed, count, resolved,
                      limits or Limits(), list(seats), engine.teams(list(seats)))


# -- one game, in a worker process ---------------------------------------------

@dataclass(frozen=True)
class GameJob:
    """Everything a worker needs to play one game (picklable)."""

    ruleset_ref: str
    options: dict[str, Any]
    limits: Limits
    specs: dict[str, str]  # entrant name -> spec
    task: GameTask
    log_dir: str | None


_ENGINES: dict[str, Any] = {}  # per worker process: ruleset ref -> engine


def _engine_for(ruleset_ref: str) -> Any:
    if ruleset_ref not in _ENGINES:
        from referee.games import engine_class

        ruleset = load_ruleset(ruleset_ref)
        _ENGINES[ruleset_ref] = engine_class(ruleset.engine)(ruleset)
    return _ENGINES[ruleset_ref]


def player_seed(game_seed: int, seat: str) -> int:
    """A bot's own seed depends on the game seed and its seat, not on who it is.

    So two copies of the same deterministic bot play mirror games when they
    swap seats, and their duplicate score is exactly even.
    """
    digest = hashlib.sha256(f"agon-player:{game_seed}:{seat}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def play_game(job: GameJob) -> dict[str, Any]:
    """Play one game; any exception becomes an error row instead of a crash."""
    try:
        record = _play(job)
    except Exception as exc:  # noqa: BLE001 - one broken game must not end the tournament
        return {"tournament": job.task.info(), "error": f"{type(exc).__name__}: {exc}"}
    return {"tournament": job.task.info(), **record}


def _play(job: GameJob) -> dict[str, Any]:
    from referee.match import run_match
    from referee.players import make_player

    engine = _engine_for(job.ruleset_ref)
    task = job.task
    log_dir = None
    if job.log_dir:
        log_dir = Path(job.log_dir) / re.sub(r"[^A-Za-z0-9_.=-]+", "_", task.key)
        log_dir.mkdir(parents=True, exist_ok=True)
    players: dict[str, Any] = {}
    try:
        for seat, name in task.seating:
            players[seat] = make_player(job.specs[name], seed=player_seed(task.seed, seat),
                                        log_dir=log_dir)
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
        self.handle.flush()
        os.fsync(self.handle.fileno())

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
    game_jobs = [GameJob(tournament.ruleset_ref, tournament.options, tournament.limits, specs,
                         task, log_dir) for task in tasks]
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
    pool = ProcessPoolExecutor(max_workers=min(jobs, len(game_jobs)))
    try:
        # Keep a bounded queue so an interrupt leaves little work to cancel.
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
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


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


def known_rows(plan: Plan, finished: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Journal rows that belong to this plan, one per key, with the plan's index."""
    index = {task.key: task.index for task in plan.tasks}
    rows: dict[str, dict[str, Any]] = {}
    for row in finished:
        key = row["tournament"].get("key")
        if key in index and key not in rows:
            row["tournament"]["index"] = index[key]
            rows[key] = row
    return list(rows.values())
