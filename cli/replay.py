"""`agon replay RECORD`: print a recorded game and verify what it claims."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import typer

from agon.referee.engine import IllegalAction
from agon.referee.games import UnknownEngine
from agon.referee.journal import (
    JournalError,
    header_trust_problem,
    is_journal,
    journal_rows,
    torn_note,
)
from agon.referee.records import (
    RECORD_FORMAT,
    RecordError,
    is_unfinished,
    load_record,
    record_problem,
    verify,
)
from agon.referee.replay_page import replay_page
from agon.referee.ruleset import RULESETS_DIR, RulesetError, load_ruleset
from agon.referee.ruleset_model import Ruleset

from .common import USAGE, RulesetsPath, existing_keyring, fail, open_ruleset
from .map import DRAWING_ERRORS, checked_record


def replay(
    record: Path = typer.Argument(..., metavar="RECORD",
                                  help="a JSON game record (agon play --record), or a "
                                       "tournament journal (agon tournament --out)"),
    game: str | None = typer.Option(None, "--game", metavar="KEY",
                                    help="in a journal, the one game to show: its key, as "
                                         "the journal's lines and messages name it "
                                         "(3:p1=a,p2=b)"),
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
    has no result.

    A tournament journal: every game in it is checked so, one line each
    (--quiet: only the verdict), and the header's signature; --game KEY
    shows one of its games as a record.  Examples: agon replay game.json;
    agon replay game.json --html game.html; agon replay games.jsonl
    """
    if is_journal(record):
        if game is None:
            if html is not None:
                fail("--html draws one game: name it with --game KEY", USAGE)
            verify_journal(record, ruleset, quiet, rulesets_path)
            return
        data = journal_game(record, game)
    elif game is not None:
        fail(f"--game picks a game of a tournament journal, and {record} is a game record",
             USAGE)
    else:
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
        write_page(record, data, rs, html)
    if not outcome.verified:
        typer.echo(f"agon: {record} is NOT verified", err=True)
        raise typer.Exit(1)


def write_page(record: Path, data: dict[str, Any], rs: Ruleset, html: Path) -> None:
    """The replay page, once the record's moves are proven (agon map's check)."""
    checked_record(record, rs, data)
    try:
        page = replay_page(data, rs)
    except DRAWING_ERRORS as exc:
        fail(f"cannot draw the replay: {exc}")
    try:
        html.write_text(page, encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write {html}: {exc.strerror or exc}")
    typer.echo(f"wrote {html} ({len(page.encode()):,} bytes)", err=True)


def journal_game(journal: Path, key: str) -> dict[str, Any]:
    """The record of the game `key` in a tournament journal (its last line, if several)."""
    try:
        _, rows, _ = journal_rows(journal)
    except JournalError as exc:
        fail(str(exc))
    found = [row for row in rows if row.key == key]
    if not found:
        fail(f"{journal} holds no game {key!r} (its games are named like "
             f"{rows[0].key if rows else '3:p1=a,p2=b'!r})", USAGE)
    row = found[-1]
    problem = "it is a game that could not be refereed" if "error" in row.entry else \
        record_problem(row.entry)
    if problem:
        fail(f"{row.where(journal)}: {problem}")
    return row.entry


def verify_journal(journal: Path, ruleset: str | None, quiet: bool,
                   rulesets_path: list[Path] | None) -> None:
    """Every game of a journal replayed and checked as a record is; exit 1 unless all
    of them, and the header, are verified.  Games that ended in an error hold no
    moves to check: they are counted apart."""
    try:
        header, rows, torn = journal_rows(journal)
    except JournalError as exc:
        fail(str(exc))
    if torn is not None:
        typer.echo(f"agon: {torn_note(journal, torn, removed=False)}", err=True)
    keyring = existing_keyring()
    trust = header_trust_problem(header, keyring)
    failures = [f"{journal}:1 (the header): {trust}"] if trust else []
    rulesets: dict[str, Ruleset] = {}
    games = [row for row in rows if "error" not in row.entry]
    for row in games:
        problem = _game_problem(journal, row.entry, ruleset, rulesets_path, rulesets, keyring)
        if problem:
            failures.append(f"{row.where(journal)}: {problem}")
        elif not quiet:
            typer.echo(f"verified: {row.where(journal)}: {row.entry['result'].get('reason')}")
    errors = len(rows) - len(games)
    aside = f" ({errors} that could not be refereed hold no moves to check)" if errors else ""
    for failure in failures:
        typer.echo(f"NOT verified: {failure}", err=True)
    if failures:
        failed = f"{len(failures) - bool(trust)} of {len(games)} games" + \
            (" and the header" if trust else "")
        typer.echo(f"agon: {journal} is NOT verified: {failed}{aside}", err=True)
        raise typer.Exit(1)
    typer.echo(f"verified: {journal}: all {len(games)} games replay to their results and "
               f"digests, signed by this referee's key, as is the header{aside}")


def _game_problem(journal: Path, data: dict[str, Any], ruleset: str | None,
                  rulesets_path: list[Path] | None, rulesets: dict[str, Ruleset],
                  keyring: Any) -> str | None:
    """Why one game line of a journal is not verified, in a few words; None if it is."""
    problem = "not an agon game record" if data.get("format") != RECORD_FORMAT \
        else record_problem(data)
    if problem:
        return problem
    named = json.dumps(data["ruleset"], sort_keys=True)   # the same ruleset is read once
    if named not in rulesets:
        rulesets[named] = record_ruleset(journal, data, ruleset, rulesets_path)
    try:
        outcome = verify(data, rulesets[named], keyring)
    except (UnknownEngine, IllegalAction, ValueError, KeyError, TypeError) as exc:
        return f"cannot replay ({exc})"
    return "; ".join(f.text for f in outcome.findings if not f.ok) or None


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
