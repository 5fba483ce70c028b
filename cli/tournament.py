"""`agon tournament RULESET --bot NAME=BOT ...`: a round-robin between bots."""

from __future__ import annotations

import os
import shlex
import shutil
import tempfile
from collections import Counter
from dataclasses import replace
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from agon.referee.cluster import check_address
from agon.referee.games import UnknownEngine
from agon.referee.journal import JournalError, lock_path, read_header
from agon.referee.journal_lines import UNPROVEN_HEADER, header_trust_problem
from agon.referee.players import Limits
from agon.referee.progress import ProgressLine
from agon.referee.ratings import standings
from agon.referee.report import RENDERERS
from agon.referee.ruleset import RulesetError
from agon.referee.sandbox import SandboxError, shield_referee
from agon.referee.schedule import fresh_seed, plan_size_problem
from agon.referee.signing import KeyringError
from agon.referee.sprt import SequentialTest, SprtError, SprtSpec
from agon.referee.tournament import (
    Interrupted,
    Tournament,
    TournamentError,
    logs_folder,
    other_tournament,
    parse_entrant,
    resume_conflicts,
    run_tournament,
    setup,
)

from .common import (
    ANY_FILE,
    USAGE,
    BotEnvOption,
    BotLimitOption,
    BotNetworkOption,
    Format,
    RulesetsPath,
    SandboxOption,
    SigtermStops,
    bot_rules,
    check_output,
    existing_keyring,
    fail,
    not_there,
    parse_pairs,
    ruleset_failure,
    seconds,
    shown,
)

DEFAULT_GAMES = 10
DEFAULT_SPRT_GAMES = 1000  # with --sprt, --games is only the most the match may last


class KeepLogs(StrEnum):
    """Which games keep the external bots' logs and transcripts (players.KEEP_LOGS)."""

    notable = "notable"
    all = "all"


def tournament(
    ruleset: Annotated[str | None, typer.Argument(
        metavar="RULESET",
        help="a shipped ruleset id or a ruleset file (with --resume: the journal's)",
    )] = None,
    bot: Annotated[list[str] | None, typer.Option(
        "--bot", "-b", metavar="[NAME=]BOT",
        help="[NAME=]BOT, once per entrant: a built-in bot or a command line "
             "(NAME defaults to the bot's or the program's name)",
    )] = None,
    games: Annotated[int | None, typer.Option(
        "--games", "-n", metavar="N",
        help=f"seeds per pairing (default {DEFAULT_GAMES}, with --sprt {DEFAULT_SPRT_GAMES}); "
             "each seed is played in every seat assignment",
    )] = None,
    gauntlet: Annotated[str | None, typer.Option(
        metavar="NAME",
        help="only the games that include this bot: one bot against all the others",
    )] = None,
    sprt: Annotated[str | None, typer.Option(
        metavar="SPEC",
        help="\"elo0=E0 elo1=E1\", optionally alpha=A beta=B (default 0.05 each): stop a "
             "two-bot match as soon as H0 (the first bot is E0 Elo stronger than the second) "
             "or H1 (E1 stronger) is accepted",
    )] = None,
    seed: Annotated[int | None, typer.Option(
        metavar="N",
        help="master seed; game seeds are derived from it (default: drawn at random, shown in "
             "the title and kept in the journal; give it again to play the same games)",
    )] = None,
    jobs: Annotated[int | None, typer.Option(
        "--jobs", "-j", metavar="J",
        help="worker processes (0 = one per CPU; default 1, or with --resume the journal's)",
    )] = None,
    cluster: Annotated[str | None, typer.Option(
        metavar="ADDRESS",
        help="play the games on a Dask cluster: a scheduler's address (tcp://HOST:8786) or "
             "local:N (N workers on this machine); needs agon-referee[cluster], see "
             "docs/cluster.md",
    )] = None,
    affinity: Annotated[bool, typer.Option(
        "--affinity",
        help="pin each worker, and the bots it starts, to a CPU of its own (Linux): bots "
             "thinking on a clock in parallel games never share a CPU; a bot's threads then "
             "share that one CPU",
    )] = False,
    players: Annotated[int | None, typer.Option(
        "--players", "-p", metavar="P",
        help="seats per game (default: the ruleset's fixed seats, else its minimum, at least "
             "2 unless the ruleset is solo)",
    )] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", metavar="NAME=VALUE", help="ruleset option NAME=VALUE",
    )] = None,
    fmt: Annotated[Format, typer.Option("--format", "-f", metavar="table|json|csv",
                                        help="table, json or csv")] = Format.table,
    out: Annotated[Path | None, typer.Option(
        metavar="FILE",
        help="journal: one JSON line per finished game (default: a temporary file, kept and "
             "named only when the run is interrupted)",
    )] = None,
    resume: Annotated[Path | None, typer.Option(
        metavar="FILE",
        help="continue the tournament of this journal: every setting (ruleset, bots, games, "
             "jobs ...) is taken from it; with --out NEW and more --games, it goes on in NEW",
    )] = None,
    keep_logs: Annotated[KeepLogs | None, typer.Option(
        metavar="notable|all",
        help="which games keep the external bots' log and transcript (FILE.logs/<game>/): "
             "notable, those in which a bot wrote to stderr, sent info or forfeited (the "
             "default, or with --resume the journal's), or all",
    )] = None,
    verify: Annotated[bool, typer.Option(
        "--verify", help="with --resume: replay the journal's lines this referee did not "
                         "sign, keep those that replay, play the others again",
    )] = False,
    move_time: Annotated[float | None, typer.Option(
        metavar="SECONDS", callback=seconds, help="seconds a bot may think per decision (default 10)",
    )] = None,
    game_time: Annotated[float | None, typer.Option(
        metavar="SECONDS", callback=seconds, help="seconds a bot may think per game (default 600)",
    )] = None,
    handshake_time: Annotated[float | None, typer.Option(
        metavar="SECONDS", callback=seconds,
        help="seconds a program has to say `ready` (default 10)",
    )] = None,
    rulesets_path: RulesetsPath = None,
    sandbox: SandboxOption = "auto",
    bot_env: BotEnvOption = None,
    bot_network: BotNetworkOption = False,
    bot_limit: BotLimitOption = None,
) -> None:
    """Round-robin tournament between bots, in the duplicate format.

    Example: agon tournament earth-and-water -b a=random -b b=random -n 20 -j 2

    A bot may be a command line: --bot mine="python3 my_bot.py --fast";
    without NAME= it is named after the built-in bot or the program
    (-b random -b "python3 my_bot.py" gives random and my_bot).

    Two-seat games: every pairing plays each of N seeds (--games N) in both
    seat assignments, so a pairing plays 2N games on the same N deals.
    N-player games (--players P): every combination of P bots plays each seed
    in every seat order (P <= 4) or in the P cyclic rotations (P >= 5, each bot
    sits once in each seat).  Solo rulesets: every bot plays the same N seeds.
    In team games a bot's result is its team's.

    The table gives per bot: games, wins, draws, losses, score % (mean points:
    1 win, 0.5 draw; rank-based with more seats), forfeits by reason, then
    the pairwise matrix and each bot's results by seat.  Besides:

    Two seats: Elo +- 95% is the maximum-likelihood rating of the whole field
    (one virtual draw per pairing, mean 0).  Under Pairs, for each pairing:
    the first bot's plain Elo over the second from the games, its LOS (the
    likelihood that it is the stronger, from wins and losses), the
    pentanomial counts of the game pairs (one seed in both seatings: LL, LD,
    DD+WL, WD, WW) and the paired Elo +- 95% computed from the variance of
    those pairs, usually narrower because a seat or deal advantage cancels
    out within a pair.

    --sprt: the sequential probability ratio test on game pairs (fishtest's
    pentanomial generalized SPRT, logistic Elo of the first bot over the
    second); after each pair the log-likelihood ratio (LLR) is compared with
    log(beta/(1-alpha)) and log((1-beta)/alpha) and the match stops when it
    crosses one; the table says which hypothesis was accepted.  With --sprt,
    --games is the most seeds the match may last.

    Three to six seats and teams: score % and mean rank with 95% intervals,
    and a Plackett-Luce rating (openskill): mu, its uncertainty sigma, and
    the conservative ordinal mu - 3 sigma (mus less than about two sigmas
    apart do not tell bots apart).  Solo: the win rate with its
    Wilson 95% interval and the game's own mean score +- 95%.  --format
    csv prints the per-bot table only; --format json everything (described
    by schemas/results.schema.json).

    --out keeps a journal (one JSON line per finished game, signed with the
    referee's key: agon key show); without --out the journal is a temporary
    file, removed at the end (the logs of games where a program forfeited or wrote
    to stderr are kept, and named under the table).  After a crash, Ctrl-C or SIGTERM (which print
    the table so far, the journal and the command to continue), --resume FILE
    plays only the missing games (and those that ended in an error) and
    appends them, and the final table is the same as an uninterrupted run's;
    it needs no other option (the journal holds the ruleset, the bots and
    every setting; --jobs or --cluster given again replace the recorded ones;
    another ruleset, other bots, --games, --seed, --sprt ... are refused,
    naming what differs from the journal).  To play more games than the journal
    planned (an SPRT that has not decided), --resume FILE --games N --out NEW
    copies FILE's games into the new journal NEW (checked as a resume checks
    them, signed again for NEW), plays the rest there and leaves FILE as it was
    (NEW takes only lines this referee signed: with --verify, the games of the
    others are played again).
    --resume refuses a journal with lines this referee did not sign (edited,
    or from another machine) and names them; with --verify it replays them
    instead and keeps those that replay (each named: who played it is not
    proven).  A header this referee did not sign
    is refused even with --verify: a header cannot be replayed.  One run at
    a time writes a journal (FILE.lock names it).  An external bot's stderr
    and info lines (<seat>.log) and the lines it exchanged (<seat>.transcript)
    are kept in FILE.logs/<game>/ beside the journal for the games in which it wrote to
    stderr, sent info or forfeited (--keep-logs all: every game); a
    tournament in which no bot did has no FILE.logs.  Bots that speak
    protocol 1.1 stay up from game to game (a few processes per bot and worker,
    none ever sent a seed it has played: docs/protocol.md); the others start
    for every game.

    --jobs J plays on J worker processes of this machine (--affinity pins each,
    with its bots, to a CPU of its own); --cluster on a Dask cluster, whose
    workers start the bots (their command lines must work there):
    docs/cluster.md.  Exit status: 0; 1 when some game could not be
    refereed (listed under Errors), or the ruleset file or the journal is
    invalid; 2 for a usage error; 130 after Ctrl-C and 143 after SIGTERM.
    """
    shield_referee()  # the master seed leaves our command line before any bot starts
    rules = bot_rules(sandbox, bot_env, bot_network, bot_limit, programs=False)
    if out is not None:   # the journal refuses an existing one itself
        check_output(out, "--out", ANY_FILE)
    if verify and resume is None:
        fail("--verify checks a journal that --resume continues; give --resume FILE", USAGE)
    if jobs is not None and jobs < 0:  # a line of our own, not click's framed range error
        fail(f"--jobs takes a number of worker processes, 0 for one per CPU, not {jobs}",
             USAGE)
    if jobs is not None and cluster is not None:
        fail("--jobs and --cluster both say where to play: give one", USAGE)
    if affinity and cluster is not None:
        fail("--affinity pins the worker processes of this machine; a --cluster's workers "
             "are placed by Dask: give one of them", USAGE)
    stored = _stored_settings(resume) if resume is not None else {}
    # --resume OLD --out NEW: OLD's tournament (to more --games) goes on in NEW
    carry_from = resume if resume is not None and out is not None and \
        out.resolve() != resume.resolve() else None
    if carry_from is not None:   # NEW another name of OLD (a hard link): not a new journal
        check_output(out, "--out", ANY_FILE, inputs=(carry_from,))
    given_ruleset = ruleset
    ruleset = ruleset or (stored.get("ruleset") or {}).get("ref")
    if not ruleset:
        fail("give the RULESET to play (or --resume FILE to continue a tournament)", USAGE)
    entrants = None
    try:
        if cluster is not None:
            check_address(cluster)
        entrants = [parse_entrant(text) for text in bot] if bot else \
            [parse_entrant(f"{name}={spec}") for name, spec in _stored_bots(stored)]
        sprt_text = _pick(sprt, stored.get("sprt"), None)
        sprt_spec = SprtSpec.parse(sprt_text) if sprt_text is not None else None
        config = setup(
            ruleset, entrants,
            games=_pick(games, stored.get("games"),
                        DEFAULT_SPRT_GAMES if sprt_spec else DEFAULT_GAMES),
            seed=_pick(seed, stored.get("seed"), fresh_seed()),
            players=_pick(players, stored.get("players"), None),
            options=parse_pairs(option, "--option") if option else
            {k: v for k, v in stored.get("options", {}).items() if v is not None},
            limits=Limits(move=_pick(move_time, stored.get("limits", {}).get("move"), 10.0),
                          game=_pick(game_time, stored.get("limits", {}).get("game"), 600.0),
                          handshake=_pick(handshake_time,
                                          stored.get("limits", {}).get("handshake"), 10.0),
                          max_log=rules.max_log),
            gauntlet=_pick(gauntlet, stored.get("gauntlet"), None),
            sprt=sprt_spec,
            rulesets_path=tuple(rulesets_path or ()),
            sandbox=rules.sandbox.hiding(*(path for path in (resume, out) if path)),
        )
    except (TournamentError, SprtError, SandboxError, ValueError, RulesetError) as exc:
        _refuse_another_tournament(resume, stored, given_ruleset, entrants if bot else None,
                                   rulesets_path)
        if isinstance(exc, RulesetError):
            ruleset_failure(exc)
        fail(str(exc), USAGE)
    except UnknownEngine as exc:
        fail(str(exc))
    too_many = plan_size_problem(len(config.seats), len(config.entrants), config.games,
                                 config.gauntlet is not None)
    if too_many:
        fail(f"--games {config.games} {too_many}", USAGE)
    if jobs is None and cluster is None:  # where the journal's run played, unless told
        jobs, cluster = stored.get("jobs"), stored.get("cluster")
    workers = 1 if jobs is None else jobs if jobs > 0 else (os.cpu_count() or 1)
    kept_logs = str(_pick(keep_logs, stored.get("keep_logs"), KeepLogs.notable))
    temporary = resume is None and out is None
    journal = out or resume or _temporary_journal()
    secrets = (journal, lock_path(journal),   # the lock names the run: kept from the bots
               *((carry_from, lock_path(carry_from)) if carry_from else ()))
    config = replace(config, sandbox=config.sandbox.hiding(*secrets),
                     asked_sandbox=config.asked_sandbox.hiding(*secrets))
    progress = ProgressLine() if ProgressLine.wanted() else None
    test = SequentialTest(config.sprt, *(e.name for e in config.entrants)) \
        if config.sprt else None
    stopper = SigtermStops()
    try:
        with stopper:
            plan, rows = run_tournament(config, jobs=workers, journal=journal,
                                        resume=resume is not None and carry_from is None,
                                        verify=verify, carry_from=carry_from,
                                        progress=progress, should_stop=test, cluster=cluster,
                                        affinity=affinity,
                                        keep_logs=kept_logs,
                                        on_note=lambda note: typer.echo(
                                            f"agon: {shown(note)}", err=True))
    except (JournalError, KeyringError) as exc:
        _forget(journal, temporary)
        fail(str(exc))
    except TournamentError as exc:
        _forget(journal, temporary)
        fail(f"{exc}{_journal_note(journal)}")
    except Interrupted as stop:
        _print_table(config, stop.plan, stop.rows, fmt, test)
        typer.echo(f"agon: interrupted after {len(stop.rows)} of {len(stop.plan.tasks)} "
                   f"games; the journal is {journal}; continue with:\n"
                   f"  agon tournament --resume {shlex.quote(str(journal))}", err=True)
        raise typer.Exit(128 + stopper.signal) from None
    except KeyboardInterrupt:   # before any game: while a journal was read or checked
        _forget(journal, temporary)
        kept = f"; {journal} is kept" if not temporary and journal.exists() else ""
        typer.echo(f"agon: interrupted before the games started{kept}", err=True)
        raise typer.Exit(128 + stopper.signal) from None
    logs = logs_folder(journal)
    kept = logs.is_dir() and any(logs.iterdir())   # notable games' logs: kept for reading
    if temporary:  # the run is over: nothing to resume
        _forget(journal, True, games_too=True, keep_logs=kept)
    table = _print_table(config, plan, rows, fmt, test)
    for note in _forfeit_notes(rows, logs if kept else None):
        typer.echo(f"agon: {shown(note)}", err=True)
    if table.errors:
        fail(f"{len(table.errors)} game(s) could not be refereed (see Errors)")


def _refuse_another_tournament(resume: Path | None, stored: dict[str, Any],
                               ruleset: str | None, entrants: list[Any] | None,
                               rulesets_path: list[Path] | None) -> None:
    """When the settings of a resume cannot be used because they are another ruleset
    or other bots than the journal's, say that (exit 1, as the journal's own check)
    rather than what they lack: the journal's options on another ruleset ("no option
    ..."), the journal's seats for fewer bots ("needs at least 3 bots")."""
    if resume is None:
        return
    try:
        conflicts = resume_conflicts(stored, ruleset, entrants, tuple(rulesets_path or ()))
    except (RulesetError, OSError, ValueError):
        return  # the given ruleset does not load: the error about it says so
    if conflicts:
        fail(other_tournament(resume, conflicts))


def _print_table(config: Tournament, plan: Any, rows: list[dict[str, Any]], fmt: Format,
                 test: SequentialTest | None) -> Any:
    if test:
        rows = test.played(rows)  # none past the deciding pair, however many workers ran
    table = standings(rows, plan.kind, [e.name for e in config.entrants], plan.seats,
                      meta=config.summary(plan.kind, len(plan.tasks), len(rows)),
                      sprt=test.result if test else None)
    typer.echo(RENDERERS[fmt.value](table), nl=False)
    return table


def _temporary_journal() -> Path:
    """Where a run without --out keeps its journal (removed when the run ends well)."""
    handle, name = tempfile.mkstemp(prefix="agon-tournament-", suffix=".jsonl")
    os.close(handle)
    return Path(name)


def _forget(journal: Path, temporary: bool, games_too: bool = False,
            keep_logs: bool = False) -> None:
    """Remove a temporary journal (and its bots' logs, unless `keep_logs`) that holds no
    game, or any."""
    if not temporary or not journal.exists():
        return
    with journal.open("rb") as handle:
        lines = sum(1 for _ in handle)
    if games_too or lines <= 1:
        journal.unlink(missing_ok=True)
        if not keep_logs:
            shutil.rmtree(logs_folder(journal), ignore_errors=True)


def _forfeit_notes(rows: list[dict[str, Any]], logs: Path | None) -> list[str]:
    """Why each bot forfeited (the table only counts reasons): its reasons, the first
    game's detail, and where the logs of those games are."""
    reasons: dict[str, Counter[str]] = {}
    first: dict[str, str] = {}
    for row in rows:
        seating = row["tournament"].get("seating", {})
        for seat, forfeit in sorted((row.get("forfeits") or {}).items()):
            bot = seating.get(seat, seat)
            reasons.setdefault(bot, Counter())[forfeit.get("reason", "?")] += 1
            first.setdefault(bot, f"{forfeit.get('reason', '?')}: {forfeit.get('detail', '')}")
    where = f"; the logs of those games are in {logs}" if logs else ""
    return [f"{bot} forfeited {sum(counted.values())} game(s) "
            f"({', '.join(f'{reason} {n}' for reason, n in counted.most_common())}); "
            f"the first: {first[bot]}{where}"
            for bot, counted in reasons.items()]


def _journal_note(journal: Path) -> str:
    """Where the games of a failed run are, when some were played."""
    if not journal.exists():
        return ""
    return f"\nthe games played are in {journal}: agon tournament --resume {journal}"


def _pick(given: Any, stored: Any, default: Any) -> Any:
    return given if given is not None else stored if stored is not None else default


def _stored_settings(journal: Path) -> dict[str, Any]:
    """The settings a journal's header holds, once they are known to be this referee's.

    Even with --verify: a header cannot be replayed, and what it says (which
    programs to start, which games count, under which names) is only the
    referee's word, so an unsigned or edited one is never used.
    """
    if not journal.exists():
        fail(not_there(journal, "journal"), USAGE)
    try:
        header = read_header(journal)
    except JournalError as exc:
        fail(str(exc))
    problem = header_trust_problem(header, existing_keyring())
    if problem:
        fail(f"{journal}:1 (the header): {problem}: {UNPROVEN_HEADER}")
    return header


def _stored_bots(stored: dict) -> list[tuple[str, str]]:
    """The journal's entrants, in the order the tournament was given them (`order`;
    a journal written before it was kept lists them by name)."""
    bots = stored.get("bots") or {}
    order = stored.get("order")
    if not (isinstance(order, list) and sorted(map(str, order)) == sorted(bots)):
        order = list(bots)
    return [(name, bots[name]) for name in order]
