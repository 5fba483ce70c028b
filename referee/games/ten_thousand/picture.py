"""The Ten Thousand's Distance track for `agon map` and replay pages (agon.referee.pictures).

The game has no map but the Distance track from Cunaxa to Trapezus: its
length and end names come from the ruleset (`tracks.distance`) and it is laid
out in rows that turn back at each end, like the printed track.  The position
reads only the public parts of a view: each army's space, men, tokens, leader
and card count, the Time track, whose turn and which phase; never a hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...engine import State
from ...mapdraw import (
    Board,
    Link,
    LinkKind,
    Marker,
    Piece,
    PieceKind,
    Position,
    Space,
    SpaceKind,
    counted,
    seat_sides,
)
from ...ruleset_model import Ruleset

PER_ROW = 10
STEP_X, STEP_Y = 80, 95


def track_position(number: int) -> tuple[float, float]:
    """Where space `number` (1-based) is drawn: rows of PER_ROW, every other row reversed."""
    row, col = divmod(number - 1, PER_ROW)
    if row % 2:
        col = PER_ROW - 1 - col
    return col * STEP_X, row * STEP_Y


def board(ruleset: Ruleset) -> Board:
    track = ruleset.data["tracks"]["distance"]
    ends = {track["start"]: track.get("start_name", "start"),
            track["finish"]: track.get("finish_name", "finish")}
    spaces = []
    for number in range(1, track["spaces"] + 1):
        x, y = track_position(number)
        spaces.append(Space(str(number), str(number), x, y,
                            "end" if number in ends else "space", ends.get(number, "")))
    links = [Link(str(n), str(n + 1), "march") for n in range(1, track["spaces"])]
    return Board(
        title=f"{ruleset.name}: the Distance track",
        spaces=tuple(spaces),
        links=tuple(links),
        space_kinds=(SpaceKind("space", "space of the Distance track", "circle", "#f1ead6",
                               "#6b5a3a", 11),
                     SpaceKind("end", "start and finish", "box", "#f8e7b0", "#6b5a3a", 13)),
        link_kinds=(LinkKind("march", "the march, space to space"),),
        piece_kinds=(PieceKind("army", "army (men on hover)", "pawn"),),
    )


def position(ruleset: Ruleset, state: State, seats: Sequence[str]) -> Position:
    view = state.view(seats[0])
    data = ruleset.data
    leaders = {leader["id"]: leader["name"] for leader in data.get("leaders", [])}
    finish = data["tracks"]["distance"]["finish"]
    out = Position(sides=seat_sides(seats))
    for seat, army in view["armies"].items():
        if army["destroyed"]:
            continue
        space = str(finish if army["arrived"] else army["space"])
        out.pieces.append(Piece(space, seat, "army", 1, f"{army['men']:,} men"))
    for seat, army in view["armies"].items():
        if army["destroyed"]:
            out.markers.append(Marker(str(army["space"]), f"{seat} destroyed", seat))
    out.status = status(view, data, leaders)
    return out


def status(view: dict[str, Any], data: dict[str, Any], leaders: dict[str, str]) -> list[str]:
    time = data["tracks"]["time"]["spaces"]
    lines = [f"Time track: {view['round']} of {time}"]
    if view["current"]:
        phase = next((p["name"] for p in data["phases"] if p["id"] == view["phase"]),
                     view["phase"])
        lines.append(f"{view['current']}'s turn, {phase}")
    if view["flags"]:
        lines.append(f"This turn: {', '.join(f.replace('_', ' ') for f in view['flags'])}")
    token_names = list(data["tokens"])
    for seat, army in view["armies"].items():
        where = (f"arrived on turn {army['arrived']}" if army["arrived"] else
                 "destroyed" if army["destroyed"] else f"space {army['space']}")
        tokens = ", ".join(f"{name} {army['tokens'].get(name, 0)}" for name in token_names)
        leader = leaders.get(army["leader"] or "", army["leader"] or "no leader yet")
        lines.append(f"{seat} ({leader}): {army['men']:,} men, {where}; tokens {tokens}; "
                     f"{counted(army['hand'], 'card')}")
    return lines
