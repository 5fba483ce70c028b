"""A recorded game as one self-contained HTML page that steps through it.

The page holds the map's board once (`Canvas.frame`) and, for every
step (the start, then each action), only the slots whose drawing changed,
as indexes into one list of distinct SVG fragments; its script rebuilds the
frames when it opens.  Next to the map is the log: the events everyone saw,
never one meant for a single seat, and never the action itself, which may
name a hidden card or a secret choice.  Everything is inline (style, script,
data), so the page opens without a network.
"""

from __future__ import annotations

import json
from html import escape
from importlib import resources
from typing import Any

from .engine import Event
from .games import engine_class
from .mapdraw import Canvas, status_rows
from .pictures import board_of, picture_module
from .records import played_seats, replay_steps
from .ruleset_model import Ruleset

TEMPLATE = "replay_page.html"


def public(events: list[Event], seats: list[str]) -> list[str]:
    """The texts of the events every seat may see."""
    return [e.text for e in events if e.to is None or e.to >= set(seats)]


def replay_page(record: dict[str, Any], ruleset: Ruleset) -> str:
    """The page for `record` (checked beforehand: `records.drawing_warnings`)."""
    engine = engine_class(ruleset.engine)(ruleset)
    canvas = Canvas(board_of(ruleset))
    painter = picture_module(ruleset)
    seats = played_seats(record, engine)
    fragments: dict[str, int] = {"": 0}
    slots: dict[str, int] = {}
    steps: list[list[int]] = []
    log: list[list[Any]] = []
    shown: dict[str, str] = {}
    rows = 0
    for step in replay_steps(record, engine):
        position = painter.position(ruleset, step.state, seats)
        rows = max(rows, len(status_rows(position)))
        changes: list[int] = []
        drawn = canvas.slots(position)
        for slot in [*drawn, *(s for s in shown if s not in drawn)]:
            fragment = drawn.get(slot, "")
            if shown.get(slot, "") != fragment:
                changes += [slots.setdefault(slot, len(slots)),
                            fragments.setdefault(fragment, len(fragments))]
                shown[slot] = fragment
        steps.append(changes)
        title = "The start" if step.seat is None else f"{step.number}. {step.seat}"
        log.append([title, public(step.events, seats)])
    result = step.state.result()
    if result is not None:
        log[-1][1].append(f"Result: {result.reason}")
    for seat, forfeit in sorted((record.get("forfeits") or {}).items()):
        log[-1][1].append(f"{seat} forfeits ({forfeit.get('reason')})")
    data = {"slots": list(slots), "fragments": list(fragments), "steps": steps, "log": log}
    return fill(ruleset, record, canvas.frame(rows), data)


def fill(ruleset: Ruleset, record: dict[str, Any], svg: str, data: dict[str, Any]) -> str:
    """The template with the title, the players, the board and the data put in."""
    template = resources.files(__package__).joinpath(TEMPLATE).read_text(encoding="utf-8")
    players = ", ".join(f"{seat}: {describe_player(who)}" for seat, who in record["seats"].items())
    header = (f"<p>{escape(ruleset.name)} ({escape(ruleset.ref)}), "
              f"{len(record['actions'])} actions</p><p>Players: {escape(players)}</p>")
    # JSON inside <script>: no "<" at all, so "</script>" or "<!--" cannot occur.
    payload = json.dumps(data, separators=(",", ":"), ensure_ascii=False).replace("<", "\\u003c")
    return (template.replace("<!--AGON:TITLE-->", escape(f"{ruleset.name}: replay"))
            .replace("<!--AGON:HEADER-->", header)
            .replace("<!--AGON:SVG-->", svg)
            .replace("<!--AGON:DATA-->", payload))


def describe_player(who: Any) -> str:
    if isinstance(who, dict):
        return " ".join(str(who[key]) for key in ("name", "version") if who.get(key)) or "?"
    return str(who)
