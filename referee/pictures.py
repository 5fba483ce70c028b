"""A game's map as a picture: the engine's `picture` module, a record's position, files.

Each engine draws through a ``picture`` module beside its ``view`` with two
functions: ``board(ruleset) -> mapdraw.Board`` (what never changes) and
``position(ruleset, state, seats) -> mapdraw.Position`` (what a moment of the
game puts on it, from public information only).  This module finds that
module, replays a record to the position wanted and writes SVG or PNG.

For a person at the table (the human player's ``map`` command)::

    from agon.referee.pictures import save_map
    save_map(ruleset, state, seats, "map.svg")   # or .png with cairosvg installed
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from .engine import State
from .games import MissingModule, engine_class, module_beside
from .mapdraw import Board, Position, render_svg
from .records import RecordError, replay_steps
from .ruleset_model import Ruleset

FORMATS = (".svg", ".png")
PNG_HINT = "PNG needs cairosvg: pip install 'agon-referee[png]' (or write .svg)"


class NoPicture(LookupError):
    """The engine has no picture module, or PNG was asked for without cairosvg."""


def picture_module(ruleset: Ruleset) -> ModuleType:
    """The ``picture`` module beside the ruleset's engine."""
    try:
        return module_beside(ruleset.engine, "picture")
    except MissingModule as missing:
        raise NoPicture(f"engine {ruleset.engine!r} cannot draw its map: add {missing.where} "
                        "with board() and position() (see agon.referee.pictures)") from None


def board_of(ruleset: Ruleset) -> Board:
    return picture_module(ruleset).board(ruleset)


def position_of(ruleset: Ruleset, state: State, seats: Sequence[str]) -> Position:
    """What everyone may see of `state` on the map."""
    return picture_module(ruleset).position(ruleset, state, list(seats))


def map_svg(ruleset: Ruleset, state: State | None = None, seats: Sequence[str] = ()) -> str:
    """The map as SVG text: the bare board, or with `state`'s pieces and markers."""
    board = board_of(ruleset)
    return render_svg(board, position_of(ruleset, state, seats) if state is not None else None)


def record_position(record: dict[str, Any], ruleset: Ruleset, at: int | None = None) -> State:
    """The position after the record's first `at` actions (default: all of them).

    The record should be checked first (`records.drawing_warnings`); an
    action that does not replay raises RecordError.
    """
    count = len(record["actions"])
    at = count if at is None else at
    if not 0 <= at <= count:
        raise ValueError(f"the record has {count} actions: --at must be between 0 and {count}")
    engine = engine_class(ruleset.engine)(ruleset)
    for step in replay_steps(record, engine):
        if step.number == at:
            return step.state
    raise RecordError(f"the record stops before action {at}")   # pragma: no cover


def write_picture(svg: str, path: str | Path) -> Path:
    """Write `svg` to `path`: SVG text, or PNG (by the suffix) through cairosvg.

    Raises NoPicture for PNG without cairosvg, ValueError for another suffix,
    OSError when the file cannot be written.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise ValueError(f"{path}: the picture's file must end in .svg or .png")
    if suffix == ".svg":
        path.write_text(svg, encoding="utf-8")
        return path
    try:
        import cairosvg
    except (ImportError, OSError):   # OSError: the package is there, the cairo library is not
        raise NoPicture(PNG_HINT) from None
    path.write_bytes(cairosvg.svg2png(bytestring=svg.encode("utf-8")))
    return path


def save_map(ruleset: Ruleset, state: State | None, seats: Sequence[str],
             path: str | Path) -> Path:
    """Draw `state` (None: the bare board) and write it to `path` (.svg or .png)."""
    return write_picture(map_svg(ruleset, state, seats), path)
