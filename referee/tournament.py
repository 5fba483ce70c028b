"""Round-robin tournaments: play, journal, resume.

What is played is the schedule (`referee.schedule`: pairings, seat rotation,
seeds, units) of a tournament as `referee.tournament_setup.setup` checked it;
`run_tournament` plays the games not yet in the journal:

* in this process (``jobs=1``), in forked worker processes
  (`referee.worker_pool`), or on a Dask cluster (`referee.cluster`); the
  workers keep their engine and their bots between games (`referee.worker`);
* each finished game comes back as its journal line's canonical JSON (signed
  by the worker process that played it, else by this process: a Dask worker
  never holds the key), which this process appends at once, a batch in one
  write (`referee.journal`: one header line, then one signed line per game),
  and as the short row the standings read; a game that raises is an error
  row, never a crashed tournament;
* results are keyed by game, so a game that comes back twice (a cluster task
  run again) counts once, and aggregated in schedule order, so a resumed
  tournament prints exactly the table an uninterrupted one would;
* an interrupt (Ctrl-C, SIGTERM) stops the workers and raises `Interrupted`,
  which carries the games played so far.

``--resume`` reads the journal back, skips the games it holds (a game that
ended in an error is played again) and appends the rest.  ``--resume OLD
--games N --out NEW`` (`run_tournament`'s `carry_from`) reads OLD, writes its
games into the new journal NEW, signed again, and plays the rest there.
"""

from __future__ import annotations

import shutil
import tempfile
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .journal import (
    NOT_IN_PLAN,
    RESUME_REMEDY,
    Journal,
    Verifier,
    refuse_existing,
    trusted_rows,
)
from .journal_lines import bots_mismatch, header_mismatches, ruleset_mismatch
from .match import player_seed
from .players import KEEP_LOGS
from .progress import ProgressLine
from .records import record_problem, replay
from .ruleset import RulesetsPath, load_ruleset
from .schedule import (
    Entrant,
    GameTask,
    Plan,
    TournamentError,
    derive_name,
    derive_seed,
    make_plan,
    parse_entrant,
    seat_assignments,
)
from .signing import Keyring
from .stops import StopsHeld
from .tournament_setup import Tournament, setup
from .worker import Played, Settings, short_row
from .worker_pool import InThisProcess, WorkerPool, cpus_for, spin_for

if TYPE_CHECKING:
    from .cluster import DaskCluster

__all__ = [  # names long imported from here: the schedule's, the bot seed, the set-up
    "Entrant", "GameTask", "Plan", "Tournament", "TournamentError", "derive_name",
    "derive_seed", "make_plan", "parse_entrant", "player_seed", "seat_assignments", "setup",
]


# -- running -------------------------------------------------------------------

Row = dict[str, Any]
StopRule = Callable[[list[Row]], bool]  # the games of one finished unit -> stop now?


class Interrupted(KeyboardInterrupt):
    """Ctrl-C or SIGTERM during a tournament: the games finished so far come with it."""

    def __init__(self, plan: Plan, rows: list[Row]) -> None:
        super().__init__(f"interrupted after {len(rows)} of {len(plan.tasks)} games")
        self.plan = plan
        self.rows = rows


def stop_after_units(plan: Plan, should_stop: StopRule) -> Callable[[Row], bool]:
    """Ask `should_stop` with the games of each unit as soon as its last game is in."""
    unit_of = {task.key: task.unit for task in plan.tasks}
    size = Counter(unit_of.values())
    waiting: dict[tuple[int, int], list[Row]] = defaultdict(list)

    def after_game(row: Row) -> bool:
        unit = unit_of[row["tournament"]["key"]]
        waiting[unit].append(row)
        if len(waiting[unit]) < size[unit]:
            return False
        games = sorted(waiting.pop(unit), key=lambda r: r["tournament"]["index"])
        return should_stop(games)

    return after_game


def logs_folder(journal: Path) -> Path:
    """The folder beside a journal that holds its games' bot logs (``FILE.logs``)."""
    return journal.with_name(journal.name + ".logs")


@contextmanager
def log_directory(journal: Path | None) -> Iterator[str]:
    """Where external bots' stderr logs go: next to the journal, else a temp dir.

    The folder is made before any bot starts, since a sandbox can only cover a
    path that exists (a folder made later would be in sight of the bots still
    running), and removed at the end if no game's logs were kept in it.
    """
    if journal is not None:
        path = logs_folder(journal)
        made = not path.exists()
        try:
            path.mkdir(exist_ok=True)
        except OSError as exc:
            raise TournamentError(f"cannot make the bots' log folder {path}: "
                                  f"{exc.strerror or exc}") from None
        try:
            yield str(path)
        finally:
            if made:
                with suppress(OSError):  # not empty: some game's logs are kept
                    path.rmdir()
        return
    path = tempfile.mkdtemp(prefix="agon-tournament-")
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def pending_tasks(plan: Plan, finished: Iterable[Row]) -> list[GameTask]:
    """The planned games the journal does not hold yet."""
    done = {row["tournament"]["key"] for row in finished}
    return [task for task in plan.tasks if task.key not in done]


def known_rows(plan: Plan, journal_rows: Iterable[Row]) -> list[Row]:
    """The journal's finished games of this plan, with the plan's indices, as the
    short rows the standings read (`finished_games`)."""
    return [short_row(row) for row in finished_games(plan, journal_rows)]


def finished_games(plan: Plan, journal_rows: Iterable[Row]) -> list[Row]:
    """The journal's finished games of this plan, whole, with the plan's indices.

    A later line for a key supersedes an earlier one; games that ended in an
    error are left out so that a resume plays them again, and so are lines
    whose seating or seed is not the plan's (a line from another tournament).
    """
    tasks = {task.key: task for task in plan.tasks}
    rows: dict[str, Row] = {}
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

    def check(row: Row) -> str | None:
        task = tasks.get(row["tournament"]["key"])
        if task is None:
            return NOT_IN_PLAN
        if row["tournament"]["seating"] != dict(task.seating):
            return "its seating is not the schedule's"
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


def other_tournament(journal: Path, problems: list[str], advice: str | None = None) -> str:
    """What a resume that names other settings than its journal's is told."""
    return (f"{journal} is the journal of another tournament:\n  " + "\n  ".join(problems)
            + f"\nto continue it as it was, give no setting: --resume {journal} alone"
            + (f"\n{advice}" if advice else ""))


def more_games_only(stored: dict[str, Any], tournament: Tournament) -> bool:
    """Whether `tournament` is the one of the journal whose header is `stored` but for
    more games: one its journal can go on to in a new journal (`run_tournament`'s
    `carry_from`)."""
    games = stored.get("games")
    return isinstance(games, int) and tournament.games > games and \
        not header_mismatches({**stored, "games": tournament.games}, tournament.header())


def more_games_advice(journal: Path, games: int) -> str:
    """How to play more games of a journal's tournament than it planned."""
    new = journal.with_name(f"{journal.stem}-{games}{journal.suffix}")
    return (f"to play it to {games} games, continue it into a new journal (its games are "
            f"copied, the rest played): --resume {journal} --games {games} --out {new}")


def resume_conflicts(stored: dict[str, Any], ruleset_ref: str | None,
                     entrants: list[Entrant] | None,
                     rulesets_path: RulesetsPath = ()) -> list[str]:
    """How a ruleset and bots given again with --resume differ from the journal's.

    Asked when `setup` refuses a resume's settings: it judges the journal's
    options against the other ruleset ("no option ...") and counts the other
    bots against the journal's seats ("needs at least 3 bots"), naming neither.
    """
    problems = []
    if ruleset_ref is not None:
        ruleset = load_ruleset(ruleset_ref, rulesets_path)
        problems += ruleset_mismatch(stored.get("ruleset"), {
            "id": ruleset.id, "version": ruleset.version, "sha256": ruleset.sha256})
    if entrants is not None:
        problems += bots_mismatch(stored.get("bots"), {e.name: e.spec for e in entrants})
    return problems


def run_tournament(tournament: Tournament, *, jobs: int = 1, journal: Path | None = None,
                   resume: bool = False, verify: bool = False,
                   progress: ProgressLine | None = None,
                   should_stop: StopRule | None = None,
                   on_note: Callable[[str], None] | None = None,
                   cluster: str | None = None,
                   affinity: bool = False,
                   keep_logs: str = "notable",
                   carry_from: Path | None = None) -> tuple[Plan, list[Row]]:
    """Play every planned game not yet in the journal; all rows in schedule order.

    The games run in `jobs` worker processes (1: in this process), each pinned
    to a CPU of its own with `affinity`, or with `cluster` (a Dask scheduler's
    address, or ``local:N``) on its workers.  External bots' logs and
    transcripts go to ``<journal>.logs/<game key>/``: with `keep_logs`
    ``"notable"`` only those of a game in which the program wrote to stderr,
    sent ``info`` or forfeited, with ``"all"`` every game's.
    Each row is a game record without its actions (the journal holds them
    whole).  With `resume`, the journal's rows must carry this referee's
    signature; with `verify` too, rows that do not are replayed and kept if
    they hold (`on_note` hears about the others, which are played again).
    With `carry_from` (a journal of the same tournament with fewer games), the
    new `journal` starts with that journal's finished games, checked as a resume
    checks them and signed again for this tournament: an SPRT that needs more
    games goes on from where it stopped.
    `should_stop` is asked with the games of each unit (a seed played by one
    group of bots in every seating) once the unit is complete, the journal's
    first; when it answers True no further game starts and those running are
    abandoned.  Ctrl-C (or SIGTERM, where the caller turns it into
    KeyboardInterrupt) raises `Interrupted` with the rows finished so far.
    """
    if keep_logs not in KEEP_LOGS:
        raise TournamentError(f"--keep-logs takes {' or '.join(KEEP_LOGS)}, not {keep_logs!r}")
    if affinity and cluster is not None:
        raise TournamentError("--affinity pins the worker processes of this machine; a "
                              "--cluster's workers are placed by Dask: give one of them")
    plan = tournament.plan()
    finished: list[Row] = []
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
            if carry_from is not None:   # before the old journal is touched (a torn line)
                refuse_existing(journal)
            carried = [] if carry_from is None else \
                _carried_games(tournament, plan, carry_from, keyring, verify, on_note)
            writer = Journal.create(journal, {**tournament.header(),
                                              "jobs": None if cluster else jobs,
                                              "cluster": cluster, "keep_logs": keep_logs},
                                   keyring)
            finished = _write_carried(writer, carried, plan)
    todo = pending_tasks(plan, finished)
    stop = stop_after_units(plan, should_stop) if should_stop else None
    if stop and any(stop(row) for row in finished):
        todo = []
    if resume and not todo and on_note:  # else the table alone reads as a run just played
        on_note(f"{journal}: the tournament is over (every game it needs is in the "
                "journal): nothing left to play; the table is the journal's")
    rows = list(finished)
    stopped = False
    if progress:
        progress.start(len(plan.tasks), plan.kind, finished)
    held = StopsHeld()
    held.install()
    try:
        with log_directory(journal) as logs:
            games = _games_of(tournament, todo, jobs, cluster, logs, affinity, keep_logs,
                              writer)
            done = False
            try:
                seen = {row["tournament"]["key"] for row in rows}
                for finished in games.play(todo):
                    taken, stopped = _taken(finished, seen, stop)
                    with held:   # in the journal and the table, or in neither
                        if writer and taken:
                            writer.write_lines([p.body for p in taken], taken[0].signed)
                        rows.extend(p.row for p in taken)
                    if progress:
                        for played in taken:
                            progress.advance(played.row)
                    if stopped:
                        break
                done = not stopped
            finally:
                games.close(at_once=not done)
    except KeyboardInterrupt:
        if progress:
            progress.close("interrupted")
            progress = None
        raise Interrupted(plan, _in_order(rows)) from None
    finally:
        held.restore()
        if writer:
            writer.close()
        if progress:
            progress.close("stopped: the SPRT decided" if stopped else "")
    return plan, _in_order(rows)


def _in_order(rows: list[Row]) -> list[Row]:
    return sorted(rows, key=lambda r: r["tournament"]["index"])


def _taken(finished: list[Played], seen: set[str],
           stop: Callable[[Row], bool] | None) -> tuple[list[Played], bool]:
    """The games of `finished` that count, in the order they came, and whether the
    tournament stops (the SPRT decided) at the last of them: a game the cluster
    played twice counts once, and none after the stop counts."""
    taken = []
    for played in finished:
        if played.key in seen:
            continue  # a task the cluster ran twice
        seen.add(played.key)
        taken.append(played)
        if stop and stop(played.row):
            return taken, True
    return taken, False


def _games_of(tournament: Tournament, todo: list[GameTask], jobs: int, cluster: str | None,
              logs: str, affinity: bool = False, keep_logs: str = "notable",
              journal: Journal | None = None) -> InThisProcess | WorkerPool | DaskCluster:
    """Where the games are played: here, in worker processes, or on a Dask cluster;
    `journal`: where they go (each game line carries its header's digest, and worker
    processes sign it with its key)."""
    binding = journal.binding if journal else None
    workers = min(jobs, len({task.unit for task in todo}))
    settings = Settings(tournament.ruleset, tournament.options, tournament.limits,
                        {e.name: e.spec for e in tournament.entrants}, logs,
                        tournament.sandbox.hiding(logs), keep_logs,
                        spin_for(workers) if cluster is None and not affinity else 0.0,
                        binding)
    if cluster is not None:
        from .cluster import DaskCluster, cluster_settings

        return DaskCluster(cluster, cluster_settings(settings, tournament.asked_sandbox,
                                                             cluster),
                           journal.keyring if journal else None)
    cpus = cpus_for(workers) if affinity else None
    if workers > 1:
        return WorkerPool(settings, workers, cpus, journal.keyring if journal else None)
    return InThisProcess(settings, cpus[0] if cpus else None)


def _resumed_rows(tournament: Tournament, plan: Plan, journal: Journal,
                  header: dict[str, Any], stored: list[Any], verify: bool,
                  on_note: Callable[[str], None] | None) -> list[Row]:
    for note in journal.notes:  # said first: the file was changed whatever follows
        if on_note:
            on_note(note)
    problems = header_mismatches(header, tournament.header())
    if problems:
        advice = more_games_advice(journal.path, tournament.games) \
            if more_games_only(header, tournament) else None
        raise TournamentError(other_tournament(journal.path, problems, advice))
    return known_rows(plan, _trusted(journal, header, stored,
                                     replays_in(tournament) if verify else None, on_note))


def _carried_games(tournament: Tournament, plan: Plan, source: Path, keyring: Keyring,
                   verify: bool, on_note: Callable[[str], None] | None) -> list[Row]:
    """The finished games, whole, of `source`: a journal of this tournament with fewer
    games, whose lines are checked as a resume checks them (it is only read, and left
    as it was: a last line cut short by a kill is left out, not removed).  A line
    this referee did not sign is never carried, even with `verify`: signed again
    in the new journal, what only a replay vouches for (who played, the timings)
    would read as proven; with `verify` its game is played again."""
    journal, header, stored = Journal.resume(source, keyring, append=False)
    try:
        for note in journal.notes:
            if on_note:
                on_note(note)
        problems = header_mismatches(header, tournament.header())
        if problems and not more_games_only(header, tournament):
            raise TournamentError(other_tournament(source, problems))
        trusted = _trusted(journal, header, stored, _signed_only if verify else None, on_note,
                           CARRY_REMEDY)
        # only the old tournament's own games: an older journal's lines name no header,
        # and a signed line of a longer run with its settings is none of its games
        own = finished_games(replace(tournament, games=header["games"]).plan(), trusted)
        return finished_games(plan, own)
    finally:
        journal.close()


def _write_carried(writer: Journal, carried: list[Row], plan: Plan) -> list[Row]:
    """Write the games carried from the old journal into the new one, each bound to its
    header and signed again; their short rows.  Ctrl-C meanwhile (a long journal) is
    `Interrupted`, as in the games that follow: the new journal is named, to resume."""
    finished: list[Row] = []
    try:
        for entry in carried:
            writer.write(entry)
            finished.append(short_row(entry))
    except KeyboardInterrupt:
        writer.close()
        raise Interrupted(plan, _in_order(finished)) from None
    return finished


def _signed_only(row: Row) -> str:
    """The `Verifier` of a journal carried into a new one: no unsigned line is kept."""
    return "a new journal takes only the lines this referee signed"


CARRY_REMEDY = ("remove those lines, or continue with --verify to play their games again "
                "in the new journal (it takes only lines this referee signed)")


def _trusted(journal: Journal, header: dict[str, Any], stored: list[Any],
             verify: Verifier | None, on_note: Callable[[str], None] | None,
             remedy: str = RESUME_REMEDY) -> list[Row]:
    """The journal's rows to count (`trusted_rows`); `on_note` hears about the others."""
    trusted = trusted_rows(journal, header, stored, verify, remedy)
    for note in trusted.replayed + trusted.dropped:
        if on_note:
            on_note(note)
    return trusted.rows
