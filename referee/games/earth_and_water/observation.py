"""Earth & Water for learning agents: the view as a vector, the action catalogue.

Sizes come from the ruleset (cities, ports, cards, pieces); the step names and
the once-only effects come from the view schema.  docs/games/earth-and-water.md
lists the groups.
"""

from __future__ import annotations

from typing import Any

from ...observation import Group, ObservationEncoder, View, flag, multi_hot, one_hot, scaled
from ...view_schema import enum_at

SIDES = ("persia", "greece")
PIECES = ("armies", "fleets")
SWITCHES = ("bridge", "carneia", "acropolis", "darius_dead", "xerxes_dead")


class Encoder(ObservationEncoder):
    def build_groups(self) -> list[Group]:
        data = self.ruleset.data
        self.cities = [c["name"] for c in data["cities"]]
        self.ports = [c["name"] for c in data["cities"] if c.get("port")]
        self.cards = sorted(int(c["number"]) for c in data["cards"])
        self.pieces = {(s, p): int(data["pieces"][s][p]) for s in SIDES for p in PIECES}
        self.campaigns = list(range(1, int(data["campaigns"]) + 1))
        self.steps = enum_at("earth-and-water", "step")
        self.once = enum_at("earth-and-water", "used", "[]")
        self.budget = max(int(data["preparation"][s]["budget"]) for s in SIDES)
        self.limit = int(data["score_limit"])
        n_cards = len(self.cards)
        return [
            Group("seat", 2, lambda v: one_hot(v["seat"], SIDES)),
            Group("campaign", len(self.campaigns), lambda v: one_hot(v["campaign"], self.campaigns)),
            Group("score", 1, lambda v: [scaled(v["score"], self.limit)]),
            Group("step", len(self.steps), lambda v: one_hot(v["step"], self.steps)),
            Group("to_act", 3, lambda v: one_hot(v["to_act"], [*SIDES, None])),
            Group("turn", 2, lambda v: one_hot(v["turn"], SIDES)),
            Group("cities", 7 * len(self.cities), self.encode_cities),
            Group("reserve", 4, lambda v: [scaled(v["reserve"][s][p], self.pieces[s, p])
                                           for s in SIDES for p in PIECES]),
            Group("hand", n_cards, lambda v: multi_hot(v["hand"], self.cards)),
            Group("hand_counts", 2, lambda v: [scaled(v["hand_counts"][s], n_cards) for s in SIDES]),
            Group("piles", 2, lambda v: [scaled(v["deck_count"], n_cards),
                                         scaled(v["discard_count"], n_cards)]),
            Group("discard_top", n_cards + 1, lambda v: one_hot(v["discard_top"], [*self.cards, None])),
            Group("switches", len(SWITCHES), lambda v: [flag(v[key]) for key in SWITCHES]),
            Group("used", len(self.once), lambda v: multi_hot(v["used"], self.once)),
            Group("passed", 2, lambda v: [flag(v["passed"][s]) for s in SIDES]),
            Group("talents", 1, lambda v: [scaled(v["talents"], self.budget)]),
        ]

    def encode_cities(self, view: View) -> list[float]:
        rows = {row["name"]: row for row in view["cities"]}
        out: list[float] = []
        for name in self.cities:
            row = rows[name]
            out += [scaled(row[f"{s}_{p}"], self.pieces[s, p]) for p in PIECES for s in SIDES]
            out += one_hot(row["control"], [*SIDES, None])
        return out

    def catalogue(self) -> list[str]:
        played = [s for s in self.seats if s in SIDES]
        most_armies = max(self.pieces[s, "armies"] for s in played)
        most_fleets = max(self.pieces[s, "fleets"] for s in played)
        carry = int(self.ruleset.data["battle"]["max_transport"])
        majors = [c["name"] for c in self.ruleset.data["cities"] if c.get("major") == "persia"]
        out = ["pass", "done", "buy_card", "build_bridge", "continue", "decline",
               "destroy_bridge", "keep_bridge"]
        for verb in ("raise_army", "origin_land", "retreat", "sacrifice", "place", "remove",
                     "relocate", "attrit"):
            out += [f"{verb} {city}" for city in self.cities]
        for verb in ("raise_fleet", "origin_sea", "retreat_sea", "place_fleet"):
            out += [f"{verb} {port}" for port in self.ports]
        out += [f"move_land {city} {k}" for city in self.cities for k in range(1, most_armies + 1)]
        out += [f"move_sea {port} {f} {a}" for port in self.ports
                for f in range(1, most_fleets + 1) for a in range(min(f, carry) + 1)]
        out += [f"target {city}" for city in majors]
        out += [f"target {city} {k}" for city in majors for k in range(1, self.royal_road() + 1)]
        for number in self.cards:
            out += [f"play {number} event", f"play {number} move", f"discard {number}",
                    f"react {number}"]
        return out

    def royal_road(self) -> int:
        """The most armies The Royal Road places (its card's parameter, 3 by default)."""
        for card in self.ruleset.data["cards"]:
            half: dict[str, Any] = card["persia"]
            if half.get("effect") == "royal_road":
                return int((half.get("params") or {}).get("max_armies", 3))
        return 0
