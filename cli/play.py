"""`agon play RULESET --seat SEAT=BOT ...`: referee one game (or `--resume` a saved one)."""

from __future__ import annotations

import contextlib
import csv
import errno
import json
import re
import shutil
import signal
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import typer
from tabulate import tabulate

from agon.bots import builtin_name
from agon.referee.engine import Event
from agon.referee.games import UnknownEngine, engine_class
from agon.referee.human import HumanPlayer, Screen
from agon.referee.match import EndlessGame, Match, player_seed, seat_order
from agon.referee.pictures import record_position, save_map
from agon.referee.players import Limits, Player, builtin_spec, make_player, stderr_tail
from agon.referee.records import GameRecord
from agon.referee.ruleset import RulesetError
from agon.referee.sandbox import shield_referee
from agon.referee.schedule import fresh_seed
from agon.referee.signing import Keyring, KeyringError

from .common import (
    FAILED,
    RECORD_FILE,
    USAGE,
    BotEnvOption,
    BotLimitOption,
    BotNetworkOption,
    Format,
    RulesetsPath,
    SandboxOption,
    SigtermStops,
    StdoutFailed,
    bot_rules,
    check_log_dir,
    check_output,
    fail,
    open_ruleset,
    parse_pairs,
    ruleset_failure,
    seconds,
    unknown_bot,
)
from .resume import read_saved


def play(
    ruleset: str | None = typer.Argument(
        None, metavar="RULESET",
        help="a shipped ruleset id or a ruleset file (with --resume: the record's)"),
    seat: list[str] = typer.Option([], "--seat", "-s", metavar="SEAT=BOT",
                                   help="SEAT=BOT: a built-in bot, `human`, or a command line"),
    seed: int | None = typer.Option(
        None, metavar="N", help="game seed (default: random, printed, but kept from a "
                                "person at the table until the record)"),
    record: Path | None = typer.Option(
        None, metavar="FILE",
        help="write the JSON game record here (and an unfinished game's, on save or Ctrl-C)"),
    resume: Path | None = typer.Option(
        None, metavar="FILE",
        help="continue the unfinished game this record holds (saved with `save` or Ctrl-C), "
             "with the same seats; its file gets the record unless --record"),
    force: bool = typer.Option(
        False, "--force", help="with --record: replace FILE even when it holds something "
                               "other than a game record"),
    plain: bool = typer.Option(
        False, "--plain", help="no colour, layout or spinner for a human seat (automatic "
                               "when the output is not a terminal)"),
    option: list[str] = typer.Option([], "--option", "-o", metavar="NAME=VALUE",
                                     help="ruleset option NAME=VALUE"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="print only the result"),
    move_time: float = typer.Option(10.0, metavar="SECONDS", callback=seconds,
                                    help="seconds a bot may think per decision"),
    game_time: float = typer.Option(600.0, metavar="SECONDS", callback=seconds,
                                    help="seconds a bot may think in the whole game"),
    handshake_time: float = typer.Option(10.0, metavar="SECONDS", callback=seconds,
                                         help="seconds a bot has to say `ready`"),
    log_dir: Path | None = typer.Option(
        None, metavar="DIR",
        help="keep external bots' stderr logs and transcripts here (default: a temporary "
             "folder, removed after the game unless a program failed)"),
    fmt: Format = typer.Option(
        Format.table, "--format", metavar="table|json|csv",
        help="the result as a table, the signed record as JSON, or the result table as CSV; "
             "with json or csv, stdout holds nothing else (the game goes to stderr)"),
    json_result: bool = typer.Option(False, "--json", help="the same as --format json"),
    rulesets_path: RulesetsPath = None,
    sandbox: SandboxOption = "auto",
    bot_env: BotEnvOption = None,
    bot_network: BotNetworkOption = False,
    bot_limit: BotLimitOption = None,
) -> None:
    """Play one game between bots, programs and people.

    Example: agon play earth-and-water --seat persia=random --seat greece=human

    An external program is given as a command line, split like a shell but
    never run through one: --seat greece="python3 my_bot.py --fast".  It runs
    sandboxed in its own directory (--sandbox, docs/protocol.md); file
    arguments are made absolute.

    At a human seat, type `help` for the commands (undo, back, save, log,
    hand, rules, map, quit).  `save` and Ctrl-C write the record of the
    unfinished game (to --record, or a file named on screen);
    `agon play --resume FILE` continues it with the same seats (a program's
    seat must be named again with --seat: a record never starts a program).
    """
    shield_referee()  # the seed leaves our command line; bots cannot read our memory
    fmt = Format.json if json_result else fmt
    aside = fmt != Format.table   # the game's commentary goes to stderr, data to stdout
    saved = read_saved(resume, ruleset, rulesets_path, seat, seed, option) if resume else None
    if saved:
        rs, seed, specs, record = saved.ruleset, saved.seed, saved.specs, record or resume
    else:
        if ruleset is None:
            fail("name a ruleset (agon rulesets lists them), or --resume a saved game", USAGE)
        rs = open_ruleset(ruleset, rulesets_path)
        specs = parse_pairs(seat, "--seat")
    if record and record != resume:   # --resume writes its game back to its file
        check_output(record, "--record", RECORD_FILE, force=force,
                     inputs=(Path(rs.source),))
    try:
        engine = engine_class(rs.engine)(rs)
        options = saved.options if saved else rs.resolve_options(parse_pairs(option, "--option"))
    except UnknownEngine as exc:
        fail(str(exc))
    except RulesetError as exc:
        ruleset_failure(exc)
    seats = _seat_order(engine, specs)
    _check_bot_settings(specs)
    check_log_dir(log_dir)
    # A person who read a seed they did not choose could play it through with bots and
    # see every card and die to come: it is told only in the record, at the end.
    secret = "human" in specs.values() and (seed is None or saved is not None)
    if seed is None:
        seed = fresh_seed()
    if not quiet:
        again = f"resumed after {len(saved.actions)} actions, " if saved else ""
        told = "seed kept from the table" if secret else f"seed {seed}"
        typer.echo(f"{rs.name} ({rs.ref}), {again}{told}: "
                   + ", ".join(f"{s}={specs[s]}" for s in seats), err=aside)
    external = [s for s in seats if not builtin_name(specs[s]) and specs[s] != "human"]
    rules = bot_rules(sandbox, bot_env, bot_network, bot_limit, programs=bool(external))
    limits = Limits(handshake=handshake_time, move=move_time, game=game_time,
                    max_log=rules.max_log)
    scratch_logs = bool(external) and log_dir is None
    if scratch_logs:
        log_dir = Path(tempfile.mkdtemp(prefix="agon-logs-"))
    elif external and not quiet:
        typer.echo(f"bot logs and transcripts: {log_dir}", err=aside)
    unfinished = record or _unused(f"{rs.id}-unfinished", ".json")
    # A saved game holds the seed: a program that read it could foresee every card.
    # The sandbox can only cover a file that exists when the programs start.
    reserved = bool(external) and _reserve(unfinished)
    picture = record.with_name(f"{record.stem}-map.svg") if record else \
        _unused(f"{rs.id}-map", ".svg")

    screen = Screen()   # the people at the table share it (a hot seat)

    def seat_player(name: str) -> Player:
        if specs[name] == "human":   # with --format json or csv, the table is on stderr
            return HumanPlayer(ruleset=rs, plain=plain, stdout=sys.stderr if aside else None,
                               screen=screen,
                               save_record=lambda game: _save(game, unfinished),
                               draw_map=lambda game, _seat: _draw(game, picture))
        return make_player(specs[name], seed=player_seed(seed, name), log_dir=log_dir,
                           sandbox=rules.sandbox.hiding(unfinished, resume))

    players: dict[str, Player] = {}
    try:
        for name in seats:
            players[name] = seat_player(name)
    except ValueError as exc:
        for player in players.values():
            player.close()
        if reserved:
            _unreserve(unfinished)
        unknown_bot(str(exc), specs[name])
    watching = not quiet and "human" not in specs.values()
    match = Match(engine, players, seed=seed, options=options, limits=limits,
                  on_event=_printer(seats, aside) if watching else None,
                  prefix=saved.actions if saved else None, remake=seat_player,
                  resume={"seats": specs})
    stopper = SigtermStops()
    people = "human" in specs.values()
    try:
        with stopper, _terminal_signals_stop(stopper, people):
            game = match.run()
    except KeyboardInterrupt:
        try:
            path = _save(match.record_so_far(), unfinished)
        except OSError as exc:
            fail(f"stopped, and the game so far could not be saved: {exc}",
                 code=128 + stopper.signal)
        if scratch_logs:
            _keep_logs(log_dir, "the game was stopped")
        typer.echo(f"\nstopped: the game so far is saved in {path}; "
                   f"`agon play --resume {path}` continues it", err=True)
        raise typer.Exit(128 + stopper.signal) from None
    except EndlessGame as exc:   # a custom ruleset's game that cannot end: not worth keeping
        fail(str(exc))
    except Exception:
        if people:   # the screen gone, an engine's error: a person's game is kept
            _rescue(match, unfinished)
        raise
    finally:
        if reserved:
            _unreserve(unfinished)
    if scratch_logs:
        _tidy_logs(log_dir, [seat for seat in external if seat in game.forfeits])
    keyring = _keyring() if record or fmt == Format.json else None
    saved_to = _save_final(game, record, keyring, rs.id) if record else None
    try:
        _print_result(game, specs, fmt, keyring)
        _show_stderr(game, external, log_dir)
    except StdoutFailed as exc:   # a --json record without --record: stdout was its only copy
        if fmt == Format.json and not record and exc.errno != errno.EPIPE:
            _save_aside(game, keyring, rs.id, f"cannot write to standard output ({exc})")
        raise
    # a record left unsigned (the key could not be read or made) proves nothing: kept,
    # but the run is not a success a script may take it for
    if saved_to != record or (keyring is None and (record or fmt == Format.json)):
        raise typer.Exit(FAILED)


@contextlib.contextmanager
def _terminal_signals_stop(stopper: SigtermStops, people: bool) -> Iterator[None]:
    """While a person plays, SIGHUP (the terminal window closed, the connection lost)
    and SIGQUIT (Ctrl-\\) stop the game as Ctrl-C does, saved; exit status 128 + the
    signal.  They killed the game unsaved."""
    numbers = [getattr(signal, name) for name in ("SIGHUP", "SIGQUIT") if hasattr(signal, name)]
    if not people or not numbers:
        yield
        return

    def stop(signum: int, frame: object) -> None:
        stopper.signal = signal.Signals(signum)
        raise KeyboardInterrupt

    try:
        before = {number: signal.signal(number, stop) for number in numbers}
    except ValueError:   # not the main thread
        yield
        return
    try:
        yield
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)


def _rescue(match: Match, path: Path) -> None:
    """Save the game a person was playing when it failed (it goes on to fail as before)."""
    try:
        if match.actions:
            saved = _save(match.record_so_far(), path)
            typer.echo(f"agon: the game so far is saved in {saved}; "
                       f"`agon play --resume {saved}` continues it", err=True)
    except Exception:   # noqa: BLE001 - the failure being reported matters more
        pass


def _save_final(game: GameRecord, record: Path, keyring: Keyring | None, ruleset_id: str
                ) -> Path | None:
    """Write a finished game's record to `record`; when that fails (a full disk, a
    device), to a new file here, else onto stderr: a game played is never lost.
    Returns where it went (None: stderr)."""
    try:
        game.save(record, keyring)
        return record
    except OSError as exc:
        why = f"cannot write the record to {record} ({exc.strerror or exc})"
    return _save_aside(game, keyring, ruleset_id, why)


def _save_aside(game: GameRecord, keyring: Keyring | None, ruleset_id: str, why: str
                ) -> Path | None:
    """Save the record of a game whose record could not go where it was asked (`why`) to a
    new file here, else onto stderr; say where.  Returns the file (None: stderr)."""
    aside = _unused(f"{ruleset_id}-record", ".json")
    try:
        game.save(aside, keyring)
    except OSError:
        typer.echo(f"agon: error: {why}, nor beside; the record follows:", err=True)
        typer.echo(json.dumps(game.signed(keyring) if keyring else game.to_json()), err=True)
        return None
    typer.echo(f"agon: error: {why}; the game is saved in {aside}", err=True)
    return aside


def _tidy_logs(log_dir: Path, failed: list[str]) -> None:
    """Remove the temporary logs of a clean game; keep them, and say where, after a failure."""
    if failed:
        _keep_logs(log_dir, f"{', '.join(failed)} failed")
    else:
        shutil.rmtree(log_dir, ignore_errors=True)


def _keep_logs(log_dir: Path, why: str) -> None:
    typer.echo(f"{why}: the bots' logs and transcripts are kept in {log_dir}", err=True)


def _unused(stem: str, suffix: str) -> Path:
    """``STEM.SUFFIX``, or the first ``STEM-N.SUFFIX`` not taken: where a game without
    --record saves, or draws its map.  Never named by the seed: a bot may list the
    folder it was started from."""
    number = 1
    path = Path(stem + suffix)
    while path.exists() or path.is_symlink():
        number += 1
        path = Path(f"{stem}-{number}{suffix}")
    return path


def _reserve(path: Path) -> bool:
    """Make `path` (empty) if it does not exist, so that the bots' sandbox can cover
    it before they start; False if it was there already."""
    try:
        with path.open("x"):
            return True
    except FileExistsError:
        return False
    except OSError as exc:
        fail(f"cannot write the record to {path}: {exc}", USAGE)


def _unreserve(path: Path) -> None:
    """Remove the empty file `_reserve` made, unless a save has filled it since."""
    try:
        if path.stat().st_size == 0:
            path.unlink()
    except OSError:
        pass


def _save(game: GameRecord, path: Path) -> Path:
    """Write an unfinished game's record, signed; OSError when it cannot be written."""
    game.save(path, _keyring())
    return path


def _draw(game: GameRecord, path: Path) -> Path:
    """The map of the game so far, as everyone sees it, written to `path` (SVG)."""
    state = record_position(game.to_json(), game.ruleset)
    return save_map(game.ruleset, state, list(game.seats), path)


def _keyring() -> Keyring | None:
    """The referee's key to sign the record; a record unsigned beats a record lost."""
    try:
        return Keyring.load()
    except KeyringError as exc:
        typer.echo(f"agon: warning: the record is not signed: {exc}", err=True)
        return None


def _check_bot_settings(specs: dict[str, str]) -> None:
    """A built-in bot's unknown parameter or bad value, and a program that cannot be
    run, are refused before the game starts (and before its title is printed)."""
    for spec in specs.values():
        try:
            builtin = builtin_spec(spec)
        except ValueError as exc:
            fail(str(exc), USAGE)
        if builtin is None and spec.strip() != "human":
            try:
                make_player(spec, seed=0).close()   # starts nothing: only looks the program up
            except ValueError as exc:
                unknown_bot(str(exc), spec)


def _seat_order(engine, specs: dict[str, str]) -> list[str]:
    """The seats in the engine's order; unknown or missing seats are usage errors."""
    try:
        return seat_order(engine, specs)
    except ValueError as exc:
        fail(f"{exc} (give each seat with --seat SEAT=BOT)", USAGE)


def _printer(seats: list[str], aside: bool):
    def show(event: Event) -> None:
        private = event.to is not None and set(event.to) != set(seats)
        prefix = f"[{','.join(sorted(event.to))}] " if private else ""
        typer.echo(f"  {prefix}{event.text}", err=aside)
    return show


STDERR_SHOWN = 8   # lines of a forfeited program's stderr shown under its forfeit
STACK_FRAME = re.compile(r"\s+at \S")   # `    at f (file.js:3:9)`, `\tat Bot.main(Bot.java:9)`


def _show_stderr(game: GameRecord, external: list[str], log_dir: Path | None) -> None:
    """The end of what each forfeited program wrote to stderr (a traceback, a file it
    could not open), on stderr: the forfeit's cause is often there, not in its detail."""
    for seat in external:
        log = log_dir / f"{seat}.log" if log_dir is not None else None
        if seat not in game.forfeits or log is None or not log.is_file():
            continue
        try:
            # without the frames of a JavaScript or Java stack, which would hide its error
            lines = [line for line in stderr_tail(log.read_bytes(), 200)
                     if line.strip() and not STACK_FRAME.match(line)]
            tail = lines[-STDERR_SHOWN:]
        except OSError:
            continue
        if tail:
            typer.echo(f"{seat}'s stderr ends ({log}):", err=True)
            for line in tail:
                typer.echo(f"  {line[:200]}{'...' if len(line) > 200 else ''}", err=True)


RESULT_COLUMNS = ["seat", "player", "score", "rank", "points", "forfeit"]


def _print_result(game: GameRecord, specs: dict[str, str], fmt: Format,
                  keyring: Keyring | None) -> None:
    """The result on stdout as `fmt` asks; forfeits explained on stderr."""
    result = game.result
    assert result is not None, "a game that ran to its end has a result"
    rows = [[seat, specs[seat], result.scores.get(seat), result.ranks.get(seat),
             result.points.get(seat), game.forfeits.get(seat, {}).get("reason", "")]
            for seat in game.seats]
    if fmt == Format.json:
        typer.echo(json.dumps(game.signed(keyring) if keyring else game.to_json(), indent=1))
    elif fmt == Format.csv:
        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerows([RESULT_COLUMNS, *rows])
    else:
        typer.echo("")
        typer.echo(tabulate(rows, headers=RESULT_COLUMNS))
        typer.echo(f"result: {result.reason}")
    for seat, forfeit in game.forfeits.items():
        typer.echo(f"{seat} forfeited ({forfeit['reason']}): {forfeit['detail']}", err=True)
