"""Xenophon and the Ten Thousand for learning agents: the view as a vector, the action catalogue.

Armies are listed from the observing seat's own first, then the others in seat
order after it, so "feature k" means the same army relative to the agent
whichever seat it plays.  Every vocabulary (leaders, phases, rolls, tables,
flags, cards) comes from the ruleset.  docs/games/ten-thousand.md lists the groups.
"""

from __future__ import annotations

from typing import Any

from ...observation import (
    Group,
    ObservationEncoder,
    View,
    flag,
    multi_hot,
    one_hot,
    scaled,
)
from .rules import GameRules

TOKEN_CAP = 10        # tokens of one kind counted before the feature saturates
MODIFIER_CAP = 12     # the sum of a roll's modifiers, either way


class Encoder(ObservationEncoder):
    def build_groups(self) -> list[Group]:
        data = self.ruleset.data
        self.rules = GameRules(data)
        self.men = int(data["start"]["men"])
        self.finish = int(data["tracks"]["distance"]["finish"])
        self.time = int(data["tracks"]["time"]["spaces"])
        self.cards = sorted(self.rules.cards)
        self.leaders = [lead.id for lead in self.rules.leaders] + [self.rules.unnamed.id, None]
        self.phases = [phase["id"] for phase in data["phases"]] + [None]
        self.rolls = list(data["rolls"])
        self.tables = list(data["tables"])
        self.flags = sorted(flags_named(data))
        self.most_dice = max(table.dice for table in self.rules.tables.values())
        seats = len(self.seats)
        army = 2 + len(self.rules.token_names) + len(self.leaders) + 5 + seats
        return [
            Group("round", 1, lambda v: [scaled(v["round"], self.time)]),
            Group("armies", seats * army, self.encode_armies),
            Group("phase", len(self.phases), lambda v: one_hot(v["phase"], self.phases)),
            Group("flags", len(self.flags), lambda v: multi_hot(v["flags"], self.flags)),
            Group("piles", 2, lambda v: [scaled(v["deck"], len(self.cards)),
                                         scaled(v["discard"], len(self.cards))]),
            Group("hand", len(self.cards),
                  lambda v: multi_hot([c["number"] for c in v["hand"]], self.cards)),
            Group("window", 1 + seats + len(self.rolls) + len(self.tables) + 3, self.encode_window),
        ]

    def relative(self, view: View) -> list[str]:
        """Seats from the viewer's own onwards."""
        return [view["seat"], *self.others(view["seat"])]

    def encode_armies(self, view: View) -> list[float]:
        out: list[float] = []
        for seat in self.relative(view):
            a = view["armies"][seat]
            out += [scaled(a["men"], self.men), scaled(a["space"], self.finish)]
            out += [scaled(a["tokens"][t], TOKEN_CAP) for t in self.rules.token_names]
            out += one_hot(a["leader"], self.leaders)
            out += [scaled(a["hand"], self.rules.hand_limit), flag(a["arrived"] is not None),
                    scaled(a["arrived"], self.time), flag(a["destroyed"]),
                    flag(view["current"] == seat)]
            out += one_hot(view["order"].index(seat), list(range(len(self.seats))))
        return out

    def encode_window(self, view: View) -> list[float] | None:
        w: dict[str, Any] | None = view["window"]
        if w is None:
            return None
        mods = sum(value for _, value in w["modifiers"])
        return ([1.0] + one_hot(w["roller"], self.relative(view)) + one_hot(w["roll"], self.rolls)
                + one_hot(w["table"], self.tables)
                + [scaled(sum(w["dice"]), 6 * self.most_dice), scaled(mods, MODIFIER_CAP),
                   scaled(w["total"], 6 * self.most_dice + MODIFIER_CAP)])

    def catalogue(self) -> list[str]:
        rules = self.rules
        out = ["pass", "skip", "leader reroll"]
        out += [f"leader {lead.id}" for lead in rules.leaders]
        for step in sorted({lead.adjust_by for lead in rules.leaders if lead.adjust_by}):
            out += [f"leader +{step}", f"leader -{step}"]
        out += [table.id for table in rules.tables.values() if table.optional]
        for number in self.cards:
            card = rules.cards[number]
            if not card.penalising:   # penalising cards are played by the engine, never offered
                out += [f"play {number} {label}"
                        for label in dict.fromkeys(opt.label for opt in card.options)]
            out.append(f"discard {number}")
        return out


def flags_named(data: dict[str, Any]) -> set[str]:
    """Every turn flag the ruleset's tables set or test (`flags`, `choice_flags`,
    `next_turn_flags`, `flag`)."""
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("flags", "choice_flags", "next_turn_flags"):
                    found.update(value)
                elif key == "flag":
                    found.add(value)
                else:
                    walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(data["tables"])
    return found
