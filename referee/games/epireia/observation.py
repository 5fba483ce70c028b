"""Epireia for learning agents: the view as a vector, the action catalogue.

Seats are listed from the observing seat's own first, then the others in seat
order; leagues from the observer's own first; owners are coded by their relation
to the observer (me, a teammate, an opponent, the solo enemy).  Every vocabulary
comes from the ruleset, the step names from the view schema.
docs/games/epireia.md lists the groups.
"""

from __future__ import annotations

from typing import Any

from ...observation import (
    Group,
    ObservationEncoder,
    View,
    counts,
    flag,
    multi_hot,
    one_hot,
    scaled,
)
from ...view_schema import enum_at
from .tables import Tables

RELATIONS = ("me", "teammate", "opponent", "enemy")
COUNTER_CAP = 10   # buildings, brigands, empire successes, tokens counted per scenario
PILE_CAP = 10      # tokens of one deck in a reserve or a battle pool
ACTION_CAP = 4     # development actions left, administrator uses spent


class Encoder(ObservationEncoder):
    def build_groups(self) -> list[Group]:
        t = Tables(self.ruleset.data)
        self.t = t
        self.leagues = list(t.leagues)
        self.cities = list(t.cities)
        self.figures = list(t.figures)
        self.decks = list(t.tokens)
        self.kinds = sorted({spec["type"] for spec in t.tokens.values()})
        self.places = ["home", *t.empire_order, *t.territory_order, *t.city_order]
        self.maritime = [x for x in t.territory_order if t.territories[x]["maritime"]]
        self.slots = [f"{front}-{column + 1}-{row + 1}" for front, column, row in t.slots()]
        self.fronts = [front["id"] for front in t.fronts]
        self.columns = [f"{front}-{c + 1}" for front in self.fronts
                        for c in range(t.battlefield["columns"])]
        self.top_power = max(int(p) for spec in t.tokens.values() for p in spec["powers"])
        self.deck_sizes = {d: len(t.deck_contents(d)) for d in self.decks}
        self.augurs = sorted(t.augurs)
        self.solo_turns = max([s["turns"] for s in t.solo_scenarios.values()], default=0)
        self.objectives = max([len(s["objectives"]) for s in t.solo_scenarios.values()], default=0)
        self.turns = max(self.solo_turns, int(self.options.get("max_turns") or 0), 1)
        self.steps = enum_at("epireia", "step")
        n = len(self.seats)
        return [
            Group("turn", 1, lambda v: [scaled(v["turn"], self.turns)]),
            Group("step", len(self.steps), lambda v: one_hot(v["step"], self.steps)),
            Group("scenario", 3 + len(t.scenarios) + 3, self.encode_scenario),
            Group("players", n * self.player_width(), self.encode_players),
            Group("figures", len(self.figures) * (len(self.places) + 1), self.encode_figures),
            Group("leagues", len(self.leagues) * self.league_width(), self.encode_leagues),
            Group("decks", len(self.decks),
                  lambda v: [scaled(v["decks"][d], self.deck_sizes[d]) for d in self.decks]),
            Group("territories", len(t.territory_order) * (len(RELATIONS) + 2),
                  self.encode_territories),
            Group("integrated", len(self.cities) * (2 + len(self.decks) + 1), self.encode_integrated),
            Group("battle", 1 + 3 * (len(self.fronts) + len(self.columns))
                  + len(self.leagues) * self.side_width(), self.encode_battle),
            Group("solo", 1 + len(self.augurs) + 2 + 2 * self.objectives, self.encode_solo),
            Group("enemy", len(self.cities) + len(self.slots) * len(self.decks), self.encode_enemy),
        ]

    # -- who is who, seen from the viewer ------------------------------------------------------

    def league_of(self, view: View, seat: str) -> str | None:
        return view["players"][seat]["league"]

    def relation(self, view: View, owner: str | None) -> str | None:
        """me / teammate / opponent for a seat, enemy for the solo enemy, None for nobody."""
        if owner is None or owner == "enemy":
            return owner
        if owner == view["seat"]:
            return "me"
        mine = self.league_of(view, view["seat"])
        return "teammate" if mine is not None and self.league_of(view, owner) == mine else "opponent"

    def league_code(self, view: View, league: str | None) -> list[float]:
        """[my league, the other league]; zeros for nobody."""
        mine = self.league_of(view, view["seat"])
        return [flag(league is not None and league == mine),
                flag(league is not None and league != mine)]

    def league_order(self, view: View) -> list[str]:
        mine = self.league_of(view, view["seat"])
        return sorted(self.leagues, key=lambda lg: lg != mine)

    # -- groups --------------------------------------------------------------------------------

    def encode_scenario(self, view: View) -> list[float] | None:
        s = view["scenario"]
        if s is None:
            return None
        return (one_hot(s["act"], [1, 2, 3]) + one_hot(s["id"], list(self.t.scenarios))
                + [flag(s["done"])] + self.league_code(view, s["winner"]))

    def player_width(self) -> int:
        return (len(self.leagues) + 1 + len(self.cities) + 1 + len(self.t.admins) + 1 + 2
                + len(self.t.resources) + len(self.t.buildings) + 2 * len(self.figures) + 3)

    def encode_players(self, view: View) -> list[float]:
        out: list[float] = []
        for seat in [view["seat"], *self.others(view["seat"])]:
            p = view["players"][seat]
            out += one_hot(p["league"], [*self.leagues, None])
            out += one_hot(p["city"], [*self.cities, None])
            out += one_hot(p["admin"], [*self.t.admins, None])
            out += [scaled(p["prestige"], self.t.track["max"]),
                    scaled(p["posts"], self.t.start["trade_posts"])]
            out += [scaled(p["resources"][r], self.t.caps["player"]) for r in self.t.resources]
            out += multi_hot(p["buildings"], list(self.t.buildings))
            out += multi_hot(p["figures"], self.figures)
            secret = p.get("secret_figure")
            out += multi_hot([secret] if secret else [], self.figures)
            out += [scaled(p["actions_left"], ACTION_CAP), scaled(p["admin_uses_spent"], ACTION_CAP),
                    flag(seat in view["pending"])]
        return out

    def encode_figures(self, view: View) -> list[float]:
        where: dict[str, tuple[str, bool]] = {}
        for p in view["players"].values():
            for figure, place in p["positions"].items():
                where[figure] = (place, False)
        for figure, place in view.get("enemy", {}).get("positions", {}).items():
            where[figure] = (place, True)
        out: list[float] = []
        for figure in self.figures:
            if figure in where:
                place, enemy = where[figure]
                out += one_hot(place, self.places) + [flag(enemy)]
            else:
                out += [0.0] * (len(self.places) + 1)
        return out

    def league_width(self) -> int:
        return len(self.t.resources) + 2 * len(self.decks) + 4 + len(self.kinds) + len(self.maritime)

    def encode_leagues(self, view: View) -> list[float]:
        out: list[float] = []
        for name in self.league_order(view):
            lg = view["leagues"][name]
            out += [scaled(lg["treasury"][r], self.t.caps["league"]) for r in self.t.resources]
            out += self.pile(lg["reserve"])
            c = lg["counters"]
            out += [scaled(c[k], COUNTER_CAP) for k in ("buildings", "brigands", "empires", "tokens")]
            out += [scaled(c["tokens_by_type"].get(kind, 0), COUNTER_CAP) for kind in self.kinds]
            out += multi_hot(c["maritime_taken"], self.maritime)
        return out

    def pile(self, tokens: list[dict[str, Any]]) -> list[float]:
        """Per deck: how many tokens, and the sum of the powers this seat can see."""
        power = dict.fromkeys(self.decks, 0)
        for token in tokens:
            power[token["deck"]] += token.get("power", 0)
        return (counts([t["deck"] for t in tokens], self.decks, PILE_CAP)
                + [scaled(power[d], PILE_CAP * self.top_power) for d in self.decks])

    def encode_territories(self, view: View) -> list[float]:
        out: list[float] = []
        for name in self.t.territory_order:
            spot = view["territories"][name]
            out += relation_code(self.relation(view, spot["owner"])) + [flag(spot["brigand"])]
        return out

    def encode_integrated(self, view: View) -> list[float]:
        out: list[float] = []
        for city in self.cities:
            held = view["integrated"].get(city)
            if held is None:
                out += [0.0] * (2 + len(self.decks) + 1)
                continue
            token = held["token"]
            out += self.league_code(view, held["league"])
            out += multi_hot([token["deck"]] if token else [], self.decks)
            out += [scaled(token.get("power") if token else 0, self.top_power)]
        return out

    def side_width(self) -> int:
        return (len(self.slots) * (len(self.decks) + 2) + len(self.fronts) * len(self.figures)
                + len(self.fronts) + len(self.decks))

    def encode_battle(self, view: View) -> list[float] | None:
        b = view["battle"]
        if b is None:
            return None
        out = [1.0]
        for key in self.fronts:
            out += self.outcome(view, b["fronts"], key)
        for key in self.columns:
            out += self.outcome(view, b["columns"], key)
        sides = [s for s in self.league_order(view) if s in b["sides"]]
        sides += [s for s in b["sides"] if s not in sides]   # the solo enemy's side
        for side in sides:
            out += self.encode_side(b["sides"][side])
        return out

    def outcome(self, view: View, results: dict[str, str | None], key: str) -> list[float]:
        """Decided for my league, for the other, or drawn; zeros while undecided."""
        if key not in results:
            return [0.0, 0.0, 0.0]
        winner = results[key]
        return self.league_code(view, winner) + [flag(winner is None)]

    def encode_side(self, side: dict[str, Any]) -> list[float]:
        out: list[float] = []
        for slot in self.slots:
            token = side["placed"].get(slot)
            if token is None:
                out += [0.0] * (len(self.decks) + 2)
            else:
                out += [1.0] + one_hot(token["deck"], self.decks)
                out += [scaled(token.get("power", 0), self.top_power)]
        for front in self.fronts:
            figure = side["figures"].get(front)
            out += multi_hot([figure] if figure else [], self.figures)
        out += multi_hot(side["engaged"], self.fronts)
        out += counts([t["deck"] for t in side.get("pool", [])], self.decks, PILE_CAP)
        return out

    def encode_solo(self, view: View) -> list[float] | None:
        solo = view.get("solo")
        if solo is None:
            return None
        status = solo["objectives"] or []
        known = [1.0] * len(status) + [0.0] * (self.objectives - len(status))
        return ([1.0] + multi_hot([solo["augur"]] if solo["augur"] else [], self.augurs)
                + [scaled(solo["augurs_left"], self.solo_turns),
                   scaled(solo["empire_successes"], COUNTER_CAP)]
                + known + [flag(x) for x in status] + [0.0] * (self.objectives - len(status)))

    def encode_enemy(self, view: View) -> list[float] | None:
        enemy = view.get("enemy")
        if enemy is None:
            return None
        out = multi_hot(enemy["cities"], self.cities)
        for slot in self.slots:
            token = enemy["army"].get(slot)
            out += one_hot(token["deck"], self.decks) if token else [0.0] * len(self.decks)
        return out

    # -- actions -------------------------------------------------------------------------------

    def catalogue(self) -> list[str]:
        t = self.t
        resources, buildings, decks = t.resources, list(t.buildings), self.decks
        out = [f"city {c}" for c in self.cities]
        out += [f"league {lg}" for lg in self.leagues]
        out += [f"admin {a}" for a in t.admins]
        out += [f"figure {f}" for f in self.figures]
        out += [f"donate {r} {n}" for r in resources
                for n in range(t.donate["min"], t.donate["max"] + 1)]
        out += [f"build {b}" for b in buildings]
        out += [f"produce {d}" for d in decks] + [f"produce {d} league" for d in decks]
        out += [f"admin token {d}" for d in decks] + [f"admin build {b}" for b in buildings]
        out += ["admin action", "admin prestige", "admin exchange", "admin gain", "pass"]
        out += [f"send {f}" for f in self.figures] + [f"to {p}" for p in self.places]
        out += ["back", "done"]
        out += [f"discount {r}" for r in resources] + [f"extra {r}" for r in resources]
        out += [f"trade {a} {b}" for a in resources for b in resources if a != b]
        out += ["forfeit"] + [f"take {d}" for d in decks] + [f"gain {r}" for r in resources]
        out += [f"lose {r}" for r in resources]
        out += [f"recruit {f}" for f in self.figures] + ["decline"]
        out += ["reroll", "keep", "pay", "lose prestige"]
        out += [f"release {x}" for x in t.territory_order]
        out += [f"place {d} {p}" for d in decks
                for p in sorted({int(x) for x in t.tokens[d]["powers"]})]
        out += ["empty"] + [f"commit {f}" for f in self.figures] + ["engage", "hold"]
        return out


def relation_code(relation: str | None) -> list[float]:
    """One-hot over me / teammate / opponent / enemy, then 'nobody'."""
    return one_hot(relation, [*RELATIONS, None])
