"""`agon map RULESET`: the game's map as a picture, bare or at a point of a recorded game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from agon.referee.games import UnknownEngine, engine_class
from agon.referee.pictures import FORMATS, NoPicture, map_svg, record_position, write_picture
from agon.referee.records import RecordError, drawing_warnings, load_record, played_seats
from agon.referee.ruleset_model import Ruleset

from .common import (
    PICTURE_FILE,
    RulesetsPath,
    check_output,
    existing_keyring,
    fail,
    not_there,
    open_ruleset,
)

# What a record or a ruleset that cannot be drawn raises on its way through an engine.
DRAWING_ERRORS = (RecordError, UnknownEngine, NoPicture, ValueError, KeyError, TypeError)


def map(
    ruleset: str = typer.Argument(..., help="a shipped ruleset id or a ruleset file"),
    record: Path | None = typer.Option(None, "--record", help="draw the position of this "
                                       "game record (agon play --record)"),
    at: int | None = typer.Option(None, "--at", min=0, help="after the record's first N "
                                  "actions (0: the start; default: the end)"),
    out: Path | None = typer.Option(None, "--out", "-o", help="write FILE.svg, or FILE.png "
                                    "when cairosvg is installed (pip install "
                                    "'agon-referee[png]'); default: SVG on stdout"),
    force: bool = typer.Option(False, "--force", help="with --out: replace FILE even when "
                               "it holds something other than a picture"),
    rulesets_path: RulesetsPath = None,
) -> None:
    """Draw the game's map: spaces, connections and a legend, and with --record every
    piece, control and marker everyone could see at that point of the game.

    Positions come from the ruleset (docs/maps.md).  A record must be of this
    ruleset and replay to what it claims; one that does not (tampered, or of
    another game) is refused.  Examples: agon map city-states -o map.svg;
    agon map earth-and-water --record game.json --at 40 -o turn.png
    """
    if out is not None and out.suffix.lower() not in FORMATS:
        fail(f"{out}: --out must end in .svg or .png", code=2)
    if at is not None and record is None:
        fail("--at needs --record: it counts the record's actions", code=2)
    if record is not None and not record.exists():   # as agon replay: the command line's
        fail(not_there(record), code=2)
    folders = list(rulesets_path or ())
    rs = open_ruleset(ruleset, folders)
    if out is not None:
        check_output(out, "--out", PICTURE_FILE, force=force, inputs=(record, Path(rs.source)))
    try:
        if record is None:
            svg = map_svg(rs)
        else:
            data = checked_record(record, rs)
            count = len(data["actions"])
            if at is not None and at > count:
                fail(f"--at {at}: the record has {count} actions (0 to {count})", code=2)
            seats = played_seats(data, engine_class(rs.engine)(rs))
            svg = map_svg(rs, record_position(data, rs, at), seats)
    except DRAWING_ERRORS as exc:
        fail(f"cannot draw the map: {exc}")
    if out is None:
        typer.echo(svg, nl=False)
        return
    save(svg, out)


def save(svg: str, out: Path) -> None:
    try:
        write_picture(svg, out)
    except NoPicture as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write {out}: {exc.strerror or exc}")
    typer.echo(f"wrote {out}", err=True)


def checked_record(path: Path, rs: Ruleset, data: dict[str, Any] | None = None
                   ) -> dict[str, Any]:
    """The record at `path` (or `data`, read from there already), once its moves are
    proven to be a game of `rs`.

    Fails (exit 1) on a record of another ruleset, or one whose moves do not
    replay to its result and digest, or whose signature is broken; warns on
    stderr about what is only not proven.
    """
    if data is None:
        try:
            data = load_record(path)
        except RecordError as exc:
            fail(str(exc))
    played = data["ruleset"].get("id")
    if played != rs.id:
        fail(f"{path} is a game of {played!r}, not of {rs.id!r}: give its ruleset")
    keyring = existing_keyring()
    try:
        warnings = drawing_warnings(data, rs, keyring)
    except RecordError as exc:
        fail(f"{path} does not show a game as played: {exc}")
    except DRAWING_ERRORS as exc:
        fail(f"{path}: cannot replay ({exc})")
    for warning in warnings:
        typer.echo(f"agon: warning: {path}: {warning}", err=True)
    return data
