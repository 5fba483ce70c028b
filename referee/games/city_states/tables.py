"""Immutable tables built once from a city-states ruleset's `data`.

Everything the engine reads while playing is an int, a list indexed by space
number, or a small object built here, so the hot paths never look a name up in
the ruleset.  Action strings are built here once for the same reason.
"""

from __future__ import annotations

from typing import Any

# Unit kinds that roll dice and count for bonuses, as bits of a mask.
ARMY, ROWERS, FLEET, TRANSPORT = 1, 2, 4, 8
ALL_UNITS = ARMY | ROWERS | FLEET | TRANSPORT
UNIT_BITS = {"army": ARMY, "rowers": ROWERS, "fleet": FLEET, "transport": TRANSPORT}

# The faces of each die a table may use.
FACES = {
    "d6": list(range(1, 7)),
    "d10": list(range(1, 11)),
    "d100": list(range(1, 101)),
    "d66": [10 * a + b for a in range(1, 7) for b in range(1, 7)],
}

# Effect kinds of leader skills and city traits (`Fx`).
TRAIT_EFFECTS = ("roll", "battle_dice", "diplomacy", "income", "upkeep_roll", "navigation_roll",
                 "moves", "casualty", "hand_limit", "recruits", "victory", "gold_once")

# Card effect kinds, grouped by when the card is played (rule 12).
BATTLE_CARDS = ("battle_total", "battle_roll", "casualty")
DIPLOMACY_CARDS = ("diplomacy_roll", "take_neutral", "revolt")
TURN_CARDS = ("starvation", "short_supplies", "attrition", "no_attack", "no_move", "truce",
              "leader_failure", "leader_exile", "leader_election", "leader_kill", "no_income",
              "lose_gold", "gain_gold", "storm", "draw_cards", "spy", "raze_home")
# Own-turn cards also offered beside every other choice of the player's own turn (C-16: gold
# cards at any time in one's turn): in the recruit, diplomacy, move and battle steps too.
ANY_TIME_CARDS = ("gain_gold",)
CARD_EFFECTS = (BATTLE_CARDS + DIPLOMACY_CARDS + TURN_CARDS
                + ("deny_diplomacy", "cancel_revolt", "move_bonus", "capture_gold"))
# Parameters each card kind needs (the checks insist on them).
CARD_NEEDS = {
    "battle_total": ("count", "die"), "battle_roll": ("amount",), "casualty": ("amount",),
    "diplomacy_roll": ("amount",), "deny_diplomacy": ("amount",), "move_bonus": ("amount",),
    "capture_gold": ("count", "die"), "short_supplies": ("count", "die"),
    "attrition": ("modifier", "target"), "leader_exile": ("count", "die"),
    "lose_gold": ("count", "die"), "gain_gold": ("count", "die"),
    "draw_cards": ("count", "die"), "raze_home": ("count", "die"),
}
TRAIT_NEEDS = {
    "roll": ("roll", "amount"), "battle_dice": ("count", "die"), "diplomacy": ("amount",),
    "income": ("amount",), "upkeep_roll": ("amount",), "navigation_roll": ("amount",),
    "moves": ("amount",), "casualty": ("amount",), "hand_limit": ("amount",),
    "recruits": ("amount",), "victory": ("amount",), "gold_once": ("count", "die"),
}


def mask_of(units: list[str] | None) -> int:
    if not units:
        return ALL_UNITS
    mask = 0
    for unit in units:
        mask |= UNIT_BITS[unit]
    return mask


class Fx:
    """The effects of one leader skill or city trait, summed into numbers."""

    __slots__ = ("id", "name", "rolls", "battle_dice", "diplomacy", "income", "upkeep",
                 "navigation", "moves", "casualty_opp", "hand_limit", "recruits", "victory",
                 "gold_once", "combat")

    def __init__(self, key: str, spec: dict[str, Any]) -> None:
        self.id = key
        self.name: str = spec["name"]
        # (roll: battle|attack|defence, amount, unit mask, where: ""|city|home)
        self.rolls: list[tuple[str, int, int, str]] = []
        self.battle_dice: list[tuple[int, int]] = []
        self.diplomacy = self.income = self.upkeep = 0
        self.casualty_opp = self.hand_limit = self.recruits = self.victory = 0
        self.moves: list[tuple[int, int]] = []   # (amount, unit mask)
        self.navigation: list[tuple[int, int]] = []   # (amount, unit mask)
        self.gold_once: tuple[int, int] | None = None
        for e in spec["effects"]:
            kind = e["kind"]
            if kind == "roll":
                self.rolls.append((e["roll"], int(e["amount"]), mask_of(e.get("units")),
                                   e.get("where", "")))
            elif kind == "battle_dice":
                self.battle_dice.append((int(e["count"]), int(e["die"])))
            elif kind == "moves":
                self.moves.append((int(e["amount"]), mask_of(e.get("units"))))
            elif kind == "navigation_roll":
                self.navigation.append((int(e["amount"]), mask_of(e.get("units"))))
            elif kind == "casualty":
                self.casualty_opp += int(e["amount"])
            elif kind == "gold_once":
                self.gold_once = (int(e["count"]), int(e["die"]))
            else:
                attr = {"diplomacy": "diplomacy", "income": "income", "upkeep_roll": "upkeep",
                        "hand_limit": "hand_limit", "recruits": "recruits",
                        "victory": "victory"}[kind]
                setattr(self, attr, getattr(self, attr) + int(e["amount"]))
        # whether the effect acts only on the stack its leader is in (rule 10)
        self.combat = bool(self.rolls or self.battle_dice or self.moves or self.upkeep)


class Card:
    """One card as the engine reads it."""

    __slots__ = ("number", "id", "name", "kind", "count", "die", "amount", "units", "roll",
                 "role", "battle", "at", "whom", "relief", "modifier", "target")

    def __init__(self, spec: dict[str, Any]) -> None:
        e = spec["effect"]
        self.number: int = int(spec["number"])
        self.id: str = spec["id"]
        self.name: str = spec["name"]
        self.kind: str = e["kind"]
        self.count = int(e.get("count", 0))
        self.die = int(e.get("die", 0))
        self.amount = int(e.get("amount", 0))
        self.units = mask_of(e.get("units"))
        self.roll: str = e.get("roll", "battle")
        self.role: str = e.get("role", "")        # "" either side, attack, defence
        self.battle: str = e.get("battle", "")    # "" any, land, sea
        self.at: str = e.get("at", "")            # "" anywhere, city, ships
        self.whom: str = e.get("whom", "self")
        self.relief = bool(e.get("relief", False))
        self.modifier = int(e.get("modifier", 0))
        self.target: str = e.get("target", "")


class DiceTable:
    """A dice table: the result for every face, a modified roll read at the nearest end."""

    __slots__ = ("die", "low", "high", "by_face")

    def __init__(self, spec: dict[str, Any]) -> None:
        self.die: str = spec["die"]
        self.by_face: dict[int, Any] = {}
        for row in spec["rows"]:
            lo, hi = row["roll"]
            for face in FACES[self.die]:
                if lo <= face <= hi:
                    self.by_face[face] = row["result"]
        self.low = min(self.by_face)
        self.high = max(self.by_face)

    def read(self, roll: int) -> Any:
        if roll < self.low:
            roll = self.low
        elif roll > self.high:
            roll = self.high
        return self.by_face[roll]


class Tables:
    """The map and rules numbers of one ruleset with its options applied."""

    def __init__(self, data: dict[str, Any], options: dict[str, Any],
                 rules: list[dict[str, Any]] | None = None) -> None:
        self.options = dict(options)
        self.printed_incomes = options.get("incomes", "rolled") == "printed"
        self.always_ask = options.get("reaction_prompts", "held") == "always"
        self.turns = int(data["turns"])
        hand = data["hand"]
        self.start_cards = int(hand["start"])
        self.draw_cards = int(hand["draw"])
        self.hand_limit = int(hand["limit"])
        self._build_map(data["map"]["spaces"], data["terrain"])
        self._build_rules(data)
        self._build_units(data["units"])
        self.tables = {key: DiceTable(spec) for key, spec in data["tables"].items()}
        # everything the trait and skill tables can give: once a home city (or a new leader)
        # holds all of it, rerolling for one more would never end
        self.trait_pool = frozenset(self.tables["city_traits"].by_face.values()) - {"reroll"}
        self.skill_pool = frozenset(self.tables["leader_skills"].by_face.values())
        self.skills = {key: Fx(key, spec) for key, spec in data["skills"].items()}
        self.traits = {key: Fx(key, spec) for key, spec in data["traits"].items()}
        # the traits that add move points (few: a group's moves look only for these)
        self.move_traits: list[str] = [key for key, fx in self.traits.items() if fx.moves]
        self.cards = {int(c["number"]): Card(c) for c in data["cards"]}
        self.card_numbers = sorted(self.cards)
        self.card_by_id = {c.id: n for n, c in self.cards.items()}
        self.leader_names: list[str] = list(data["leader_names"])
        # each card's rule text, for the terminal board
        self.card_text: dict[int, str] = {int(r["number"]): r["text"] for r in rules or []
                                          if r.get("kind") == "card" and "number" in r}
        self._build_strings()

    def _build_map(self, spaces: list[dict[str, Any]], terrain: dict[str, Any]) -> None:
        self.n = n = len(spaces)
        self.ids: list[str] = [s["id"] for s in spaces]
        self.names: list[str] = [s["name"] for s in spaces]
        self.index: dict[str, int] = {key: i for i, key in enumerate(self.ids)}
        self.xy: list[tuple[float, float]] = [(s["x"], s["y"]) for s in spaces]
        self.terrain: list[str] = [s["terrain"] for s in spaces]
        kinds = [terrain[s["terrain"]] for s in spaces]
        self.terrain_name: list[str] = [k["name"] for k in kinds]
        self.sea: list[bool] = [bool(k.get("sea")) for k in kinds]
        self.impassable: list[bool] = [bool(k.get("impassable")) for k in kinds]
        self.ships_enter: list[bool] = [self.sea[i] or "ships" in kinds[i] for i in range(n)]
        self.dock: list[bool] = [not self.sea[i] and self.ships_enter[i] for i in range(n)]
        self.move_cost: list[int] = [int(k["move"]) for k in kinds]
        self.stack: list[int] = [int(k["stack"]) for k in kinds]
        self.defence: list[int] = [int(k["defence"]) for k in kinds]
        self.forage: list[int] = [int(k.get("upkeep", 0)) for k in kinds]
        index = self.index
        self.land_adj: list[list[int]] = [[index[x] for x in s["land"]] for s in spaces]
        self.sea_adj: list[list[int]] = [[index[x] for x in s["sea"]] for s in spaces]
        self.adj: list[list[int]] = [self.land_adj[i] + self.sea_adj[i] for i in range(n)]
        self.coastal: list[bool] = [bool(self.sea_adj[i]) and not self.sea[i] for i in range(n)]
        # where a land group may step next, and where ships may sail next
        self.walk_adj: list[list[int]] = [
            [y for y in self.land_adj[i] if not self.impassable[y] and not self.sea[y]]
            for i in range(n)]
        self.ship_adj: list[list[int]] = [
            list(self.sea_adj[i]) if not self.sea[i] else
            [y for y in self.adj[i] if self.sea[y] or self.ships_enter[y]] for i in range(n)]
        # by land, with the move points each step costs: (space, cost)
        self.walk_steps: list[list[tuple[int, int]]] = [
            [(y, self.move_cost[y]) for y in self.walk_adj[i]] for i in range(n)]
        self.ship_next: list[frozenset[int]] = [frozenset(a) for a in self.ship_adj]
        # whom a land attack reaches: from land the next land spaces, from a sea zone (the
        # armies aboard, decision D19) the landing places on its coasts
        self.assault_adj: list[list[int]] = [
            [y for y in self.land_adj[i] if self.ships_enter[y]] if self.sea[i]
            else self.land_adj[i] for i in range(n)]
        self.city: list[bool] = ["city" in s for s in spaces]
        self.named: list[bool] = [s.get("city") == "named" for s in spaces]
        self.cities: list[int] = [i for i in range(n) if self.city[i]]
        self.named_cities: list[int] = [i for i in range(n) if self.named[i]]
        self.printed: list[int] = [int(s.get("income", 0)) for s in spaces]
        self.land_spaces: list[int] = [i for i in range(n) if not self.sea[i]]

    def _build_rules(self, data: dict[str, Any]) -> None:
        home = data["home"]
        self.home_income = int(home["income"])
        self.home_defence = int(home["defence"])
        self.home_gold = int(home["gold"])
        self.home_leaders = int(home["leaders"])
        self.home_traits = int(home["traits"])
        self.coastal_units: dict[str, int] = dict(home["coastal"])
        self.landlocked_units: dict[str, int] = dict(home["landlocked"])
        minor = data["minor"]
        self.minor_income = (int(minor["income"]["count"]), int(minor["income"]["die"]))
        self.minor_traits = int(minor["traits"])
        self.neutral_armies = int(minor["neutral_armies"])
        self.unchosen_income = int(minor["unchosen_named_income"])
        self.garrison = (int(data["garrison"]["count"]), int(data["garrison"]["die"]))
        self.order_die = int(data["turn_order"]["die"])
        self.free_rolls = int(data["diplomacy"]["free_rolls"])
        hostile = data["hostile"]
        self.hostile_divisor = int(hostile["income_divisor"])
        self.hostile_attack = int(hostile["attack_bonus"])
        self.hostile_diplomacy = int(hostile["diplomacy_bonus"])
        self.razed_per_turn = int(data["razed"]["removed_per_turn"])
        plunder = data["plunder"]
        self.plunder_gold = (int(plunder["gold"]["count"]), int(plunder["gold"]["die"]))
        self.plunder_razed = int(plunder["razed"])
        self.destroy_razed = int(plunder["destroyed_razed"])
        self.ransom = (int(data["ransom"]["count"]), int(data["ransom"]["die"]))
        self.units_per_city = int(data["recruit"]["units_per_city"])
        self.baggage_per_city = int(data["recruit"]["baggage_per_city"])

    def _build_units(self, units: dict[str, Any]) -> None:
        self.unit_cost = {k: int(u["cost"]) for k, u in units.items()}
        self.upkeep_cost = {k: int(u["upkeep"]) for k, u in units.items()}
        self.moves = {k: int(u["moves"]) for k, u in units.items()}
        self.die = {k: int(u.get("die", 0)) for k, u in units.items()}
        carries = {k: u.get("carries", {}) for k, u in units.items()}
        self.army_baggage = int(carries["army"].get("baggage", 0))
        self.fleet_rowers = int(carries["fleet"].get("rowers", 0))
        self.fleet_baggage = int(carries["fleet"].get("baggage", 0))
        self.transport_army = int(carries["transport"].get("army", 0))
        self.transport_baggage = int(carries["transport"].get("baggage", 0))

    def _build_strings(self) -> None:
        ids = self.ids
        for verb in ("home", "move", "sail", "to", "attack", "hold", "roll", "retreat",
                     "target", "recruit"):
            setattr(self, "s_" + verb, [f"{verb} {x}" for x in ids])
        self.s_baggage = [f"baggage {k}" for k in range(1, self.baggage_per_city + 1)]
        self.s_play = {n: f"play {c.id}" for n, c in self.cards.items()}
        self.s_discard = {n: f"discard {c.id}" for n, c in self.cards.items()}
