"""`agon check BOT --ruleset R`: protocol compliance check of a bot program."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated

import typer

from agon.bots import BUILTIN
from agon.referee.compliance import check_bot
from agon.referee.games import UnknownEngine, engine_class
from agon.referee.match import game_seats
from agon.referee.players import MAX_SECONDS, Limits, builtin_spec, program_problem
from agon.referee.ruleset import RulesetError, load_ruleset
from agon.referee.sandbox import shield_referee

from .common import (
    FAILED,
    USAGE,
    BotEnvOption,
    BotLimitOption,
    BotNetworkOption,
    RulesetsPath,
    SandboxOption,
    bot_rules,
    check_log_dir,
    fail,
    parse_pairs,
    ruleset_failure,
    seconds,
    unknown_bot,
)


def check(
    bot: Annotated[str, typer.Argument(
        metavar="BOT", help="the bot's command line, quoted (or a built-in bot name)")],
    ruleset: Annotated[str, typer.Option(
        "--ruleset", "-r", metavar="RULESET", help="a shipped ruleset id or a ruleset file")],
    seat: Annotated[str | None, typer.Option(
        metavar="SEAT",
        help="check only this seat (default: every seat, one session each)")] = None,
    players: Annotated[int | None, typer.Option(
        "--players", "-p", metavar="N",
        help="seats in the game (default: the ruleset's fixed seats, else 2 where it "
             "allows it, else its minimum)")] = None,
    seed: Annotated[int, typer.Option(metavar="N", help="game seed of the session")] = 1,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", metavar="NAME=VALUE", help="ruleset option NAME=VALUE")] = None,
    move_time: Annotated[float, typer.Option(
        metavar="SECONDS", callback=seconds, help="seconds the bot may think per decision")] = 10.0,
    handshake_time: Annotated[float, typer.Option(
        metavar="SECONDS", callback=seconds, help="seconds the bot has to say `ready`")] = 10.0,
    decisions: Annotated[int, typer.Option(
        metavar="N", min=1, help="stop each game after this many decisions")] = 2000,
    log_dir: Annotated[Path | None, typer.Option(
        metavar="DIR", help="keep the bot's stderr logs here")] = None,
    rulesets_path: RulesetsPath = None,
    sandbox: SandboxOption = "auto",
    bot_env: BotEnvOption = None,
    bot_network: BotNetworkOption = False,
    bot_limit: BotLimitOption = None,
) -> None:
    """Check that a bot program speaks the agon protocol (docs/protocol.md).

    The bot plays each seat of a real game in turn (one session per seat,
    the other seats moving at random; --seat S checks one): it must answer
    the hello with `ready`, ignore events it does not know, answer every ask
    with a legal action in time, play a second game after `newgame` when its
    `ready` asks for it (protocol 1.1), and exit after `quit`.  Where it fails, the
    last lines exchanged and the bot's stderr are shown, and a timeout lists
    its usual causes.
    Exit status: 0 compliant, 1 not compliant (or the ruleset file is
    invalid), 2 usage error.

    Example: agon check "python3 bots/examples/minimal_bot.py" --ruleset earth-and-water
    """
    shield_referee()
    rules = bot_rules(sandbox, bot_env, bot_network, bot_limit)
    check_log_dir(log_dir)
    try:
        rs = load_ruleset(ruleset, tuple(rulesets_path or ()))
        engine = engine_class(rs.engine)(rs)
    except RulesetError as exc:
        ruleset_failure(exc)
    except (UnknownEngine, OSError) as exc:
        fail(str(exc))
    options = parse_pairs(option, "--option")
    argv = _command(bot)
    limits = Limits(handshake=handshake_time, move=move_time,
                    game=min(max(600.0, move_time * decisions), MAX_SECONDS), max_log=rules.max_log)
    count = players if players is not None else rs.default_players()
    try:
        seats = [seat] if seat else game_seats(engine, count)
        reports = [check_bot(argv, engine, seat=name, players=count, seed=seed, options=options,
                             limits=limits, max_decisions=decisions, log_dir=log_dir,
                             sandbox=rules.sandbox)
                   for name in seats]
    except (ValueError, RulesetError) as exc:
        fail(str(exc), USAGE)
    typer.echo("\n\n".join(report.render() for report in reports))
    failed = [report.seat for report in reports if not report.passed]
    if len(reports) > 1:
        typer.echo(f"\n{'FAIL as ' + ', '.join(failed) if failed else 'PASS'}: "
                   f"{len(reports) - len(failed)} of {len(reports)} seats passed")
    if failed:
        raise typer.Exit(FAILED)


def _command(bot: str) -> list[str]:
    """The argv to run: a built-in bot runs as `python -m agon.bots.<name> --KEY VALUE...`."""
    try:
        builtin = builtin_spec(bot)
    except ValueError as exc:
        fail(str(exc), USAGE)
    if builtin is not None:
        return builtin.argv()
    try:
        argv = shlex.split(bot)
    except ValueError as exc:
        fail(f"cannot read the bot command {bot!r}: {exc}", USAGE)
    if not argv:
        fail("give the bot's command line", USAGE)
    problem = program_problem(argv[0])
    if problem is not None:
        unknown_bot(f"unknown bot {bot!r}: not a built-in bot ({', '.join(sorted(BUILTIN))}), "
                    f"and {problem}", bot)
    return argv
