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
* **Gauntlet.** With ``--gauntlet NAME`` only the combinations that contain
  NAME play: one bot against all the others, not every pairing.
* **Units.** The games of one combination on one seed (a duel's game pair,
  one seed in both seatings) form a unit: ``should_stop`` (the SPRT) is asked
  after each unit completes.

Games run in worker processes (``concurrent.futures``); each worker has its
own engine (inherited when forked, else loaded once) and builds the players
of every game it plays.  A game that raises becomes an error row, never a
crashed tournament.  The journal (``--out``, `referee.journal`) is JSON lines:
one header line describing the tournament, then one signed line per finished
game.  ``--resume`` reads it back, skips the games it holds (a game that ended
in an error is played again) and appends the rest; since results are
aggregated in schedule order, a resumed tournament prints exactly the table an
uninterrupted one would.
"""

from __future__ import annotations

import hashlib
import itertools
import multiprocessing
import os
import re
import shlex
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from agon.bots import BUILTIN, builtin_name

from . import confine
from .journal import JOURNAL_FORMAT, Journal, Verifier, header_mismatches, trusted_rows
from .players import Limits
from .records import record_problem, replay
from .rng import stream
from .ruleset import Ruleset, RulesetsPath, load_ruleset
from .sandbox import Sandbox
from .signing import Keyring
from .sprt import SprtSpec
from .suggest import did_you_mean

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
    """``[NAME=]BOT``: BOT is a built-in bot name or a command line.

    The text before the first ``=`` is the name when it is one (letters,
    digits, ``_ . + -``); otherwise the whole text is the bot and the name is
    derived from it (`derive_name`).
    """
    name, sep, spec = text.partition("=")
    name, spec = name.strip(), spec.strip()
    if sep and NAME_PATTERN.match(name):
        if not spec:
            raise TournamentError(f"--bot {text!r}: nothing after {name}= (e.g. {name}=random)")
    else:
        spec = text.strip()
        name = derive_name(spec)
        if not name:
            raise TournamentError(f"--bot takes [NAME=]BOT (e.g. r1=random), not {text!r}")
    if spec == "human":
        raise TournamentError(f"bot {name}: a tournament cannot seat a human player")
    return Entrant(name, spec)


INTERPRETERS = re.compile(r"^(python[0-9.]*|pypy[0-9.]*|bash|sh|zsh|node|ruby|perl|java|env)$")


def derive_name(spec: str) -> str:
    """The name of an entrant given without one: a built-in bot's own name, else
    its program's (``python3 -m agon.bots.random`` -> random, ``./bots/my_bot.py
    --fast`` -> my_bot); "" when nothing usable is left."""
    builtin = builtin_name(spec)
    if builtin:
        return builtin
    try:
        words = shlex.split(spec)
    except ValueError:
        words = spec.split()
    program = ""
    for number, word in enumerate(words):
        if number == 0 and INTERPRETERS.match(Path(word).name) and len(words) > 1:
            continue
        if word == "-m" and number + 1 < len(words):
            program = words[number + 1].rpartition(".")[2]
            break
        if not word.startswith("-"):
            program = Path(word).stem
            break
    return re.sub(r"[^A-Za-z0-9_.+-]+", "_", program).strip("_.")[:40]


def check_entrant(entrant: Entrant) -> None:
    """Fail early on a bot that names neither a built-in bot nor a program."""
    from .players import make_player

    try:
        make_player(entrant.spec, seed=0).close()
    except ValueError as exc:
        hint = did_you_mean(entrant.spec.strip().partition(":")[0], BUILTIN)
        raise TournamentError(f"bot {entrant.name}: {exc}{hint}") from None


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

    @property
    def unit(self) -> tuple[int, frozenset[str]]:
        """The games that belong together: this seed, these bots, every seating."""
        return self.seed_index, frozenset(name for _, name in self.seating)


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
              entrants: list[str], games: int, seed: int,
              gauntlet: str | None = None) -> Plan:
    """The full schedule: seed-major, so a partial run covers every pairing evenly.

    With a `gauntlet` bot, only the groups that include it play.
    """
    if len(seats) == 1:
        kind = "solo"
        groups = [(name,) for name in entrants]
        orders = {group: [group] for group in groups}
    else:
        kind = "duel" if len(seats) == 2 else "multiplayer"
        groups = [group for group in itertools.combinations(entrants, len(seats))
                  if gauntlet is None or gauntlet in group]
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
    gauntlet: str | None = None  # the one bot every game includes
    sprt: SprtSpec | None = None  # stop a two-bot match once H0 or H1 is accepted
    rulesets_path: RulesetsPath = ()
    sandbox: Sandbox = field(default_factory=Sandbox)

    def plan(self) -> Plan:
        return make_plan(self.seats, self.teams, [e.name for e in self.entrants],
                         self.games, self.seed, self.gauntlet)

    def summary(self, kind: str, total: int, played: int) -> dict[str, Any]:
        """What the standings say about the tournament itself (their `meta`)."""
        rs = self.ruleset
        what = {"duel": "two seats, every seat assignment",
                "multiplayer": f"{self.players} seats",
                "solo": "solo"}[kind]
        if self.gauntlet:
            what += f", gauntlet of {self.gauntlet}"
        games = f"{total} games" if played == total else f"{played} of {total} games"
        title = (f"{rs.name} ({rs.ref}): {len(self.entrants)} bots, {games} "
                 f"({self.games} seeds, {what}), seed {self.seed}")
        return {"title": title, "ruleset": {"id": rs.id, "version": rs.version,
                                            "sha256": rs.sha256},
                "entrants": {e.name: e.spec for e in self.entrants},
                "seed": self.seed, "seeds": self.games, "players": self.players,
                "games": total, "played": played, "gauntlet": self.gauntlet,
                "options": self.options}

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
            "gauntlet": self.gauntlet,
            "sprt": self.sprt.text() if self.sprt else None,
        }


def choose_player_count(ruleset: Ruleset, requested: int | None) -> int:
    """P: --players if given, else the fixed seats, else the ruleset's minimum.

    A ruleset whose minimum is 1 but that also seats several players is
    played with 2 by default; solo play is for rulesets whose maximum is 1
    (or an explicit --players 1).
    """
    low = int(ruleset.players.get("min", 1))
    high = int(ruleset.players.get("max", low))
    if requested is None:
        return ruleset.default_players()
    if not low <= requested <= high:
        raise TournamentError(f"{ruleset.id} is played by {low} to {high} players, "
                              f"not {requested}")
    return requested


def setup(ruleset_ref: str, entrants: list[Entrant], *, games: int, seed: int,
          players: int | None = None, options: dict[str, str] | None = None,
          limits: Limits | None = None, gauntlet: str | None = None,
          sprt: SprtSpec | None = None, rulesets_path: RulesetsPath = (),
          sandbox: Sandbox | None = None) -> Tournament:
    """Check everything a user can get wrong before a single game starts."""
    from .games import engine_class  # engines import lazily

    ruleset = load_ruleset(ruleset_ref, rulesets_path)
    resolved = ruleset.resolve_options(options or {})
    count = choose_player_count(ruleset, players)
    check_names(entrants)
    names = [e.name for e in entrants]
    if gauntlet is not None and gauntlet not in names:
        raise TournamentError(f"--gauntlet {gauntlet}: no bot of that name "
                              f"(the bots are {', '.join(names)})")
    if gauntlet is not None and count == 1:
        raise TournamentError("--gauntlet needs a game of two or more seats: in a solo "
                              "game every bot already plays alone against the game")
    if sprt is not None and (len(entrants) != 2 or count != 2):
        raise TournamentError(f"--sprt is for a match between two bots in a two-seat game, "
                              f"not {len(entrants)} bots in {count}-seat games")
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
                      gauntlet=gauntlet, sprt=sprt, rulesets_path=tuple(rulesets_path),
                      sandbox=_sandbox_for(entrants, sandbox or Sandbox()))


def check_names(entrants: list[Entrant]) -> None:
    """Every entrant needs its own name: the tables and the journal key on it."""
    specs: dict[str, list[str]] = {}
    for entrant in entrants:
        specs.setdefault(entrant.name, []).append(entrant.spec)
    for name, given in specs.items():
        if len(given) > 1:
            raise TournamentError(
                f"bot name {name!r} given twice ({' and '.join(map(repr, given))}): name each "
                f"entrant with NAME=BOT, e.g. --bot {shlex.quote(f'{name}1={given[0]}')} "
                f"--bot {shlex.quote(f'{name}2={given[1]}')} (the same program may enter "
                "under two names)")


def _sandbox_for(entrants: list[Entrant], sandbox: Sandbox) -> Sandbox:
    """The sandbox resolved here, once, where bot programs will run (games get it so)."""
    if all(builtin_name(entrant.spec) for entrant in entrants):
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
    rulesets_path: RulesetsPath = ()
    sandbox: Sandbox = field(default_factory=Sandbox)


def _engine_for(ruleset_ref: str, sha256: str, rulesets_path: RulesetsPath = ()) -> Any:
    """The worker's engine, built once per process (or inherited from `setup`)."""
    engine = _ENGINES.get(ruleset_ref)
    if engine is None or engine.ruleset.sha256 != sha256:
        from .games import engine_class

        ruleset = load_ruleset(ruleset_ref, rulesets_path)
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

    engine = _engine_for(job.ruleset_ref, job.ruleset_sha256, job.rulesets_path)
    task = job.task
    log_dir = None
    if job.log_dir and any(not builtin_name(job.specs[name]) for _, name in task.seating):
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


# -- running -------------------------------------------------------------------

Progress = Callable[[int, int], None]
Row = dict[str, Any]
StopRule = Callable[[list[Row]], bool]  # the games of one finished unit -> stop now?


def run_games(tournament: Tournament, tasks: list[GameTask], *, jobs: int = 1,
              log_dir: str | None = None,
              on_row: Callable[[Row], None] | None = None,
              player: Callable[[GameJob], Row] = play_game,
              stop: Callable[[Row], bool] | None = None) -> list[Row]:
    """Play `tasks` in `jobs` processes (1 = in this process); rows in schedule order.

    `stop` is asked after every game; once it says True the games not yet
    finished are cancelled.
    """
    specs = {e.name: e.spec for e in tournament.entrants}
    game_jobs = [GameJob(tournament.ruleset_ref, tournament.ruleset.sha256, tournament.options,
                         tournament.limits, specs, task, log_dir, tournament.rulesets_path,
                         tournament.sandbox)
                 for task in tasks]
    rows = []
    with closing(_execute(game_jobs, jobs, player)) as results:
        for row in results:
            rows.append(row)
            if on_row:
                on_row(row)
            if stop and stop(row):
                break  # closing the generator cancels the rest
    return sorted(rows, key=lambda r: r["tournament"]["index"])


def stop_after_units(plan: Plan, should_stop: StopRule) -> Callable[[Row], bool]:
    """Ask `should_stop` with the games of each unit as soon as its last game is in."""
    unit_of = {task.key: task.unit for task in plan.tasks}
    size = Counter(unit_of.values())
    waiting: dict[tuple[int, frozenset[str]], list[Row]] = defaultdict(list)

    def after_game(row: Row) -> bool:
        unit = unit_of[row["tournament"]["key"]]
        waiting[unit].append(row)
        if len(waiting[unit]) < size[unit]:
            return False
        games = sorted(waiting.pop(unit), key=lambda r: r["tournament"]["index"])
        return should_stop(games)

    return after_game


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

    A later line for a key supersedes an earlier one; games that ended in an
    error are left out so that a resume plays them again, and so are lines
    whose seating or seed is not the plan's (a line from another tournament).
    """
    tasks = {task.key: task for task in plan.tasks}
    rows: dict[str, dict[str, Any]] = {}
    for row in journal_rows:
        info = row["tournament"]
        task = tasks.get(info["key"])
        if task is None or info["seating"] != dict(task.seating) or row.get("seed", task.seed) \
                != task.seed:
            continue
        info["index"] = task.index
        rows[task.key] = row
    return [row for row in rows.values() if "error" not in row]


def replays_in(tournament: Tournament) -> Verifier:
    """For --resume --verify: why a journal row does not replay in this tournament."""
    tasks = {task.key: task for task in tournament.plan().tasks}

    def check(row: dict[str, Any]) -> str | None:
        task = tasks.get(row["tournament"]["key"])
        if task is None or row["tournament"]["seating"] != dict(task.seating):
            return "it is no game of this tournament"
        if "error" in row:
            return None  # an error row is played again anyway
        if row.get("forfeits"):
            return "its forfeits are the referee's word, which only a valid signature proves"
        problem = record_problem(row)
        if problem or row["seed"] != task.seed or row.get("options") != tournament.options:
            return problem or "its seed or options are not the schedule's"
        outcome = replay(row, tournament.ruleset)
        if outcome.problems:
            return f"it does not replay ({outcome.problems[0]})"
        if (row.get("digest") or {}).get("state_sha256") != outcome.state_sha256:
            return "its final position is not the one its actions reach"
        return None

    return check


def run_tournament(tournament: Tournament, *, jobs: int = 1, journal: Path | None = None,
                   resume: bool = False, verify: bool = False,
                   progress: ProgressBar | None = None,
                   player: Callable[[GameJob], dict[str, Any]] = play_game,
                   should_stop: StopRule | None = None,
                   on_note: Callable[[str], None] | None = None,
                   ) -> tuple[Plan, list[dict[str, Any]]]:
    """Play every planned game not yet in the journal; all rows in schedule order.

    With `resume`, the journal's rows must carry this referee's signature;
    with `verify` too, rows that do not are replayed and kept if they hold
    (`on_note` hears about the others, which are played again).
    `should_stop` is asked with the games of each unit (a seed played by one
    group of bots in every seating) once the unit is complete, the journal's
    first; when it answers True no further game starts and those running are
    cancelled.
    """
    plan = tournament.plan()
    finished: list[dict[str, Any]] = []
    writer = None
    if journal is not None:
        keyring = Keyring.load()
        if resume:
            writer, header, stored = Journal.resume(journal, keyring)
            try:
                finished = _resumed_rows(tournament, plan, writer, header, stored, verify,
                                         on_note)
            except BaseException:
                writer.close()
                raise
        else:
            writer = Journal.create(journal, tournament.header(), keyring)
    todo = pending_tasks(plan, finished)
    stop = stop_after_units(plan, should_stop) if should_stop else None
    if stop and any(stop(row) for row in finished):
        todo = []
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
                               player=player, stop=stop)
    finally:
        if writer:
            writer.close()
        if progress:
            progress.close()
    rows = sorted(finished + played, key=lambda r: r["tournament"]["index"])
    return plan, rows


def _resumed_rows(tournament: Tournament, plan: Plan, journal: Journal,
                  header: dict[str, Any], stored: list[Any], verify: bool,
                  on_note: Callable[[str], None] | None) -> list[dict[str, Any]]:
    problems = header_mismatches(header, tournament.header())
    if problems:
        raise TournamentError(f"{journal.path} is the journal of another tournament:\n  "
                              + "\n  ".join(problems))
    trusted = trusted_rows(journal, header, stored, replays_in(tournament) if verify else None)
    for note in trusted.dropped:
        if on_note:
            on_note(note)
    return known_rows(plan, trusted.rows)
