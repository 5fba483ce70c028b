"""`agon check BOT --ruleset R`: protocol compliance check of a bot program."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import typer

from bots import BUILTIN
from cli.common import fail, parse_pairs
from referee.compliance import check_bot
from referee.games import UnknownEngine, engine_class
from referee.players import Limits
from referee.ruleset import RulesetError, load_ruleset


def check(
    bot: str = typer.Argument(..., help="the bot's command line (or a built-in bot name)"),
    ruleset: str = typer.Option(..., "--ruleset", "-r", help="a shipped ruleset id or file"),
    seat: str | None = typer.Option(None, help="the seat the bot plays (default: the first)"),
    seed: int = typer.Option(1, help="game seed of the session"),
    option: list[str] = typer.Option([], "--option", "-o", help="ruleset option NAME=VALUE"),  # noqa: B008
    move_time: float = typer.Option(10.0, help="seconds the bot may think per decision"),
    handshake_time: float = typer.Option(10.0, help="seconds the bot has to say `ready`"),
    decisions: int = typer.Option(2000, help="stop the game after this many decisions"),
    log_dir: Path | None = typer.Option(None, help="keep the bot's stderr log here"),  # noqa: B008
) -> None:
    """Check that a bot program speaks the agon protocol (docs/protocol.md).

    The bot plays one seat of a real game against random moves: it must
    answer the hello with `ready`, ignore events it does not know, answer
    every ask with a legal action in time, and exit after `quit`.  Where it
    fails, the last lines exchanged and the bot's stderr are shown.
    Exit status: 0 compliant, 1 not compliant, 2 usage error.

    Example: agon check "python3 bots/examples/minimal_bot.py" --ruleset earth-and-water
    """
    try:
        rs = load_ruleset(ruleset)
        engine = engine_class(rs.engine)(rs)
        options = parse_pairs(option, "--option")
    except (UnknownEngine, RulesetError, OSError) as exc:
        fail(str(exc), code=2)
    argv = _command(bot)
    limits = Limits(handshake=handshake_time, move=move_time,
                    game=max(600.0, move_time * decisions))
    try:
        report = check_bot(argv, engine, seat=seat, seed=seed, options=options, limits=limits,
                           max_decisions=decisions, log_dir=log_dir)
    except (ValueError, RulesetError) as exc:
        fail(str(exc), code=2)
    typer.echo(report.render())
    if not report.passed:
        raise typer.Exit(1)


def _command(bot: str) -> list[str]:
    """The argv to run: a built-in name runs as `python -m bots.<name>`."""
    if bot.strip() in BUILTIN:
        return [sys.executable, "-m", f"bots.{bot.strip()}"]
    try:
        argv = shlex.split(bot)
    except ValueError as exc:
        fail(f"cannot read the bot command {bot!r}: {exc}", code=2)
    if not argv:
        fail("give the bot's command line", code=2)
    return argv
