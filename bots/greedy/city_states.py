"""City States judged from one seat's view: cities, income, army strength.

Whoever controls the most cities after the last game turn wins (ties: the
base incomes of those cities, then gold).  The evaluation counts each seat's
cities (a hostile or besieged one may be lost, so it counts for less), and
while turns remain adds what wins cities later: the income of the cities
held, the gold in the treasury, the armies, rowers and ships on the map, the
free leaders and the cards in hand, weighted by the share of the game still
to play.  Each seat's chance is its mean chance against every other seat
from the difference of those strengths.

The active player's free diplomacy roll is counted before his diplomacy
phase, at what it is worth on average (a city on a 6): otherwise a look
that ends the recruit phase reaches the roll and sees a city won one time
in six, a look that recruits does not, and greedy stopped recruiting with
gold to spare.  For the same reason a city chosen to recruit in counts the
army it may still buy there (`values_in`): the look tries only a few of the
eleven choices in it (a unit kind, 1 to 6 baggage, done) and seldom saw the
army.  A fleet counts as a warship only while rowers man it.
"""

from __future__ import annotations

from typing import Any

from agon.referee.engine import State

from .evaluator import Evaluator, shares

CITY_SCALE = 1.5        # a lead of this many cities is a 73% favourite
HOSTILE_DISCOUNT = 0.3  # a hostile city may revolt
BESIEGED_DISCOUNT = 0.2
# what each thing is worth in cities, at the start of the game (scaled by the turns left)
INCOME_WORTH = 0.08
GOLD_WORTH = 0.008
CARD_WORTH = 0.05
UNIT_WORTH = {"armies": 0.15, "rowers": 0.05, "transports": 0.03}
MANNED_FLEET_WORTH = 0.15
UNMANNED_FLEET_WORTH = 0.03     # a hull waiting for rowers
LEADER_WORTH = 0.3
ROLL_WORTH = 1 / 6      # a diplomacy roll takes a neutral city on a 6 (table T5)
RECRUIT_STEP = "recruit_in"   # the step that buys units in one city (its legal list says which)
BEFORE_DIPLOMACY = ("draw", "revenue", "upkeep", "recruit")   # the player-turn's phases
TIEBREAK_INCOME = 0.01  # ties at the end: income, then gold
TIEBREAK_GOLD = 0.0001


class CityStatesEvaluator(Evaluator):
    engine = "city-states"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.free_rolls = int(self.data["diplomacy"]["free_rolls"])
        self.army_cost = int(self.data["units"]["army"]["cost"])

    def values_in(self, world: State, seat: str) -> dict[str, float]:
        """The view does not say whether the city the seat recruits in may still buy an
        army; its own pending choice does."""
        view = world.view(seat)
        if view["step"] == RECRUIT_STEP and view["to_act"] == seat and any(
                "army" in decision.legal for decision in world.pending()):
            view["army_to_recruit"] = seat
        return self.values(view)

    def values(self, view: dict[str, Any]) -> dict[str, float]:
        players = view["players"]
        seats = [seat for seat in self.seats if seat in players] or list(players)
        strength = dict.fromkeys(seats, 0.0)
        income = dict.fromkeys(seats, 0.0)
        for city in view["cities"]:
            owner = city["owner"]
            if owner in strength:
                strength[owner] += 1.0 - HOSTILE_DISCOUNT * city["hostile"] \
                    - BESIEGED_DISCOUNT * city["besieged"]
                income[owner] += city["income"]
        military = dict.fromkeys(seats, 0.0)
        army, rower, transport = (UNIT_WORTH[kind] for kind in ("armies", "rowers", "transports"))
        for stack in view["spaces"]:   # (written out: half of an evaluation's time)
            player = stack["player"]
            if player in military:
                fleets, rowers = stack["fleets"], stack["rowers"]
                manned = min(fleets, rowers)
                military[player] += army * stack["armies"] + rower * rowers \
                    + transport * stack["transports"] + MANNED_FLEET_WORTH * manned \
                    + UNMANNED_FLEET_WORTH * (fleets - manned)
        for leader in view["leaders"]:
            if leader["state"] == "free" and leader["player"] in military:
                military[leader["player"]] += LEADER_WORTH
        if view["phase"] in BEFORE_DIPLOMACY and view["active"] in strength:
            strength[view["active"]] += ROLL_WORTH * self.free_rolls
        later = max(0.0, (view["turns"] - view["turn"]) / max(1, view["turns"]))
        gold = {seat: players[seat]["gold"] for seat in seats}
        if view.get("army_to_recruit") in military:   # as if bought
            military[view["army_to_recruit"]] += UNIT_WORTH["armies"]
            gold[view["army_to_recruit"]] -= self.army_cost
        for seat in seats:
            player = players[seat]
            if player["out"]:
                strength[seat] = -10.0
                continue
            strength[seat] += later * (INCOME_WORTH * income[seat] + GOLD_WORTH * gold[seat]
                                       + CARD_WORTH * player["cards"] + military[seat]) \
                + TIEBREAK_INCOME * income[seat] + TIEBREAK_GOLD * gold[seat]
        return shares(strength, CITY_SCALE)
