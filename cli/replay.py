"""`agon replay RECORD`: print a recorded game and verify what it claims."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import typer

from agon.referee.engine import IllegalAction
from agon.referee.games import UnknownEngine
from agon.referee.records import RecordError, is_unfinished, load_record, verify
from agon.referee.replay_page import replay_page
from agon.referee.ruleset import RULESETS_DIR, RulesetError, load_ruleset
from agon.referee.ruleset_model import Ruleset

from .common import USAGE, RulesetsPath, existing_keyring, fail, open_ruleset
from .map import DRAWING_ERRORS, checked_record


def replay(
    record: Path = typer.Argument(..., metavar="RECORD",
                                  help="a JSON game record (agon play --record)"),
    ruleset: str | None = typer.Option(None, metavar="RULESET",
                                       help="ruleset id or file (default: the record's)"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="print only the verdict"),
    html: Path | None = typer.Option(None, "--html", help="also write one self-contained "
                                     "page that steps through the game (map, log, slider) "
                                     "for sharing; written when the moves replay as recorded"),
    rulesets_path: RulesetsPath = None,
) -> None:
    """Re-run a record and say what it proves.

    Checked: the actions replay legally from the seed to the recorded result;
    the final position matches the record's digest; the referee's signature
    (agon key show), which alone proves what replay cannot: the bots named,
    the forfeits, the timings.  Exit 0 when everything is verified, 1 when
    anything is not (tampered, forged, or signed by a key this referee does
    not hold) or the record cannot be read, 2 on bad usage (no such file, an
    unknown --ruleset).  The record of an unfinished game (saved, or stopped
    with Ctrl-C) is said to be unfinished: its moves and digest verify, it
    has no result.  Examples: agon replay game.json;
    agon replay game.json --html game.html
    """
    data = read_record(record)
    rs = record_ruleset(record, data, ruleset, rulesets_path)
    keyring = existing_keyring()
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
    if html is not None:
        write_page(record, rs, html)
    if not outcome.verified:
        typer.echo(f"agon: {record} is NOT verified", err=True)
        raise typer.Exit(1)


def write_page(record: Path, rs: Ruleset, html: Path) -> None:
    """The replay page, once the record's moves are proven (agon map's check)."""
    data = checked_record(record, rs)
    try:
        page = replay_page(data, rs)
    except DRAWING_ERRORS as exc:
        fail(f"cannot draw the replay: {exc}")
    try:
        html.write_text(page, encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write {html}: {exc.strerror or exc}")
    typer.echo(f"wrote {html} ({len(page.encode()):,} bytes)", err=True)


def read_record(record: Path) -> dict[str, Any]:
    """The record in the file: a missing file is a usage error, a bad one a failure."""
    if not record.exists():
        fail(f"{record}: no such file", USAGE)
    try:
        return load_record(record)
    except RecordError as exc:
        fail(str(exc))


def record_ruleset(record: Path, data: dict, ruleset: str | None,
                   rulesets_path: list[Path] | None) -> Ruleset:
    """The ruleset a record is read with: --ruleset's, else the one the record names."""
    folders = [*(rulesets_path or ()), record.resolve().parent]
    if ruleset is not None:
        return open_ruleset(ruleset, folders)
    try:  # the record's own ruleset: a failure to find it is the record's
        return load_ruleset(recorded_ruleset(data, folders), tuple(folders))
    except RulesetError as exc:
        fail(f"{exc} (the ruleset {record} names; give it with --ruleset)")


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
