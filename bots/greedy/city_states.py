"""City States judged from one seat's view: cities, income, army strength.

Whoever controls the most cities after the last game turn wins (ties: the
base incomes of those cities, then gold).  The evaluation counts each seat's
cities (a hostile or besieged one may be lost, so it counts for less), and
while turns remain adds what wins cities later: the income of the cities
held, the gold in the treasury, the armies, rowers and ships on the map, the
free leaders and the cards in hand, weighted by the share of the game still
to play.  Each seat's chance is its mean chance against every other seat
from the difference of those strengths.
"""

from __future__ import annotations

from typing import Any

from .evaluator import Evaluator, shares

CITY_SCALE = 1.5        # a lead of this many cities is a 73% favourite
HOSTILE_DISCOUNT = 0.3  # a hostile city may revolt
BESIEGED_DISCOUNT = 0.2
# what each thing is worth in cities, at the start of the game (scaled by the turns left)
INCOME_WORTH = 0.08
GOLD_WORTH = 0.008
CARD_WORTH = 0.05
UNIT_WORTH = {"armies": 0.15, "rowers": 0.05, "fleets": 0.15, "transports": 0.03}
LEADER_WORTH = 0.3
TIEBREAK_INCOME = 0.01  # ties at the end: income, then gold
TIEBREAK_GOLD = 0.0001


class CityStatesEvaluator(Evaluator):
    engine = "city-states"

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
        for stack in view["spaces"]:
            if stack["player"] in military:
                military[stack["player"]] += sum(worth * stack[kind]
                                                 for kind, worth in UNIT_WORTH.items())
        for leader in view["leaders"]:
            if leader["state"] == "free" and leader["player"] in military:
                military[leader["player"]] += LEADER_WORTH
        later = max(0.0, (view["turns"] - view["turn"]) / max(1, view["turns"]))
        for seat in seats:
            player = players[seat]
            if player["out"]:
                strength[seat] = -10.0
                continue
            strength[seat] += later * (INCOME_WORTH * income[seat] + GOLD_WORTH * player["gold"]
                                       + CARD_WORTH * player["cards"] + military[seat]) \
                + TIEBREAK_INCOME * income[seat] + TIEBREAK_GOLD * player["gold"]
        return shares(strength, CITY_SCALE)
