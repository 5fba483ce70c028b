"""City States for learning agents: the view as a vector, the action catalogue.

Players are listed from the observing seat's own first, then the others in
seat order after it, so "feature k" means the same player relative to the
agent whichever seat it plays.  Every vocabulary (spaces, cities, cards,
traits, skills, leader names) comes from the ruleset.
docs/games/city-states.md lists the groups.
"""

from __future__ import annotations

from ...observation import Group, ObservationEncoder, View, counts, flag, multi_hot, one_hot, scaled

PHASES = ["setup", "draw", "revenue", "upkeep", "recruit", "diplomacy", "first_move",
          "sea_battle", "land_battle", "second_move", "over"]
UNITS = ("armies", "rowers", "fleets", "transports")
GOLD_CAP = 100        # gold counted before the feature saturates
UNIT_CAP = 10         # units of one kind in one space
BAGGAGE_CAP = 20
STARVE_CAP = 5
RAZED_CAP = 6
INCOME_CAP = 10
LEADER_CAP = 3        # leaders of one side in one space, or holding one skill


class Encoder(ObservationEncoder):
    def build_groups(self) -> list[Group]:
        data = self.ruleset.data
        spaces = data["map"]["spaces"]
        self.spaces = [s["id"] for s in spaces]
        self.cities = [s["id"] for s in spaces if "city" in s]
        self.named = [s["id"] for s in spaces if s.get("city") == "named"]
        self.land = [s["id"] for s in spaces if not data["terrain"][s["terrain"]].get("sea")]
        self.ships = [s["id"] for s in spaces
                      if {"sea", "ships"} & set(data["terrain"][s["terrain"]])]
        self.cards = [c["id"] for c in data["cards"]]
        self.traits = list(data["traits"])
        self.skills = list(data["skills"])
        names = list(data["leader_names"])
        self.leader_names = names + [f"{name}-2" for name in names]
        self.hand_limit = int(data["hand"]["limit"])
        self.turns = int(data["turns"])
        self.baggage_most = int(data["recruit"]["baggage_per_city"])
        ransom = data["ransom"]
        self.ransoms = range(int(ransom["count"]), int(ransom["count"]) * int(ransom["die"]) + 1)
        n, seats, spaces_n = len(self.seats), len(self.seats), len(self.spaces)
        return [
            Group("seat", seats, lambda v: one_hot(v["seat"], self.seats)),
            Group("turn", 1 + len(PHASES) + seats, self.encode_turn),
            Group("players", n * (6 + len(self.traits)), self.encode_players),
            Group("spaces", spaces_n * (seats + len(UNITS) + 2), self.encode_spaces),
            Group("cities", len(self.cities) * (seats + 1 + 5 + len(self.traits) + 1),
                  self.encode_cities),
            Group("leaders", spaces_n * 2 + 2 * len(self.skills), self.encode_leaders),
            Group("hand", len(self.cards), lambda v: multi_hot(v["hand"], self.cards)),
            Group("known_hands", len(self.cards), lambda v: multi_hot(
                [c for cards in v["known_hands"].values() for c in cards], self.cards)),
            Group("piles", 2, lambda v: [scaled(v["deck"], len(self.cards)),
                                         scaled(len(v["discard"]), len(self.cards))]),
            Group("battle", 2 + spaces_n + 2 * (seats + 1) + 2, self.encode_battle),
            Group("group", 3 + spaces_n + 5, self.encode_group),
            Group("effects", 2 + spaces_n, self.encode_effects),
        ]

    # -- the groups -------------------------------------------------------------------------

    def relative(self, view: View) -> list[str]:
        """Seats from the viewer's own onwards."""
        return [view["seat"], *self.others(view["seat"])]

    def encode_turn(self, view: View) -> list[float]:
        return ([scaled(view["turn"], self.turns)] + one_hot(view["phase"], PHASES)
                + one_hot(view["active"], self.relative(view)))

    def encode_players(self, view: View) -> list[float]:
        out: list[float] = []
        for seat in self.relative(view):
            p = view["players"][seat]
            out += [scaled(p["gold"], GOLD_CAP), scaled(p["cards"], self.hand_limit + 3),
                    flag(p["holds_home"]), flag(p["out"]), flag(p["frozen"]),
                    flag(view["to_act"] == seat)]
            out += multi_hot(p["traits"], self.traits)
        return out

    def encode_spaces(self, view: View) -> list[float]:
        order = self.relative(view)
        width = len(order) + len(UNITS) + 2
        out = [0.0] * (len(self.spaces) * width)
        index = {space: i for i, space in enumerate(self.spaces)}
        for space in view["spaces"]:
            at = index[space["id"]] * width
            out[at + order.index(space["player"])] = 1.0
            at += len(order)
            for k, unit in enumerate(UNITS):
                out[at + k] = scaled(space[unit], UNIT_CAP)
            out[at + len(UNITS)] = scaled(space["baggage"], BAGGAGE_CAP)
            out[at + len(UNITS) + 1] = scaled(space["starvation"], STARVE_CAP)
        return out

    def encode_cities(self, view: View) -> list[float]:
        owners = [*self.relative(view), ""]
        traits = [*self.traits, ""]
        out: list[float] = []
        for city in view["cities"]:
            out += one_hot(city["owner"], owners)
            out += [flag(city["hostile"]), scaled(city["razed"], RAZED_CAP),
                    scaled(city["income"], INCOME_CAP), flag(city["besieged"]),
                    flag(city["no_income"])]
            out += one_hot(city["trait"], traits)
        return out

    def encode_leaders(self, view: View) -> list[float]:
        me = view["seat"]
        mine = [0] * len(self.spaces)
        theirs = [0] * len(self.spaces)
        my_skills, their_skills = [], []
        index = {space: i for i, space in enumerate(self.spaces)}
        for leader in view["leaders"]:
            if leader["state"] != "free":
                continue
            own = leader["player"] == me
            (mine if own else theirs)[index[leader["space"]]] += 1
            (my_skills if own else their_skills).extend(leader["skills"])
        return ([scaled(k, LEADER_CAP) for k in mine] + [scaled(k, LEADER_CAP) for k in theirs]
                + counts(my_skills, self.skills, LEADER_CAP)
                + counts(their_skills, self.skills, LEADER_CAP))

    def encode_battle(self, view: View) -> list[float] | None:
        b = view.get("battle")
        if b is None:
            return None
        order = self.relative(view)
        mine = sum(1 for c in b["cards"] if b[c["side"]] == view["seat"])
        return ([1.0, flag(b["sea"])] + one_hot(b["space"], self.spaces)
                + one_hot(b["attacker"], [*order, "rebels"])
                + one_hot(b["defender"], [*order, "neutral"])
                + [scaled(mine, 5), scaled(len(b["cards"]) - mine, 5)])

    def encode_group(self, view: View) -> list[float] | None:
        g = view.get("group")
        if g is None:
            return None
        return ([1.0, flag(g["by_sea"]), scaled(len(g["leaders"]), LEADER_CAP)]
                + one_hot(g["from"], self.spaces)
                + [scaled(g[unit], UNIT_CAP) for unit in UNITS]
                + [scaled(g["baggage"], BAGGAGE_CAP)])

    def encode_effects(self, view: View) -> list[float]:
        truce = view["truce"]
        hesitant = [s for spaces in view["hesitant"].values() for s in spaces]
        return ([flag(truce), scaled(truce.get("turn_ends_left", 0), 2)]
                + multi_hot(hesitant, self.spaces))

    # -- the actions ---------------------------------------------------------------------------

    def catalogue(self) -> list[str]:
        out = ["done", "pass", "stay", "fight", "spare", "plunder", "raze", "refuse",
               "army", "rowers", "fleet", "transport", "take rowers", "leave all baggage"]
        out += [f"leave {unit}" for unit in ("army", "rowers", "fleet", "transport", "baggage")]
        out += [f"baggage {k}" for k in range(1, self.baggage_most + 1)]
        out += [f"pay {k}" for k in self.ransoms]
        out += [f"home {space}" for space in self.named]
        out += [f"recruit {city}" for city in self.cities]
        out += [f"roll {city}" for city in self.cities]
        out += [f"move {space}" for space in self.land]
        out += [f"sail {space}" for space in self.ships]
        for verb in ("to", "attack", "hold", "retreat", "target"):
            out += [f"{verb} {space}" for space in self.spaces]
        out += [f"target {seat}" for seat in self.seats]
        for verb in ("leave", "target", "execute", "ransom"):
            out += [f"{verb} {name}" for name in self.leader_names]
        for card in self.cards:
            out += [f"play {card}", f"discard {card}"]
        return out
