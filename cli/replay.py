"""`agon replay RECORD`: print a recorded game and verify what it claims."""

from __future__ import annotations

import re
from pathlib import Path

import typer

from agon.referee.engine import IllegalAction
from agon.referee.games import UnknownEngine
from agon.referee.records import RecordError, is_unfinished, load_record, verify
from agon.referee.ruleset import RULESETS_DIR
from agon.referee.signing import Keyring, KeyringError

from .common import RulesetsPath, fail, open_ruleset


def replay(
    record: Path = typer.Argument(..., help="a JSON game record (agon play --record)"),
    ruleset: str | None = typer.Option(None, help="ruleset id or file (default: the record's)"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="print only the verdict"),
    rulesets_path: RulesetsPath = None,
) -> None:
    """Re-run a record and say what it proves.

    Checked: the actions replay legally from the seed to the recorded result;
    the final position matches the record's digest; the referee's signature
    (agon key show), which alone proves what replay cannot: the bots named,
    the forfeits, the timings.  Exit 0 when everything is verified, 1 when
    anything is not (tampered, forged, or signed by a key this referee does
    not hold).  The record of an unfinished game (saved, or stopped with
    Ctrl-C) is said to be unfinished: its moves and digest verify, it has no
    result.  Example: agon replay game.json
    """
    try:
        data = load_record(record)
    except RecordError as exc:
        fail(str(exc))
    folders = [*(rulesets_path or ()), record.resolve().parent]
    rs = open_ruleset(ruleset or recorded_ruleset(data, folders), folders)
    try:
        keyring = Keyring.existing()
    except KeyringError as exc:
        typer.echo(f"agon: warning: {exc}", err=True)
        keyring = None
    try:
        outcome = verify(data, rs, keyring)
    except (UnknownEngine, IllegalAction, ValueError, KeyError, TypeError) as exc:
        fail(f"{record}: cannot replay ({exc})")
    unfinished = is_unfinished(data)
    if not quiet:
        for event in outcome.replay.events:
            if not unfinished or event.to is None:   # a game under way keeps its secrets
                typer.echo(f"  {event.text}")
        if outcome.replay.result:
            typer.echo(f"result: {outcome.replay.result.reason}")
    if unfinished:
        typer.echo(f"unfinished: the game stops after {len(data['actions'])} actions (what "
                   f"only some seats saw is not shown); `agon play --resume {record}` "
                   "continues it")
    for finding in outcome.findings:
        typer.echo(f"{'verified' if finding.ok else 'NOT verified'}: {finding.text}",
                   err=not finding.ok)
    if not outcome.verified:
        typer.echo(f"agon: {record} is NOT verified", err=True)
        raise typer.Exit(1)


def recorded_ruleset(data: dict, folders: list[Path]) -> str:
    """The record's ruleset file where it may be read, else its id.

    A record names its ruleset's file, but a record may come from anyone:
    the file is used only inside the shipped folder, the record's own folder
    or a --rulesets-path folder, never anywhere on the machine.
    """
    info = data["ruleset"]
    source = info.get("source")
    try:
        path = Path(source).resolve() if isinstance(source, str) else None
        if path and path.is_file() and any(path.is_relative_to(folder.resolve())
                                           for folder in (*folders, RULESETS_DIR)):
            return str(path)
    except (OSError, ValueError):  # a name too long, a NUL byte: use the id
        pass
    ruleset_id = info.get("id")
    if not isinstance(ruleset_id, str) or not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,99}", ruleset_id):
        fail("the record names no ruleset id (lowercase letters, digits and -): "
             "give the ruleset with --ruleset")
    return ruleset_id
