"""`agon play RULESET --seat SEAT=BOT ...`: referee one game."""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path

import typer
from tabulate import tabulate

from agon.bots import builtin_name
from agon.referee.engine import Event
from agon.referee.games import UnknownEngine, engine_class
from agon.referee.lookup import answer
from agon.referee.match import run_match, seat_order
from agon.referee.players import Limits, make_player
from agon.referee.records import GameRecord
from agon.referee.rng import stream
from agon.referee.ruleset import RulesetError
from agon.referee.sandbox import shield_referee
from agon.referee.signing import Keyring, KeyringError

from .common import (
    USAGE,
    BotEnvOption,
    BotLimitOption,
    BotNetworkOption,
    RulesetsPath,
    SandboxOption,
    bot_rules,
    fail,
    open_ruleset,
    parse_pairs,
    ruleset_failure,
    unknown_bot,
)


def play(
    ruleset: str = typer.Argument(..., metavar="RULESET",
                                  help="a shipped ruleset id or a ruleset file"),
    seat: list[str] = typer.Option([], "--seat", "-s", metavar="SEAT=BOT",
                                   help="SEAT=BOT: a built-in bot, `human`, or a command line"),
    seed: int | None = typer.Option(None, metavar="N",
                                    help="game seed (default: random, printed)"),
    record: Path | None = typer.Option(None, metavar="FILE",
                                       help="write the JSON game record here"),
    option: list[str] = typer.Option([], "--option", "-o", metavar="NAME=VALUE",
                                     help="ruleset option NAME=VALUE"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="print only the result"),
    move_time: float = typer.Option(10.0, metavar="SECONDS",
                                    help="seconds a bot may think per decision"),
    game_time: float = typer.Option(600.0, metavar="SECONDS",
                                    help="seconds a bot may think in the whole game"),
    handshake_time: float = typer.Option(10.0, metavar="SECONDS",
                                         help="seconds a bot has to say `ready`"),
    log_dir: Path | None = typer.Option(
        None, metavar="DIR",
        help="where external bots' stderr logs and transcripts go (default: a new temp dir)"),
    json_result: bool = typer.Option(False, "--json", help="print the record as JSON at the end"),
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
    """
    shield_referee()  # the seed leaves our command line; bots cannot read our memory
    if record and not record.resolve().parent.is_dir():
        fail(f"cannot write the record to {record}: no such folder", USAGE)
    rs = open_ruleset(ruleset, rulesets_path)
    try:
        engine = engine_class(rs.engine)(rs)
        options = rs.resolve_options(parse_pairs(option, "--option"))
    except UnknownEngine as exc:
        fail(str(exc))
    except RulesetError as exc:
        ruleset_failure(exc)
    specs = parse_pairs(seat, "--seat")
    seats = _seat_order(engine, rs, specs)
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 31)
    if not quiet:
        typer.echo(f"{rs.name} ({rs.ref}), seed {seed}: "
                   + ", ".join(f"{s}={specs[s]}" for s in seats))
    external = [s for s in seats if not builtin_name(specs[s]) and specs[s] != "human"]
    rules = bot_rules(sandbox, bot_env, bot_network, bot_limit, programs=bool(external))
    limits = Limits(handshake=handshake_time, move=move_time, game=game_time,
                    max_log=rules.max_log)
    if external and log_dir is None:
        log_dir = Path(tempfile.mkdtemp(prefix="agon-logs-"))
    if external and not quiet:
        typer.echo(f"bot logs and transcripts: {log_dir}")
    players = {}
    try:
        for name in seats:
            bot_seed = stream(seed, f"bot:{name}").randrange(1 << 31)
            players[name] = make_player(specs[name], seed=bot_seed, log_dir=log_dir,
                                        rules_lookup=lambda q: answer(rs, q),
                                        sandbox=rules.sandbox.hiding(record))
    except ValueError as exc:
        for player in players.values():
            player.close()
        unknown_bot(str(exc), specs[name])
    watching = not quiet and "human" not in specs.values()
    game = run_match(engine, players, seed=seed, options=options, limits=limits,
                     on_event=_printer(seats) if watching else None)
    keyring = _keyring() if record or json_result else None
    if record:
        game.save(record, keyring)
    _print_result(game, specs)
    if json_result:
        typer.echo(json.dumps(game.signed(keyring) if keyring else game.to_json(), indent=1))


def _keyring() -> Keyring | None:
    """The referee's key to sign the record; a record unsigned beats a record lost."""
    try:
        return Keyring.load()
    except KeyringError as exc:
        typer.echo(f"agon: warning: the record is not signed: {exc}", err=True)
        return None


def _seat_order(engine, rs, specs: dict[str, str]) -> list[str]:
    """The seats in the engine's order; unknown or missing seats are usage errors."""
    try:
        return seat_order(engine, specs)
    except ValueError as exc:
        fail(str(exc), USAGE)


def _printer(seats: list[str]):
    def show(event: Event) -> None:
        private = event.to is not None and set(event.to) != set(seats)
        prefix = f"[{','.join(sorted(event.to))}] " if private else ""
        typer.echo(f"  {prefix}{event.text}")
    return show


def _print_result(game: GameRecord, specs: dict[str, str]) -> None:
    result = game.result
    rows = [[seat, specs[seat], result.scores.get(seat), result.ranks.get(seat),
             result.points.get(seat), game.forfeits.get(seat, {}).get("reason", "")]
            for seat in game.seats]
    typer.echo("")
    typer.echo(tabulate(rows, headers=["seat", "player", "score", "rank", "points", "forfeit"]))
    typer.echo(f"result: {result.reason}")
    for seat, forfeit in game.forfeits.items():
        typer.echo(f"{seat} forfeited ({forfeit['reason']}): {forfeit['detail']}", err=True)
