"""`agon replay RECORD`: print a recorded game and verify its result."""

from __future__ import annotations

from pathlib import Path

import typer

from agon.referee.engine import IllegalAction
from agon.referee.games import UnknownEngine
from agon.referee.records import RecordError, load_record
from agon.referee.records import replay as replay_record

from .common import fail, open_ruleset


def replay(
    record: Path = typer.Argument(..., help="a JSON game record (agon play --record)"),
    ruleset: str | None = typer.Option(None, help="ruleset id or file (default: the record's)"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="print only the verdict"),
) -> None:
    """Re-run a record's seed and actions and check that the result is the same.

    Exit 0 when the record is verified, 1 when it was tampered with or does not
    replay.  Example: agon replay game.json
    """
    try:
        data = load_record(record)
    except RecordError as exc:
        fail(str(exc))
    rs = open_ruleset(ruleset or _recorded_ruleset(data))
    try:
        outcome = replay_record(data, rs)
    except (UnknownEngine, IllegalAction, ValueError, KeyError, TypeError) as exc:
        fail(f"{record}: cannot replay ({exc})")
    if not quiet:
        for event in outcome.events:
            typer.echo(f"  {event.text}")
        if outcome.result:
            typer.echo(f"result: {outcome.result.reason}")
    if outcome.verified:
        typer.echo(f"verified: {len(data['actions'])} actions replay to the recorded result")
        return
    for problem in outcome.problems:
        typer.echo(f"agon: {record}: {problem}", err=True)
    typer.echo("NOT verified", err=True)
    raise typer.Exit(1)


def _recorded_ruleset(data: dict) -> str:
    """The record's ruleset file if it still exists, else its shipped id."""
    info = data["ruleset"]
    source = info.get("source")
    if source and Path(source).is_file():
        return source
    return info.get("id", "")
