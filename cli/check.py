"""`agon check BOT --ruleset R`: protocol compliance check of a bot program."""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path
from typing import Annotated

import typer

from agon.referee.compliance import check_bot
from agon.referee.games import UnknownEngine, engine_class
from agon.referee.players import Limits, builtin_spec
from agon.referee.ruleset import RulesetError, load_ruleset
from agon.referee.sandbox import shield_referee

from .common import (
    BotEnvOption,
    BotLimitOption,
    BotNetworkOption,
    RulesetsPath,
    SandboxOption,
    bot_rules,
    fail,
    parse_pairs,
)


def check(
    bot: Annotated[str, typer.Argument(
        help="the bot's command line, quoted (or a built-in bot name)")],
    ruleset: Annotated[str, typer.Option(
        "--ruleset", "-r", help="a shipped ruleset id or a ruleset file")],
    seat: Annotated[str | None, typer.Option(
        help="the seat the bot plays (default: the first)")] = None,
    seed: Annotated[int, typer.Option(help="game seed of the session")] = 1,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="ruleset option NAME=VALUE")] = None,
    move_time: Annotated[float, typer.Option(
        help="seconds the bot may think per decision")] = 10.0,
    handshake_time: Annotated[float, typer.Option(
        help="seconds the bot has to say `ready`")] = 10.0,
    decisions: Annotated[int, typer.Option(
        help="stop the game after this many decisions")] = 2000,
    log_dir: Annotated[Path | None, typer.Option(
        help="keep the bot's stderr log here")] = None,
    rulesets_path: RulesetsPath = None,
    sandbox: SandboxOption = "auto",
    bot_env: BotEnvOption = None,
    bot_network: BotNetworkOption = False,
    bot_limit: BotLimitOption = None,
) -> None:
    """Check that a bot program speaks the agon protocol (docs/protocol.md).

    The bot plays one seat of a real game against random moves: it must
    answer the hello with `ready`, ignore events it does not know, answer
    every ask with a legal action in time, and exit after `quit`.  Where it
    fails, the last lines exchanged and the bot's stderr are shown.
    Exit status: 0 compliant, 1 not compliant, 2 usage error.

    Example: agon check "python3 bots/examples/minimal_bot.py" --ruleset earth-and-water
    """
    shield_referee()
    rules = bot_rules(sandbox, bot_env, bot_network, bot_limit)
    try:
        rs = load_ruleset(ruleset, tuple(rulesets_path or ()))
        engine = engine_class(rs.engine)(rs)
        options = parse_pairs(option, "--option")
    except (UnknownEngine, RulesetError, OSError) as exc:
        fail(str(exc), code=2)
    argv = _command(bot)
    limits = Limits(handshake=handshake_time, move=move_time,
                    game=max(600.0, move_time * decisions), max_log=rules.max_log)
    try:
        report = check_bot(argv, engine, seat=seat, seed=seed, options=options, limits=limits,
                           max_decisions=decisions, log_dir=log_dir, sandbox=rules.sandbox)
    except (ValueError, RulesetError) as exc:
        fail(str(exc), code=2)
    typer.echo(report.render())
    if not report.passed:
        raise typer.Exit(1)


def _command(bot: str) -> list[str]:
    """The argv to run: a built-in bot runs as `python -m agon.bots.<name> --KEY VALUE...`."""
    try:
        builtin = builtin_spec(bot)
    except ValueError as exc:
        fail(str(exc), code=2)
    if builtin is not None:
        return builtin.argv()
    try:
        argv = shlex.split(bot)
    except ValueError as exc:
        fail(f"cannot read the bot command {bot!r}: {exc}", code=2)
    if not argv:
        fail("give the bot's command line", code=2)
    if shutil.which(argv[0]) is None:
        fail(f"{argv[0]!r} is not a program found on PATH or an executable file", code=2)
    return argv
