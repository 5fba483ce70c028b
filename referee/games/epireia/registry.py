"""The step and interrupt tables of the state machine, and the loop that runs it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...engine import Decision

if TYPE_CHECKING:
    from ...games.epireia.state import EpireiaState


@dataclass(frozen=True)
class Step:
    """A named step: who decides now, how an answer applies, what happens on its own."""

    decisions: Callable[[EpireiaState], list[Decision]]
    apply: Callable[[EpireiaState, str, str], None]
    settle: Callable[[EpireiaState], bool]


@dataclass(frozen=True)
class Interrupt:
    """A choice that interrupts a step (a bonus, a payment detail)."""

    prompt: Callable[[EpireiaState, dict[str, Any]], str]
    legal: Callable[[EpireiaState, dict[str, Any]], list[str]]
    apply: Callable[[EpireiaState, dict[str, Any], str], None]


STEPS: dict[str, Step] = {}
INTERRUPTS: dict[str, Interrupt] = {}
CHECKS: list[Callable[[EpireiaState], None]] = []


def no_decisions(st: EpireiaState) -> list[Decision]:
    return []


def never(st: EpireiaState, seat: str, action: str) -> None:
    raise AssertionError("automatic step takes no action")


def stays(st: EpireiaState) -> bool:
    return False


def step(name: str, decisions=no_decisions, apply=never, settle=stays) -> None:
    STEPS[name] = Step(decisions, apply, settle)


def interrupt(name: str, prompt, legal, apply) -> None:
    INTERRUPTS[name] = Interrupt(prompt, legal, apply)


def advance(st: EpireiaState) -> None:
    """Run automatic work until a seat must decide or the game is over."""
    for _ in range(100000):
        if st.g["queue"]:
            item = st.g["queue"][0]
            handler = INTERRUPTS[item["kind"]]
            legal = handler.legal(st, item)
            if not legal:
                st.g["queue"].pop(0)
                continue
            if len(legal) == 1 and item.get("auto_single"):
                handler.apply(st, item, legal[0])
                continue
            return
        for check in CHECKS:
            check(st)
        current = STEPS.get(st.g["step"])
        if current is None or not current.settle(st):
            return
    raise RuntimeError("epireia: the state machine did not settle")
