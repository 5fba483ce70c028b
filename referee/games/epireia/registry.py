"""The step and interrupt tables of the state machine, and the loop that runs it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...engine import Decision
from .position import Position


@dataclass(frozen=True)
class Step:
    """A named step: who decides now, how an answer applies, what happens on its own.

    `allows` (optional) tells whether one action is legal without listing every
    other choice, for steps whose lists are long; by default the decisions are
    listed.
    """

    decisions: Callable[[Position], list[Decision]]
    apply: Callable[[Position, str, str], None]
    settle: Callable[[Position], bool]
    allows: Callable[[Position, str, str], bool] | None = None


@dataclass(frozen=True)
class Interrupt:
    """A choice that interrupts a step (a bonus, a payment detail)."""

    prompt: Callable[[Position, dict[str, Any]], str]
    legal: Callable[[Position, dict[str, Any]], list[str]]
    apply: Callable[[Position, dict[str, Any], str], None]


STEPS: dict[str, Step] = {}
INTERRUPTS: dict[str, Interrupt] = {}
CHECKS: list[Callable[[Position], None]] = []


def no_decisions(st: Position) -> list[Decision]:
    return []


def never(st: Position, seat: str, action: str) -> None:
    raise AssertionError("automatic step takes no action")


def stays(st: Position) -> bool:
    return False


def step(name: str, decisions=no_decisions, apply=never, settle=stays, allows=None) -> None:
    STEPS[name] = Step(decisions, apply, settle, allows)


def interrupt(name: str, prompt, legal, apply) -> None:
    INTERRUPTS[name] = Interrupt(prompt, legal, apply)


def decisions(st: Position) -> list[Decision]:
    """Who must decide now: the first interrupt in the queue, else the current step."""
    if st.g["queue"]:
        item = st.g["queue"][0]
        handler = INTERRUPTS[item["kind"]]
        return [Decision(item["seat"], handler.prompt(st, item), handler.legal(st, item))]
    step = STEPS.get(st.g["step"])
    return step.decisions(st) if step else []


def allows(st: Position, seat: str, action: str) -> bool:
    """Whether `seat` may take `action` now."""
    if st.g["queue"]:
        item = st.g["queue"][0]
        return item["seat"] == seat and action in INTERRUPTS[item["kind"]].legal(st, item)
    current = STEPS.get(st.g["step"])
    if current is None:
        return False
    if current.allows is not None:
        return current.allows(st, seat, action)
    return any(d.seat == seat and action in d.legal for d in current.decisions(st))


def advance(st: Position) -> None:
    """Run automatic work until a seat must decide or the game is over."""
    g = st.g
    checks, steps = CHECKS, STEPS
    for _ in range(100000):
        queue = g["queue"]
        if queue:
            item = queue[0]
            handler = INTERRUPTS[item["kind"]]
            legal = handler.legal(st, item)
            if not legal:
                queue.pop(0)
                continue
            if len(legal) == 1 and item.get("auto_single"):
                handler.apply(st, item, legal[0])
                continue
            return
        for check in checks:
            check(st)
        current = steps.get(g["step"])
        if current is None or not current.settle(st):
            return
    raise RuntimeError("epireia: the state machine did not settle")
