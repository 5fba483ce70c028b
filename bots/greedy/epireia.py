"""Epireia judged from one seat's view: expected front power, prestige, the objectives.

The game is decided by the great battle: three fronts, each won by the side
that wins more of its three columns.  So the evaluation lays each league's
military tokens out on the battlefield (each slot takes the strongest token
that fits it; a token of the other league whose power is hidden counts at its
deck's mean) and adds a figure's attack to each front.  Resources still to be
spent, while turns remain, count as tokens to come; Prestige and copper break
ties.  Each front's margin gives a chance of winning it, and the chance of the
battle is that of winning two fronts of three.

Once the great battle has begun the position is read column by column: a
league's own tokens where it placed them (the slots still to fill taking the
best of its pool, at a discount: they are not placed yet), the other
league's where they are revealed, else its army laid out as above and spread
over the front; each undecided column is a chance, a figure still to engage
adds its attack where it helps most, and decided columns and fronts count as
won or lost.  So a token placed, a slot left empty and a figure engaged are
each judged by what they do to the battle.

Solo, the enemy army is fixed (decks shown, powers at their means) and a game
is won only if every objective of the scenario card is met as well: each
objective's chance comes from what is still missing and the turns left.  The
tokens still to come are counted one by one: each needs one of the two
actions of a turn, its price and a token left in a deck the player may draw
from, so actions spent elsewhere, and a military building that opens level
II, show in the army the evaluation lays out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from agon.referee.engine import State
from agon.referee.ruleset_model import Ruleset

from .evaluator import Evaluator, logistic

FRONT_SCALE = 3.0          # a front margin of this much power is a 73% favourite
FIGURE_SHARE = 0.6         # a figure adds its attack to one column of its front
POWER_PER_RESOURCE = 0.45  # tokens still to be bought: power per resource held
TURNS_TO_SPEND = 3         # turns needed to turn resources into tokens
PRESTIGE_POWER = 0.08      # Prestige breaks ties and brings bonuses
# Solo objectives: what one turn typically gains, and how sure the estimate is
PER_TURN = {"prestige": 1.0, "territories_held": 0.4, "buildings": 0.5, "empire_successes": 0.3}
OBJECTIVE_SCALE = 1.0
INCOME_PER_TURN = 1        # of each resource, a turn to come (solo: collection, territories)
COLUMN_SCALE = 1.5         # a column margin of this much power is a 73% favourite
UNPLACED_SHARE = 0.9       # a token still in the pool counts so much of its power
NEXT_SLOT = re.compile(r"token face down for (\w+) column (\d+) row (\d+)")


class EpireiaEvaluator(Evaluator):
    engine = "epireia"

    def __init__(self, ruleset: Ruleset, seats: Sequence[str],
                 teams: dict[str, list[str]] | None = None) -> None:
        super().__init__(ruleset, seats, teams)
        data = self.data
        self.deck_type = {t["id"]: t["type"] for t in data["tokens"]}
        self.deck_mean = {t["id"]: sum(int(p) * n for p, n in t["powers"].items())
                          / sum(t["powers"].values()) for t in data["tokens"]}
        self.attack = {f["id"]: f["attack"] for f in data["figures"]}
        self.fronts = [(front["id"], front["rows"]) for front in data["battlefield"]["fronts"]]
        self.columns = data["battlefield"]["columns"]
        self.maritime = {t["id"] for t in data["territories"] if t.get("maritime")}
        self.building_category = {b["id"]: b["category"] for b in data["buildings"]}
        solo = data.get("solo") or {}
        self.scenarios = {s["id"]: s for s in solo.get("scenarios", [])}
        self.max_turns = int(ruleset.options.get("max_turns", {}).get("default", 20))
        self.decks = [t for t in data["tokens"] if len(t.get("cost", {})) == 1]
        self.actions_per_turn = int(data.get("actions_per_turn", 2))
        # battlefield slots as (front, column, row, key, types), in the engine's placing order
        self.slots = [(front, column, row, f"{front}-{column + 1}-{row + 1}", tuple(types))
                      for front, rows in self.fronts for column in range(self.columns)
                      for row, types in enumerate(rows)]

    def values_in(self, world: State, seat: str) -> dict[str, float]:
        """The view leaves out which battlefield slot the seat's league fills next (its slots
        left empty do not show); its own pending placement says."""
        view = world.view(seat)
        if view.get("battle") and view["battle"]["step"] == "battle-tokens":
            league = next((name for name, league in view["leagues"].items()
                           if seat in league["seats"]), None)
            ours = set(view["leagues"][league]["seats"]) if league else {seat}
            for decision in world.pending():
                slot = NEXT_SLOT.search(decision.prompt) if decision.seat in ours else None
                if slot:
                    view["battle"]["next_slot"] = "{}-{}-{}".format(*slot.groups())
        return self.values(view)

    def values(self, view: dict[str, Any]) -> dict[str, float]:
        if view.get("solo"):
            return {seat: self.solo_chance(view) for seat in self.seats}
        leagues = [league for league in view["leagues"] if view["leagues"][league]["seats"]]
        if len(leagues) != 2:
            return {seat: 0.5 for seat in self.seats}
        first, second = leagues
        if view.get("battle"):
            chance = self.battle_in_progress(view, first, second)
        else:
            chance = self.battle_to_come(view, first, second)
        league_of = {seat: league for league in leagues
                     for seat in view["leagues"][league]["seats"]}
        return {seat: chance if league_of.get(seat) == first else 1.0 - chance
                for seat in self.seats}

    def battle_to_come(self, view: dict[str, Any], first: str, second: str) -> float:
        mine, theirs = self.league_fronts(view, first), self.league_fronts(view, second)
        return battle_chance([logistic((a - b) / FRONT_SCALE)
                              for a, b in zip(mine, theirs, strict=True)])

    # -- the great battle under way ------------------------------------------------

    def battle_in_progress(self, view: dict[str, Any], first: str, second: str) -> float:
        """`first`'s chance of winning the battle that has begun, from what is placed,
        revealed and decided."""
        battle = view["battle"]
        power = {first: self.column_powers(view, first), second: self.column_powers(view, second)}
        current = next(((front, column) for front, column in power[first]
                        if f"{front}-{column + 1}" not in battle["columns"]), None)
        for side in (first, second):
            for front, attack in self.figures_to_engage(view, side).items():
                self.engage_where_best(power, side, front, attack, battle)
            info = battle["sides"].get(side, {})
            # a figure engaged on the front of the open column fights there if that is the
            # front's first column (later, the view cannot tell it from an earlier one)
            if current and current[1] == 0 and current[0] in info.get("engaged", ()) and \
                    current[0] in info.get("figures", {}):
                power[side][current] += self.attack.get(info["figures"][current[0]], 0)
        fronts = []
        for front, _ in self.fronts:
            if front in battle["fronts"]:
                fronts.append(outcome(battle["fronts"][front], first))
                continue
            columns = []
            for column in range(self.columns):
                won = battle["columns"].get(f"{front}-{column + 1}", "open")
                columns.append(outcome(won, first) if won != "open" else logistic(
                    (power[first][front, column] - power[second][front, column]) / COLUMN_SCALE))
            fronts.append(battle_chance(columns))
        return battle_chance(fronts)

    def column_powers(self, view: dict[str, Any], side: str) -> dict[tuple[str, int], float]:
        """Each column's token power for `side`: placed and seen, the slots still to fill
        from its pool, or (hidden) its army laid out and spread over each front; the solo
        enemy's slot by slot."""
        info = view["battle"]["sides"].get(side, {})
        placed = info.get("placed", {})
        power = {(front, column): 0.0 for front, column, _, _, _ in self.slots}
        for front, column, _, key, _ in self.slots:
            if key in placed:
                power[front, column] += self.token(placed[key])[1]
        if "pool" in info:   # our own side: every placed token is known
            open_slots = self.slots_to_fill(view["battle"], placed)
            left = sorted((self.token(t) for t in info["pool"]), key=lambda t: -t[1])
            for front, column, _, _, types in sorted(open_slots, key=lambda slot: len(slot[4])):
                for number, (kind, value) in enumerate(left):
                    if kind in types:
                        power[front, column] += UNPLACED_SHARE * value
                        del left[number]
                        break
            return power
        if side not in view["leagues"]:   # the solo enemy: slots shown, powers at the mean
            army = (view.get("enemy") or {}).get("army", {})
            for front, column, _, key, _ in self.slots:
                if key in army and key not in placed:
                    power[front, column] += self.deck_mean[army[key]["deck"]]
            return power
        hidden = self.lay_out(self.tokens_of(view, side))
        seen = {key.rsplit("-", 1)[0] for key in placed}
        for index, (front, _) in enumerate(self.fronts):
            for column in range(self.columns):
                if f"{front}-{column + 1}" not in seen:
                    power[front, column] = hidden[index] / self.columns
        return power

    def slots_to_fill(self, battle: dict[str, Any], placed: dict[str, Any]) -> list[tuple]:
        """Our league's slots still to fill: from the one it is asked about (else after the
        last it placed) to the end."""
        if battle["step"] != "battle-tokens":
            return []
        keys = [slot[3] for slot in self.slots]
        if battle.get("next_slot") in keys:
            return self.slots[keys.index(battle["next_slot"]):]
        last = max((i for i, key in enumerate(keys) if key in placed), default=-1)
        return self.slots[last + 1:]

    def figures_to_engage(self, view: dict[str, Any], side: str) -> dict[str, int]:
        """Attack of the figure each front may still engage: those committed and not yet
        engaged, or before commitment the side's strongest figures front by front."""
        info = view["battle"]["sides"].get(side, {})
        committed = info.get("figures", {})
        if committed:
            return {front: self.attack.get(figure, 0) for front, figure in committed.items()
                    if front not in info.get("engaged", ())}
        if view["battle"]["step"] != "battle-tokens" or side not in view["leagues"]:
            return {}
        attacks = sorted((self.attack.get(f, 0) for seat in view["leagues"][side]["seats"]
                          for f in view["players"][seat]["figures"]), reverse=True)
        return {front: attack for (front, _), attack in zip(self.fronts, attacks, strict=False)}

    def engage_where_best(self, power: dict[str, dict[tuple[str, int], float]], side: str,
                          front: str, attack: int, battle: dict[str, Any]) -> None:
        """Add `attack` to `side`'s undecided column of `front` where it sways most."""
        other = next(s for s in power if s != side)
        best, gain = None, -1.0
        for column in range(self.columns):
            if f"{front}-{column + 1}" in battle["columns"]:
                continue
            margin = power[side][front, column] - power[other][front, column]
            swing = logistic((margin + attack) / COLUMN_SCALE) - logistic(margin / COLUMN_SCALE)
            if swing > gain:
                best, gain = column, swing
        if best is not None:
            power[side][front, best] += attack

    # -- the battlefield --------------------------------------------------------

    def tokens_of(self, view: dict[str, Any], league: str) -> list[tuple[str, float]]:
        """(type, power) of every token the league will field, hidden powers at the mean."""
        tokens = [self.token(t) for t in view["leagues"][league]["reserve"]]
        for city in view.get("integrated", {}).values():
            if city["league"] == league and city.get("token"):
                tokens.append(self.token(city["token"]))
        return tokens

    def token(self, token: dict[str, Any]) -> tuple[str, float]:
        deck = token["deck"]
        power = token.get("power")
        return self.deck_type[deck], float(power if power is not None else self.deck_mean[deck])

    def lay_out(self, tokens: list[tuple[str, float]]) -> list[float]:
        """Each front's power with the strongest token that fits each slot.

        Slots that take a single type are filled first (a cavalry front row
        needs cavalry), so a token that fits several places is kept for them.
        """
        slots = []   # (front index, types allowed)
        for index, (_, rows) in enumerate(self.fronts):
            for types in rows:
                slots += [(index, tuple(types))] * self.columns
        slots.sort(key=lambda slot: len(slot[1]))
        left = sorted(tokens, key=lambda t: -t[1])
        power = [0.0] * len(self.fronts)
        for front, types in slots:
            for number, (kind, value) in enumerate(left):
                if kind in types:
                    power[front] += value
                    del left[number]
                    break
        return power

    def league_fronts(self, view: dict[str, Any], league: str) -> list[float]:
        seats = view["leagues"][league]["seats"]
        fronts = self.lay_out(self.tokens_of(view, league))
        attacks = sorted((self.attack.get(f, 0) for seat in seats
                          for f in view["players"][seat]["figures"]), reverse=True)
        turns_left = max(0, self.max_turns - view["turn"])
        spendable = sum(sum(view["players"][seat]["resources"].values()) for seat in seats) \
            + sum(view["leagues"][league]["treasury"].values())
        to_come = POWER_PER_RESOURCE * spendable * min(1.0, turns_left / TURNS_TO_SPEND)
        prestige = sum(view["players"][seat]["prestige"] for seat in seats)
        bonus = to_come / len(fronts) + PRESTIGE_POWER * prestige
        return [power + FIGURE_SHARE * (attacks[i] if i < len(attacks) else 0) + bonus
                for i, power in enumerate(fronts)]

    # -- solo ---------------------------------------------------------------------

    def solo_chance(self, view: dict[str, Any]) -> float:
        solo = view["solo"]
        if solo.get("objectives") is not None and not all(solo["objectives"]):
            return 0.0
        scenario = self.scenarios.get(solo["scenario"], {})
        seat = self.seats[0]
        player = view["players"][seat]
        turns_left = solo["augurs_left"] + (1 if view["step"] in ("develop", "diplomacy") else 0)
        chance = 1.0
        for objective in scenario.get("objectives", []):
            chance *= self.objective_chance(view, seat, objective, turns_left)
        league = player["league"] or ""
        if view.get("battle") and league in view["battle"]["sides"]:
            return chance * self.battle_in_progress(view, league, "enemy")
        tokens = self.tokens_of(view, league) if league in view["leagues"] else []
        mine = self.lay_out(tokens + self.tokens_to_come(view, seat, league))
        attacks = sorted((self.attack.get(f, 0) for f in player["figures"]), reverse=True)
        enemy = [0.0] * len(self.fronts)
        front_index = {front: i for i, (front, _) in enumerate(self.fronts)}
        for slot, token in (view.get("enemy") or {}).get("army", {}).items():
            enemy[front_index[slot.split("-")[0]]] += self.deck_mean[token["deck"]]
        fronts = [logistic((mine[i] + FIGURE_SHARE * (attacks[i] if i < len(attacks) else 0)
                            - enemy[i]) / FRONT_SCALE)
                  for i in range(len(mine))]
        return chance * battle_chance(fronts)

    def tokens_to_come(self, view: dict[str, Any], seat: str,
                       league: str) -> list[tuple[str, float]]:
        """The tokens the seat can still produce (type, mean power), the best first.

        Each takes an action (two a turn), its price in one resource (own stock
        or the league's treasury) and a token left in a deck it may draw from:
        level II only with the matching military building, so building one
        counts by the tokens it opens.
        """
        if view.get("battle"):
            return []
        player = view["players"][seat]
        actions = self.actions_per_turn * view["solo"]["augurs_left"]
        if view["step"] == "develop":
            actions += player.get("actions_left", 0)
        treasury = view["leagues"][league]["treasury"] if league in view["leagues"] else {}
        stock = {r: n + treasury.get(r, 0) + INCOME_PER_TURN * view["solo"]["augurs_left"]
                 for r, n in player["resources"].items()}
        left = view.get("decks", {})
        owned = set(player["buildings"])
        offers = sorted((deck for deck in self.decks if left.get(deck["id"], 0) > 0
                         and deck.get("needs") in (None, *owned)),
                        key=lambda deck: -self.deck_mean[deck["id"]])
        out: list[tuple[str, float]] = []
        for deck in offers:
            (resource, price), = deck["cost"].items()
            count = min(left[deck["id"]], stock.get(resource, 0) // price, actions - len(out))
            stock[resource] = stock.get(resource, 0) - count * price
            out += [(deck["type"], self.deck_mean[deck["id"]])] * max(0, count)
        return out

    def objective_chance(self, view: dict[str, Any], seat: str, objective: dict[str, Any],
                         turns_left: int) -> float:
        player = view["players"][seat]
        if "prestige" in objective:
            kind, need, have = "prestige", objective["prestige"], player["prestige"]
        elif "territories_held" in objective:
            kind, need = "territories_held", objective["territories_held"]
            have = sum(1 for name, t in view["territories"].items() if t["owner"] == seat
                       and (not objective.get("maritime") or name in self.maritime))
        elif "buildings" in objective:
            kind, need = "buildings", objective["buildings"]["count"]
            category = objective["buildings"].get("category")
            have = sum(1 for b in player["buildings"]
                       if category is None or self.building_category.get(b) == category)
        elif "empire_successes" in objective:
            kind, need = "empire_successes", objective["empire_successes"]
            have = view["solo"]["empire_successes"]
        else:
            return 1.0
        missing = need - have
        if missing <= 0:
            return 0.95 if turns_left > 0 and kind == "territories_held" else 1.0
        return logistic((PER_TURN[kind] * turns_left - missing) / OBJECTIVE_SCALE)


def outcome(winner: str | None, side: str) -> float:
    """A decided column or front, for `side`: won 1, lost 0, drawn a half."""
    return 0.5 if winner is None else float(winner == side)


def battle_chance(fronts: list[float]) -> float:
    """The chance of winning at least two of three fronts won independently."""
    if len(fronts) != 3:
        return sum(fronts) / max(1, len(fronts))
    a, b, c = fronts
    return a * b + a * c + b * c - 2 * a * b * c
