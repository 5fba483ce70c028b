"""`agon tournament RULESET --bot NAME=BOT ...`: a round-robin between bots."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any

import typer

from agon.referee.games import UnknownEngine
from agon.referee.players import Limits
from agon.referee.ratings import RENDERERS, standings
from agon.referee.ruleset import RulesetError
from agon.referee.sandbox import SandboxError, shield_referee
from agon.referee.tournament import (
    ProgressBar,
    Tournament,
    TournamentError,
    parse_entrant,
    read_journal,
    run_tournament,
    setup,
)

from .common import (
    BotEnvOption,
    BotLimitOption,
    BotNetworkOption,
    Format,
    SandboxOption,
    bot_rules,
    fail,
    parse_pairs,
)

DEFAULT_GAMES = 10
DEFAULT_SEED = 1


def tournament(
    ruleset: Annotated[str, typer.Argument(help="a shipped ruleset id or a ruleset file")],
    bot: Annotated[list[str] | None, typer.Option(
        "--bot", "-b", help="NAME=BOT, once per entrant: a built-in bot or a command line",
    )] = None,
    games: Annotated[int | None, typer.Option(
        "--games", "-n", help=f"seeds per pairing (default {DEFAULT_GAMES}); each seed is "
                              "played in every seat assignment",
    )] = None,
    seed: Annotated[int | None, typer.Option(
        help=f"master seed (default {DEFAULT_SEED}); game seeds are derived from it",
    )] = None,
    jobs: Annotated[int, typer.Option(
        "--jobs", "-j", help="worker processes (0 = one per CPU)",
    )] = 1,
    players: Annotated[int | None, typer.Option(
        "--players", "-p", help="seats per game (default: the ruleset's fixed seats, else its "
                                "minimum, at least 2 unless the ruleset is solo)",
    )] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="ruleset option NAME=VALUE",
    )] = None,
    fmt: Annotated[Format, typer.Option("--format", "-f", help="table, json or csv")] = Format.table,
    out: Annotated[Path | None, typer.Option(
        help="journal: one JSON line per finished game",
    )] = None,
    resume: Annotated[Path | None, typer.Option(
        help="continue the tournament of this journal (settings not given are taken from it)",
    )] = None,
    move_time: Annotated[float | None, typer.Option(
        help="seconds a bot may think per decision (default 10)",
    )] = None,
    game_time: Annotated[float | None, typer.Option(
        help="seconds a bot may think per game (default 600)",
    )] = None,
    sandbox: SandboxOption = "auto",
    bot_env: BotEnvOption = None,
    bot_network: BotNetworkOption = False,
    bot_limit: BotLimitOption = None,
) -> None:
    """Round-robin tournament between bots, in the duplicate format.

    Example: agon tournament earth-and-water -b a=random -b b=random -n 20 -j 2

    A bot may be a command line: --bot mine="python3 my_bot.py --fast".

    Two-seat games: every pairing plays each of N seeds (--games N) in both
    seat assignments, so a pairing plays 2N games on the same N deals.
    N-player games (--players P): every combination of P bots plays each seed
    in every seat order (P <= 4) or in the P cyclic rotations (P >= 5, each bot
    sits once in each seat).  Solo rulesets: every bot plays the same N seeds.
    In team games a bot's result is its team's.

    The table gives per bot: games, wins, draws, losses, score % (mean points:
    1 win, 0.5 draw; rank-based with more seats), Elo +- 95% CI (two seats,
    maximum likelihood with one virtual draw per pairing), forfeits by reason;
    then the pairwise matrix and each bot's results by seat.  --format csv
    prints the per-bot table only.

    --out keeps a journal (one JSON line per finished game); after a crash or
    Ctrl-C, --resume FILE plays only the missing games (and those that ended
    in an error) and appends them, and
    the final table is the same as an uninterrupted run's.  External bots'
    stderr logs go to FILE.logs/ beside the journal (without --out, to a
    temporary directory removed at the end).  Exit status: 0,
    1 when some game could not be refereed (listed under Errors), 2 for a
    usage or ruleset error.
    """
    shield_referee()  # the master seed leaves our command line before any bot starts
    rules = bot_rules(sandbox, bot_env, bot_network, bot_limit, programs=False)
    if resume is not None and out is not None and out.resolve() != resume.resolve():
        fail("--out and --resume name different files; --resume appends to its journal",
             code=2)
    stored = _stored_settings(resume) if resume is not None else {}
    try:
        entrants = [parse_entrant(text) for text in bot] if bot else \
            [parse_entrant(f"{name}={spec}") for name, spec in stored.get("bots", {}).items()]
        config = setup(
            ruleset, entrants,
            games=_pick(games, stored.get("games"), DEFAULT_GAMES),
            seed=_pick(seed, stored.get("seed"), DEFAULT_SEED),
            players=_pick(players, stored.get("players"), None),
            options=parse_pairs(option, "--option") if option else
            {k: v for k, v in stored.get("options", {}).items() if v is not None},
            limits=Limits(move=_pick(move_time, stored.get("limits", {}).get("move"), 10.0),
                          game=_pick(game_time, stored.get("limits", {}).get("game"), 600.0),
                          max_log=rules.max_log),
            sandbox=rules.sandbox.hiding(resume or out),
        )
    except (TournamentError, RulesetError, UnknownEngine, SandboxError, ValueError) as exc:
        fail(str(exc), code=2)
    workers = jobs if jobs > 0 else (os.cpu_count() or 1)
    progress = ProgressBar(0) if ProgressBar.wanted() else None
    try:
        plan, rows = run_tournament(config, jobs=workers, journal=resume or out,
                                    resume=resume is not None, progress=progress)
    except TournamentError as exc:
        fail(str(exc), code=2 if resume is not None else 1)
    except KeyboardInterrupt:
        where = resume or out
        hint = f"; continue with --resume {where}" if where else ""
        fail(f"interrupted{hint}", code=130)
    table = standings(rows, plan.kind, [e.name for e in config.entrants], plan.seats,
                      meta=_meta(config, plan.kind, len(plan.tasks)))
    typer.echo(RENDERERS[fmt.value](table), nl=False)
    if table.errors:
        fail(f"{len(table.errors)} game(s) could not be refereed (see Errors)", code=1)


def _pick(given: Any, stored: Any, default: Any) -> Any:
    return given if given is not None else stored if stored is not None else default


def _stored_settings(journal: Path) -> dict[str, Any]:
    try:
        header, _ = read_journal(journal)
    except TournamentError as exc:
        fail(str(exc), code=2)
    return header


def _meta(config: Tournament, kind: str, total: int) -> dict[str, Any]:
    rs = config.ruleset
    what = {"duel": "two seats, every seat assignment",
            "multiplayer": f"{config.players} seats",
            "solo": "solo"}[kind]
    title = (f"{rs.name} ({rs.ref}): {len(config.entrants)} bots, {total} games "
             f"({config.games} seeds, {what}), seed {config.seed}")
    return {"title": title, "ruleset": {"id": rs.id, "version": rs.version,
                                        "sha256": rs.sha256},
            "entrants": {e.name: e.spec for e in config.entrants},
            "seed": config.seed, "seeds": config.games, "players": config.players,
            "games": total, "options": config.options}
