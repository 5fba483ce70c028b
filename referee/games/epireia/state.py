"""One Epireia position: a JSON-ready dict `g` plus the named random streams.

The game is a state machine.  `g["step"]` names the current step; each step
module registers how to list its legal actions and apply them.  Choices that
interrupt a step (paying a discount, taking a Prestige bonus, recruiting a
figure) sit in the `g["queue"]` and are answered before the step goes on.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from ...engine import Decision, Event, IllegalAction, Result, State
from ...games.epireia import registry
from ...games.epireia.tables import Tables
from ...rng import rng_from_state, rng_state


class EpireiaState(State):
    def __init__(self, tables: Tables, g: dict[str, Any], rngs: dict[str, random.Random]) -> None:
        self.t = tables
        self.g = g
        self.rng = rngs
        self.events: list[Event] = []
        self.dice_i = 0  # position in the current resolution task's recorded dice
        self.answer_i = 0

    # ------------------------------------------------------------ helpers
    def player(self, seat: str) -> dict[str, Any]:
        return self.g["players"][seat]

    def name(self, seat: str | None) -> str:
        if seat is None or seat not in self.g["players"]:
            return str(seat)
        city = self.player(seat)["city"]
        return f"{seat} ({self.t.cities[city]['name']})" if city else seat

    def league_of(self, seat: str) -> str:
        return self.player(seat)["league"]

    def league_seats(self, league: str) -> frozenset[str]:
        return frozenset(s for s in self.g["seats"] if self.player(s)["league"] == league)

    def ordered(self, league: str) -> list[str]:
        return [s for s in self.g["seats"] if self.player(s)["league"] == league]

    def emit(self, kind: str, text: str, data: dict[str, Any] | None = None,
             to: frozenset[str] | None = None) -> None:
        self.events.append(Event(kind, text, data or {}, to))

    def push(self, item: dict[str, Any]) -> None:
        self.g["queue"].append(item)

    def roll(self, stream: str = "dice") -> int:
        return self.rng[stream].randint(1, self.t.die)

    def constraint(self) -> dict[str, Any]:
        scenario = self.g["scenario"]
        if not scenario or scenario["done"]:
            return {}
        return self.t.scenarios[scenario["id"]].get("constraint", {})

    def augur_effect(self) -> dict[str, Any]:
        number = self.g.get("augur")
        return self.t.augurs[number]["effect"] if number else {}

    def solo_constraint(self) -> dict[str, Any]:
        solo = self.g.get("solo")
        return self.t.solo_scenarios[solo["scenario"]].get("constraint", {}) if solo else {}

    def all_constraints(self) -> dict[str, Any]:
        return {**self.solo_constraint(), **self.constraint()}

    # ------------------------------------------------------------ State API
    def pending(self) -> list[Decision]:
        if self.g["queue"]:
            item = self.g["queue"][0]
            handler = registry.INTERRUPTS[item["kind"]]
            return [Decision(item["seat"], handler.prompt(self, item), handler.legal(self, item))]
        step = registry.STEPS.get(self.g["step"])
        return step.decisions(self) if step else []

    def apply(self, seat: str, action: str) -> list[Event]:
        self.events = []
        for decision in self.pending():
            if decision.seat == seat and action in decision.legal:
                break
        else:
            raise IllegalAction(f"{action!r} is not a legal action for {seat} now")
        if self.g["queue"]:
            item = self.g["queue"][0]
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
        rngs = {}
        for name, rng in self.rng.items():
            copy_rng = random.Random()
            copy_rng.setstate(rng.getstate())
            rngs[name] = copy_rng
        return EpireiaState(self.t, copy.deepcopy(self.g), rngs)

    def to_json(self) -> dict[str, Any]:
        return {"game": "epireia", "g": copy.deepcopy(self.g),
                "rng": {name: rng_state(rng) for name, rng in self.rng.items()}}

    @classmethod
    def from_json(cls, tables: Tables, data: dict[str, Any]) -> EpireiaState:
        rngs = {name: rng_from_state(s) for name, s in data["rng"].items()}
        return cls(tables, copy.deepcopy(data["g"]), rngs)

    def view(self, seat: str) -> dict[str, Any]:
        from ...games.epireia.views import view
        return view(self, seat)

    def describe(self, seat: str) -> str:
        from ...games.epireia.views import describe
        return describe(self, seat)

    def determinize(self, seat: str, rng: random.Random) -> EpireiaState:
        from ...games.epireia.views import determinize
        return determinize(self, seat, rng)
