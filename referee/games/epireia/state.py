"""The agon State interface of an Epireia game, over its `Position`."""

from __future__ import annotations

import random
from typing import Any

from ...engine import Decision, Event, IllegalAction, Result, State, random_source, seat_index
from . import board, notes, registry, views
from .position import Position


class EpireiaState(Position, State):
    """One game of Epireia, as the referee and bots see it.

    ``clone()`` is a C-speed copy of the data, random streams are copied only
    when a copy rolls them, and event texts are written only when someone
    reads them.
    """

    def pending(self) -> list[Decision]:
        # listed anew on every call (tests and tools edit `g` between calls), and
        # remembered so that apply() need not list them again
        self._listed = registry.decisions(self)
        return self._listed

    def apply(self, seat: str, action: str) -> list[Event]:
        listed, self._listed = self._listed, []
        for decision in listed:
            if decision.seat == seat and decision.offers(action):
                break
        else:
            if self.g["result"]:
                raise IllegalAction("the game is over")
            if not registry.allows(self, seat, action):
                raise IllegalAction(f"{action!r} is not a legal action for {seat} now")
        self.events = []
        queue = self.g["queue"]
        if queue:
            item = queue[0]
            registry.INTERRUPTS[item["kind"]].apply(self, item, action)
        else:
            registry.STEPS[self.g["step"]].apply(self, seat, action)
        registry.advance(self)
        events, self.events = self.events, []
        return events

    def result(self) -> Result | None:
        data = self.g.get("result")
        return Result.from_json(data) if data else None

    def clone(self) -> EpireiaState:
        return self.copy()

    def view(self, seat: str) -> dict[str, Any]:
        seat_index(self.g["seats"], seat)   # an unknown seat is refused, as in every game
        return views.view(self, seat)

    def describe(self, seat: str) -> str:
        seat_index(self.g["seats"], seat)
        return board.describe(self, seat)

    def notes(self, decision: Decision) -> dict[str, str]:
        return notes.notes(self, decision)

    def determinize(self, seat: str, rng: random.Random | int) -> EpireiaState:
        seat_index(self.g["seats"], seat)
        return views.determinize(self, seat, random_source(rng))
