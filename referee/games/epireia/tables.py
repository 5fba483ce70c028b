"""Immutable lookup tables built once from a ruleset's `data`."""

from __future__ import annotations

from typing import Any


def by_id(items: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {item["id"]: item for item in items}


class Tables:
    """Everything the engine reads from the ruleset, indexed for quick lookup."""

    def __init__(self, data: dict[str, Any], rules: list[dict[str, Any]] | None = None) -> None:
        self.data = data
        self.rule_text: dict[str, str] = {r["id"]: r["text"] for r in rules or []}
        self.resources: list[str] = list(data["resources"])
        self.start: dict[str, Any] = data["start"]
        self.caps: dict[str, int] = data["caps"]
        self.actions_per_turn: int = data["actions_per_turn"]
        self.donate: dict[str, int] = data["donate"]
        self.income: dict[str, int] = data["income"]
        self.leagues: list[str] = list(data["leagues"])
        self.seating: dict[str, list[str]] = data["seating"]
        self.die: int = data["die"]
        self.cities = by_id(data["cities"])
        self.city_order: list[str] = list(data["city_order"])
        self.admins = by_id(data["administrators"])
        self.buildings = by_id(data["buildings"])
        # (building, cost, cost as (resource, amount) pairs) in the table's order, for
        # listing what is affordable
        self.building_costs = [(b, spec["cost"], tuple(spec["cost"].items()))
                               for b, spec in self.buildings.items()]
        # the buildings that give the administrator uses, and how many
        self.admin_uses = {b: spec["effect"]["admin_uses"] for b, spec in self.buildings.items()
                           if spec.get("effect", {}).get("admin_uses")}
        # what each building and figure adds at collection (only those that add something)
        self.building_income = {b: spec["effect"]["income"] for b, spec in self.buildings.items()
                                if spec["effect"].get("income")}
        self.collection_prestige = {b: spec["effect"]["prestige_per_collection"]
                                    for b, spec in self.buildings.items()
                                    if spec["effect"].get("prestige_per_collection")}
        self.figures = by_id(data["figures"])
        self.rerollers = frozenset(f for f, spec in self.figures.items()
                                   if spec.get("ability", {}).get("reroll"))
        self.figure_collection = {f: spec["ability"]["collection"]
                                  for f, spec in self.figures.items()
                                  if spec.get("ability", {}).get("collection")}
        # the figures that make tokens cheaper, and how
        self.token_discounts = {f: spec["ability"]["token_discount"]
                                for f, spec in self.figures.items()
                                if spec.get("ability", {}).get("token_discount")}
        self.track: dict[str, Any] = data["prestige_track"]
        self.bonuses = {b["level"]: b for b in self.track["bonuses"]}
        self.tokens = by_id(data["tokens"])
        self.token_needs = {d: spec.get("needs") for d, spec in self.tokens.items()}
        self._deck_contents = {d: tuple(int(p) for p, n in sorted(spec["powers"].items())
                                        for _ in range(n)) for d, spec in self.tokens.items()}
        self.decks_by_type: dict[str, list[str]] = {}
        for d, spec in self.tokens.items():
            self.decks_by_type.setdefault(spec["type"], []).append(d)
        self.battlefield: dict[str, Any] = data["battlefield"]
        self.fronts: list[dict[str, Any]] = list(self.battlefield["fronts"])
        self.empires = by_id(data["empires"])
        self.empire_order = [e["id"] for e in data["empires"]]
        self.territories = by_id(data["territories"])
        self.territory_order = [t["id"] for t in data["territories"]]
        # (place, whether only a figure that sails may go there), in order: diplomacy's moves
        self.empires_by_sea = [(e, spec["sea"]) for e, spec in self.empires.items()]
        self.territories_by_sea = [(x, spec["maritime"]) for x, spec in self.territories.items()]
        self.brigands = sorted(data["brigands"], key=lambda b: -b["attack"])
        self.scenarios = by_id(data["scenarios"])
        # the scenario cards of each act, sorted (the deck an act's card is drawn from)
        self.act_cards = {act: sorted(s for s, spec in self.scenarios.items() if spec["act"] == act)
                          for act in (1, 2, 3)}
        # each scenario's objective as (kind, target): the schema allows exactly one kind
        self.objectives: dict[str, tuple[str, Any]] = {
            s: next(iter(spec["objective"].items())) for s, spec in self.scenarios.items()}
        self.solo: dict[str, Any] = data.get("solo", {})
        self.solo_scenarios = by_id(self.solo.get("scenarios", []))
        self.augurs = {a["number"]: a for a in self.solo.get("augurs", [])}
        cols = self.battlefield["columns"]
        self._slots = [(f["id"], c, r) for f in self.fronts for c in range(cols)
                       for r in range(len(f["rows"]))]
        # the token types each slot takes, in placing order
        self.slot_kinds = [frozenset(self.slot_types(f, r)) for f, _, r in self._slots]
        self.deck_type = {d: spec["type"] for d, spec in self.tokens.items()}
        # action strings of the development phase, built once; donations by resource, then
        # by the amount a player holds (up to the cap)
        low, high = self.donate["min"], self.donate["max"]
        self.donations_up_to = {r: [[f"donate {r} {n}" for n in range(low, min(held, high) + 1)]
                                    for held in range(max(high, self.caps["player"]) + 1)]
                                for r in self.resources}
        self.build_actions = {b: f"build {b}" for b in self.buildings}
        # (deck, building it needs or None, action paid from one's own stock, from the
        # league treasury)
        self.produce_rows = [(d, spec.get("needs"), f"produce {d}", f"produce {d} league")
                             for d, spec in self.tokens.items()]
        # `produce_rows` priced, by price terms (development.token_prices)
        self.token_prices: dict[tuple, list[tuple]] = {}
        # the buildings affordable, by the amounts held in resource order, discount and
        # surcharge (payment.affordable_buildings)
        self.affordable_buildings: dict[tuple[int, ...], list[str]] = {}
        self._members: dict[tuple[str, ...], list[tuple[str, list[str]]]] = {}

    def members_by_league(self, seats: list[str]) -> list[tuple[str, list[str]]]:
        """Each league with its seats (in seat order) in a game of several players, the
        Peloponnesian first (it wins a tie for an objective): from the seating table, which
        gave every seat its league for the whole game (`start.initial`)."""
        key = tuple(seats)
        found = self._members.get(key)
        if found is None:
            leagues = self.seating[str(len(seats))]
            found = self._members[key] = [
                (league, [s for s, lg in zip(seats, leagues, strict=True) if lg == league])
                for league in reversed(self.leagues) if league in leagues]
        return found

    def city_figures(self, city: str) -> list[str]:
        return [f for f, fig in self.figures.items() if fig["city"] == city]

    def ability(self, figure: str) -> dict[str, Any]:
        return self.figures[figure].get("ability", {})

    def brigand_target(self, attack: int) -> int | None:
        """The roll needed against brigands with this combined attack (None: cannot win)."""
        for row in self.brigands:
            if attack >= row["attack"]:
                return row["target"]
        return None

    def deck_contents(self, deck: str) -> list[int]:
        """A new list of the deck's token powers, unshuffled."""
        return list(self._deck_contents[deck])

    def slot_types(self, front: str, row: int) -> list[str]:
        for f in self.fronts:
            if f["id"] == front:
                return list(f["rows"][row])
        raise KeyError(front)

    def slots(self) -> list[tuple[str, int, int]]:
        """Every battlefield slot as (front, column, row), in placing order (do not change it)."""
        return self._slots
