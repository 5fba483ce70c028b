"""`agon replay RECORD`: print a recorded game and verify what it claims."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from agon.referee.engine import IllegalAction
from agon.referee.games import UnknownEngine, engine_class
from agon.referee.journal import (
    TORN_READ,
    JournalError,
    Row,
    is_journal,
    journal_rows,
    torn_note,
)
from agon.referee.journal_lines import (
    foreign_problem,
    header_trust_problem,
    row_problem,
    settings_problem,
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
from agon.referee.ruleset import RulesetError, load_ruleset, recorded_ruleset
from agon.referee.ruleset_model import Ruleset
from agon.referee.schedule import GameTask, make_plan
from agon.referee.signing import check_signature

from .common import (
    HTML_FILE,
    USAGE,
    RulesetsPath,
    check_output,
    existing_keyring,
    fail,
    not_there,
    open_ruleset,
    shown,
)
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
    force: bool = typer.Option(False, "--force", help="with --html: replace FILE even when it "
                               "holds something other than an HTML page"),
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
    if html is not None:
        check_output(html, "--html", HTML_FILE, force=force, inputs=(record, Path(rs.source)))
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
        typer.echo(f"{'verified' if finding.ok else 'NOT verified'}: {shown(finding.text)}",
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
        header, rows, _ = journal_rows(journal)
    except JournalError as exc:
        fail(str(exc))
    found = [row for row in rows if row.key == key]
    if not found:
        fail(f"{journal} holds no game {key!r} (its games are named like "
             f"{rows[0].key if rows else '3:p1=a,p2=b'!r})", USAGE)
    row = found[-1]
    problem = "it is a game that could not be refereed" if "error" in row.entry else \
        row_problem(row.entry) or record_problem(row.entry) or foreign_problem(header, row.entry)
    if problem:
        fail(f"{row.where(journal)}: {problem}")
    return row.entry


def verify_journal(journal: Path, ruleset: str | None, quiet: bool,
                   rulesets_path: list[Path] | None) -> None:
    """Every line of a journal checked: each game replayed and checked as a record is,
    each line that ended in an error for its signature and shape (it holds no moves),
    no game twice; exit 1 unless all of them, and the header, are verified."""
    try:
        header, rows, torn = journal_rows(journal)
    except JournalError as exc:
        fail(str(exc))
    if torn is not None:
        typer.echo(f"agon: {torn_note(journal, torn, TORN_READ)}", err=True)
    keyring = existing_keyring()
    trust = header_trust_problem(header, keyring) or settings_problem(header)
    failures = [f"{journal}:1 (the header): {trust}"] if trust else []
    planned = None if trust else _planned_games(journal, header, ruleset, rulesets_path)
    rulesets: dict[str, Ruleset] = {}
    bad = 0
    for row in rows:
        problem = _line_problem(journal, row.entry, ruleset, rulesets_path, rulesets, keyring) \
            or foreign_problem(header, row.entry) or _schedule_problem(row.entry, planned)
        if problem:
            bad += 1
            failures.append(f"{row.where(journal)}: {problem}")
        elif not quiet and "error" not in row.entry:
            typer.echo(f"verified: {row.where(journal)}: {row.entry['result'].get('reason')}")
    twice = _repeated_games(journal, rows)
    games = [row for row in rows if "error" not in row.entry]
    errors = len(rows) - len(games)
    aside = f" ({errors} of its lines are games that could not be refereed: signed, with no " \
        "moves to check)" if errors else ""
    count = _planned_count(rows, planned)
    for failure in failures + twice:
        typer.echo(f"NOT verified: {shown(failure)}", err=True)
    if failures or twice:
        failed = [f"{bad} of {len(rows)} games"] if bad else []
        failed += [f"{len(twice)} game(s) journaled more than once"] if twice else []
        failed += ["the header"] if trust else []
        typer.echo(f"agon: {journal} is NOT verified: {' and '.join(failed)}{count}{aside}",
                   err=True)
        raise typer.Exit(1)
    typer.echo(f"verified: {journal}: all {len(games)} games replay to their results and "
               f"digests, signed by this referee's key, as is the header{count}{aside}")


def _line_problem(journal: Path, entry: dict[str, Any], ruleset: str | None,
                  rulesets_path: list[Path] | None, rulesets: dict[str, Ruleset],
                  keyring: Any) -> str | None:
    """Why one line of a journal is not verified; a line that ended in an error holds no
    moves, but its shape and signature are checked as a game's are."""
    problem = row_problem(entry)
    if problem or "error" not in entry:
        return problem or _game_problem(journal, entry, ruleset, rulesets_path, rulesets,
                                        keyring)
    check = check_signature(entry, keyring)
    return None if check.proven else check.value


def _schedule_problem(entry: dict[str, Any], planned: dict[str, GameTask] | None) -> str | None:
    """Why a line (of a good shape) is no game the header's settings plan, if it is not."""
    info = entry["tournament"]
    task = planned.get(info["key"]) if planned is not None else None
    if planned is None or task is not None and info["seating"] == dict(task.seating) and (
            "error" in entry or entry.get("seed") == task.seed):
        return None
    return ("it is not a game of this tournament: its key, seating or seed is none of the "
            "games the header's settings plan")


def _repeated_games(journal: Path, rows: list[Row]) -> list[str]:
    """Each game whose result the journal holds more than once.  A game that ended in an
    error is played again on --resume, so its error lines may come before its game."""
    lines: dict[str, list[Row]] = {}
    for row in rows:
        if row.key is not None:
            lines.setdefault(row.key, []).append(row)
    found = []
    for key, same in lines.items():
        played = [i for i, row in enumerate(same) if "error" not in row.entry]
        if len(played) > 1 or (played and played[0] < len(same) - 1):
            numbers = ", ".join(str(row.line) for row in same)
            found.append(f"{journal}: game {key} is in the journal {len(same)} times (lines "
                         f"{numbers}): a game counts once")
    return found


def _planned_games(journal: Path, header: dict[str, Any], ruleset: str | None,
                   rulesets_path: list[Path] | None) -> dict[str, GameTask] | None:
    """The games the header's settings plan, by key; None when they cannot be worked out
    (the ruleset's engine does not seat that many players)."""
    named = header.get("ruleset") or {}
    rs = record_ruleset(journal, {"ruleset": {"id": named.get("id"), "source": named.get("ref")}},
                        ruleset, rulesets_path)
    try:
        engine = engine_class(rs.engine)(rs)
        seats = engine.seats(header.get("players") or rs.default_players())
    except (UnknownEngine, ValueError):
        return None
    plan = make_plan(seats, engine.teams(seats), list(header.get("bots") or {}),
                     header.get("games") or 0, header.get("seed") or 0, header.get("gauntlet"))
    return {task.key: task for task in plan.tasks}


def _planned_count(rows: list[Row], planned: dict[str, GameTask] | None) -> str:
    """``; 7 of 8 planned games``: a game missing from the journal (a run stopped early,
    by an SPRT, or a line removed) shows here."""
    if planned is None:
        return ""
    played = {row.key for row in rows if "error" not in row.entry and row.key in planned}
    return f"; {len(played)} of {len(planned)} planned games"


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
        fail(not_there(record), USAGE)
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
    try:
        named = recorded_ruleset(data, folders)
    except RulesetError as exc:
        fail(f"{exc}: give the ruleset with --ruleset")
    try:  # the record's own ruleset: a failure to find it is the record's
        return load_ruleset(named, tuple(folders))
    except RulesetError as exc:
        fail(f"{exc} (the ruleset {record} names; give it with --ruleset)")
